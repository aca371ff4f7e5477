//===- BarrierTMAPatterns.cpp - mbarriers and TMA copies ------------------===//
//
// mbarriers and TMA copies are CTA-wide ops in the IR, but the hardware
// wants one thread to init, arrive on or expect an mbarrier and to issue a
// bulk copy: those lower to PTX predicated on tid.x == 0 (and on the op's
// own predicate). Waits run in every thread. Addresses are 32-bit shared
// addresses; a tensor map is the generic address of its kernel parameter
// (a __grid_constant__ in .param space).
//
// AMD has neither: its mbarriers are words of LDS updated with atomics
// (ROCDLBarriers.h), and TMA copies never reach it (tlx copies tiles
// itself there and counts the bytes with barrier_complete_tx).
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"
#include "ROCDLBarriers.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

namespace {

/// The 32-bit shared-window address of a memdesc (its `!llvm.ptr<3>`).
static Value sharedAddress(OpBuilder &b, Location loc, Value pointer) {
  return LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), pointer);
}

/// tid.x == 0, and `pred` when the op has one.
static Value electFirstThread(OpBuilder &b, Location loc, Value pred) {
  Value first =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                           getThreadIdX(b, loc), i32Constant(b, loc, 0));
  return pred ? LLVM::AndOp::create(b, loc, first, pred) : first;
}

/// `@$0 <text>` with $0 the elected-thread predicate and $1... `operands`.
static void emitElected(OpBuilder &b, Location loc, Value pred,
                        ValueRange operands, StringRef text,
                        StringRef constraints) {
  SmallVector<Value> all = {electFirstThread(b, loc, pred)};
  all.append(operands.begin(), operands.end());
  inlinePtx(b, loc, Type(), all, ("@$0 " + text).str(),
            ("b," + constraints).str(), /*sideEffects=*/true);
}

struct InitBarrierLowering : public OpConversionPattern<tpxgpu::InitBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::InitBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (targetsAMD(rewriter)) {
      if (op.getCount() > 0xFFFF)
        return op.emitOpError("counts at most 65535 arrivals on AMD (the LDS "
                              "barrier's field), got ")
               << op.getCount();
      rocdl::initMBarrier(rewriter, loc, adaptor.getBarrier(), op.getCount());
      rewriter.eraseOp(op);
      return success();
    }
    emitElected(
        rewriter, loc, Value(),
        sharedAddress(rewriter, loc, adaptor.getBarrier()),
        llvm::formatv("mbarrier.init.shared::cta.b64 [$1], {0};", op.getCount())
            .str(),
        "r");
    rewriter.eraseOp(op);
    return success();
  }
};

struct InvalBarrierLowering
    : public OpConversionPattern<tpxgpu::InvalBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::InvalBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // An LDS word needs no invalidation before its bytes are reused.
    if (!targetsAMD(rewriter))
      emitElected(rewriter, loc, Value(),
                  sharedAddress(rewriter, loc, adaptor.getBarrier()),
                  "mbarrier.inval.shared::cta.b64 [$1];", "r");
    rewriter.eraseOp(op);
    return success();
  }
};

/// One arrival that also expects `size` bytes of transactions: the phase
/// completes when the arrivals and the bytes are both in.
struct BarrierExpectLowering
    : public OpConversionPattern<tpxgpu::BarrierExpectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::BarrierExpectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (targetsAMD(rewriter)) {
      rocdl::updateMBarrier(rewriter, loc, adaptor.getBarrier(), 1,
                            op.getSize(), adaptor.getPred());
      rewriter.eraseOp(op);
      return success();
    }
    emitElected(
        rewriter, loc, adaptor.getPred(),
        sharedAddress(rewriter, loc, adaptor.getBarrier()),
        llvm::formatv("mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], {0};",
                      op.getSize())
            .str(),
        "r");
    rewriter.eraseOp(op);
    return success();
  }
};

struct ArriveBarrierLowering
    : public OpConversionPattern<tpxgpu::ArriveBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::ArriveBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (targetsAMD(rewriter)) {
      rocdl::updateMBarrier(rewriter, loc, adaptor.getBarrier(), op.getCount(),
                            0, adaptor.getPred());
      rewriter.eraseOp(op);
      return success();
    }
    Value address = sharedAddress(rewriter, loc, adaptor.getBarrier());
    if (Value rank = adaptor.getRemoteRank()) {
      // The peer's barrier at the same offset of its shared memory; release
      // at cluster scope orders this CTA's accesses before the peer's
      // waiters see the arrival.
      Value remote = inlinePtx(rewriter, loc, rewriter.getI32Type(),
                               ValueRange{address, rank},
                               "mapa.shared::cluster.u32 $0, $1, $2;", "=r,r,r",
                               /*sideEffects=*/false);
      emitElected(rewriter, loc, adaptor.getPred(), remote,
                  "mbarrier.arrive.release.cluster.shared::cluster.b64 _, "
                  "[$1], " +
                      std::to_string(op.getCount()) + ";",
                  "r");
      rewriter.eraseOp(op);
      return success();
    }
    emitElected(rewriter, loc, adaptor.getPred(), address,
                llvm::formatv("mbarrier.arrive.shared::cta.b64 _, [$1], {0};",
                              op.getCount())
                    .str(),
                "r");
    rewriter.eraseOp(op);
    return success();
  }
};

