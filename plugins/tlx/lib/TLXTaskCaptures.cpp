//===- TLXTaskCaptures.cpp - what a task may use from outside -------------===//
//
// A task runs elsewhere than the code around it (another CPU thread, other
// warps), so it can only share values every runner has: each target says
// which types those are. What else a task uses is recomputed inside it when
// pure ops compute it from shareable values.
//
//===----------------------------------------------------------------------===//
#include "TLXTasks.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace tpx::tlx;

LogicalResult tpx::tlx::rematerializeCaptures(AsyncTaskOp task,
                                              function_ref<bool(Type)> canShare,
                                              StringRef shareable) {
  Block &body = task.getBody().front();
  while (true) {
    SetVector<Value> used;
    getUsedValuesDefinedAbove(task.getBody(), used);
    Value value;
    for (Value v : used)
      if (!canShare(v.getType())) {
        value = v;
        break;
      }
    if (!value)
      return success();
    Operation *def = value.getDefiningOp();
    if (!def || def->getNumRegions() != 0 || !isPure(def)) {
      Operation *user = nullptr;
      for (OpOperand &use : value.getUses())
        if (task->isProperAncestor(use.getOwner()))
          user = use.getOwner();
      InFlightDiagnostic diag =
          (user ? user : task.getOperation())
              ->emitOpError("in a tlx.async_task uses a value of type ")
          << value.getType()
          << " computed outside tlx.async_tasks; a task can share only "
          << shareable
          << " and what pure ops recompute from them: compute it inside "
             "the task";
      diag.attachNote(value.getLoc()) << "computed here";
      return failure();
    }
    OpBuilder b(&body, body.begin());
    Operation *copy = b.clone(*def);
    for (auto [from, to] : llvm::zip(def->getResults(), copy->getResults()))
      from.replaceUsesWithIf(to, [&](OpOperand &use) {
        return task->isProperAncestor(use.getOwner());
      });
  }
}
