//===- PointerProvenance.cpp - which accesses the bounds check can judge --===//
//
// The CPU's bounds check (tpx_cpu_check_access) knows the launch's buffer
// arguments only. A pointer made from an integer (tt.int_to_ptr) or loaded
// from memory -- the grouped GEMM's table of matrix addresses -- may point
// into memory no argument covers, legitimately: its accesses are marked
// `tpx.unchecked-provenance` and not checked. Everything else (pointer
// arguments and what is computed from them) is.
//
//===----------------------------------------------------------------------===//
#include "TTToCPUCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tpx;

/// False when some pointer `value` may hold comes from an integer or from
/// memory; true when all of them derive from arguments (or it cannot tell,
/// which keeps the check).
static bool derivesFromArguments(Value value, DenseMap<Value, bool> &known,
                                 unsigned depth = 0) {
  if (depth > 64)
    return true;
  if (auto it = known.find(value); it != known.end())
    return it->second;
  known[value] = true; // cycles (loop-carried pointers) assume the init's
  bool result = true;
  auto follow = [&](Value v) {
    return derivesFromArguments(v, known, depth + 1);
  };
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast_if_present<scf::ForOp>(owner)) {
      if (arg.getArgNumber() > 0)
        result = follow(loop.getInitArgs()[arg.getArgNumber() - 1]);
    } else if (auto loop = dyn_cast_if_present<scf::WhileOp>(owner)) {
      if (arg.getOwner() == loop.getBeforeBody() &&
          arg.getArgNumber() < loop.getInits().size())
        result = follow(loop.getInits()[arg.getArgNumber()]);
    }
  } else {
    Operation *def = value.getDefiningOp();
    if (isa<tt::IntToPtrOp, tt::LoadOp>(def)) {
      result = false;
    } else if (isa<tt::AddPtrOp, tt::SplatOp, tt::BroadcastOp, tt::ExpandDimsOp,
                   tt::ReshapeOp, tt::TransOp, tt::BitcastOp, tt::AdvanceOp,
                   tt::MakeTensorPtrOp, tt::MakeTensorDescOp>(def)) {
      result = follow(def->getOperand(0));
    } else if (auto select = dyn_cast<arith::SelectOp>(def)) {
      result = follow(select.getTrueValue()) && follow(select.getFalseValue());
    } else if (auto loop = dyn_cast<scf::ForOp>(def)) {
      result =
          follow(loop.getInitArgs()[cast<OpResult>(value).getResultNumber()]);
    } else if (auto branch = dyn_cast<scf::IfOp>(def)) {
      unsigned i = cast<OpResult>(value).getResultNumber();
      result = follow(branch.thenYield().getOperand(i)) &&
               (branch.getElseRegion().empty() ||
                follow(branch.elseYield().getOperand(i)));
    }
  }
  known[value] = result;
  return result;
}

void tpx::cpu::markUncheckedAccesses(ModuleOp module) {
  DenseMap<Value, bool> known;
  module.walk([&](Operation *op) {
    if (!isa<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp, tt::AtomicCASOp,
             tt::DescriptorLoadOp, tt::DescriptorStoreOp,
             tt::DescriptorReduceOp, tt::DescriptorGatherOp,
             tt::DescriptorScatterOp>(op) ||
        op->getNumOperands() == 0)
      return;
    if (!derivesFromArguments(op->getOperand(0), known))
      op->setAttr(kUncheckedProvenanceAttr, UnitAttr::get(op->getContext()));
  });
}
