//===- TLXPlugin.cpp - TLX's plugin entry point ---------------------------===//
//
// TLX is loaded like any third-party plugin: this table is all tpx knows of
// it. It provides the `tlx` dialect, the lowering passes `tlx-lower-to-tt`
// (a program as one thread: the CPU) and `tlx-lower-to-tpxgpu` (NVIDIA's
// SIMT path, sm_90a) and the pipeline extension `tlx`, which the Python
// module selects for every kernel that uses a TLX op (docs/tlx.md).
//
//===----------------------------------------------------------------------===//
#include "TLX/TLXDialect.h"
#include "TLXLowerToTPXGPU.h"
#include "TLXLowerToTT.h"
#include "TLXTasks.h"

#include "tpx/Dialect/TPXGPU/IR/SIMTLoweringInterface.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Plugin/PluginSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <iterator>

using namespace tpx::plugin;

// The driver fills num-warps with the kernel's (docs/plugins.md).
static const TpxPassOption kNumWarpsOptions[] = {
    {"num-warps", "the kernel's num_warps: the default task's warps",
     intValue(4)},
};

/// The kernel's num_warps (the default task's warps), as the driver fills
/// it in (docs/plugins.md).
static TpxStatus getNumWarps(const TpxOptionValues *options, const char *pass,
                             TpxReporter *reporter, int64_t &numWarps) {
  numWarps = getInt(options, "num-warps");
  if (numWarps <= 0 || numWarps > 32 || !llvm::isPowerOf2_64(numWarps))
    return fail(reporter, std::string(pass) +
                              ": num-warps must be a power of two from 1 to "
                              "32, got " +
                              std::to_string(numWarps));
  return TPX_SUCCESS;
}

static TpxStatus runLowerToTT(MlirOperation root,
                              const TpxOptionValues *options, void *,
                              TpxReporter *reporter) {
  int64_t numWarps;
  if (TpxStatus status =
          getNumWarps(options, "tlx-lower-to-tt", reporter, numWarps))
    return status;
  if (mlir::failed(tpx::tlx::lowerToTT(unwrap(root), numWarps)))
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

static TpxStatus runLowerToTPXGPU(MlirOperation root, const TpxOptionValues *,
                                  void *, TpxReporter *reporter) {
  auto module = llvm::dyn_cast<mlir::ModuleOp>(unwrap(root));
  if (!module)
    return fail(reporter, "tlx-lower-to-tpxgpu runs on a builtin.module");
  if (mlir::failed(tpx::tlx::lowerToTPXGPU(module)))
    return fail(reporter, "tlx-lower-to-tpxgpu failed (see the diagnostics "
                          "above)");
  return TPX_SUCCESS;
}

static TpxStatus runLowerTasksToTPXGPU(MlirOperation root,
                                       const TpxOptionValues *options, void *,
                                       TpxReporter *reporter) {
  auto module = llvm::dyn_cast<mlir::ModuleOp>(unwrap(root));
  if (!module)
    return fail(reporter, "tlx-lower-tasks-to-tpxgpu runs on a builtin.module");
  int64_t numWarps;
  if (TpxStatus status =
          getNumWarps(options, "tlx-lower-tasks-to-tpxgpu", reporter, numWarps))
    return status;
  if (mlir::failed(tpx::tlx::lowerTasksToTPXGPU(module, numWarps)))
    return fail(reporter, "tlx-lower-tasks-to-tpxgpu failed (see the "
                          "diagnostics above)");
  return TPX_SUCCESS;
}

namespace {
/// The SIMT path takes TLX kernels: tlx-lower-to-tpxgpu (which the `tlx`
/// extension puts right after convert-tt-to-tpxgpu) lowers every tlx op,
/// and what it does not lower yet is an error naming the op there rather
/// than a silent fall back to the one-thread path.
struct TLXSIMTLowering : tpx::tpxgpu::SIMTLoweringDialectInterface {
  using SIMTLoweringDialectInterface::SIMTLoweringDialectInterface;
  std::string getUncoveredReason(mlir::Operation *) const override {
    return "";
  }
};
} // namespace

static TpxStatus registerTLX(MlirDialectRegistry registry, void *,
                             TpxReporter *) {
  mlir::DialectRegistry &r = *unwrap(registry);
  r.insert<tpx::tlx::TLXDialect>();
  r.addExtension(+[](mlir::MLIRContext *, tpx::tlx::TLXDialect *dialect) {
    dialect->addInterfaces<TLXSIMTLowering>();
  });
  return TPX_SUCCESS;
}

static const TpxDialectInfo kDialects[] = {{
    "tlx",
    registerTLX,
    nullptr,
}};

static const TpxPassInfo kPasses[] = {
    {
        "tlx-lower-to-tt",
        "Lower TLX ops to tt ops for a target that runs a program as one "
        "thread "
        "(the CPU): buffers on the stack, async operations complete at once",
        /*anchorOp=*/nullptr,
        kNumWarpsOptions,
        1,
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
    },
    {
        "tlx-lower-tasks-to-tpxgpu",
        "Turn tlx.async_tasks into tpxgpu.warp_specialize for NVIDIA GPUs, "
        "before convert-tt-to-tpxgpu: each task (and replica) on warps of "
        "its own, the default task on the kernel's num-warps",
        /*anchorOp=*/"builtin.module",
        kNumWarpsOptions,
        1,
        runLowerTasksToTPXGPU,
        nullptr,
        dependOn<tpx::tpxgpu::TPXGPUDialect, mlir::arith::ArithDialect>,
    },
    {
        "tlx-lower-to-tpxgpu",
        "Lower TLX ops to tpxgpu ops for NVIDIA GPUs with wgmma (sm_90a) "
        "and AMD CDNA4 (gfx950), after convert-tt-to-tpxgpu: buffers in "
        "shared memory (LDS), async copies, wgmma or MFMA dots, and the "
        "barriers between threads",
        /*anchorOp=*/"builtin.module",
        /*options=*/nullptr,
        0,
        runLowerToTPXGPU,
        nullptr,
        dependOn<tpx::tpxgpu::TPXGPUDialect, mlir::arith::ArithDialect,
                 mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect>,
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
  // NVIDIA: the SIMT pipeline, once tensors have layouts. The edit fails on
  // the one-thread pipeline, which therefore has no TLX lowering: a TLX
  // kernel that another op keeps off the SIMT path is an error there.
  // AMD (gfx...): the same two passes; tlx-lower-to-tpxgpu reads the
  // module's tpxgpu.target.
  if (target.starts_with("sm_") || target.starts_with("gfx")) {
    if (TpxStatus status = editor->insertBefore(editor->opaque, "ttgir",
                                                "convert-tt-to-tpxgpu",
                                                "tlx-lower-tasks-to-tpxgpu"))
      return status;
    return editor->insertAfter(editor->opaque, "ttgir", "convert-tt-to-tpxgpu",
                               "tlx-lower-to-tpxgpu");
  }
  return fail(reporter, "TLX has no lowering for target '" + target +
                            "' yet; TLX kernels compile for the CPU target "
                            "(--target cpu), NVIDIA's sm_90a and AMD's gfx950 "
                            "(docs/tlx.md)");
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
    std::size(kPasses),
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
