//===- CompileCache.cpp - the on-disk, content-addressed cache ------------===//
#include "tpx/Compiler/CompileCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace tpx;

CompileCache::CompileCache(std::string dir)
    : directory(dir.empty() ? getDefaultDirectory() : std::move(dir)) {}

std::string CompileCache::getDefaultDirectory() {
  if (auto env = llvm::sys::Process::GetEnv("TPX_CACHE_DIR"))
    if (!env->empty())
      return *env;
  llvm::SmallString<256> path;
  if (auto home = llvm::sys::Process::GetEnv("HOME"))
    path = *home;
  else
    path = "/tmp";
  llvm::sys::path::append(path, ".cache", "tpx");
  return std::string(path);
}

static std::string entryPath(llvm::StringRef dir, llvm::StringRef key,
                             llvm::StringRef file) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key, file);
  return std::string(path);
}

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static std::string getStageFileName(size_t index) {
  return "stage" + std::to_string(index);
}

/// The check value of a stage text: xxh3, not SHA-256 like the binary,
/// because the texts are ten times the binary's size and are read on every
/// cache hit (it detects damage, not tampering).
static std::string getStageHash(llvm::StringRef text) {
  return llvm::utohexstr(llvm::xxh3_64bits(text), /*LowerCase=*/true,
                         /*Width=*/16);
}

/// Reads the stage texts that `metadata` lists (cache_format and
/// stage_files) into `artifact`; an error for another format or a stage
/// file that is missing or does not match its recorded xxh3.
static llvm::Error readStages(llvm::StringRef dir, llvm::StringRef key,
                              llvm::StringRef metadata, Artifact &artifact) {
  auto parsed = llvm::json::parse(metadata);
  if (!parsed)
    return parsed.takeError();
  const llvm::json::Object *object = parsed->getAsObject();
  if (!object)
    return makeError("artifact metadata is not a JSON object");
  std::optional<int64_t> format = object->getInteger("cache_format");
  if (format != int64_t(CompileCache::kFormatVersion))
    return makeError("entry of cache format " +
                     (format ? std::to_string(*format) : "1") +
                     ", this tpx uses format " +
                     std::to_string(CompileCache::kFormatVersion));
  const llvm::json::Array *files = object->getArray("stage_files");
  if (!files)
    return makeError("artifact metadata lacks its stage files");
  for (auto [index, value] : llvm::enumerate(*files)) {
    const llvm::json::Object *file = value.getAsObject();
    std::optional<llvm::StringRef> stage =
        file ? file->getString("stage") : std::nullopt;
    std::optional<llvm::StringRef> hash =
        file ? file->getString("xxh3") : std::nullopt;
    if (!stage || !hash)
      return makeError("malformed stage file metadata");
    auto text = llvm::MemoryBuffer::getFile(
        entryPath(dir, key, getStageFileName(index)), /*IsText=*/false,
        /*RequiresNullTerminator=*/false);
    if (!text)
      return makeError("stage '" + *stage + "': " + text.getError().message());
    if (getStageHash((*text)->getBuffer()) != *hash)
      return makeError("the text of stage '" + *stage +
                       "' does not match its recorded hash");
    artifact.stages.push_back({stage->str(), (*text)->getBuffer().str()});
  }
  return llvm::Error::success();
}

std::optional<Artifact> CompileCache::lookup(llvm::StringRef key,
                                             std::string *whyMissing) const {
  auto metadata = llvm::MemoryBuffer::getFile(entryPath(directory, key,
                                                        "artifact.json"));
  auto binary = llvm::MemoryBuffer::getFile(
      entryPath(directory, key, "binary"), /*IsText=*/false,
      /*RequiresNullTerminator=*/false);
  if (!metadata || !binary) {
    if (whyMissing)
      *whyMissing = "no entry";
    return std::nullopt;
  }
  auto artifact = Artifact::fromParts((*metadata)->getBuffer(),
                                      (*binary)->getBuffer().str());
  llvm::Error error = artifact.takeError();
  if (!error)
    error = readStages(directory, key, (*metadata)->getBuffer(), *artifact);
  if (error) {
    if (whyMissing)
      *whyMissing = "damaged entry: " + llvm::toString(std::move(error));
    else
      llvm::consumeError(std::move(error));
    return std::nullopt;
  }
  return std::move(*artifact);
}

/// Writes `data` to `path` through a temporary file in the same directory
/// and a rename, which is atomic on POSIX file systems.
static llvm::Error writeAtomically(llvm::StringRef path, llvm::StringRef data) {
  llvm::SmallString<256> temp;
  int fd;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + ".tmp-%%%%%%%%", fd, temp))
    return llvm::createFileError(path, ec);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << data;
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      // Cleared, or the stream's destructor would end the process.
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return llvm::createFileError(path, ec);
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    return llvm::createFileError(path, ec);
  }
  return llvm::Error::success();
}

llvm::Error CompileCache::store(llvm::StringRef key,
                                const Artifact &artifact) const {
  llvm::SmallString<256> dir(directory);
  llvm::sys::path::append(dir, key);
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createFileError(dir, ec);
  // The binary and the stage texts go first: metadata present means they
  // are complete.
  if (auto error =
          writeAtomically(entryPath(directory, key, "binary"), artifact.binary))
    return error;
  llvm::json::Value json = artifact.metadataToJSON();
  llvm::json::Array stageFiles;
  for (auto [index, stage] : llvm::enumerate(artifact.stages)) {
    if (auto error = writeAtomically(
            entryPath(directory, key, getStageFileName(index)), stage.text))
      return error;
    stageFiles.push_back(
        llvm::json::Object{{"stage", stage.stage},
                           {"bytes", static_cast<int64_t>(stage.text.size())},
                           {"xxh3", getStageHash(stage.text)}});
  }
  json.getAsObject()->insert({"cache_format", kFormatVersion});
  json.getAsObject()->insert({"stage_files", std::move(stageFiles)});
  std::string metadata;
  llvm::raw_string_ostream os(metadata);
  os << llvm::formatv("{0:2}", json);
  return writeAtomically(entryPath(directory, key, "artifact.json"), metadata);
}
