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

def TPXGPURemoveLayoutConversions
    : Pass<"tpxgpu-remove-layout-conversions", "::mlir::ModuleOp"> {
  let summary = "Remove tpxgpu.convert_layout ops that recomputation or "
                "loop-carried layouts make unnecessary";
  let description = [{
    A layout conversion that moves data between threads goes through shared
    memory with two barriers. This pass removes the ones it can:
    - rematerialization: `convert_layout(x)` where `x` is computed only from
      constants, splats, make_range, expand_dims, broadcast and elementwise
      ops (no memory access) is replaced by recomputing `x` directly in the
      wanted layout; a conversion of a conversion becomes one conversion;
    - loop-carried layouts: an scf.for argument that is only read through a
      conversion to layout L and whose yielded value is a conversion from L
      is carried in L (the MMA accumulator of a matmul loop), with one
      conversion before and after the loop instead of two per iteration.
    Unused ops left behind are erased by the canonicalize that follows.
  }];
  let dependentDialects = ["::tpx::tpxgpu::TPXGPUDialect"];
}

#endif // TPX_CONVERSION_TTTOTPXGPU_PASSES_TD
