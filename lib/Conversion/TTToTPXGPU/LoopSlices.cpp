//===- LoopSlices.cpp - recomputing a loop body's values elsewhere --------===//
#include "LoopSlices.h"

#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tpx;

FailureOr<SetVector<Operation *>> tpx::getRecomputableSlice(scf::ForOp loop,
                                                            Value value) {
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.inclusive = true;
  options.omitBlockArguments = true;
  options.filter = [&](Operation *op) {
    return op->getParentOp() == loop.getOperation();
  };
  if (Operation *def = value.getDefiningOp())
    if (def->getParentOp() == loop.getOperation())
      if (failed(getBackwardSlice(def, &slice, options)))
        return failure();
  for (Operation *op : slice)
    if (op->getNumRegions() != 0 || !isMemoryEffectFree(op) ||
        isa<tt::DotOp, tt::DotScaledOp>(op))
      return failure();
  return sortInBlockOrder(slice);
}

void tpx::collectIterArgs(scf::ForOp loop, ArrayRef<Value> roots,
                          const SetVector<Operation *> &slice,
                          SetVector<unsigned> &iterArgs) {
  auto visit = [&](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (arg && arg.getOwner() == loop.getBody() && arg.getArgNumber() > 0)
      iterArgs.insert(arg.getArgNumber() - 1);
  };
  for (Value root : roots)
    visit(root);
  for (Operation *op : slice)
    for (Value operand : op->getOperands())
      visit(operand);
}

SetVector<Operation *>
tpx::sortInBlockOrder(const SetVector<Operation *> &ops) {
  SmallVector<Operation *> sorted(ops.begin(), ops.end());
  llvm::sort(sorted,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return SetVector<Operation *>(sorted.begin(), sorted.end());
}

scf::ForOp tpx::appendIterArgs(scf::ForOp loop, ValueRange extraInits) {
  OpBuilder b(loop);
  SmallVector<Value> inits(loop.getInitArgs());
  llvm::append_range(inits, extraInits);
  auto newLoop =
      scf::ForOp::create(b, loop.getLoc(), loop.getLowerBound(),
                         loop.getUpperBound(), loop.getStep(), inits);
  newLoop->setAttrs(loop->getAttrs());
  newLoop.getRegion().takeBody(loop.getRegion());
  loop.replaceAllUsesWith(
      newLoop.getResults().take_front(loop.getNumResults()));
  loop.erase();
  return newLoop;
}

FailureOr<SetVector<Operation *>>
tpx::getAdvanceSlice(scf::ForOp loop, SetVector<unsigned> &iterArgs,
                     bool closed) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SetVector<Operation *> advance;
  for (unsigned i = 0; i < iterArgs.size(); ++i) {
    Value next = yield.getOperand(iterArgs[i]);
    FailureOr<SetVector<Operation *>> slice = getRecomputableSlice(loop, next);
    if (failed(slice))
      return failure();
    advance.insert(slice->begin(), slice->end());
    if (closed)
      collectIterArgs(loop, {next}, *slice, iterArgs);
  }
  return sortInBlockOrder(advance);
}

Value tpx::castToI32(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  Type i32 = b.getI32Type();
  if (type.isIndex())
    return b.createOrFold<arith::IndexCastOp>(loc, i32, value);
  if (type.getIntOrFloatBitWidth() > 32)
    return b.createOrFold<arith::TruncIOp>(loc, i32, value);
  if (type.getIntOrFloatBitWidth() < 32)
    return b.createOrFold<arith::ExtUIOp>(loc, i32, value);
  return value;
}

/// The iteration number (iv - lb) / step of `loop`'s body, plus `ahead`,
/// in the induction variable's type; `constant` makes constants of it.
static Value getIteration(OpBuilder &b, scf::ForOp loop, int64_t ahead,
                          function_ref<Value(int64_t)> constant) {
  Location loc = loop.getLoc();
  Value iv = loop.getInductionVar();
  Value iteration = arith::DivSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, iv, loop.getLowerBound()),
      loop.getStep());
  if (ahead)
    iteration = arith::AddIOp::create(b, loc, iteration, constant(ahead));
  return iteration;
}

Value tpx::getRotatingBufferIndex(OpBuilder &b, scf::ForOp loop, int64_t ahead,
                                  int64_t count) {
  Location loc = loop.getLoc();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(loop.getInductionVar().getType(), v));
  };
  Value iteration = getIteration(b, loop, ahead, constant);
  return castToI32(b, loc,
                   arith::RemSIOp::create(b, loc, iteration, constant(count)));
}

