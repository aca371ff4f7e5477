//===- TLXLowerTasksToTPXGPU.cpp - tlx.async_tasks as warp partitions -----===//
//
// On sm_90a a task runs on warps of its own: every tlx.async_tasks becomes
// a tpxgpu.warp_specialize before convert-tt-to-tpxgpu, so that each
// partition's tensors get layouts over its own warps, placed as
// TLXTaskPlacement.cpp says.
//
// num_regs becomes the partition's setmaxnreg count where the task is made
// of whole warp groups; a smaller task (a one-warp producer) keeps the
// launch's registers, as setmaxnreg works on warp groups.
//
// A task's tensors computed outside are recomputed inside it (their
// layouts outside are over the kernel's warps, not the task's); scalars,
// buffers, barriers and descriptors are the same in every thread and are
// used as they are.
//
//===----------------------------------------------------------------------===//
#include "TLXTasks.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::tlx;

/// Atomics outside the tasks would run once per warp beyond the kernel's
/// own (every warp of the block runs the code around the partitions).
static LogicalResult checkOutsideTasks(tt::FuncOp kernel) {
  WalkResult result = kernel.walk([&](Operation *op) {
    if (op->getParentOfType<AsyncTasksOp>())
      return WalkResult::skip();
    if (isa<tt::AtomicRMWOp, tt::AtomicCASOp>(op)) {
      op->emitOpError("outside tlx.async_tasks in a kernel with tasks: on "
                      "sm_90a every warp of the block runs the code around "
                      "the tasks, so the atomic would be applied more than "
                      "once; move it into a task");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

static LogicalResult lower(AsyncTasksOp tasks, unsigned numWarps) {
  auto kernel = dyn_cast<tt::FuncOp>(tasks->getParentOp());
  if (!kernel || !kernel.isPublic())
    return tasks.emitOpError("must be at the top level of the kernel on "
                             "sm_90a (not in a loop, a condition or a called "
                             "function): its tasks are branches on the warp "
                             "id there");
  for (Operation &op : tasks.getBody().front())
    if (auto task = dyn_cast<AsyncTaskOp>(op))
      if (failed(rematerializeCaptures(
              task, [](Type type) { return !isa<RankedTensorType>(type); },
              "scalars, pointers, buffers, barriers, descriptors")))
        return failure();
  FailureOr<SmallVector<TaskPartition>> partitions =
      placeTasks(tasks, numWarps);
  if (failed(partitions))
    return failure();

  SmallVector<int32_t> warps, starts, regs;
  for (const TaskPartition &p : *partitions) {
    warps.push_back(p.warps);
    starts.push_back(p.start);
    regs.push_back(p.regs);
  }
  OpBuilder b(tasks);
  auto split = tpxgpu::WarpSpecializeOp::create(
      b, tasks.getLoc(), warps, starts, regs, partitions->size());
  for (auto [region, p] : llvm::zip(split.getPartitions(), *partitions)) {
    Block *block = b.createBlock(&region);
    IRMapping mapping;
    for (Operation &op : p.task.getBody().front().without_terminator())
      b.clone(op, mapping);
    tpxgpu::WarpYieldOp::create(b, p.task.getLoc());
    SmallVector<AsyncTaskReplicaIdOp> ids;
    block->walk([&](AsyncTaskReplicaIdOp id) { ids.push_back(id); });
    for (AsyncTaskReplicaIdOp id : ids) {
      b.setInsertionPoint(id);
      id.replaceAllUsesWith(
          arith::ConstantIntOp::create(b, id.getLoc(), p.replica, 32)
              .getResult());
      id.erase();
    }
  }
  tasks.erase();
  return success();
}

LogicalResult tpx::tlx::lowerTasksToTPXGPU(ModuleOp module, unsigned numWarps) {
  SmallVector<AsyncTasksOp> all;
  module.walk([&](AsyncTasksOp tasks) { all.push_back(tasks); });
  llvm::SetVector<tt::FuncOp> kernels;
  for (AsyncTasksOp tasks : all)
    if (auto kernel = tasks->getParentOfType<tt::FuncOp>())
      kernels.insert(kernel);
  for (tt::FuncOp kernel : kernels)
    if (failed(checkOutsideTasks(kernel)))
      return failure();
  for (AsyncTasksOp tasks : all)
    if (failed(lower(tasks, numWarps)))
      return failure();
  return success();
}
