//===- TTToTPXGPU.h - placing tt tensors in tpxgpu layouts ------*- C++ -*-===//
#ifndef TPX_CONVERSION_TTTOTPXGPU_TTTOTPXGPU_H
#define TPX_CONVERSION_TTTOTPXGPU_TTTOTPXGPU_H

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tpx {

#define GEN_PASS_DECL
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"

namespace tpxgpu {

/// The layout convert-tt-to-tpxgpu gives a tensor no op constrains: order
/// fastest-last-dimension first, each thread holding one vector of up to 16
/// bytes along the last dimension, threads and then warps spread from the
/// fastest dimension to the slowest; what is left over replicates along the
/// slowest dimension. For a tensor of pointers the vector width follows the
/// pointee, so that the pointers and the values loaded through them share
/// one layout. `shape` must have power-of-two dimensions. A non-empty
/// `order` (fastest first) replaces the row-major one: the vector runs
/// along `order[0]` (a load whose addresses are contiguous along another
/// dimension, such as attention's K^T). A non-zero `maxVector` caps the
/// elements a thread holds along it (atomics, issued one element at a
/// time, spread over every thread instead of replicating).
BlockedEncodingAttr getDefaultBlockedLayout(
    mlir::MLIRContext *context, llvm::ArrayRef<int64_t> shape,
    mlir::Type elementType, unsigned numWarps, unsigned threadsPerWarp,
    llvm::ArrayRef<unsigned> order = {}, unsigned maxVector = 0);

/// The MMA accumulator layout convert-tt-to-tpxgpu picks for an MxN dot
/// result, or null when no MMA layout fits (the caller falls back to a
/// blocked-parent FMA dot): mma.sync (version 2, m16n8) with the warps
/// split between M and N, or with `warpsAlongM` all along M as far as the
/// tile allows (for chained dots: each warp then owns whole rows, so one
/// dot's accumulator is the next one's A operand without moving data).
NvidiaMmaEncodingAttr chooseNvidiaMmaLayout(mlir::MLIRContext *context,
                                            llvm::ArrayRef<int64_t> shape,
                                            unsigned numWarps,
                                            unsigned threadsPerWarp,
                                            bool warpsAlongM = false);

/// The MFMA accumulator layout for an MxN dot of K-deep operands of
/// `operandType` on `chip` (CDNA4 only: gfx950), or null when none fits;
/// waves split as in chooseNvidiaMmaLayout. For f16/bf16 and 8-bit floats
/// (and a null `operandType`): 32x32x16 blocks when M, N and K allow, else
/// 16x16x32, operands in kWidth 8 (kMfmaOperandKWidth). For i8 (into i32):
/// 32x32x32, else 16x16x64, operands in kWidth 16. Either way the K of a
/// block is its operands' kWidth times 64 / block
/// (getMfmaOperandKWidth).
AmdMfmaEncodingAttr
chooseAmdMfmaLayout(mlir::MLIRContext *context, llvm::StringRef chip,
                    llvm::ArrayRef<int64_t> shape, int64_t k, unsigned numWarps,
                    bool warpsAlongM = false, mlir::Type operandType = {});
/// K elements per lane of the 16-bit and 8-bit float MFMA operands.
inline constexpr unsigned kMfmaOperandKWidth = 8;
/// K elements per lane of MFMA operands of `operandType`: 16 for i8
/// (gfx950's v_mfma_i32_{32x32x32,16x16x64}_i8 read 16 bytes a lane),
/// else kMfmaOperandKWidth.
unsigned getMfmaOperandKWidth(mlir::Type operandType);
/// The kWidth the operands of a dot with accumulator layout `mfma` take:
/// its instruction's K over the lane groups of a block (64 / block).
unsigned getMfmaOperandKWidth(AmdMfmaEncodingAttr mfma);

/// True when `value` is computed from a dot's result through layout
/// conversions and pure elementwise ops (a chained dot's A operand).
bool isComputedFromDot(mlir::Value value);
/// True when `value` reaches a dot's A operand that way.
bool feedsDotOperandA(mlir::Value value);

/// kWidth of a dot operand with elements of `elementType` under an
/// mma.sync parent: the K elements one 32-bit register holds.
unsigned getMmaOperandKWidth(mlir::Type elementType);

} // namespace tpxgpu
} // namespace tpx

#endif // TPX_CONVERSION_TTTOTPXGPU_TTTOTPXGPU_H
