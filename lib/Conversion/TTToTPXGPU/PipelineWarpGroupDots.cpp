//===- PipelineWarpGroupDots.cpp - overlap a loop's wgmma with its stores -===//
//
// A matmul loop after tpxgpu-use-wgmma stages its operands and runs a
// synchronous warp-group dot each iteration: the tensor cores idle while
// the next operands are stored. When the dot's accumulator is carried by the
// loop, this pass makes the dot asynchronous and double-buffers its staged
// operands:
//
//   %bufA = local_alloc : memdesc<2xMxK, mutable>            (before the loop)
//   scf.for ... iter_args(%acc) {
//     %slot = (iteration) mod 2
//     local_store %a, %bufA[%slot] ...
//     %d = warp_group_dot %bufA[%slot], %bufB[%slot], %acc async
//     %r:3 = warp_group_dot_wait %d, %bufA[%slot], %bufB[%slot] pendings = 1
//     scf.yield %r#0
//   }
//   %res = warp_group_dot_wait %loop#i pendings = 0
//
// Iteration j's dot runs while iteration j+1 stores into the other buffer;
// the wait with one pending dot at iteration j+1 completes dot j, the last
// reader of buffer j mod 2, before iteration j+2's stores (behind the
// barrier tpxgpu-use-wgmma put before them) overwrite it. In-flight dots
// chain on the accumulator registers, which nothing else reads until the
// wait after the loop.
//
//===----------------------------------------------------------------------===//
#include "LoopSlices.h"
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPUPIPELINEWARPGROUPDOTS
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;
using namespace tpx::tpxgpu;

static constexpr int64_t kNumBuffers = 2;

/// The staging local_alloc of a dot operand inside `loop`'s body, if the
/// dot is its only user.
static LocalAllocOp getStagingAlloc(Value operand, scf::ForOp loop) {
  auto alloc = operand.getDefiningOp<LocalAllocOp>();
  if (!alloc || !alloc.getSrc() || !alloc->hasOneUse() ||
      alloc->getParentOp() != loop.getOperation())
    return {};
  return alloc;
}

/// The iter_arg index carrying `dot`'s accumulator, when the dot reads it
/// and its result is yielded straight back into it.
static std::optional<unsigned> getCarriedAccumulator(WarpGroupDotOp dot,
                                                     scf::ForOp loop) {
  auto arg = dyn_cast<BlockArgument>(dot.getC());
  if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
    return std::nullopt;
  unsigned index = arg.getArgNumber() - 1;
  Operation *yield = loop.getBody()->getTerminator();
  if (yield->getOperand(index) != dot.getD() || !dot.getD().hasOneUse() ||
      !arg.hasOneUse())
    return std::nullopt;
  return index;
}

/// A mutable buffer of `kNumBuffers` copies of `alloc`'s, made before `loop`.
static Value makeBuffers(OpBuilder &b, LocalAllocOp alloc) {
  MemDescType single = alloc.getType();
  SmallVector<int64_t> shape = {kNumBuffers};
  llvm::append_range(shape, single.getShape());
  auto type = MemDescType::get(shape, single.getElementType(),
                               single.getEncoding(), /*mutableMemory=*/true);
  return LocalAllocOp::create(b, alloc.getLoc(), type, Value());
}

static void pipeline(WarpGroupDotOp dot, scf::ForOp loop, unsigned accIndex) {
  LocalAllocOp allocA = getStagingAlloc(dot.getA(), loop);
  LocalAllocOp allocB = getStagingAlloc(dot.getB(), loop);
  OpBuilder before(loop);
  Location loc = dot.getLoc();
  Value buffersA = allocA ? makeBuffers(before, allocA) : Value();
  Value buffersB = makeBuffers(before, allocB);

  // This iteration's buffer, first thing in the body.
  OpBuilder body = OpBuilder::atBlockBegin(loop.getBody());
  Value slot = getRotatingBufferIndex(body, loop, 0, kNumBuffers);

  // The staged value goes to this iteration's buffer instead.
  auto restage = [&](LocalAllocOp alloc, Value buffers) {
    OpBuilder at(alloc);
    auto view = MemDescType::get(
        alloc.getType().getShape(), alloc.getType().getElementType(),
        alloc.getType().getEncoding(), /*mutableMemory=*/true,
        cast<MemDescType>(buffers.getType()).getShape());
    Value buffer =
        MemDescIndexOp::create(at, alloc.getLoc(), view, buffers, slot);
    LocalStoreOp::create(at, alloc.getLoc(), alloc.getSrc(), buffer);
    alloc.getResult().replaceAllUsesWith(buffer);
    alloc.erase();
  };
  if (allocA)
    restage(allocA, buffersA);
  restage(allocB, buffersB);

  dot.setIsAsyncAttr(UnitAttr::get(dot.getContext()));
  OpBuilder after(dot);
  after.setInsertionPointAfter(dot);
  SmallVector<Value> inputs = {dot.getD()};
  if (allocA)
    inputs.push_back(dot.getA());
  inputs.push_back(dot.getB());
  auto wait = WarpGroupDotWaitOp::create(after, loc, ValueRange(inputs),
                                         /*pendings=*/1u);
  loop.getBody()->getTerminator()->setOperand(accIndex, wait.getResult(0));

  OpBuilder exit(loop);
  exit.setInsertionPointAfter(loop);
  Value result = loop.getResult(accIndex);
  auto drain = WarpGroupDotWaitOp::create(exit, loc, ValueRange{result},
                                          /*pendings=*/0u);
  result.replaceAllUsesExcept(drain.getResult(0), drain);
}

namespace {
struct PipelineWarpGroupDotsPass
    : tpx::impl::TPXGPUPipelineWarpGroupDotsBase<PipelineWarpGroupDotsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (numStages < 2)
      return;
    SmallVector<std::tuple<WarpGroupDotOp, scf::ForOp, unsigned>> work;
    getOperation().walk([&](WarpGroupDotOp dot) {
      auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
      if (!loop || dot.getIsAsync() || dot.getUseC() ||
          !getStagingAlloc(dot.getB(), loop))
        return;
      // One pipelined dot per loop: a second would share the wait groups.
      for (auto &[other, otherLoop, index] : work)
        if (otherLoop == loop)
          return;
      if (std::optional<unsigned> index = getCarriedAccumulator(dot, loop))
        work.emplace_back(dot, loop, *index);
    });
    for (auto &[dot, loop, index] : work)
      pipeline(dot, loop, index);
  }
};
} // namespace
