//===- TLXPlugin.cpp - TLX's plugin entry point ---------------------------===//
//
// TLX is loaded like any third-party plugin: this table is all tpx knows of
// it. It provides the `tlx` dialect, the lowering pass `tlx-lower-to-tt`
// and the pipeline extension `tlx`, which the Python module selects for
// every kernel that uses a TLX op (docs/tlx.md).
//
//===----------------------------------------------------------------------===//
#include "TLX/TLXDialect.h"
#include "TLXLowerToTT.h"

#include "tpx/Plugin/PluginSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace tpx::plugin;

static TpxStatus runLowerToTT(MlirOperation root, const TpxOptionValues *,
                              void *, TpxReporter *reporter) {
  if (mlir::failed(tpx::tlx::lowerToTT(unwrap(root))))
    return fail(reporter, "tlx-lower-to-tt failed (see the diagnostics "
                          "above)");
  return TPX_SUCCESS;
}

static TpxStatus runResolveFunctionAddresses(MlirOperation root,
                                             const TpxOptionValues *, void *,
                                             TpxReporter *reporter) {
  if (mlir::failed(tpx::tlx::resolveFunctionAddresses(unwrap(root))))
    return fail(reporter, "tlx-cpu-resolve-function-addresses failed (see the "
                          "diagnostics above)");
  return TPX_SUCCESS;
}

static const TpxDialectInfo kDialects[] = {{
    "tlx",
    insertDialects<tpx::tlx::TLXDialect>,
    nullptr,
}};

static const TpxPassInfo kPasses[] = {
    {
        "tlx-lower-to-tt",
        "Lower TLX ops to tt ops for a target that runs a program as one "
        "thread "
        "(the CPU): buffers on the stack, async operations complete at once",
        /*anchorOp=*/nullptr,
        /*options=*/nullptr,
        0,
        runLowerToTT,
        nullptr,
        dependOn<tpx::tt::TTDialect, mlir::arith::ArithDialect,
                 mlir::LLVM::LLVMDialect, mlir::scf::SCFDialect>,
    },
    {
        "tlx-cpu-resolve-function-addresses",
        "Replace tlx.function_address with the address of its llvm.func (the "
        "CPU lowering's task trampolines)",
        /*anchorOp=*/nullptr,
        /*options=*/nullptr,
        0,
        runResolveFunctionAddresses,
        nullptr,
        dependOn<mlir::LLVM::LLVMDialect>,
    }};

/// The `tlx` extension: where each target lowers TLX.
static TpxStatus applyTLX(const TpxPipelineEditor *editor, void *,
                          TpxReporter *reporter) {
  llvm::StringRef target = editor->target ? editor->target : "";
  if (target == "cpu") {
    if (TpxStatus status = editor->insertAfter(editor->opaque, "ttir", "inline",
                                               "tlx-lower-to-tt"))
      return status;
    return editor->insertAfter(editor->opaque, "llir", "convert-func-to-llvm",
                               "tlx-cpu-resolve-function-addresses");
  }
  return fail(reporter, "TLX has no lowering for target '" + target +
                            "' yet; TLX kernels compile for the CPU target "
                            "(--target cpu) (docs/tlx.md)");
}

static const TpxPipelineExtensionInfo kExtensions[] = {{
    "tlx",
    "Lower TLX ops for the compile target",
    applyTLX,
    nullptr,
}};

static const TpxPluginInfo kInfo = {
    TPX_PLUGIN_INFO_HEADER("tlx", "0.1"),
    kPasses,
    2,
    kDialects,
    1,
    nullptr,
    0,
    kExtensions,
    1,
};

extern "C" TPX_PLUGIN_EXPORT const TpxPluginInfo *tpxGetPluginInfo(void) {
  return &kInfo;
}
