//===- TTTypes.h - tt types -------------------------------------*- C++ -*-===//
#ifndef TPX_DIALECT_TT_IR_TTTYPES_H
#define TPX_DIALECT_TT_IR_TTTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "tpx/Dialect/TT/IR/TTTypes.h.inc"

namespace tpx::tt {

/// The shape of a ranked tensor; empty for a scalar.
llvm::ArrayRef<int64_t> getShapeOrEmpty(mlir::Type type);

/// `type` with its element type replaced by `elementType` (keeps the shape
/// and encoding of a tensor; a scalar becomes `elementType`).
mlir::Type withElementType(mlir::Type type, mlir::Type elementType);

/// The pointee of a scalar pointer or of a tensor of pointers, shaped like
/// `ptrLike` (`tensor<8x!tt.ptr<f32>>` -> `tensor<8xf32>`); for a block
/// pointer the pointee tensor. Null if `ptrLike` is not pointer-like.
mlir::Type getPointeeTypeOf(mlir::Type ptrLike);

/// i1 shaped like `type` (a scalar i1 for a scalar).
mlir::Type getI1SameShape(mlir::Type type);

/// For a block pointer `!tt.ptr<tensor<..xT>, as>`, the scalar pointer
/// `!tt.ptr<T, as>` its base has.
mlir::Type getBlockBaseType(mlir::Type blockPointer);

} // namespace tpx::tt

#endif // TPX_DIALECT_TT_IR_TTTYPES_H
