//===- BlockValueConversion.h - block values as their parts -----*- C++ -*-===//
//
// A block pointer or tensor descriptor is a handful of scalars (base,
// shape, strides, offsets, ...) that Triton lets a kernel pass through
// scf.if / scf.while / scf.for results, function arguments and results.
// tpxgpu-lower-block-pointers and tpxgpu-lower-tensor-descriptors turn
// them into those scalars with a 1:N type conversion: scf ops, tt.call,
// tt.return and the signatures of non-kernel tt.funcs carry the parts, and
// the accesses become masked pointer-tensor loads and stores
// (BlockAccess.h).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_CONVERSION_TTTOTPXGPU_BLOCKVALUECONVERSION_H
#define TPX_LIB_CONVERSION_TTTOTPXGPU_BLOCKVALUECONVERSION_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tpx {

/// The values of `parts` (an adaptor's 1:N operands) in one list.
llvm::SmallVector<mlir::Value>
flattenParts(llvm::ArrayRef<mlir::ValueRange> parts);

/// Converts every op of `module` that makes, carries or uses a value of a
/// type `converter` splits, with `patterns` for the ops that make and use
/// them. The carriers (scf ops, tt.call, tt.return, non-kernel tt.func
/// signatures) are added here. `isKept` names ops (and functions, with
/// their arguments) that stay as they are; the values they make may reach
/// only ops that stay too. Returns failure, leaving `module` unchanged, when
/// a kept value reaches another op, a kernel's signature has such a value
/// and is not kept, or an op other than a carrier or one `canConvert`
/// accepts touches one: the SIMT coverage check then names that op.
mlir::LogicalResult
convertBlockValues(mlir::ModuleOp module, const mlir::TypeConverter &converter,
                   mlir::RewritePatternSet &&patterns,
                   llvm::function_ref<bool(mlir::Operation *)> canConvert,
                   llvm::function_ref<bool(mlir::Operation *)> isKept);

} // namespace tpx

#endif // TPX_LIB_CONVERSION_TTTOTPXGPU_BLOCKVALUECONVERSION_H
