//===- PrefetchLoads.cpp - the tpxgpu-prefetch-loads pass -----------------===//
//
// Turns
//   for i: p = f(args); v = load(p, mask(i)); ... use v ...; yield g(args)
// into
//   v0 = load(f(inits), mask(lb) && lb < ub)
//   for i, carrying v: vn = load(f(g(args)), mask(i+step) && i+step < ub)
//                      ... use v ...; yield g(args), vn
// where f, g and mask are side-effect-free computations. The duplicated
// computations of g (once for the prefetch, once for the yield) are merged
// by CSE.
//
//===----------------------------------------------------------------------===//
#include "LoopSlices.h"
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"

#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPUPREFETCHLOADS
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;

namespace {

/// A load worth prefetching and what computing its operands needs.
struct Candidate {
  tt::LoadOp load;
  SetVector<Operation *> slice;
};

class LoopPrefetcher {
public:
  explicit LoopPrefetcher(scf::ForOp loop) : loop(loop) {}
  LogicalResult run();

private:
  /// Clones the load (with its operand computations) under `mapping`,
  /// predicated on `exists` (an i1).
  Value cloneLoad(OpBuilder &b, const Candidate &c, IRMapping &mapping,
                  Value exists);

  scf::ForOp loop;
  SmallVector<Candidate> candidates;
  /// The computations of the next iteration's values the loads need.
  SetVector<Operation *> advanceSlice;
  SetVector<unsigned> advancedArgs;
};

LogicalResult LoopPrefetcher::run() {
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto load = dyn_cast<tt::LoadOp>(&op);
    if (!load || !isa<RankedTensorType>(load.getType()))
      continue;
    Candidate c{load, {}};
    bool ok = true;
    for (Value operand : load->getOperands()) {
      FailureOr<SetVector<Operation *>> slice =
          getRecomputableSlice(loop, operand);
      if (failed(slice)) {
        ok = false;
        break;
      }
      c.slice.insert(slice->begin(), slice->end());
    }
    if (ok)
      candidates.push_back(std::move(c));
  }
  if (candidates.empty())
    return failure();

  // The next iteration's values of the loop arguments the loads read must
  // be computable at the top of the body, too.
  for (const Candidate &c : candidates)
    collectIterArgs(loop, llvm::to_vector(c.load->getOperands()), c.slice,
                    advancedArgs);
  // Advancing may read further arguments (their current values): one
  // iteration ahead, those are known at the top of the body.
  FailureOr<SetVector<Operation *>> advancing =
      getAdvanceSlice(loop, advancedArgs, /*closed=*/false);
  if (failed(advancing))
    return failure();
  advanceSlice = std::move(*advancing);
  for (Candidate &c : candidates)
    c.slice = sortInBlockOrder(c.slice);
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());

  Location loc = loop.getLoc();
  OpBuilder b(loop);
  // Iteration 0, before the loop.
  Value runs =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                            loop.getLowerBound(), loop.getUpperBound());
  SmallVector<Value> first;
  for (const Candidate &c : candidates) {
    IRMapping mapping;
    mapping.map(loop.getInductionVar(), loop.getLowerBound());
    for (auto [arg, init] :
         llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs()))
      mapping.map(arg, init);
    first.push_back(cloneLoad(b, c, mapping, runs));
  }

  // The body gains one argument per prefetched load (its current value)
  // and computes the next iteration's loads first thing.
  Block *body = loop.getBody();
  OpBuilder top = OpBuilder::atBlockBegin(body);
  Value iv = loop.getInductionVar();
  Value next = arith::AddIOp::create(top, loc, iv, loop.getStep());
  Value exists = arith::CmpIOp::create(top, loc, arith::CmpIPredicate::slt,
                                       next, loop.getUpperBound());
  IRMapping advance; // next values of the advanced arguments
  for (Operation *op : advanceSlice)
    top.clone(*op, advance);
  IRMapping mapping;
  mapping.map(iv, next);
  for (unsigned i : advancedArgs)
    mapping.map(loop.getRegionIterArgs()[i],
                advance.lookupOrDefault(yield.getOperand(i)));
  SmallVector<Value> nextValues;
  for (const Candidate &c : candidates) {
    IRMapping perLoad = mapping;
    nextValues.push_back(cloneLoad(top, c, perLoad, exists));
  }
  yield.getResultsMutable().append(nextValues);
  for (auto [c, value] : llvm::zip_equal(candidates, first)) {
    BlockArgument current = body->addArgument(value.getType(), loc);
    c.load.getResult().replaceAllUsesWith(current);
    c.load->erase();
  }

  // A loop with the extra results, owning the updated body.
  appendIterArgs(loop, first);
  return success();
}

Value LoopPrefetcher::cloneLoad(OpBuilder &b, const Candidate &c,
                                IRMapping &mapping, Value exists) {
  for (Operation *op : c.slice)
    b.clone(*op, mapping);
  auto load = cast<tt::LoadOp>(b.clone(*c.load, mapping));
  // Predicate on the iteration existing: a load past the end of the loop
  // must not touch memory the original never read.
  Location loc = load.getLoc();
  Value guard = exists;
  if (auto tensor = dyn_cast<RankedTensorType>(load.getPtr().getType()))
    guard = tt::SplatOp::create(b, loc, tensor.clone(b.getI1Type()), exists);
  // Keep the new ops before the load.
  if (Operation *def = guard.getDefiningOp())
    def->moveBefore(load);
  Value mask = load.getMask();
  if (mask) {
    auto both = arith::AndIOp::create(b, loc, mask, guard);
    both->moveBefore(load);
    mask = both;
  } else {
    mask = guard;
  }
  load.getMaskMutable().assign(mask);
  return load.getResult();
}

struct PrefetchLoadsPass
    : public tpx::impl::TPXGPUPrefetchLoadsBase<PrefetchLoadsPass> {
  using TPXGPUPrefetchLoadsBase::TPXGPUPrefetchLoadsBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (numStages < 2)
      return;
    SmallVector<scf::ForOp> loops;
    module.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      (void)LoopPrefetcher(loop).run();
  }
};

} // namespace
