//===- TLXPlaceBarriers.cpp - barriers for TLX's shared memory on sm_90a --===//
#include "TLXLowerToTPXGPU.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tpx;
namespace tg = tpx::tpxgpu;

//===----------------------------------------------------------------------===//
// Barriers
//===----------------------------------------------------------------------===//
//
// TLX leaves the ordering of shared-memory accesses between threads to the
// compiler. A simple, conservative placement over the allocations each
// access reaches, in program order (loops to a fixpoint over the back
// edge, both branches of an scf.if joined):
//
//   - after every async wait: a barrier, so that the copies a thread saw
//     land are visible to every thread (TLX's wait makes a buffer readable
//     by the whole program), preceded by a proxy fence when the kernel has
//     wgmma dots, which read shared memory through the async proxy;
//   - before a read (local_load, a dot's shared operand) of an allocation
//     written by local_store since the last barrier (RAW), with a proxy
//     fence first for a dot;
//   - before a write (local_store, an async copy) into an allocation read
//     since the last barrier (WAR: another warp, or the other warp group's
//     wgmma, may still read it), or written by local_store (WAW). A dot
//     reads its buffers until the wait that retires it, so every
//     warp_group_dot_wait counts as a read of what the kernel's dots read.
//
//   - before a TMA load (issued by one thread) into an allocation read or
//     written since the last barrier, as for an async copy. TMA stores get
//     their fence and barrier from the lowering.
//
// Async copies count as writes only at their wait (which always gets its
// barrier). Compiler-made shared memory (layout conversions, scratch) has
// its own barriers and bytes the allocator keeps apart from live buffers.

namespace {
using AllocSet = llvm::SmallSetVector<Operation *, 4>;

struct HazardState {
  AllocSet reads, writes;
  bool unfenced = false;

  bool operator==(const HazardState &other) const {
    return reads == other.reads && writes == other.writes &&
           unfenced == other.unfenced;
  }
  void join(const HazardState &other) {
    reads.insert(other.reads.begin(), other.reads.end());
    writes.insert(other.writes.begin(), other.writes.end());
    unfenced |= other.unfenced;
  }
  void clearAfterBarrier() {
    reads.clear();
    writes.clear();
  }
};

class BarrierPlacer {
public:
  BarrierPlacer(bool hasShared, AllocSet dotReads)
      : fenceAtWaits(hasShared), dotReads(std::move(dotReads)) {}

  HazardState visitBlock(Block &block, HazardState state, bool insert);

private:
  void visitOp(Operation *op, HazardState &state, bool insert);
  void barrierBefore(Operation *op, HazardState &state, bool insert,
                     bool fence = false) {
    if (insert) {
      OpBuilder b(op);
      if (fence)
        tg::FenceAsyncSharedOp::create(b, op->getLoc());
      tg::BarrierOp::create(b, op->getLoc());
    }
    state.clearAfterBarrier();
    if (fence)
      state.unfenced = false;
  }

  bool fenceAtWaits;
  AllocSet dotReads;
};
} // namespace

