//===- MyPlugin.cpp - A template tpx plugin -------------------------------===//
//
// One pass, `my-tag-kernels{tag=...}`, that stamps a unit attribute named
// after its `tag` option on every kernel (tt.func): the smallest pass that
// changes observable IR, to be replaced by your own. It also contributes the
// pipeline extension `my-tagging`, which appends the pass to the ttir stage
// of kernels that select it with `tpx.pipeline = ["my-tagging"]`.
//
//===----------------------------------------------------------------------===//
#include "tpx/Plugin/PluginSupport.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace tpx::plugin;

static TpxStatus runTagKernels(MlirOperation root,
                               const TpxOptionValues *options, void *,
                               TpxReporter *reporter) {
  llvm::StringRef tag = getString(options, "tag");
  if (tag.empty())
    return fail(reporter, "option 'tag' must not be empty");
  mlir::Operation *op = unwrap(root);
  op->walk([&](mlir::Operation *nested) {
    if (nested->getName().getStringRef() == "tt.func")
      nested->setAttr(tag, mlir::UnitAttr::get(op->getContext()));
  });
  return TPX_SUCCESS;
}

static const TpxPassOption kOptions[] = {
    {"tag", "name of the unit attribute to add", stringValue("my.tagged")},
};

static const TpxPassInfo kPasses[] = {{
    "my-tag-kernels",
    "Add a unit attribute to every tt.func",
    /*anchorOp=*/nullptr,
    kOptions,
    1,
    runTagKernels,
    /*userData=*/nullptr,
    /*dependentDialects=*/nullptr,
}};

static TpxStatus applyTagging(const TpxPipelineEditor *editor, void *,
                              TpxReporter *) {
  return editor->append(editor->opaque, "ttir", "my-tag-kernels");
}

static const TpxPipelineExtensionInfo kExtensions[] = {{
    "my-tagging",
    "Tag kernels at the end of the ttir stage",
    applyTagging,
    nullptr,
}};

static const TpxPluginInfo kInfo = {
    TPX_PLUGIN_INFO_HEADER("my-plugin", "0.1"),
    kPasses,
    1,
    nullptr,
    0,
    nullptr,
    0,
    kExtensions,
    1,
};

extern "C" TPX_PLUGIN_EXPORT const TpxPluginInfo *tpxGetPluginInfo(void) {
  return &kInfo;
}
