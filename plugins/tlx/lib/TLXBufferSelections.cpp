//===- TLXBufferSelections.cpp - views picked by an if, used in its arms --===//
//
// TLX programs pick a view at run time with Python's `if`:
//
//   if cta_id == 0:
//       half = tlx.local_slice(buf, [0, 0], [BK, BN // 2])
//   else:
//       half = tlx.local_slice(buf, [0, BN // 2], [BK, BN // 2])
//   tlx.async_descriptor_load(desc, half, ...)
//
// which the front end writes as an scf.if yielding the view. Neither
// target carries every view through an if (on a GPU a view is a
// shared-memory window the lowering addresses statically; on the CPU a
// pointer whose strides must be row-major there), so both lowerings first
// move the op using the view into both arms: each uses its own view. That
// is done where the if computes only views (no effects, so it may move down
// to its user) and its results have that one user, in the same block,
// producing nothing.
//
//===----------------------------------------------------------------------===//
#include "TLX/TLXDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tpx::tlx;

static bool isTLXView(Type type) { return isa<BufferType, BarriersType>(type); }

static bool computesOnly(Block *block) {
  for (Operation &op : block->without_terminator())
    if (!isMemoryEffectFree(&op) || op.getNumRegions())
      return false;
  return true;
}

/// The one op using the if's results, when it may move into the arms.
static Operation *getMovableUser(scf::IfOp select) {
  Operation *user = nullptr;
  for (Value result : select.getResults())
    for (Operation *use : result.getUsers()) {
      if (user && use != user)
        return nullptr;
      user = use;
    }
  if (!user || user->getBlock() != select->getBlock() ||
      user->getNumResults() || user->getNumRegions())
    return nullptr;
  return user;
}

void tpx::tlx::sinkViewSelections(Operation *root) {
  SmallVector<scf::IfOp> selects;
  root->walk([&](scf::IfOp select) {
    if (llvm::any_of(select.getResultTypes(), isTLXView) &&
        select.elseBlock() && computesOnly(select.thenBlock()) &&
        computesOnly(select.elseBlock()))
      selects.push_back(select);
  });
  for (scf::IfOp select : selects) {
    Operation *user = getMovableUser(select);
    if (!user)
      continue; // the lowering reports the view carried by the if
    // Effect-free, the if may move down: what the user reads besides its
    // results is then defined before it.
    select->moveBefore(user);
    OpBuilder b(select);
    auto picked = scf::IfOp::create(b, select.getLoc(), TypeRange(),
                                    select.getCondition(),
                                    /*withElseRegion=*/false);
    for (auto [from, to] :
         {std::pair{&select.getThenRegion(), &picked.getThenRegion()},
          std::pair{&select.getElseRegion(), &picked.getElseRegion()}}) {
      to->takeBody(*from);
      auto yield = cast<scf::YieldOp>(to->front().getTerminator());
      IRMapping mapping;
      mapping.map(select.getResults(), yield.getOperands());
      OpBuilder arm(yield);
      arm.clone(*user, mapping);
      scf::YieldOp::create(arm, yield.getLoc());
      yield.erase();
    }
    user->erase();
    select.erase();
  }
}
