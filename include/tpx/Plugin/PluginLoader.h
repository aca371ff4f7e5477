//===- PluginLoader.h - Open and validate one plugin file -------*- C++ -*-===//
//
// The file-level half of loading: check the file before dlopen trusts it
// (kind, size and ELF structure, PluginFileChecks.h), dlopen it (RTLD_NOW |
// RTLD_LOCAL), find `tpxGetPluginInfo` and validate the TpxPluginInfo it
// returns (API version, struct size, tpx version, null or malformed fields),
// calling into the plugin under a crash guard. Nothing is registered here;
// see PluginRegistry for the checks that need global state (duplicates) and
// the commit. Every error reads "<path>: <cause>".
//
//===----------------------------------------------------------------------===//
#ifndef TPX_PLUGIN_PLUGINLOADER_H
#define TPX_PLUGIN_PLUGINLOADER_H

#include "tpx-c/Plugin.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <optional>
#include <string>

namespace tpx {

/// Receives non-fatal messages such as "skipped a Triton-only plugin".
using PluginWarningHandler = std::function<void(const std::string &)>;

/// Prints "warning: <message>" to stderr.
void printPluginWarning(const std::string &message);

struct OpenedPlugin {
  /// The path as given and its canonical form (absolute, links resolved:
  /// the identity of the file).
  std::string path;
  std::string realPath;
  /// SHA-256 of the file's bytes (from the one bounded read that the checks
  /// use too), in hex: what cache keys use.
  std::string contentHash;
  void *handle = nullptr;
  const TpxPluginInfo *info = nullptr;
};

/// Opens and validates the plugin at `path`. Returns std::nullopt (after a
/// warning) for a library that exports Triton's `tritonGetPluginInfo` but
/// not `tpxGetPluginInfo`.
llvm::Expected<std::optional<OpenedPlugin>>
openPlugin(llvm::StringRef path, const PluginWarningHandler &warn);

/// Checks the fields of `info` (everything that needs no global state).
/// The error text has no path prefix.
llvm::Error validatePluginInfo(const TpxPluginInfo *info);

/// SHA-256 of `bytes` as 64 lowercase hex digits (plugin content hashes;
/// also used for artifact hashes).
std::string sha256Hex(llvm::StringRef bytes);

} // namespace tpx

#endif // TPX_PLUGIN_PLUGINLOADER_H
