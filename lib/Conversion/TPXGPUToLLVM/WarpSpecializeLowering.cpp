//===- WarpSpecializeLowering.cpp - tpxgpu.warp_specialize as branches ----===//
//
// The dialect conversion lowers what a partition holds like any other code
// (its layouts are over its own warps) and leaves the op itself; this step
// then turns each partition into a branch taken by its warps only:
//
//   bar.sync 0                       the code before is done (barrier
//                                    inits, buffers) for every warp
//   warp in [start, start + n)?  ->  setmaxnreg (num_regs)
//                                    the partition, with tid.x counted from
//                                    its first thread and its barriers
//                                    `bar.sync id, n * 32` on an id of its
//                                    own, so that other partitions' warps
//                                    are not waited for
//                                    setmaxnreg back
//   ... the next partition ...
//   bar.sync 0                       every partition is done
//
// Barrier ids are taken from 15 down, skipping those the kernel's own named
// barriers use as constants.
//
// On AMD the branches are the same, by wavefront, with three differences:
// a partition's barriers are words of LDS (16 + its index in the table of
// ROCDLBarriers.h; a one-wavefront partition needs none, only its LDS
// accesses complete), workitem ids are rebased like tid.x, and num_regs
// does nothing: CDNA allocates a wavefront's VGPRs at launch and has no
// setmaxnreg (the kernel gets what the backend needs, up to 512 a lane).
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"
#include "ROCDLBarriers.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

static constexpr unsigned kNumHardwareBarriers = 16;
static constexpr unsigned kRegisterFile = 65536;
static constexpr unsigned kWarpsPerGroup = 4, kMinRegs = 24;

/// The ids the function's own bar.sync / bar.arrive name as constants.
static llvm::SmallBitVector getUsedBarrierIds(Operation *func) {
  llvm::SmallBitVector used(kNumHardwareBarriers);
  auto note = [&](Value id) {
    APInt value;
    if (id && matchPattern(id, m_ConstantInt(&value)) &&
        value.getZExtValue() < kNumHardwareBarriers)
      used.set(value.getZExtValue());
  };
  func->walk([&](Operation *op) {
    if (auto bar = dyn_cast<NVVM::BarrierOp>(op))
      note(bar.getBarrierId());
    else if (auto arrive = dyn_cast<NVVM::BarrierArriveOp>(op))
      note(arrive.getBarrierId());
  });
  used.set(0); // bar.sync 0 is the whole block's
  return used;
}

/// The registers per thread ptxas may give every thread of a block of
/// `threads` (a multiple of 8, at most 256): what a warp has before its
/// setmaxnreg.
static unsigned getLaunchRegisters(unsigned threads) {
  return std::min(256u, (kRegisterFile / threads) & ~7u);
}

static void setMaxRegisters(OpBuilder &b, Location loc, unsigned from,
                            unsigned to) {
  if (from == to)
    return;
  NVVM::SetMaxRegisterOp::create(b, loc, to,
                                 to > from
                                     ? NVVM::SetMaxRegisterAction::increase
                                     : NVVM::SetMaxRegisterAction::decrease);
}

static bool isWholeWarpGroups(unsigned start, unsigned warps) {
  return start % kWarpsPerGroup == 0 && warps % kWarpsPerGroup == 0;
}

