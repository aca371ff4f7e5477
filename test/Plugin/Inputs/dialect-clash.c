/* A dialect named like one tpx provides (arith). */
#include "TestPlugin.h"
static TpxStatus never(MlirDialectRegistry r, void *u, TpxReporter *e) {
  (void)r, (void)u, (void)e;
  return TPX_SUCCESS;
}
static const TpxDialectInfo dialects[] = {{"arith", never, 0}};
static const TpxPluginInfo info = {
    TPX_PLUGIN_INFO_HEADER("test-dialect-clash", "1"), 0, 0, dialects, 1};
EXPORT_INFO(info)
