//===- PluginTrialLoad.h - load a plugin in a throwaway process -*- C++ -*-===//
//
// Internal to lib/Plugin. The ELF checks (PluginElfCheck.cpp) see a file's
// structure, not its code: a plugin whose initializers, entry symbol or
// finalizers are broken (corrupted bytes in .text, say) would crash inside
// dlopen or at exit, where nothing can recover. So before the real dlopen,
// a forked child loads the plugin, calls its entry symbol and unloads it;
// if the child dies or hangs, the plugin is refused with that reason and
// never runs in this process.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_PLUGIN_PLUGINTRIALLOAD_H
#define TPX_LIB_PLUGIN_PLUGINTRIALLOAD_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tpx {

/// Loads, queries and unloads `path` in a forked child. Returns why the
/// plugin must not be loaded (it crashed or hung there), or std::nullopt.
/// A dlopen failure in the child is not a reason: the real dlopen reports
/// it. $TPX_PLUGIN_TRIAL_LOAD=0 turns the trial off (for hosts where fork
/// is unwanted).
std::optional<std::string> trialLoadPlugin(llvm::StringRef path);

} // namespace tpx

#endif // TPX_LIB_PLUGIN_PLUGINTRIALLOAD_H
