//===- DotChains.cpp - dots whose operands come from other dots -----------===//
//
// Attention computes P = softmax(Q K^T) and then P V: the second dot's A is
// the first dot's result, through casts, exp and scaling. Layout choice
// keeps such chains in registers (warps along M, A not staged in shared
// memory), so both convert-tt-to-tpxgpu and tpxgpu-use-wgmma ask these.
// A chain also passes through an scf.if, by both branches' values: the
// scores masked on the diagonal block only (`if ...: qk = tl.where(...)`).
//
//===----------------------------------------------------------------------===//
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::tpxgpu;

/// Ops a dot chain passes through: layout conversions and pure elementwise
/// ops (casts, exp, scaling).
static bool passesThroughDotChain(Operation *op) {
  return op &&
         (isa<ConvertLayoutOp>(op) ||
          (op->hasTrait<OpTrait::Elementwise>() && isMemoryEffectFree(op)));
}

static constexpr unsigned kMaxDotChainDepth = 12;

bool tpxgpu::isComputedFromDot(Value value) {
  SmallVector<std::pair<Value, unsigned>> stack = {{value, 0}};
  while (!stack.empty()) {
    auto [current, depth] = stack.pop_back_val();
    Operation *def = current.getDefiningOp();
    if (isa_and_nonnull<tt::DotOp, WarpGroupDotOp>(def))
      return true;
    if (depth >= kMaxDotChainDepth)
      continue;
    if (auto branch = dyn_cast_or_null<scf::IfOp>(def)) {
      unsigned index = cast<OpResult>(current).getResultNumber();
      stack.push_back({branch.thenYield().getOperand(index), depth + 1});
      if (branch.elseBlock())
        stack.push_back({branch.elseYield().getOperand(index), depth + 1});
      continue;
    }
    if (passesThroughDotChain(def))
      for (Value operand : def->getOperands())
        stack.push_back({operand, depth + 1});
  }
  return false;
}

bool tpxgpu::feedsDotOperandA(Value value) {
  SmallVector<std::pair<Value, unsigned>> users = {{value, 0}};
  while (!users.empty()) {
    auto [current, depth] = users.pop_back_val();
    for (OpOperand &use : current.getUses()) {
      Operation *user = use.getOwner();
      if (isa<tt::DotOp, WarpGroupDotOp>(user) && use.getOperandNumber() == 0)
        return true;
      if (depth >= kMaxDotChainDepth)
        continue;
      if (isa<scf::YieldOp>(user))
        if (auto branch = dyn_cast<scf::IfOp>(user->getParentOp())) {
          users.push_back(
              {branch.getResult(use.getOperandNumber()), depth + 1});
          continue;
        }
      if (passesThroughDotChain(user) && user->getNumResults() == 1)
        users.push_back({user->getResult(0), depth + 1});
    }
  }
  return false;
}
