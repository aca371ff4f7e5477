//===- CompilerIdentity.cpp - what identifies this build of tpx -----------===//
#include "tpx/Compiler/Compiler.h"
#include "tpx/Plugin/PluginLoader.h"

#include "tpx-c/TpxVersion.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"

#include <dlfcn.h>

/// The content hash of the library holding this function (libtpx.so), plus
/// the LLVM version it runs with. A rebuilt compiler lowers differently, so
/// its compiles must not be served from the cache of the previous build.
/// Computed once per process.
std::string tpx::getCompilerIdentity() {
  static const std::string identity = [] {
    std::string id = "tpx " TPX_VERSION_STRING " llvm " LLVM_VERSION_STRING;
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&getCompilerIdentity), &info) &&
        info.dli_fname) {
      auto buffer = llvm::MemoryBuffer::getFile(
          info.dli_fname, /*IsText=*/false, /*RequiresNullTerminator=*/false);
      if (buffer)
        return id + " " + sha256Hex((*buffer)->getBuffer());
    }
    // No file to hash (a static link): the build time stands in for it.
    return id + " built " __DATE__ " " __TIME__;
  }();
  return identity;
}