/// The bytes of a copy the program made itself, counted as landed.
struct BarrierCompleteTxLowering
    : public OpConversionPattern<tpxgpu::BarrierCompleteTxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::BarrierCompleteTxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (targetsAMD(rewriter)) {
      rocdl::updateMBarrier(rewriter, loc, adaptor.getBarrier(), 0,
                            -int64_t(op.getSize()), adaptor.getPred());
      rewriter.eraseOp(op);
      return success();
    }
    emitElected(rewriter, loc, adaptor.getPred(),
                sharedAddress(rewriter, loc, adaptor.getBarrier()),
                llvm::formatv("mbarrier.complete_tx.shared::cta.b64 [$1], {0};",
                              op.getSize())
                    .str(),
                "r");
    rewriter.eraseOp(op);
    return success();
  }
};

/// bar.sync / bar.arrive on NVIDIA; on AMD the LDS table's word `id`.
struct NamedBarrierLowering
    : public OpConversionPattern<tpxgpu::NamedBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::NamedBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value id = adaptor.getId(), count = adaptor.getCount();
    // Constant operands are checked here, where the warp size is known;
    // others are the hardware's (NVIDIA) or masked to the ids (AMD).
    unsigned warpSize = targetsAMD(rewriter) ? 64 : 32;
    APInt constant;
    if (matchPattern(id, m_ConstantInt(&constant)) && constant.uge(16))
      return op.emitOpError("barrier id must be 0 to 15, got ")
             << constant.getSExtValue();
    if (matchPattern(count, m_ConstantInt(&constant)) &&
        (constant.sle(0) || constant.getSExtValue() % warpSize != 0))
      return op.emitOpError("counts whole ")
             << warpSize << "-thread "
             << (warpSize == 64 ? "wavefronts" : "warps") << " on "
             << (warpSize == 64 ? "AMD" : "NVIDIA") << ", got "
             << constant.getSExtValue() << " threads";
    if (targetsAMD(rewriter)) {
      // Ids past the program's 16 would be partitions' words.
      id = LLVM::AndOp::create(
          rewriter, loc, id,
          i32Constant(rewriter, loc, rocdl::kNumNamedBarrierIds - 1));
      rocdl::emitNamedBarrier(rewriter, loc, id, count, op.getArriveOnly());
    } else if (op.getArriveOnly()) {
      NVVM::BarrierArriveOp::create(rewriter, loc, id, count);
    } else {
      NVVM::BarrierOp::create(rewriter, loc, Type(), id, count, {}, Value());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Every thread spins on try_wait.parity (which itself suspends for a
/// while) until the phase of parity `phase` has completed; threads whose
/// predicate is false skip the wait.
struct WaitBarrierLowering : public OpConversionPattern<tpxgpu::WaitBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::WaitBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value pred = adaptor.getPred();
    if (targetsAMD(rewriter)) {
      rocdl::waitMBarrier(rewriter, loc, adaptor.getBarrier(),
                          adaptor.getPhase(), pred);
      rewriter.eraseOp(op);
      return success();
    }
    if (!pred)
      pred = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                      rewriter.getBoolAttr(true));
    Value address = sharedAddress(rewriter, loc, adaptor.getBarrier());
    inlinePtx(rewriter, loc, Type(), {pred, address, adaptor.getPhase()},
              "{\n"
              ".reg .pred done;\n"
              "@!$0 bra tpx_wait_end_${:uid};\n"
              "tpx_wait_${:uid}:\n"
              "mbarrier.try_wait.parity.shared::cta.b64 done, [$1], $2;\n"
              "@!done bra tpx_wait_${:uid};\n"
              "tpx_wait_end_${:uid}:\n"
              "}",
              "b,r,r", /*sideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

/// "{c0, c1, ...}" for TMA coordinates, innermost dimension first (PTX's
/// order; TTIR indices are outermost first), operands from `first` on.
static std::string tmaCoordinates(unsigned rank, unsigned first) {
  std::string text = "{";
  for (unsigned i = 0; i < rank; ++i)
    text += (i ? ", $" : "$") + std::to_string(first + rank - 1 - i);
  return text + "}";
}

/// Appends the operands every TMA instruction has, with their inline-asm
/// constraints: the tensor map's generic address, the coordinates and a
/// shared address (the barrier of a load, the source of a store).
static void appendTMAOperands(OpBuilder &b, Location loc, Value desc,
                              ValueRange coords, Value shared,
                              SmallVectorImpl<Value> &operands,
                              std::string &constraints) {
  operands.push_back(LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), desc));
  constraints += constraints.empty() ? "l" : ",l";
  operands.append(coords.begin(), coords.end());
  for (size_t i = 0; i < coords.size(); ++i)
    constraints += ",r";
  operands.push_back(sharedAddress(b, loc, shared));
  constraints += ",r";
}

struct TMALoadLowering
    : public OpConversionPattern<tpxgpu::AsyncTMACopyGlobalToLocalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::AsyncTMACopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned rank = op.getCoord().size();
    SmallVector<Value> operands = {
        sharedAddress(rewriter, loc, adaptor.getDst())};
    std::string constraints = "r";
    appendTMAOperands(rewriter, loc, adaptor.getDesc(), adaptor.getCoord(),
                      adaptor.getBarrier(), operands, constraints);
    std::string multicast;
    if (Value mask = adaptor.getMulticast()) {
      operands.push_back(mask);
      constraints += ",h";
      multicast = ".multicast::cluster";
    }
    emitElected(
        rewriter, loc, adaptor.getPred(), operands,
        llvm::formatv("cp.async.bulk.tensor.{0}d.shared::cluster."
                      "global.tile.mbarrier::complete_tx::bytes{3} "
                      "[$1], [$2, {1}], [${2}]{4};",
                      rank, tmaCoordinates(rank, 3), 3 + rank, multicast,
                      multicast.empty() ? std::string()
                                        : ", $" + std::to_string(4 + rank))
            .str(),
        constraints);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The store joins a bulk group of its own; async_tma_store_wait counts
/// those groups.
struct TMAStoreLowering
    : public OpConversionPattern<tpxgpu::AsyncTMACopyLocalToGlobalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::AsyncTMACopyLocalToGlobalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned rank = op.getCoord().size();
    SmallVector<Value> operands;
    std::string constraints;
    appendTMAOperands(rewriter, loc, adaptor.getDesc(), adaptor.getCoord(),
                      adaptor.getSrc(), operands, constraints);
    emitElected(rewriter, loc, Value(), operands,
                llvm::formatv("cp.async.bulk.tensor.{0}d.global.shared::cta."
                              "tile.bulk_group [$1, {1}], [${2}];\n"
                              "@$0 cp.async.bulk.commit_group;",
                              rank, tmaCoordinates(rank, 2), 2 + rank)
                    .str(),
                constraints);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Only the issuing thread has bulk groups; in the others the wait returns
/// at once.
struct TMAStoreWaitLowering
    : public OpConversionPattern<tpxgpu::AsyncTMAStoreWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::AsyncTMAStoreWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    inlinePtx(
        rewriter, op.getLoc(), Type(), {},
        llvm::formatv("cp.async.bulk.wait_group.read {0};", op.getPendings())
            .str(),
        "", /*sideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

/// %cluster_ctarank (0 on AMD, which has no clusters).
struct ClusterCTARankLowering
    : public OpConversionPattern<tpxgpu::ClusterCTARankOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::ClusterCTARankOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value rank = targetsAMD(rewriter)
                     ? i32Constant(rewriter, loc, 0)
                     : inlinePtx(rewriter, loc, rewriter.getI32Type(), {},
                                 "mov.u32 $0, %cluster_ctarank;", "=r",
                                 /*sideEffects=*/false);
    rewriter.replaceOp(op, rank);
    return success();
  }
};

