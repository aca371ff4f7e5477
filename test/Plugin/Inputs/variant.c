/* Built twice with different VARIANT values: same name, different code, to
   test that cache-key material follows the plugin's content. */
#include "TestPlugin.h"
TPX_PLUGIN_EXPORT int testVariantCode(void) { return VARIANT * 7919; }
static const TpxPassInfo passes[] = {TEST_PASS("test-variant-noop")};
static const TpxPluginInfo info = {TPX_PLUGIN_INFO_HEADER("test-variant", "1"),
                                   passes, 1, 0, 0, 0, 0, 0, 0};
EXPORT_INFO(info)
