//===- EvictionPolicyPlugin.cpp - Example: a TTIR pass with options -------===//
//
// `tt-example-eviction-policy{policy=evict_last stores=false}` sets the cache
// eviction policy of every tt.load (and tt.store with stores=true). A kernel
// author uses it to keep data that is re-read across programs (a weight
// tile, a lookup table) resident in L2 (`evict_last`) or to stream data that
// is touched once (`evict_first`) without editing the kernel. The
// `example-evict-last` pipeline extension runs it at the end of the ttir
// stage for kernels that select it (`tpx.pipeline = ["example-evict-last"]`).
//
// Built and loaded like any out-of-tree plugin; uses only libMLIR.so: tt's
// eviction policy attribute is an i32 enum (1 normal, 2 first, 3 last).
//
//===----------------------------------------------------------------------===//
#include "tpx/Plugin/PluginSupport.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tpx::plugin;

static TpxStatus runEvictionPolicy(MlirOperation root,
                                   const TpxOptionValues *options, void *,
                                   TpxReporter *reporter) {
  llvm::StringRef policy = getString(options, "policy");
  int value = llvm::StringSwitch<int>(policy)
                  .Case("evict_normal", 1)
                  .Case("evict_first", 2)
                  .Case("evict_last", 3)
                  .Default(0);
  if (!value)
    return fail(reporter, "unknown policy '" + policy +
                              "' (expected evict_normal, evict_first or "
                              "evict_last)");
  bool stores = getBool(options, "stores");
  mlir::Operation *op = unwrap(root);
  auto attr = mlir::IntegerAttr::get(
      mlir::IntegerType::get(op->getContext(), 32), value);
  op->walk([&](mlir::Operation *nested) {
    llvm::StringRef name = nested->getName().getStringRef();
    if (name == "tt.load" || (stores && name == "tt.store"))
      nested->setAttr("evict", attr);
  });
  return TPX_SUCCESS;
}

static const TpxPassOption kOptions[] = {
    {"policy", "evict_normal, evict_first or evict_last",
     stringValue("evict_last")},
    {"stores", "also set the policy of tt.store", boolValue(false)},
};

static const TpxPassInfo kPasses[] = {{
    "tt-example-eviction-policy",
    "Set the cache eviction policy of tt.load (and tt.store)",
    /*anchorOp=*/nullptr,
    kOptions,
    2,
    runEvictionPolicy,
    /*userData=*/nullptr,
    /*dependentDialects=*/nullptr,
}};

static TpxStatus applyEvictLast(const TpxPipelineEditor *editor, void *,
                                TpxReporter *) {
  return editor->append(editor->opaque, "ttir",
                        "tt-example-eviction-policy{policy=evict_last}");
}

static const TpxPipelineExtensionInfo kExtensions[] = {{
    "example-evict-last",
    "Mark every load of the kernel evict_last at the end of ttir",
    applyEvictLast,
    nullptr,
}};

static const TpxPluginInfo kInfo = {
    TPX_PLUGIN_INFO_HEADER("example-eviction-policy", "1.0"),
    kPasses,
    1,
    /*dialects=*/nullptr,
    0,
    /*dslOps=*/nullptr,
    0,
    kExtensions,
    1,
};

extern "C" TPX_PLUGIN_EXPORT const TpxPluginInfo *tpxGetPluginInfo(void) {
  return &kInfo;
}
