//===- TLXLowerTasksToTPXGPU.cpp - tlx.async_tasks as warp partitions -----===//
//
// On sm_90a a task runs on warps of its own: every tlx.async_tasks becomes
// a tpxgpu.warp_specialize before convert-tt-to-tpxgpu, so that each
// partition's tensors get layouts over its own warps. The default task
// runs on the kernel's num_warps warps (0 .. num_warps-1); every other task
// and each of its replicas gets warps after them: at its
// warp_group_start_id (+ replica x num_warps) when the kernel places its
// tasks, else in order of size, largest first, each at a multiple of its
// warp count (whole, aligned warp groups for wgmma and setmaxnreg).
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

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::tlx;

namespace {
/// One partition: a task and which replica of it.
struct Partition {
  AsyncTaskOp task;
  int32_t replica = 0;
  int32_t warps = 0;
  int32_t start = 0;
  int32_t regs = 0;
};
} // namespace

static constexpr int32_t kWarpsPerGroup = 4;

static FailureOr<SmallVector<Partition>> placeTasks(AsyncTasksOp tasks,
                                                    unsigned numWarps) {
  SmallVector<Partition> partitions, others;
  for (Operation &op : tasks.getBody().front()) {
    auto task = dyn_cast<AsyncTaskOp>(op);
    if (!task)
      continue;
    if (task.getIsDefault()) {
      partitions.push_back({task, 0, int32_t(numWarps), 0,
                            int32_t(task.getNumRegs().value_or(0))});
      continue;
    }
    for (int32_t r = 0; r < task.getReplicate(); ++r)
      others.push_back({task, r, int32_t(*task.getNumWarps()), -1,
                        int32_t(task.getNumRegs().value_or(0))});
  }
  bool explicitStarts = llvm::any_of(others, [](Partition p) {
    return p.task.getWarpGroupStartId().has_value();
  });
  if (explicitStarts) {
    for (Partition &p : others) {
      p.start = *p.task.getWarpGroupStartId() + p.replica * p.warps;
      if (p.start < int32_t(numWarps))
        return p.task.emitOpError("warp_group_start_id = ")
               << *p.task.getWarpGroupStartId()
               << " overlaps the default task's warps 0.." << numWarps - 1;
    }
  } else {
    llvm::stable_sort(others, [](const Partition &a, const Partition &b) {
      return a.warps > b.warps;
    });
    int32_t next = numWarps;
    for (Partition &p : others) {
      next = llvm::alignTo(next, p.warps);
      p.start = next;
      next += p.warps;
    }
  }
  partitions.append(others.begin(), others.end());
  for (Partition &p : partitions)
    if (p.regs && (p.warps % kWarpsPerGroup || p.start % kWarpsPerGroup))
      p.regs = 0; // setmaxnreg needs whole warp groups
  return partitions;
}

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
  FailureOr<SmallVector<Partition>> partitions = placeTasks(tasks, numWarps);
  if (failed(partitions))
    return failure();

  SmallVector<int32_t> warps, starts, regs;
  for (const Partition &p : *partitions) {
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
