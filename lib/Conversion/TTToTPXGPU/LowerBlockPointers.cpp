//===- LowerBlockPointers.cpp - the tpxgpu-lower-block-pointers pass ------===//
#include "BlockAccess.h"

#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"
#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseMap.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPULOWERBLOCKPOINTERS
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;

static bool isBlockPointer(Type type) {
  auto pointer = dyn_cast<tt::PointerType>(type);
  return pointer && isa<RankedTensorType>(pointer.getPointeeType());
}

/// True when `value` is `arg` advanced zero or more times.
static bool isAdvanceOf(Value value, Value arg) {
  while (value != arg) {
    auto advance = value.getDefiningOp<tt::AdvanceOp>();
    if (!advance)
      return false;
    value = advance.getPtr();
  }
  return true;
}

/// Every block pointer of `func` is made, advanced, carried by scf.for and
/// used by loads and stores only; loop-carried ones come back advanced from
/// themselves (so their base, shape and strides stay those of the init).
static bool isLowerable(tt::FuncOp func) {
  for (Type input : func.getFunctionType().getInputs())
    if (isBlockPointer(input))
      return false;
  auto usesOk = [](Value value) {
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<tt::AdvanceOp>(user) && use.getOperandNumber() == 0)
        continue;
      if (isa<tt::LoadOp, tt::StoreOp>(user) && use.getOperandNumber() == 0)
        continue;
      if (auto loop = dyn_cast<scf::ForOp>(user)) {
        if (use.getOperandNumber() < loop.getNumControlOperands())
          return false;
        unsigned index = use.getOperandNumber() - loop.getNumControlOperands();
        auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
        if (!isAdvanceOf(yield.getOperand(index), loop.getRegionIterArg(index)))
          return false;
        continue;
      }
      if (auto yield = dyn_cast<scf::YieldOp>(user);
          yield && isa<scf::ForOp>(yield->getParentOp()))
        continue;
      return false;
    }
    return true;
  };
  WalkResult result = func.walk([&](Operation *op) {
    for (Value v : op->getResults())
      if (isBlockPointer(v.getType())) {
        if (!isa<tt::MakeTensorPtrOp, tt::AdvanceOp, scf::ForOp>(op) ||
            !usesOk(v))
          return WalkResult::interrupt();
      }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isBlockPointer(arg.getType()) &&
              (!isa<scf::ForOp>(op) || !usesOk(arg)))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

namespace {
class BlockPointerLowering {
public:
  void run(Block &block);
  void eraseDead();

private:
  void lowerLoop(scf::ForOp loop);
  StridedBlock &get(Value pointer) { return blocks.find(pointer)->second; }

  llvm::DenseMap<Value, StridedBlock> blocks;
  SmallVector<Operation *> dead;
};
} // namespace

void BlockPointerLowering::run(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    OpBuilder b(&op);
    Location loc = op.getLoc();
    if (auto make = dyn_cast<tt::MakeTensorPtrOp>(&op)) {
      StridedBlock info;
      info.base = make.getBase();
      info.shape.assign(make.getShape().begin(), make.getShape().end());
      info.strides.assign(make.getStrides().begin(), make.getStrides().end());
      info.offsets.assign(make.getOffsets().begin(), make.getOffsets().end());
      info.blockType = cast<RankedTensorType>(
          cast<tt::PointerType>(make.getType()).getPointeeType());
      blocks[make.getResult()] = info;
      dead.push_back(make);
    } else if (auto advance = dyn_cast<tt::AdvanceOp>(&op)) {
      StridedBlock info = get(advance.getPtr());
      for (auto [offset, delta] :
           llvm::zip_equal(info.offsets, advance.getOffsets()))
        offset = arith::AddIOp::create(b, loc, offset, delta);
      blocks[advance.getResult()] = info;
      dead.push_back(advance);
    } else if (auto load = dyn_cast<tt::LoadOp>(&op);
               load && isBlockPointer(load.getPtr().getType())) {
      auto [pointers, mask] = buildBlockPointers(b, loc, get(load.getPtr()),
                                                 load.getBoundaryCheck());
      Value other;
      if (mask)
        other = buildPadding(b, loc, cast<RankedTensorType>(load.getType()),
                             load.getPadding() == tt::PaddingOption::PAD_NAN);
      auto lowered =
          tt::LoadOp::create(b, loc, pointers, mask, other, ArrayRef<int32_t>{},
                             /*padding=*/nullptr, load.getCache(),
                             load.getEvict(), load.getIsVolatile());
      load.replaceAllUsesWith(lowered.getResult());
      load.erase();
    } else if (auto store = dyn_cast<tt::StoreOp>(&op);
               store && isBlockPointer(store.getPtr().getType())) {
      auto [pointers, mask] = buildBlockPointers(b, loc, get(store.getPtr()),
                                                 store.getBoundaryCheck());
      tt::StoreOp::create(b, loc, pointers, store.getValue(), mask,
                          ArrayRef<int32_t>{}, store.getCache(),
                          store.getEvict());
      store.erase();
    } else if (auto loop = dyn_cast<scf::ForOp>(&op)) {
      lowerLoop(loop);
    } else {
      for (Region &region : op.getRegions())
        for (Block &inner : region)
          run(inner);
    }
  }
}

