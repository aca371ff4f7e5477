/* A dialect whose registration callback fails. */
#include "TestPlugin.h"
static TpxStatus fails(MlirDialectRegistry r, void *u, TpxReporter *e) {
  (void)r, (void)u;
  e->report(e->opaque, "the widget table is missing");
  return TPX_FAILURE;
}
static const TpxDialectInfo dialects[] = {{"testfail", fails, 0}};
static const TpxPluginInfo info = {
    TPX_PLUGIN_INFO_HEADER("test-failing-registration", "1"), 0, 0, dialects,
    1};
EXPORT_INFO(info)
