//===- TPXGPUToNVVMPasses.td - SIMT code generation for NVIDIA GPUs -------===//
#ifndef TPX_CONVERSION_TPXGPUTONVVM_PASSES_TD
#define TPX_CONVERSION_TPXGPUTONVVM_PASSES_TD

include "mlir/Pass/PassBase.td"

def TPXNVIDIASelectCodegen
    : Pass<"tpx-nvidia-select-codegen", "::mlir::ModuleOp"> {
  let summary = "Choose the SIMT code generator or the one-thread path";
  let description = [{
    The first pass of the NVIDIA `ttgir` stage. Walks the TTIR module and
    checks every op against what convert-tpxgpu-to-nvvm lowers. When all are
    covered it sets `tpx.codegen = "simt"`; otherwise it sets
    `tpx.codegen = "scalar"` and emits a remark naming the first op that is
    not covered, and the later passes of ttgir and llir leave the kernel to
    the one-thread-per-program lowering (docs/nvidia-target.md). A tensor
    that would give each of the num-warps * 32 threads more than 256
    32-bit registers (the register file) counts as not covered too: ptxas spends minutes on
    such code, which spills anyway, while the one-thread path compiles it
    to loops.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Warps per program, as convert-tt-to-tpxgpu will use">,
  ];
}

def ConvertTPXGPUToNVVM : Pass<"convert-tpxgpu-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lower a TTIR module with tpxgpu layouts to LLVM and NVVM";
  let description = [{
    Every tensor becomes, in each thread, a struct of the registers its
    linear layout assigns; tt ops become per-register LLVM ops, predicated
    PTX memory accesses, warp shuffles, shared-memory exchanges and
    mma.sync; the kernel becomes an `nvvm.kernel` llvm.func launched with
    num-warps * 32 threads. Scalar arith/math/scf/cf are left for the
    upstream conversions that follow. Modules marked
    `tpx.codegen = "scalar"` are left untouched.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // TPX_CONVERSION_TPXGPUTONVVM_PASSES_TD
