/* A pass named like an MLIR pass tpx already registers. */
#include "TestPlugin.h"
static const TpxPassInfo passes[] = {TEST_PASS("cse")};
static const TpxPluginInfo info = {
    TPX_PLUGIN_INFO_HEADER("test-builtin-clash", "1"), passes, 1};
EXPORT_INFO(info)
