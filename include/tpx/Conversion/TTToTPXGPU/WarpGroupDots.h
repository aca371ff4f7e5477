//===- WarpGroupDots.h - which tt.dots run on Hopper's wgmma ----*- C++ -*-===//
//
// tpxgpu-use-wgmma's choice, shared with convert-tt-to-tpxgpu: an fp8 dot
// that wgmma cannot run has its operands widened to f16 there (there is no
// fp8 FMA or mma.sync lowering).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_CONVERSION_TTTOTPXGPU_WARPGROUPDOTS_H
#define TPX_CONVERSION_TTTOTPXGPU_WARPGROUPDOTS_H

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

namespace tpx::tpxgpu {

/// The K of one wgmma instruction (32 bytes of operand row) for `a` x `b`
/// into `acc`, or 0 when wgmma has no form for these types: f16 x f16 or
/// bf16 x bf16 into f32 (16), f32 x f32 into f32 with `precision` tf32
/// (8), any pair of e4m3/e5m2 into f32 (32), i8 x i8 into i32 (32).
int64_t getWarpGroupDotInstrK(mlir::Type a, mlir::Type b, mlir::Type acc,
                              tt::InputPrecision precision);

/// True when the types and shape of `dot` let tpxgpu-use-wgmma run it on
/// `numWarps` warps of 32 lanes: a wgmma form for its types, K a multiple
/// of the instruction's, and an MxN tile that whole warp groups cover.
/// (f16/bf16 dots also need the mma.sync layout convert-tt-to-tpxgpu gives
/// them, which this does not check.)
bool canUseWarpGroupDot(tt::DotOp dot, unsigned numWarps);

/// The version-3 (wgmma) accumulator layout tpxgpu-use-wgmma gives an MxN
/// dot whose instruction K is `instrK` on `numWarps` warps, or null when
/// whole warp groups cannot cover the tile (for passes that make
/// warp_group_dot themselves, such as a plugin's lowering of its async
/// dots).
NvidiaMmaEncodingAttr chooseWarpGroupDotLayout(mlir::MLIRContext *context,
                                               int64_t m, int64_t n,
                                               int64_t instrK,
                                               unsigned numWarps);

} // namespace tpx::tpxgpu

#endif // TPX_CONVERSION_TTTOTPXGPU_WARPGROUPDOTS_H