/// The loop carries each block pointer's offsets instead; its base, shape
/// and strides are those of the init (isLowerable checked).
void BlockPointerLowering::lowerLoop(scf::ForOp loop) {
  SmallVector<unsigned> carried;
  SmallVector<Value> inits;
  for (auto [i, init] : llvm::enumerate(loop.getInitArgs())) {
    if (!isBlockPointer(init.getType())) {
      inits.push_back(init);
      continue;
    }
    carried.push_back(i);
    llvm::append_range(inits, get(init).offsets);
  }
  if (carried.empty()) {
    run(*loop.getBody());
    return;
  }
  OpBuilder b(loop);
  auto newLoop =
      scf::ForOp::create(b, loop.getLoc(), loop.getLowerBound(),
                         loop.getUpperBound(), loop.getStep(), inits);
  Block *body = newLoop.getBody();
  Block *old = loop.getBody();
  // The old arguments: plain ones map to the new ones, block pointers to
  // blocks whose offsets are the new arguments.
  old->getArgument(0).replaceAllUsesWith(body->getArgument(0));
  unsigned next = 1;
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (!isBlockPointer(arg.getType())) {
      arg.replaceAllUsesWith(body->getArgument(next++));
      continue;
    }
    StridedBlock info = get(loop.getInitArgs()[i]);
    for (Value &offset : info.offsets)
      offset = body->getArgument(next++);
    blocks[arg] = info;
  }
  if (!body->empty())
    body->back().erase(); // the builder's terminator, if it made one
  body->getOperations().splice(body->end(), old->getOperations());
  run(*body);

  auto yield = cast<scf::YieldOp>(body->getTerminator());
  SmallVector<Value> yielded;
  for (Value v : yield.getOperands()) {
    if (isBlockPointer(v.getType()))
      llvm::append_range(yielded, get(v).offsets);
    else
      yielded.push_back(v);
  }
  yield->setOperands(yielded);

  next = 0;
  for (auto [i, result] : llvm::enumerate(loop.getResults())) {
    if (!isBlockPointer(result.getType())) {
      result.replaceAllUsesWith(newLoop.getResult(next++));
      continue;
    }
    StridedBlock info = get(loop.getInitArgs()[i]);
    for (Value &offset : info.offsets)
      offset = newLoop.getResult(next++);
    blocks[result] = info;
  }
  dead.push_back(loop);
}

void BlockPointerLowering::eraseDead() {
  // Dead ops only use each other (and old loops' arguments), so cut every
  // use first, then erase in any order.
  for (Operation *op : dead) {
    op->dropAllUses();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.dropAllUses();
  }
  for (Operation *op : llvm::reverse(dead))
    op->erase();
}

namespace {
struct LowerBlockPointersPass
    : public tpx::impl::TPXGPULowerBlockPointersBase<LowerBlockPointersPass> {
  void runOnOperation() override {
    getOperation().walk([&](tt::FuncOp func) {
      if (!isLowerable(func))
        return;
      BlockPointerLowering lowering;
      for (Block &block : func.getBody())
        lowering.run(block);
      lowering.eraseDead();
    });
  }
};
} // namespace
