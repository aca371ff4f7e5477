/* A DSL op `test_op`; built as two plugins to clash across plugins. */
#include "TestPlugin.h"
static TpxStatus build(const TpxBuildContext *w, const MlirValue *o, size_t n,
                       const TpxKeywordArg *k, size_t nk, MlirValue *r,
                       size_t mr, size_t *nr, void *u, TpxReporter *e) {
  (void)w, (void)o, (void)n, (void)k, (void)nk, (void)r, (void)mr, (void)u;
  (void)e;
  *nr = 0;
  return TPX_SUCCESS;
}
static const TpxDslOpInfo ops[] = {{"test_op", "test", -1, 0, 0, build, 0}};
static const TpxPluginInfo info = {TPX_PLUGIN_INFO_HEADER(PLUGIN_NAME, "1"),
                                   0, 0, 0, 0, ops, 1};
EXPORT_INFO(info)
