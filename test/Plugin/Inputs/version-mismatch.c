/* Built against another tpx major.minor. */
#include "TestPlugin.h"
static const TpxPluginInfo info = {TPX_PLUGIN_API_VERSION,
                                   sizeof(TpxPluginInfo), "test-version", "1",
                                   "9.9.0"};
EXPORT_INFO(info)
