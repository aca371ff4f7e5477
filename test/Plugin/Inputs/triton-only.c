/* Exports Triton's entry symbol but not tpx's: skipped with a warning. */
#include "TestPlugin.h"
TPX_PLUGIN_EXPORT const void *tritonGetPluginInfo(void) { return 0; }
