//===- TPXGPUAttrs.h - tpxgpu layouts and layout helpers --------*- C++ -*-===//
#ifndef TPX_DIALECT_TPXGPU_IR_TPXGPUATTRS_H
#define TPX_DIALECT_TPXGPU_IR_TPXGPUATTRS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TensorEncoding.h"

#include <array>

#define GET_ATTRDEF_CLASSES
#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h.inc"

namespace tpx::tpxgpu {

/// True for the register (tensor) layouts: blocked, slice, nvidia_mma,
/// amd_mfma and dot_op.
bool isDistributedLayout(mlir::Attribute layout);
/// True for the shared-memory layouts: swizzled_shared and nvmma_shared.
bool isSharedLayout(mlir::Attribute layout);

/// The rank of tensors a distributed or shared layout describes (for a
/// shared layout, the trailing tile dimensions of a memdesc).
unsigned getLayoutRank(mlir::Attribute layout);

/// Threads per warp along each dimension; their product is the warp size
/// the layout was made for. For an MMA layout the dimensions are [M, N].
llvm::SmallVector<unsigned> getThreadsPerWarp(mlir::Attribute layout);
/// Warps along each dimension; their product is the CTA's warp count.
llvm::SmallVector<unsigned> getWarpsPerCTA(mlir::Attribute layout);
/// The warp size a distributed layout needs (product of getThreadsPerWarp).
unsigned getWarpSize(mlir::Attribute layout);
/// The warp count a distributed layout needs (product of getWarpsPerCTA).
unsigned getNumWarps(mlir::Attribute layout);

/// For a blocked layout (or a slice of one) and a tensor shape, how many
/// elements each thread holds along each dimension. A dimension the CTA
/// tile does not fill still costs sizePerThread registers per thread
/// (replicated data); a larger one wraps, repeating the block. Empty if the
/// layout is not blocked-based.
llvm::SmallVector<unsigned> getElemsPerThread(mlir::Attribute layout,
                                              llvm::ArrayRef<int64_t> shape);
/// The product of getElemsPerThread: registers per thread for the tensor.
unsigned getTotalElemsPerThread(mlir::Attribute layout,
                                llvm::ArrayRef<int64_t> shape);

/// tt.join's result layout for operands in `layout`: the new minor
/// dimension (size 2) is the fastest register of each thread (sizePerThread
/// 2, one lane and one warp along it, first in `order`), so the join is a
/// register interleaving of its operands.
BlockedEncodingAttr getJoinedLayout(BlockedEncodingAttr layout);
/// The inverse for tt.split: the results' layout when `layout` holds the
/// source's size-2 minor dimension as getJoinedLayout puts it, else null.
BlockedEncodingAttr getSplitLayout(BlockedEncodingAttr layout);

/// The shape of the parent tensor a slice is taken from: `shape` with a 1
/// inserted at `dim`.
llvm::SmallVector<int64_t> getSliceParentShape(llvm::ArrayRef<int64_t> shape,
                                               unsigned dim);

/// Checks that a tensor of `shape` may carry `layout`: the ranks match,
/// every dimension is a positive power of two (layouts distribute by
/// halving), and an MMA accumulator or dot operand covers whole
/// instructions. Shared layouts are rejected: they belong on memdescs.
mlir::LogicalResult
verifyLayoutForShape(mlir::Attribute layout, llvm::ArrayRef<int64_t> shape,
                     llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// The layout of a 2-D shared buffer seen with its two dimensions swapped:
/// nvmma_shared with `transposed` flipped, padded_shared with its order
/// reversed (the same bytes); null for other layouts.
mlir::Attribute getTransposedSharedLayout(mlir::Attribute layout);

/// The warp size of the module around `op` (`tpxgpu.threads-per-warp`,
/// default 32) and its warp count (`tpxgpu.num-warps`, 0 when not given).
unsigned getModuleThreadsPerWarp(mlir::Operation *op);
unsigned getModuleNumWarps(mlir::Operation *op);
/// The cluster extents of the module around `op` (`tpxgpu.cluster-dims`,
/// {1, 1, 1} when not given) and the CTAs of a cluster (their product).
std::array<int32_t, 3> getModuleClusterDims(mlir::Operation *op);
unsigned getModuleClusterSize(mlir::Operation *op);
/// The GPU the module around `op` is compiled for (`tpxgpu.target`), empty
/// when not given; and whether it is an AMD one (`gfx...`). Without the
/// attribute a module is NVIDIA's, as before the attribute existed.
llvm::StringRef getModuleTarget(mlir::Operation *op);
bool isAMDModule(mlir::Operation *op);
/// The warps that run `op`: those of the tpxgpu.warp_specialize partition
/// it is in, else the module's (0 when not given).
unsigned getNumWarpsAt(mlir::Operation *op);
/// The first warp of the tpxgpu.warp_specialize partition `op` is in, 0
/// outside partitions (wgmma needs warp groups that start at a multiple of
/// 4).
unsigned getWarpStartAt(mlir::Operation *op);
/// The warps a block running kernel `func` needs: the module's, or more
/// where the partitions of a tpxgpu.warp_specialize in it end beyond them.
unsigned getBlockWarps(mlir::Operation *func);

/// Checks the layouts of `op`'s tensor operands and results against a warp
/// size and a warp count (0: not checked), naming the offending value.
mlir::LogicalResult verifyLayoutsInContext(mlir::Operation *op,
                                           unsigned threadsPerWarp,
                                           unsigned numWarps);

} // namespace tpx::tpxgpu

#endif // TPX_DIALECT_TPXGPU_IR_TPXGPUATTRS_H