/// The local_alloc a memdesc is a view of, or null.
static Operation *getRoot(Value memdesc) {
  while (Operation *def = memdesc.getDefiningOp()) {
    if (isa<tg::LocalAllocOp>(def))
      return def;
    if (auto index = dyn_cast<tg::MemDescIndexOp>(def)) {
      memdesc = index.getSrc();
      continue;
    }
    if (auto view = dyn_cast<tg::MemDescSubviewOp>(def)) {
      memdesc = view.getSrc();
      continue;
    }
    if (auto trans = dyn_cast<tg::MemDescTransOp>(def)) {
      memdesc = trans.getSrc();
      continue;
    }
    if (auto alias = dyn_cast<tg::MemDescReinterpretOp>(def)) {
      memdesc = alias.getSrc(); // reuse= and local_reinterpret
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

static bool intersects(const AllocSet &set, Operation *root) {
  return !root || set.contains(root) || set.contains(nullptr);
}

void BarrierPlacer::visitOp(Operation *op, HazardState &state, bool insert) {
  if (isa<tg::BarrierOp>(op)) {
    state.clearAfterBarrier();
    return;
  }
  if (isa<tg::FenceAsyncSharedOp>(op)) {
    state.unfenced = false;
    return;
  }
  if (auto wait = dyn_cast<tg::AsyncWaitOp>(op)) {
    if (insert) {
      OpBuilder b(op->getContext());
      b.setInsertionPointAfter(op);
      if (fenceAtWaits)
        tg::FenceAsyncSharedOp::create(b, op->getLoc());
      tg::BarrierOp::create(b, op->getLoc());
    }
    state.clearAfterBarrier();
    if (fenceAtWaits)
      state.unfenced = false;
    return;
  }
  if (auto load = dyn_cast<tg::LocalLoadOp>(op)) {
    Operation *root = getRoot(load.getSrc());
    if (intersects(state.writes, root))
      barrierBefore(op, state, insert);
    state.reads.insert(root);
    return;
  }
  if (auto store = dyn_cast<tg::LocalStoreOp>(op)) {
    Operation *root = getRoot(store.getDst());
    if (intersects(state.reads, root) || intersects(state.writes, root))
      barrierBefore(op, state, insert);
    state.writes.insert(root);
    state.unfenced = true;
    return;
  }
  if (auto copy = dyn_cast<tg::AsyncCopyGlobalToLocalOp>(op)) {
    Operation *root = getRoot(copy.getDst());
    if (intersects(state.reads, root) || intersects(state.writes, root))
      barrierBefore(op, state, insert);
    return;
  }
  // A TMA load is issued by one thread for all: every thread's reads (and
  // stores) of the buffer come first. Its writes are seen through the
  // mbarrier it completes on, not through a CTA barrier.
  if (auto copy = dyn_cast<tg::AsyncTMACopyGlobalToLocalOp>(op)) {
    Operation *root = getRoot(copy.getDst());
    if (intersects(state.reads, root) || intersects(state.writes, root))
      barrierBefore(op, state, insert);
    return;
  }
  if (auto dot = dyn_cast<tg::WarpGroupDotOp>(op)) {
    SmallVector<Operation *> roots;
    for (Value operand : {Value(dot.getA()), Value(dot.getB())})
      if (isa<tg::MemDescType>(operand.getType()))
        roots.push_back(getRoot(operand));
    bool raw = llvm::any_of(
        roots, [&](Operation *root) { return intersects(state.writes, root); });
    if (state.unfenced)
      barrierBefore(op, state, insert, /*fence=*/true);
    else if (raw)
      barrierBefore(op, state, insert);
    state.reads.insert(roots.begin(), roots.end());
    return;
  }
  if (isa<tg::WarpGroupDotWaitOp>(op)) {
    state.reads.insert(dotReads.begin(), dotReads.end());
    return;
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    // The body's entry sees the state before the loop and the one at the
    // end of the previous iteration.
    HazardState entry = state;
    for (unsigned i = 0; i < 8; ++i) {
      HazardState exit = visitBlock(*loop.getBody(), entry, /*insert=*/false);
      HazardState next = state;
      next.join(exit);
      if (next == entry)
        break;
      entry = next;
    }
    HazardState exit = visitBlock(*loop.getBody(), entry, insert);
    // Zero iterations leave the state before the loop.
    state.join(exit);
    return;
  }
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    HazardState entry = state;
    for (unsigned i = 0; i < 8; ++i) {
      HazardState mid = visitBlock(loop.getBefore().front(), entry, false);
      HazardState exit = visitBlock(loop.getAfter().front(), mid, false);
      HazardState next = state;
      next.join(exit);
      if (next == entry)
        break;
      entry = next;
    }
    HazardState mid = visitBlock(loop.getBefore().front(), entry, insert);
    visitBlock(loop.getAfter().front(), mid, insert);
    state = mid;
    return;
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    HazardState out = visitBlock(*branch.thenBlock(), state, insert);
    if (branch.elseBlock())
      out.join(visitBlock(*branch.elseBlock(), state, insert));
    else
      out.join(state);
    state = out;
    return;
  }
}

HazardState BarrierPlacer::visitBlock(Block &block, HazardState state,
                                      bool insert) {
  for (Operation &op : llvm::make_early_inc_range(block))
    visitOp(&op, state, insert);
  return state;
}

/// Copies still in flight when a kernel stops waiting (the tutorial's last
/// iterations copy masked-off tiles: zeros) would land in bytes the
/// allocator hands to later shared-memory users once the buffers are dead.
/// After the last top-level op that copies or commits, unless an
/// `async_wait num = 0` follows it there, the copies are committed and
/// waited for (cp.async.wait_group waits for committed groups only).
static void drainCopies(Region &body) {
  Operation *last = nullptr;
  for (Operation &op : body.front()) {
    bool copies = false;
    op.walk([&](Operation *inner) {
      if (isa<tg::AsyncCopyGlobalToLocalOp, tg::AsyncCommitGroupOp>(inner))
        copies = true;
    });
    if (copies)
      last = &op;
  }
  if (!last)
    return;
  for (Operation *op = last->getNextNode(); op; op = op->getNextNode())
    if (auto wait = dyn_cast<tg::AsyncWaitOp>(op); wait && wait.getNum() == 0)
      return;
  OpBuilder b(last->getContext());
  b.setInsertionPointAfter(last);
  auto group = tg::AsyncCommitGroupOp::create(
      b, last->getLoc(), b.getType<tg::AsyncTokenType>(), ValueRange());
  tg::AsyncWaitOp::create(b, last->getLoc(), ValueRange{group.getResult()}, 0);
}

void tpx::tlx::placeBarriers(tt::FuncOp func) {
  if (func.isExternal())
    return;
  AllocSet dotReads;
  func.walk([&](tg::WarpGroupDotOp dot) {
    for (Value operand : {Value(dot.getA()), Value(dot.getB())})
      if (isa<tg::MemDescType>(operand.getType()))
        dotReads.insert(getRoot(operand));
  });
  drainCopies(func.getBody());
  BarrierPlacer placer(!dotReads.empty(), dotReads);
  placer.visitBlock(func.getBody().front(), HazardState(), /*insert=*/true);
}
