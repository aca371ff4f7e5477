//===- PluginCacheKey.cpp - Cache-key material ----------------------------===//
#include "tpx/Plugin/PluginCacheKey.h"
#include "tpx/Plugin/PluginRegistry.h"

#include "tpx-c/TpxVersion.h"

#include "llvm/ADT/STLExtras.h"

using namespace tpx;

std::string tpx::getCacheKeyMaterial(const Pipeline &effectivePipeline) {
  std::vector<const LoadedPlugin *> plugins = getLoadedPlugins();
  // Sorted by name: the key must not depend on the order of
  // TRITON_PLUGIN_PATHS entries, only on what was loaded.
  llvm::sort(plugins, [](const LoadedPlugin *a, const LoadedPlugin *b) {
    return a->name < b->name;
  });
  std::string material = "tpx " TPX_VERSION_STRING "\n";
  for (const LoadedPlugin *plugin : plugins)
    material += "plugin " + plugin->name + " " + plugin->version +
                " sha256=" + plugin->file.contentHash + "\n";
  material += effectivePipeline.print();
  return material;
}
