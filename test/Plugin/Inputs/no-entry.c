/* Exports no tpxGetPluginInfo at all. */
#include "TestPlugin.h"
TPX_PLUGIN_EXPORT int somethingElse(void) { return 42; }
