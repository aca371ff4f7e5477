//===- TLXTasks.h - what the task lowerings of the targets share -*- C++
//-*-===//
#ifndef TPX_TLX_TLXTASKS_H
#define TPX_TLX_TLXTASKS_H

#include "TLX/TLXDialect.h"

#include "mlir/IR/BuiltinOps.h"

namespace tpx::tlx {
/// One partition of a tlx.async_tasks: a task, which replica of it, and
/// its warps `start .. start + warps - 1` (regs: its setmaxnreg count, 0
/// for none).
struct TaskPartition {
  AsyncTaskOp task;
  int32_t replica = 0;
  int32_t warps = 0;
  int32_t start = 0;
  int32_t regs = 0;
};

/// Places every task (and replica) of `tasks` on warps of the block, the
/// default task on the kernel's `numWarps` (TLXTaskPlacement.cpp); the
/// default task comes first.
mlir::FailureOr<llvm::SmallVector<TaskPartition>> placeTasks(AsyncTasksOp tasks,
                                                             unsigned numWarps);

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
