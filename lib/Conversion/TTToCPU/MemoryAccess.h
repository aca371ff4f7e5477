//===- MemoryAccess.h - scalar loads, stores and atomics on the host -*- C++ -*-===//
#ifndef TPX_LIB_CONVERSION_TTTOCPU_MEMORYACCESS_H
#define TPX_LIB_CONVERSION_TTTOCPU_MEMORYACCESS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace tpx::cpu {

/// Loads one element of `type` (the converted element type) from the i64
/// `address`. i1 lives in memory as a byte.
mlir::Value loadElement(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value address, mlir::Type type,
                        bool isVolatile = false);

/// Stores `value` at the i64 `address`.
void storeElement(mlir::OpBuilder &b, mlir::Location loc, mlir::Value address,
                  mlir::Value value);

/// `then()` when `condition` holds, else `otherwise()`; a null condition
/// means always. Both produce a value of `type`.
mlir::Value buildGuarded(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value condition, mlir::Type type,
                         llvm::function_ref<mlir::Value(mlir::OpBuilder &,
                                                        mlir::Location)>
                             then,
                         llvm::function_ref<mlir::Value(mlir::OpBuilder &,
                                                        mlir::Location)>
                             otherwise);

/// Runs `body` only when `condition` holds (null: always).
void buildGuardedEffect(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value condition,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::Location)> body);

/// base + sum(index_d * stride_d) * elementSize, all i64.
mlir::Value elementAddress(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value base, mlir::ValueRange indices,
                           mlir::ValueRange strides, int64_t elementSize);

/// 0 <= index < bound for i64 values; conjunction over all given pairs, or
/// null when `indices` is empty.
mlir::Value inBounds(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::ValueRange indices, mlir::ValueRange bounds);

/// Sign-extends (or keeps) an integer to i64.
mlir::Value toI64(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);

/// Atomic read-modify-write of one element; returns the old value.
mlir::Value atomicUpdate(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::LLVM::AtomicBinOp kind, mlir::Value address,
                         mlir::Value value, mlir::LLVM::AtomicOrdering order);

/// The condition under which an element access at `address` happens: the
/// lane's `mask` (null: always) and, with bounds checking, the runtime's
/// verdict on `[address, address + bytes)` (asked only for active lanes).
/// Null means unconditional.
mlir::Value guardAccess(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Operation *op, mlir::Value mask,
                        mlir::Value address, int64_t bytes, bool isWrite,
                        bool boundsCheck);

} // namespace tpx::cpu

#endif // TPX_LIB_CONVERSION_TTTOCPU_MEMORYACCESS_H
