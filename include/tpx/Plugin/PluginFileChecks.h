//===- PluginFileChecks.h - Is this file safe to hand to dlopen? -*- C++
//-*-===//
//
// dlopen trusts the file it maps. A truncated library faults (SIGBUS) when
// the loader touches a segment that lies past the end of the file, a FIFO
// blocks the open forever, a device such as /dev/zero is read without end,
// and a corrupted program header or dynamic section sends ld.so reading at
// wild offsets (a crash or an assertion inside ld.so). These checks run
// before dlopen and use nothing but stat() and one bounded read, so each of
// those becomes an error that says what is wrong with the file.
//
// The checks are about robustness, not security: a file that passes them can
// still run arbitrary code when loaded (that is what a plugin is).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_PLUGIN_PLUGINFILECHECKS_H
#define TPX_PLUGIN_PLUGINFILECHECKS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace tpx {

/// The largest plugin file tpx reads (and hashes for cache keys): 1 GiB.
/// Real plugins link libMLIR.so dynamically and are a few MiB.
inline constexpr uint64_t kMaxPluginFileBytes = uint64_t(1) << 30;

/// "a FIFO", "a character device", "a directory", ... for anything that is
/// not a regular file; std::nullopt for a regular file.
std::optional<std::string>
describeNonRegularFile(const llvm::sys::fs::file_status &status);

/// Reads the plugin file at `path` whole. Before opening it, stat() must
/// show a regular file (following symbolic links) of 1 to
/// kMaxPluginFileBytes bytes, so FIFOs, devices and directories are never
/// opened; the open file must still be that file. The bytes are read, never
/// mapped, so a file truncated meanwhile cannot fault. Errors carry no path.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readPluginFile(llvm::StringRef path);

/// Checks that `bytes` is an ELF shared library this process can load:
/// ELF class, byte order, OS ABI and machine of the host; ET_DYN and not a
/// position-independent executable; every segment's file range inside the
/// file; PT_LOAD segments ld.so can map; a PT_DYNAMIC inside a loaded
/// segment whose entries parse up to DT_NULL; string, symbol, hash,
/// relocation and symbol-version tables inside loaded parts of the file,
/// with every string offset inside the string table. Errors carry no path,
/// e.g. "truncated: segment 2 (PT_LOAD) ends at byte 20480, file has 4096
/// bytes".
llvm::Error checkPluginElf(llvm::StringRef bytes);

} // namespace tpx

#endif // TPX_PLUGIN_PLUGINFILECHECKS_H
