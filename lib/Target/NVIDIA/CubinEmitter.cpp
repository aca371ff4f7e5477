//===- CubinEmitter.cpp - PTX -> cubin with ptxas -------------------------===//
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace tpx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// $CUDA_HOME/bin/ptxas (CUDA_HOME defaulting to /usr/local/cuda), then
/// ptxas on PATH.
static llvm::Expected<std::string> findPtxas() {
  llvm::SmallString<256> candidate(getCUDAHome());
  llvm::sys::path::append(candidate, "bin", "ptxas");
  if (llvm::sys::fs::can_execute(candidate))
    return std::string(candidate);
  if (auto onPath = llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  const char *path = std::getenv("PATH");
  return makeError("ptxas not found: searched '" + candidate +
                   "' ($CUDA_HOME/bin; CUDA_HOME defaults to /usr/local/cuda) "
                   "and PATH (" + (path ? path : "") +
                   "); install the CUDA toolkit or set CUDA_HOME");
}

static std::string readFileOrEmpty(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

/// `log` without what -v adds ("ptxas info" lines and the indented lines
/// that continue them), so that a failure shows the errors alone.
static std::string withoutInfoLines(llvm::StringRef log) {
  std::string kept;
  bool inInfo = false;
  llvm::SmallVector<llvm::StringRef> lines;
  log.rtrim().split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (line.starts_with("ptxas info"))
      inInfo = true;
    else if (!line.starts_with(" "))
      inInfo = false;
    if (inInfo)
      continue;
    kept += (kept.empty() ? "" : "\n") + line.str();
  }
  return kept;
}

/// The number that ends `text` before `suffix` ("...,  502 bytes spill
/// stores" -> 502), if `text` has the suffix.
static std::optional<unsigned> findCountBefore(llvm::StringRef text,
                                               llvm::StringRef suffix) {
  size_t at = text.find(suffix);
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef digits = text.take_front(at).rtrim();
  digits = digits.drop_front(digits.find_last_not_of("0123456789") + 1);
  unsigned value;
  if (digits.empty() || digits.getAsInteger(10, value))
    return std::nullopt;
  return value;
}

EntryResourceMap tpx::parsePtxasResourceUsage(llvm::StringRef log) {
  // ptxas -v, per function (CUDA 12 and 13):
  //   ptxas info    : Compiling entry function 'k' for 'sm_90a'
  //   ptxas info    : Function properties for k
  //       408 bytes stack frame, 502 bytes spill stores, 488 bytes spill loads
  //   ptxas info    : Used 255 registers, used 1 barriers, ...
  // Non-entry functions get "Function properties for f" lines too.
  EntryResourceMap entries;
  std::string entry, properties;
  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    line = line.trim();
    llvm::StringRef rest = line;
    if (rest.consume_front("ptxas info") &&
        (rest = rest.ltrim(" :")).consume_front("Compiling entry function '")) {
      entry = rest.take_until([](char c) { return c == '\''; }).str();
      entries[entry];
      continue;
    }
    size_t at = line.find("Function properties for ");
    if (at != llvm::StringRef::npos) {
      properties =
          line.drop_front(at + strlen("Function properties for ")).trim().str();
      continue;
    }
    if (auto spills = findCountBefore(line, " bytes spill stores")) {
      auto it = entries.find(properties);
      if (it != entries.end())
        it->second.spillStoreBytes = *spills;
      continue;
    }
    at = line.find("Used ");
    if (at != llvm::StringRef::npos && !entry.empty())
      if (auto registers = findCountBefore(line.drop_front(at), " registers"))
        entries[entry].registers = *registers;
  }
  return entries;
}

llvm::Expected<std::string> tpx::assemblePTX(llvm::StringRef ptx,
                                             llvm::StringRef target,
                                             EntryResourceMap *resources) {
  auto ptxas = findPtxas();
  if (!ptxas)
    return ptxas.takeError();

  llvm::SmallString<128> ptxPath, cubinPath, logPath;
  if (auto ec = llvm::sys::fs::createTemporaryFile("tpx", "ptx", ptxPath))
    return makeError("cannot create a temporary file: " + ec.message());
  llvm::FileRemover removePtx(ptxPath);
  if (auto ec = llvm::sys::fs::createTemporaryFile("tpx", "cubin", cubinPath))
    return makeError("cannot create a temporary file: " + ec.message());
  llvm::FileRemover removeCubin(cubinPath);
  if (auto ec = llvm::sys::fs::createTemporaryFile("tpx", "log", logPath))
    return makeError("cannot create a temporary file: " + ec.message());
  llvm::FileRemover removeLog(logPath);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxPath, ec);
    if (ec)
      return makeError("cannot write '" + ptxPath + "': " + ec.message());
    os << ptx;
    os.close();
    if (os.has_error()) {
      ec = os.error();
      os.clear_error(); // or the stream's destructor would end the process
      return makeError("cannot write '" + ptxPath + "': " + ec.message());
    }
  }

  std::string arch = ("-arch=" + target).str();
  // -v: the register and spill counts of each entry, for the artifact.
  llvm::SmallVector<llvm::StringRef> argv = {*ptxas,  arch, "-O3",    "-v",
                                             ptxPath, "-o", cubinPath};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logPath.str(),
                                                logPath.str()};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(*ptxas, argv, /*Env=*/std::nullopt,
                                     redirects, /*SecondsToWait=*/0,
                                     /*MemoryLimit=*/0, &execError);
  std::string log = readFileOrEmpty(logPath);
  if (rc != 0)
    return makeError("ptxas (" + *ptxas + " " + arch + ") failed" +
                     (rc < 0 ? " to run: " + execError : "") + ":\n" +
                     withoutInfoLines(log));
  auto cubin = llvm::MemoryBuffer::getFile(cubinPath, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!cubin || (*cubin)->getBufferSize() == 0)
    return makeError("ptxas produced no cubin at '" + cubinPath + "'");
  if (resources)
    *resources = parsePtxasResourceUsage(log);
  return (*cubin)->getBuffer().str();
}
