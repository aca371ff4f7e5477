//===- TTToTPXGPUPasses.td - placing tt tensors in tpxgpu layouts ---------===//
#ifndef TPX_CONVERSION_TTTOTPXGPU_PASSES_TD
#define TPX_CONVERSION_TTTOTPXGPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTTToTPXGPU : Pass<"convert-tt-to-tpxgpu", "::mlir::ModuleOp"> {
  let summary = "Give every tensor of a TTIR module a distributed layout";
  let description = [{
    The first pass of the `ttgir` stage. Sets the module attributes
    `tpxgpu.num-warps` and `tpxgpu.threads-per-warp`, gives every ranked
    tensor value a distributed layout (#tpxgpu.blocked by default, slices
    for reductions and expand_dims operands, nvidia_mma / dot_op around
    tt.dot) and inserts tpxgpu.convert_layout wherever an operand's layout
    differs from the one its user needs. Nothing is lowered. The rules are
    in docs/tpxgpu-dialect.md, section "convert-tt-to-tpxgpu".
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Warps per CTA (a power of two)">,
    Option<"threadsPerWarp", "threads-per-warp", "unsigned", /*default=*/"32",
           "Threads per warp (32 for NVIDIA, 64 for AMD CDNA)">
  ];
  let dependentDialects = ["::tpx::tpxgpu::TPXGPUDialect"];
}

#endif // TPX_CONVERSION_TTTOTPXGPU_PASSES_TD