/// The registers per thread of each partition. setmaxnreg moves registers
/// between the warps of a block within what the block was launched with
/// (launch registers x threads, not the multiprocessor's whole file: an
/// increase beyond that waits forever, as measured on the H200). Where some
/// partitions ask for registers (num_regs), the others of whole warp
/// groups share what is left equally (the default task's warp group of a
/// TLX producer/consumer kernel, for instance); other warps keep the
/// launch's. Fails where the budget cannot hold it all.
static FailureOr<SmallVector<unsigned>>
assignRegisters(tpxgpu::WarpSpecializeOp op, unsigned blockWarps,
                unsigned threadsPerWarp, unsigned launchRegs) {
  size_t n = op.getPartitions().size();
  SmallVector<unsigned> regs(n, launchRegs);
  if (llvm::none_of(op.getNumRegs(), [](int32_t r) { return r != 0; }))
    return regs;
  uint64_t budget = uint64_t(blockWarps) * threadsPerWarp * launchRegs;
  uint64_t fixed = 0, flexibleThreads = 0, partitionWarps = 0;
  SmallVector<bool> flexible(n, false);
  for (size_t i = 0; i < n; ++i) {
    unsigned start = op.getWarpStarts()[i], warps = op.getNumWarps()[i];
    uint64_t threads = uint64_t(warps) * threadsPerWarp;
    partitionWarps += warps;
    if (op.getNumRegs()[i]) {
      regs[i] = op.getNumRegs()[i];
      fixed += regs[i] * threads;
    } else if (isWholeWarpGroups(start, warps)) {
      flexible[i] = true;
      flexibleThreads += threads;
    } else {
      fixed += launchRegs * threads;
    }
  }
  fixed += (blockWarps - partitionWarps) * threadsPerWarp * launchRegs;
  if (flexibleThreads && fixed < budget) {
    unsigned share = std::min<uint64_t>(
        256, ((budget - fixed) / flexibleThreads) & ~uint64_t(7));
    for (size_t i = 0; i < n; ++i)
      if (flexible[i])
        regs[i] = share;
  }
  uint64_t total = fixed;
  for (size_t i = 0; i < n; ++i)
    if (flexible[i])
      total += uint64_t(regs[i]) * op.getNumWarps()[i] * threadsPerWarp;
  bool tooFew = llvm::any_of(regs, [](unsigned r) { return r < kMinRegs; });
  if (total > budget || tooFew)
    return op.emitOpError("num_regs ask for more registers than the block "
                          "has: ")
           << blockWarps << " warps launched with " << launchRegs
           << " registers a thread (" << budget << "); those without "
           << "num_regs keep theirs (or share what is left, down to "
           << kMinRegs << ", where they are whole warp groups)";
  return regs;
}

/// Counts the thread ids (`TidOp`, tid.x or workitem.id.x) of a partition
/// from its first thread and hands each of its CTA barriers (`BarrierOp`)
/// to `replace`, which builds what stands for it; the barrier is erased.
template <typename TidOp, typename BarrierOp>
static void
rebasePartitionOps(Region &region, unsigned firstThread,
                   function_ref<void(OpBuilder &, Location)> replace) {
  SmallVector<TidOp> tids;
  SmallVector<BarrierOp> barriers;
  region.walk([&](Operation *op) {
    if (auto tid = dyn_cast<TidOp>(op))
      tids.push_back(tid);
    else if (auto barrier = dyn_cast<BarrierOp>(op))
      barriers.push_back(barrier);
  });
  OpBuilder b(region.getContext());
  for (TidOp tid : tids) {
    if (firstThread == 0)
      break;
    b.setInsertionPointAfter(tid);
    Value rebased = LLVM::SubOp::create(
        b, tid.getLoc(), tid, i32Constant(b, tid.getLoc(), firstThread));
    tid.getResult().replaceAllUsesExcept(rebased, rebased.getDefiningOp());
  }
  for (BarrierOp barrier : barriers) {
    b.setInsertionPoint(barrier);
    replace(b, barrier.getLoc());
    barrier.erase();
  }
}

/// NVIDIA: tid.x from the partition's first thread; its bar.sync 0s become
/// `bar.sync barrierId, threads`.
static void rebasePartition(Region &region, unsigned firstThread,
                            unsigned threads, unsigned barrierId) {
  rebasePartitionOps<NVVM::ThreadIdXOp, NVVM::Barrier0Op>(
      region, firstThread, [&](OpBuilder &b, Location loc) {
        NVVM::BarrierOp::create(b, loc, Type(), i32Constant(b, loc, barrierId),
                                i32Constant(b, loc, threads), {}, Value());
      });
}

/// AMD: workitem ids from the partition's first thread; its s_barriers
/// (tpxgpu.barrier, which lowered to one with the LDS waits around it)
/// become table word `barrierWord` among its `threads`, or nothing where
/// one wavefront is all of them.
static void rebaseAMDPartition(Region &region, unsigned firstThread,
                               unsigned threads, unsigned barrierWord) {
  rebasePartitionOps<ROCDL::ThreadIdXOp, ROCDL::SBarrierOp>(
      region, firstThread, [&](OpBuilder &b, Location loc) {
        if (threads > 64)
          rocdl::emitNamedBarrier(b, loc, i32Constant(b, loc, barrierWord),
                                  i32Constant(b, loc, threads),
                                  /*arriveOnly=*/false);
      });
}