/// Only the thread that initialised the barriers has inits to publish; in
/// the others the fence orders nothing and costs little.
struct FenceMBarrierInitLowering
    : public OpConversionPattern<tpxgpu::FenceMBarrierInitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::FenceMBarrierInitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!targetsAMD(rewriter))
      inlinePtx(rewriter, op.getLoc(), Type(), {},
                "fence.mbarrier_init.release.cluster;", "",
                /*sideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

/// barrier.cluster.arrive (release) + wait (acquire); AMD: the workgroup's.
struct ClusterBarrierLowering
    : public OpConversionPattern<tpxgpu::ClusterBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::ClusterBarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (targetsAMD(rewriter))
      emitBarrier(rewriter, op.getLoc());
    else
      inlinePtx(rewriter, op.getLoc(), Type(), {},
                "barrier.cluster.arrive;\nbarrier.cluster.wait;", "",
                /*sideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void gpu_lowering::populateBarrierTMAPatterns(TensorTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<InitBarrierLowering, InvalBarrierLowering, BarrierExpectLowering,
               ArriveBarrierLowering, BarrierCompleteTxLowering,
               NamedBarrierLowering, WaitBarrierLowering, TMALoadLowering,
               TMAStoreLowering, TMAStoreWaitLowering, ClusterCTARankLowering,
               FenceMBarrierInitLowering, ClusterBarrierLowering>(
      converter, patterns.getContext());
}
