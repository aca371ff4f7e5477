/* A valid plugin with one pass; built twice (good.so, good-copy.so) to test
   duplicate plugin names, and PLUGIN_NAME/PASS_NAME variants for clashes. */
#include "TestPlugin.h"
#ifndef PLUGIN_NAME
#define PLUGIN_NAME "test-good"
#endif
#ifndef PASS_NAME
#define PASS_NAME "test-good-noop"
#endif
static const TpxPassInfo passes[] = {TEST_PASS(PASS_NAME)};
static const TpxPluginInfo info = {TPX_PLUGIN_INFO_HEADER(PLUGIN_NAME, "1"),
                                   passes, 1, 0, 0, 0, 0, 0, 0};
EXPORT_INFO(info)
