//===- BlockAccess.h - pointer tensors for block-shaped accesses -*- C++
//-*-===//
//
// Tensor descriptors and block pointers both describe a block of a strided
// global tensor. As pointer tensors, their loads and stores are ordinary
// masked tt.load / tt.store ops that the layout passes and the SIMT code
// generator handle (and vectorize along a unit stride).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_CONVERSION_TTTOTPXGPU_BLOCKACCESS_H
#define TPX_LIB_CONVERSION_TTTOTPXGPU_BLOCKACCESS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tpx {

/// A block of a strided tensor: element (i0, i1, ...) of the block is at
/// base + sum (offsets[d] + i_d) * strides[d]; it exists when
/// 0 <= offsets[d] + i_d < shape[d] in every dimension.
struct StridedBlock {
  mlir::Value base;                       // !tt.ptr<T>
  llvm::SmallVector<mlir::Value> shape;   // i32 or i64
  llvm::SmallVector<mlir::Value> strides; // i64
  llvm::SmallVector<mlir::Value> offsets; // i32
  mlir::RankedTensorType blockType;       // tensor<... x T>
  /// When set (tensor<blockType.shape[0] x i32>, descriptor gather and
  /// scatter): row i of the block is row `rows[i]` of the tensor, in place
  /// of offsets[0] + i.
  mlir::Value rows;
};

/// The pointer tensor of `block` and the mask of its elements that exist
/// along the dimensions in `checked` (null when none is checked).
std::pair<mlir::Value, mlir::Value>
buildBlockPointers(mlir::OpBuilder &b, mlir::Location loc,
                   const StridedBlock &block, llvm::ArrayRef<int32_t> checked);

/// A splat constant of `type`: zero, or NaN when `nan` and `type` holds
/// floats (Triton's padding options).
mlir::Value buildPadding(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::RankedTensorType type, bool nan);

} // namespace tpx

#endif // TPX_LIB_CONVERSION_TTTOTPXGPU_BLOCKACCESS_H
