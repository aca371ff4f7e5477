/* Declares a plugin API version this tpx does not speak. */
#include "TestPlugin.h"
static const TpxPluginInfo info = {99, sizeof(TpxPluginInfo), "test-wrong-api",
                                   "1", TPX_VERSION_STRING};
EXPORT_INFO(info)
