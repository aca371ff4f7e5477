/* tpxGetPluginInfo itself dereferences null. */
#include "TestPlugin.h"

static const TpxPluginInfo *volatile nullInfo = 0;

TPX_PLUGIN_EXPORT const TpxPluginInfo *tpxGetPluginInfo(void) {
  return (const TpxPluginInfo *)(nullInfo->name);
}
