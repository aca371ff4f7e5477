/* Plugin callbacks that crash: passes that dereference null (on the module,
   and on each tt.func, where MLIR runs them on several threads) or abort,
   and a pipeline extension that dereferences null. */
#include "TestPlugin.h"

#include <stdlib.h>

/* volatile: the compiler cannot see that the pointer is null, so the store
   really happens (a visible null store may be compiled into a trap). */
static int *volatile nullPointer = 0;

static TpxStatus nullDeref(MlirOperation op, const TpxOptionValues *o, void *u,
                           TpxReporter *e) {
  (void)op, (void)o, (void)u, (void)e;
  *nullPointer = 42;
  return TPX_SUCCESS;
}

static TpxStatus aborts(MlirOperation op, const TpxOptionValues *o, void *u,
                        TpxReporter *e) {
  (void)op, (void)o, (void)u, (void)e;
  abort();
}

static const TpxPassInfo passes[] = {
    {"test-null-deref", "dereferences null", "builtin.module", 0, 0, nullDeref,
     0, 0},
    {"test-null-deref-func", "dereferences null on each function", "tt.func", 0,
     0, nullDeref, 0, 0},
    {"test-abort", "aborts", 0, 0, 0, aborts, 0, 0},
};

static TpxStatus crashingExtension(const TpxPipelineEditor *editor, void *u,
                                   TpxReporter *e) {
  (void)editor, (void)u, (void)e;
  *nullPointer = 1;
  return TPX_SUCCESS;
}

static const TpxPipelineExtensionInfo extensions[] = {
    {"test-crashing-extension", "dereferences null", crashingExtension, 0}};

static const TpxPluginInfo info = {TPX_PLUGIN_INFO_HEADER("test-crashing", "1"),
                                   passes,
                                   3,
                                   0,
                                   0,
                                   0,
                                   0,
                                   extensions,
                                   1};
EXPORT_INFO(info)
