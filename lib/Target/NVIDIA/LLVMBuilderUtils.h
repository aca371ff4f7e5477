//===- LLVMBuilderUtils.h - small LLVM-dialect helpers for NVIDIA passes --===//
#ifndef TPX_LIB_TARGET_NVIDIA_LLVMBUILDERUTILS_H
#define TPX_LIB_TARGET_NVIDIA_LLVMBUILDERUTILS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace tpx::nvidia {

/// The llvm.func `name` of `module`, declared with `type` if absent.
mlir::LLVM::LLVMFuncOp getOrDeclareFunction(mlir::ModuleOp module,
                                            llvm::StringRef name,
                                            mlir::LLVM::LLVMFunctionType type);

/// Address of a NUL-terminated constant copy of `text` (one global per
/// distinct text, named `<prefix>N`).
mlir::Value getStringAddress(mlir::OpBuilder &builder, mlir::Location loc,
                             mlir::ModuleOp module, llvm::StringRef prefix,
                             llvm::StringRef text);

/// An i32 / i64 constant.
mlir::Value constantInt(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Type type, int64_t value);

} // namespace tpx::nvidia

#endif // TPX_LIB_TARGET_NVIDIA_LLVMBUILDERUTILS_H
