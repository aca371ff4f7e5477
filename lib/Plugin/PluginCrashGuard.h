//===- PluginCrashGuard.h - Calls into plugin code that may crash -*- C++ -*-//
//
// Internal to lib/Plugin. Every call from tpx into a plugin (its entry
// symbol, dialect registration, pass runs and option checks, DSL op builds,
// pipeline extensions) goes through runGuarded(), so that a plugin that
// dereferences null or aborts becomes an error naming the plugin and the
// callback instead of taking the process down with no trace.
//
// Recovery is best effort: the callback's stack is abandoned (memory it
// allocated leaks, locks it held stay held) and whatever it was changing is
// left half-changed, so callers fail the operation and discard its result.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_PLUGIN_PLUGINCRASHGUARD_H
#define TPX_LIB_PLUGIN_PLUGINCRASHGUARD_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace tpx {

/// Runs `callback` under an llvm::CrashRecoveryContext. Returns std::nullopt
/// when it returned normally, else how it crashed, e.g. "Segmentation
/// fault (signal 11)".
std::optional<std::string> runGuarded(llvm::function_ref<void()> callback);

} // namespace tpx

#endif // TPX_LIB_PLUGIN_PLUGINCRASHGUARD_H
