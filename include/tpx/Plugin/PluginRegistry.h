//===- PluginRegistry.h - The loaded plugins and what they add --*- C++ -*-===//
//
// Process-wide registry of loaded plugins. Loading a plugin opens and
// validates it (PluginLoader.h), rejects names that clash with tpx or with
// an already loaded plugin (plugin, pass, dialect, DSL op, extension), runs
// its dialect registration callbacks, and only then commits: passes become
// real mlir::Passes in MLIR's pass registry, dialects go into a registry
// tools append to theirs, DSL ops and pipeline extensions into their
// tables. A failed load leaves the registry unchanged.
//
// Loading is not thread-safe with respect to compiles running at the same
// time; load plugins first (tools do it before parsing options).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_PLUGIN_PLUGINREGISTRY_H
#define TPX_PLUGIN_PLUGINREGISTRY_H

#include "tpx/Plugin/PluginLoader.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <vector>

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace tpx {

/// A successfully loaded plugin.
struct LoadedPlugin {
  OpenedPlugin file;
  std::string name;
  std::string version;
};

/// Loads a plugin file, or every `*.so` of a directory in sorted order.
/// Loading an already loaded file again is a no-op.
llvm::Error loadPlugin(llvm::StringRef path,
                       const PluginWarningHandler &warn = printPluginWarning);
/// Loads each entry of a colon-separated list; empty entries are ignored.
llvm::Error
loadPluginPaths(llvm::StringRef paths,
                const PluginWarningHandler &warn = printPluginWarning);
/// Loads $TRITON_PLUGIN_PATHS, if set.
llvm::Error loadPluginsFromEnvironment(
    const PluginWarningHandler &warn = printPluginWarning);

/// The loaded plugins, in load order.
std::vector<const LoadedPlugin *> getLoadedPlugins();

/// The loaded plugin that provides the pass `argument`, or null (a tpx or
/// MLIR pass, or no pass at all).
const LoadedPlugin *findPluginOfPass(llvm::StringRef argument);
/// True when the loaded plugin pass `pass` declares the option `option`.
bool pluginPassHasOption(llvm::StringRef pass, llvm::StringRef option);

/// Adds every plugin dialect to `registry` (tools call this before creating
/// their context, after loading plugins), the missing-dialect hint, and an
/// inliner interface for plugin dialects that declare none (their ops are
/// legal to inline; PluginDialectInlining.cpp says why).
void appendPluginDialects(mlir::DialectRegistry &registry);

/// Makes contexts made from `registry` amend MLIR's "unregistered dialect"
/// parse errors with a hint to load the plugin that provides the dialect
/// (--load-plugin, TRITON_PLUGIN_PATHS). See MissingDialectHint.cpp for
/// when the hint is installed.
void addMissingDialectHint(mlir::DialectRegistry &registry);

/// A DSL op of a loaded plugin.
struct PluginDslOp {
  std::string plugin;
  const TpxDslOpInfo *info;
};
std::vector<PluginDslOp> getPluginDslOps();
const PluginDslOp *lookupPluginDslOp(llvm::StringRef name);

/// Builds DSL op `name`: checks arity and keywords against its declaration
/// (filling defaults, parsing TYPE keywords in `where.context`), calls the
/// plugin, and checks what it reports. Errors name the op and the plugin.
llvm::Error buildPluginDslOp(llvm::StringRef name, const TpxBuildContext &where,
                             llvm::ArrayRef<MlirValue> operands,
                             llvm::ArrayRef<TpxKeywordArg> kwargs,
                             llvm::SmallVectorImpl<MlirValue> &results);

} // namespace tpx

#endif // TPX_PLUGIN_PLUGINREGISTRY_H
