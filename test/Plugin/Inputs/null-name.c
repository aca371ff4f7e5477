/* The plugin name is null. */
#include "TestPlugin.h"
static const TpxPluginInfo info = {TPX_PLUGIN_INFO_HEADER(0, "1")};
EXPORT_INFO(info)
