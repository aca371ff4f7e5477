//===- TPXGPUToNVVMPasses.td - SIMT code generation for NVIDIA GPUs -------===//
#ifndef TPX_CONVERSION_TPXGPUTONVVM_PASSES_TD
#define TPX_CONVERSION_TPXGPUTONVVM_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTPXGPUToNVVM : Pass<"convert-tpxgpu-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lower a TTIR module with tpxgpu layouts to LLVM and NVVM";
  let description = [{
    Every tensor becomes, in each thread, a struct of the registers its
    linear layout assigns; tt ops become per-register LLVM ops, predicated
    PTX memory accesses, warp shuffles, shared-memory exchanges and
    mma.sync; the kernel becomes an `nvvm.kernel` llvm.func launched with
    num-warps * 32 threads. Scalar arith/math/scf/cf are left for the
    upstream conversions that follow. It runs only in the NVIDIA `simt`
    pipeline; kernels it does not cover take the `one-thread` pipeline,
    which does not contain it (docs/nvidia-target.md).
  }];
  // scf: tt.map_elementwise regions of several blocks become
  // scf.execute_region (left, like the input's scf, for convert-scf-to-cf).
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TPX_CONVERSION_TPXGPUTONVVM_PASSES_TD