static LogicalResult lowerWarpSpecialize(tpxgpu::WarpSpecializeOp op,
                                         LLVM::LLVMFuncOp func,
                                         unsigned blockWarps,
                                         llvm::SmallBitVector &freeIds) {
  Location loc = op.getLoc();
  bool amd = tpxgpu::isAMDModule(op);
  unsigned threadsPerWarp = tpxgpu::getModuleThreadsPerWarp(op);
  unsigned launchRegs = getLaunchRegisters(blockWarps * threadsPerWarp);

  SmallVector<unsigned> registers(op.getPartitions().size(), launchRegs);
  if (!amd) {
    FailureOr<SmallVector<unsigned>> assigned =
        assignRegisters(op, blockWarps, threadsPerWarp, launchRegs);
    if (failed(assigned))
      return failure();
    registers = std::move(*assigned);
  }
  if (llvm::any_of(registers, [&](unsigned r) { return r != launchRegs; }))
    func->setAttr(
        NVVM::NVVMDialect::getMaxnregAttrName(),
        IntegerAttr::get(IntegerType::get(op.getContext(), 32), launchRegs));
  if (amd && op.getPartitions().size() >
                 rocdl::kNamedBarrierTableSize - rocdl::kNumNamedBarrierIds)
    return op.emitOpError("has more partitions than AMD's LDS barrier table "
                          "has words for them (")
           << rocdl::kNamedBarrierTableSize - rocdl::kNumNamedBarrierIds << ")";

  IRRewriter b(op.getContext());
  b.setInsertionPoint(op);
  emitBarrier(b, loc);
  Value warp = LLVM::UDivOp::create(b, loc, getThreadIdX(b, loc),
                                    i32Constant(b, loc, threadsPerWarp));
  Block *before = op->getBlock();
  Block *after = b.splitBlock(before, std::next(op->getIterator()));
  b.setInsertionPointToStart(after);
  emitBarrier(b, loc);

  Block *current = before;
  for (auto [index, region] : llvm::enumerate(op.getPartitions())) {
    unsigned start = op.getWarpStarts()[index];
    unsigned warps = op.getNumWarps()[index];
    unsigned regs = registers[index];
    if (amd) {
      rebaseAMDPartition(region, start * threadsPerWarp, warps * threadsPerWarp,
                         rocdl::kNumNamedBarrierIds + index);
    } else {
      int barrierId = freeIds.find_last();
      if (barrierId <= 0)
        return op.emitOpError("needs a hardware barrier for partition ")
               << index << ", but the kernel's named barriers and the other "
               << "partitions take all of ids 1..15";
      freeIds.reset(barrierId);
      rebasePartition(region, start * threadsPerWarp, warps * threadsPerWarp,
                      barrierId);
    }

    Block *body = &region.front();
    Block *next = b.createBlock(after);
    // The partition's end: restore the registers, go on to the next test.
    Operation *yield = body->getTerminator();
    b.setInsertionPoint(yield);
    setMaxRegisters(b, yield->getLoc(), regs, launchRegs);
    cf::BranchOp::create(b, yield->getLoc(), next);
    yield->erase();
    b.setInsertionPointToStart(body);
    setMaxRegisters(b, loc, launchRegs, regs);
    b.inlineRegionBefore(region, next);

    b.setInsertionPointToEnd(current);
    Value inside = LLVM::AndOp::create(
        b, loc,
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, warp,
                             i32Constant(b, loc, start)),
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, warp,
                             i32Constant(b, loc, start + warps)));
    cf::CondBranchOp::create(b, loc, inside, body, next);
    current = next;
  }
  b.setInsertionPointToEnd(current);
  cf::BranchOp::create(b, loc, after);
  op.erase();
  return success();
}

LogicalResult gpu_lowering::lowerWarpSpecializations(ModuleOp module) {
  WalkResult result = module.walk([&](LLVM::LLVMFuncOp func) {
    SmallVector<tpxgpu::WarpSpecializeOp> ops;
    func.walk([&](tpxgpu::WarpSpecializeOp op) { ops.push_back(op); });
    if (ops.empty())
      return WalkResult::advance();
    llvm::SmallBitVector freeIds = getUsedBarrierIds(func).flip();
    unsigned blockWarps = tpxgpu::getBlockWarps(func);
    for (tpxgpu::WarpSpecializeOp op : ops)
      if (failed(lowerWarpSpecialize(op, func, blockWarps, freeIds)))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
