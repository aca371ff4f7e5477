//===- TLXTasks.h - what the task lowerings of the targets share -*- C++
//-*-===//
#ifndef TPX_TLX_TLXTASKS_H
#define TPX_TLX_TLXTASKS_H

#include "TLX/TLXDialect.h"

#include "mlir/IR/BuiltinOps.h"

namespace tpx::tlx {
/// Clones into `task` the pure ops computing the values it uses from
/// outside that `canShare` rejects, until it uses only values it accepts.
/// A value no pure op recomputes is an error at its user, saying that a
/// task can share only `shareable`.
mlir::LogicalResult
rematerializeCaptures(AsyncTaskOp task,
                      llvm::function_ref<bool(mlir::Type)> canShare,
                      llvm::StringRef shareable);

/// tlx-lower-tasks-to-tpxgpu: every tlx.async_tasks of `module` becomes a
/// tpxgpu.warp_specialize, the default task on the kernel's `numWarps`
/// warps, each other task (and replica) on warps after them
/// (TLXLowerTasksToTPXGPU.cpp).
mlir::LogicalResult lowerTasksToTPXGPU(mlir::ModuleOp module,
                                       unsigned numWarps);
} // namespace tpx::tlx

#endif // TPX_TLX_TLXTASKS_H
