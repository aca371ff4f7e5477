/* A pass that fails when it runs. */
#include "TestPlugin.h"
static TpxStatus fails(MlirOperation op, const TpxOptionValues *o, void *u,
                       TpxReporter *e) {
  (void)op, (void)o, (void)u;
  e->report(e->opaque, "deliberate failure for testing");
  return TPX_FAILURE;
}
static const TpxPassInfo passes[] = {{"test-failing-pass", "fails", 0, 0, 0,
                                      fails, 0, 0}};
static const TpxPluginInfo info = {
    TPX_PLUGIN_INFO_HEADER("test-failing-pass", "1"), passes, 1};
EXPORT_INFO(info)
