//===- CompilerIdentity.cpp - what identifies this build of tpx -----------===//
#include "tpx/Compiler/Compiler.h"
#include "tpx/Plugin/PluginLoader.h"

#include "tpx-c/TpxVersion.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>

namespace {
struct BuildIdSearch {
  const void *base; // load address of the object to look in
  std::string id;   // hex GNU build-id, when found
};
} // namespace

/// dl_iterate_phdr callback: the GNU build-id note of the object loaded at
/// `search->base`.
static int findBuildId(struct dl_phdr_info *info, size_t, void *data) {
  auto *search = static_cast<BuildIdSearch *>(data);
  if (reinterpret_cast<const void *>(info->dlpi_addr) != search->base)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_NOTE)
      continue;
    const char *note =
        reinterpret_cast<const char *>(info->dlpi_addr + segment.p_vaddr);
    const char *end = note + segment.p_memsz;
    while (note + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) header;
      std::memcpy(&header, note, sizeof(header));
      const char *name = note + sizeof(header);
      const char *desc = name + ((header.n_namesz + 3) & ~3u);
      if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        search->id = llvm::toHex(
            llvm::StringRef(desc, header.n_descsz), /*LowerCase=*/true);
        return 1;
      }
      note = desc + ((header.n_descsz + 3) & ~3u);
    }
  }
  return 1;
}

/// Identifies the library holding this function (libtpx.so) by its GNU
/// build-id (which the linker derives from the code), or failing that by the
/// SHA-256 of its file, plus the LLVM version it runs with. A rebuilt
/// compiler lowers differently, so its compiles must not be served from the
/// cache of the previous build. Computed once per process.
std::string tpx::getCompilerIdentity() {
  static const std::string identity = [] {
    std::string id = "tpx " TPX_VERSION_STRING " llvm " LLVM_VERSION_STRING;
    Dl_info info;
    if (!dladdr(reinterpret_cast<void *>(&getCompilerIdentity), &info) ||
        !info.dli_fname)
      return id + " built " __DATE__ " " __TIME__;
    BuildIdSearch search{info.dli_fbase, {}};
    dl_iterate_phdr(findBuildId, &search);
    if (!search.id.empty())
      return id + " build-id " + search.id;
    auto buffer = llvm::MemoryBuffer::getFile(
        info.dli_fname, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (buffer)
      return id + " sha256 " + sha256Hex((*buffer)->getBuffer());
    return id + " built " __DATE__ " " __TIME__;
  }();
  return identity;
}
