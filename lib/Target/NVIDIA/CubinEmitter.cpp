//===- CubinEmitter.cpp - PTX -> cubin with ptxas -------------------------===//
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

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

llvm::Expected<std::string> tpx::assemblePTX(llvm::StringRef ptx,
                                             llvm::StringRef target) {
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
  llvm::SmallVector<llvm::StringRef> argv = {*ptxas, arch, "-O3", ptxPath,
                                             "-o", cubinPath};
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
                     llvm::StringRef(log).rtrim());
  auto cubin = llvm::MemoryBuffer::getFile(cubinPath, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!cubin || (*cubin)->getBufferSize() == 0)
    return makeError("ptxas produced no cubin at '" + cubinPath + "'");
  return (*cubin)->getBuffer().str();
}
