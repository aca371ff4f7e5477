/* A pass whose run callback is null. */
#include "TestPlugin.h"
static const TpxPassInfo passes[] = {{"test-null-run", "no run", 0, 0, 0, 0}};
static const TpxPluginInfo info = {
    TPX_PLUGIN_INFO_HEADER("test-null-run", "1"), passes, 1};
EXPORT_INFO(info)
