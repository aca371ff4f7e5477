//===- PluginCacheKey.h - What a compile's cache key depends on -*- C++ -*-===//
#ifndef TPX_PLUGIN_PLUGINCACHEKEY_H
#define TPX_PLUGIN_PLUGINCACHEKEY_H

#include "tpx/Pipeline/Pipeline.h"

namespace tpx {

/// Text that changes whenever a loaded plugin's code or the effective
/// pipeline changes: one `plugin <name> <version> sha256=<hash>` line per
/// loaded plugin (sorted by name; the hash is of the file's bytes, so the
/// path does not matter), then the pipeline's text. Hash it to make a key.
std::string getCacheKeyMaterial(const Pipeline &effectivePipeline);

} // namespace tpx

#endif // TPX_PLUGIN_PLUGINCACHEKEY_H
