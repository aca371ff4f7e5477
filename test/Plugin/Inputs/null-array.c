/* Declares two DSL ops but gives no array. */
#include "TestPlugin.h"
static const TpxPluginInfo info = {TPX_PLUGIN_INFO_HEADER("test-null-array", "1"),
                                   0, 0, 0, 0, 0, 2};
EXPORT_INFO(info)
