// A pass anchored on tt.func whose options are checked once, when a pipeline
// naming it is built (validateOptions), and a pipeline extension that adds
// it at the top level of the ttir stage (it must be nested automatically).
#include "tpx/Plugin/PluginSupport.h"

#include "mlir/IR/Builders.h"

using namespace tpx::plugin;

static TpxStatus checkOptions(const TpxOptionValues *options, void *,
                              TpxReporter *reporter) {
  int64_t count = getInt(options, "count");
  if (count < 1)
    return fail(reporter,
                "'count' must be at least 1, got " + llvm::Twine(count));
  return TPX_SUCCESS;
}

// Records the option on the function, so tests can see where the pass ran.
static TpxStatus mark(MlirOperation root, const TpxOptionValues *options,
                      void *, TpxReporter *) {
  mlir::Operation *function = unwrap(root);
  mlir::Builder builder(function->getContext());
  function->setAttr("test.count",
                    builder.getI64IntegerAttr(getInt(options, "count")));
  return TPX_SUCCESS;
}

static const TpxPassOption kOptions[] = {
    {"count", "a positive number", intValue(1)},
};

static const TpxPassInfo kPasses[] = {
    {"test-checked-options", "checks its options once", "tt.func", kOptions, 1,
     mark, nullptr, nullptr, checkOptions},
};

static TpxStatus appendAnchored(const TpxPipelineEditor *editor, void *,
                                TpxReporter *) {
  return editor->append(editor->opaque, "ttir",
                        "test-checked-options{count=7}");
}

static const TpxPipelineExtensionInfo kExtensions[] = {
    {"test-anchored-append", "appends a tt.func pass to ttir", appendAnchored,
     nullptr},
};

static const TpxPluginInfo kInfo = {TPX_PLUGIN_INFO_HEADER("test-options", "1"),
                                    kPasses,
                                    1,
                                    nullptr,
                                    0,
                                    nullptr,
                                    0,
                                    kExtensions,
                                    1};

extern "C" TPX_PLUGIN_EXPORT const TpxPluginInfo *tpxGetPluginInfo(void) {
  return &kInfo;
}
