//===- TPXGPUOpUtils.h - checks shared by the tpxgpu op verifiers ---------===//
#ifndef TPX_LIB_DIALECT_TPXGPU_IR_TPXGPUOPUTILS_H
#define TPX_LIB_DIALECT_TPXGPU_IR_TPXGPUOPUTILS_H

#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"

#include <string>

namespace tpx::tpxgpu::detail {

/// `64x64` (for diagnostics).
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// `value` (named `what` in the diagnostic) is a tensor with a distributed
/// tpxgpu layout.
mlir::LogicalResult verifyDistributedTensor(mlir::Operation *op,
                                            mlir::Type type,
                                            llvm::StringRef what);

/// The tensor and the buffer hold the same shape and element type.
mlir::LogicalResult verifyTensorMatchesBuffer(mlir::Operation *op,
                                              mlir::RankedTensorType tensor,
                                              MemDescType buffer,
                                              llvm::StringRef tensorWhat,
                                              llvm::StringRef bufferWhat);

/// `buffer` may be written (it is `mutable`).
mlir::LogicalResult verifyMutable(mlir::Operation *op, MemDescType buffer,
                                  llvm::StringRef what);

} // namespace tpx::tpxgpu::detail

#endif // TPX_LIB_DIALECT_TPXGPU_IR_TPXGPUOPUTILS_H
