//===- SourceInput.h - read a source file the tools parse -------*- C++ -*-===//
//
// What a tool reads as MLIR must be a regular file of bounded size (a FIFO
// would hang the tool, /dev/zero would fill memory) whose brackets nest no
// deeper than the parsers can recurse (SourceNesting.h). `-` is stdin.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_SUPPORT_SOURCEINPUT_H
#define TPX_SUPPORT_SOURCEINPUT_H

#include "tpx/Support/SourceNesting.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace tpx {

/// The largest source file tpx reads (TTIR of real kernels is kilobytes).
constexpr uint64_t kMaxSourceBytes = uint64_t(256) << 20;

/// Reads `path` (or stdin for "-") for parsing; errors name the file.
inline llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readSourceFile(llvm::StringRef path) {
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   path + ": " + why);
  };
  if (path != "-") {
    llvm::sys::fs::file_status status;
    if (std::error_code ec = llvm::sys::fs::status(path, status))
      return fail(ec.message());
    if (status.type() != llvm::sys::fs::file_type::regular_file)
      return fail("not a regular file");
    if (status.getSize() > kMaxSourceBytes)
      return fail(llvm::Twine(status.getSize()) +
                  " bytes; tpx reads source files of at most " +
                  llvm::Twine(kMaxSourceBytes) + " bytes");
  }
  auto buffer = path == "-" ? llvm::MemoryBuffer::getSTDIN()
                            : llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return fail(buffer.getError().message());
  if (auto deep = findExcessiveNesting((*buffer)->getBuffer()))
    return fail(*deep);
  return std::move(*buffer);
}

} // namespace tpx

#endif // TPX_SUPPORT_SOURCEINPUT_H
