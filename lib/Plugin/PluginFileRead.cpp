//===- PluginFileRead.cpp - stat() first, then one bounded read -----------===//
//
// Opening a FIFO for reading blocks until a writer appears, and reading a
// character device such as /dev/zero never ends, so the kind and size of a
// plugin file are decided by stat() alone, before anything opens it.
//
//===----------------------------------------------------------------------===//
#include "tpx/Plugin/PluginFileChecks.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/Twine.h"

using namespace tpx;
namespace fs = llvm::sys::fs;
using llvm::Error;
using llvm::StringRef;

static Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::optional<std::string>
tpx::describeNonRegularFile(const fs::file_status &status) {
  switch (status.type()) {
  case fs::file_type::regular_file:
    return std::nullopt;
  case fs::file_type::directory_file:
    return std::string("a directory");
  case fs::file_type::fifo_file:
    return std::string("a FIFO");
  case fs::file_type::character_file:
    return std::string("a character device");
  case fs::file_type::block_file:
    return std::string("a block device");
  case fs::file_type::socket_file:
    return std::string("a socket");
  default:
    return std::string("not a file tpx can read");
  }
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
tpx::readPluginFile(StringRef path) {
  fs::file_status status;
  if (std::error_code ec = fs::status(path, status, /*Follow=*/true)) {
    if (ec == std::errc::no_such_file_or_directory)
      return makeError("no such file or directory");
    return makeError("cannot stat: " + ec.message());
  }
  if (std::optional<std::string> kind = describeNonRegularFile(status))
    return makeError("not a regular file (" + *kind + ")");
  uint64_t size = status.getSize();
  if (size == 0)
    return makeError("empty file, not a shared library");
  if (size > kMaxPluginFileBytes)
    return makeError(
        "file has " + llvm::Twine(size) + " bytes, more than the " +
        llvm::Twine(kMaxPluginFileBytes) + " bytes (1 GiB) a plugin may have");

  llvm::Expected<fs::file_t> file =
      fs::openNativeFileForRead(path, fs::OF_None);
  if (!file)
    return makeError("cannot open: " + llvm::toString(file.takeError()));
  llvm::scope_exit close([&] { fs::closeFile(*file); });
  // The path may have been replaced between stat() and open(); what we read
  // must be the file we checked.
  fs::file_status opened;
  if (std::error_code ec = fs::status(*file, opened))
    return makeError("cannot stat: " + ec.message());
  if (!fs::equivalent(status, opened))
    return makeError("the file changed while it was being opened");
  // IsVolatile: read() into memory rather than mmap, so a file that shrinks
  // now cannot fault; at most `size` bytes are read.
  auto buffer = llvm::MemoryBuffer::getOpenFile(
      *file, path, size, /*RequiresNullTerminator=*/false,
      /*IsVolatile=*/true);
  if (!buffer)
    return makeError("cannot read: " + buffer.getError().message());
  return std::move(*buffer);
}
