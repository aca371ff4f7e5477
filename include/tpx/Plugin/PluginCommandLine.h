//===- PluginCommandLine.h - --load-plugin for every tool -------*- C++ -*-===//
//
// Tools must load plugins before MLIR parses the command line, so that a
// plugin's passes exist as `--pass-name` flags. loadPluginsForTool() loads
// $TRITON_PLUGIN_PATHS and every `--load-plugin=P` / `--load-plugin P`
// (also with a single dash), and removes those arguments so the tool's own
// parser never sees them. P is split on ':' exactly like the environment
// variable (`--load-plugin a.so:dir:b.so`; empty entries are ignored).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_PLUGIN_PLUGINCOMMANDLINE_H
#define TPX_PLUGIN_PLUGINCOMMANDLINE_H

#include <vector>

namespace tpx {

/// Loads the plugins named by the environment and `argv`, printing
/// "error: <path>: <cause>" for the first failure and returning false.
/// On success `remaining` holds argv without the --load-plugin arguments.
bool loadPluginsForTool(int argc, char **argv, std::vector<char *> &remaining);

} // namespace tpx

#endif // TPX_PLUGIN_PLUGINCOMMANDLINE_H
