/* structSize smaller than TpxPluginInfo: a malformed (truncated) struct. */
#include "TestPlugin.h"
static const TpxPluginInfo info = {TPX_PLUGIN_API_VERSION, 8, "test-small",
                                   "1", TPX_VERSION_STRING};
EXPORT_INFO(info)
