//===- TLXTaskPlacement.cpp - which warps each tlx.async_task runs on -----===//
//
// The default task runs on the kernel's num_warps warps (0 .. num_warps-1);
// every other task and each of its replicas gets warps after them: at its
// warp_group_start_id (+ replica x num_warps) when the kernel places its
// tasks, else in order of size, largest first, each at a multiple of its
// warp count (whole, aligned warp groups for wgmma and setmaxnreg). The
// GPU runs each task on those warps; the CPU, which runs a task as one
// thread, uses the placement for tlx.thread_id.
//
//===----------------------------------------------------------------------===//
#include "TLXTasks.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::tlx;

static constexpr int32_t kWarpsPerGroup = 4;

FailureOr<SmallVector<TaskPartition>> tpx::tlx::placeTasks(AsyncTasksOp tasks,
                                                           unsigned numWarps) {
  SmallVector<TaskPartition> partitions, others;
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
  bool explicitStarts = llvm::any_of(others, [](TaskPartition p) {
    return p.task.getWarpGroupStartId().has_value();
  });
  if (explicitStarts) {
    for (TaskPartition &p : others) {
      p.start = *p.task.getWarpGroupStartId() + p.replica * p.warps;
      if (p.start < int32_t(numWarps))
        return p.task.emitOpError("warp_group_start_id = ")
               << *p.task.getWarpGroupStartId()
               << " overlaps the default task's warps 0.." << numWarps - 1;
    }
  } else {
    // Stable: the replicas of a task stay consecutive, each one task size
    // after the last.
    llvm::stable_sort(others,
                      [](const TaskPartition &a, const TaskPartition &b) {
                        return a.warps > b.warps;
                      });
    int32_t next = numWarps;
    for (TaskPartition &p : others) {
      next = llvm::alignTo(next, p.warps);
      p.start = next;
      next += p.warps;
    }
  }
  partitions.append(others.begin(), others.end());
  for (TaskPartition &p : partitions)
    if (p.regs && (p.warps % kWarpsPerGroup || p.start % kWarpsPerGroup))
      p.regs = 0; // setmaxnreg needs whole warp groups
  return partitions;
}
