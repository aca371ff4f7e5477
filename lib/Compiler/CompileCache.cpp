//===- CompileCache.cpp - the on-disk, content-addressed cache ------------===//
#include "tpx/Compiler/CompileCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

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
  if (!artifact) {
    if (whyMissing)
      *whyMissing = "damaged entry: " + llvm::toString(artifact.takeError());
    else
      llvm::consumeError(artifact.takeError());
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
  // The binary goes first: metadata present means the binary is complete.
  if (auto error =
          writeAtomically(entryPath(directory, key, "binary"), artifact.binary))
    return error;
  std::string metadata;
  llvm::raw_string_ostream os(metadata);
  os << llvm::formatv("{0:2}", artifact.metadataToJSON());
  return writeAtomically(entryPath(directory, key, "artifact.json"), metadata);
}
