//===- TLXSyncToTT.cpp - barriers, TMA and clocks for the CPU -------------===//
//
// mbarriers are four 32-bit words each in the program's local memory,
// driven by the CPU runtime (lib/Runtime/CPUTaskRuntime.cpp), which also
// blocks a waiting task until its phase completes and reports deadlocks.
// A TMA copy through a descriptor is a tt.descriptor_load (bounds and
// padding as Triton defines them) stored into the buffer, after which the
// block's bytes complete on the barrier: the copy has landed when the wait
// on that barrier returns, as on Hopper.
//
//===----------------------------------------------------------------------===//
#include "TLXToTTCommon.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::tlx;

namespace {
constexpr int64_t kBarrierWords = 4;

constexpr const char *kInit = "tpx_cpu_mbarrier_init";
constexpr const char *kArrive = "tpx_cpu_mbarrier_arrive";
constexpr const char *kExpectTx = "tpx_cpu_mbarrier_expect_tx";
constexpr const char *kCompleteTx = "tpx_cpu_mbarrier_complete_tx";
constexpr const char *kWait = "tpx_cpu_mbarrier_wait";
constexpr const char *kClock = "tpx_cpu_clock64";
constexpr const char *kNamedBarrier = "tpx_cpu_named_barrier";
constexpr const char *kClusterRank = "tpx_cpu_cluster_rank";
constexpr const char *kClusterMap = "tpx_cpu_cluster_map";
constexpr const char *kClusterBarrier = "tpx_cpu_cluster_barrier";
} // namespace

static int32_t getLine(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return static_cast<int32_t>(file.getLine());
  return 0;
}

void tpx::tlx::declareCPURuntime(ModuleOp module) {
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToEnd(module.getBody());
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto declare = [&](StringRef name, ArrayRef<Type> inputs,
                     ArrayRef<Type> results) {
    if (module.lookupSymbol(name))
      return;
    auto func = tt::FuncOp::create(b, module.getLoc(), name,
                                   b.getFunctionType(inputs, results));
    func.setPrivate();
  };
  declare(kInit, {i64, i32}, {});
  declare(kArrive, {i64, i32}, {});
  declare(kExpectTx, {i64, i32}, {});
  declare(kCompleteTx, {i64, i32}, {});
  // (barrier, phase, line of the wait, line of the allocation, index)
  declare(kWait, {i64, i32, i32, i32, i32}, {});
  declare(kClock, {}, {i64});
  // (id, count, threads of the caller, wait?, line)
  declare(kNamedBarrier, {i32, i32, i32, i32, i32}, {});
  declare(kRunTasks, {i32, i64, i64}, {});
  // Clusters: the program's rank; its local memory (address, bytes)
  // registered for the peers; an address of the program's local memory in
  // a peer's (address, rank); the cluster barrier (line).
  declare(kClusterRank, {}, {i32});
  declare(kClusterRegister, {i64, i64}, {});
  declare(kClusterMap, {i64, i32}, {i64});
  declare(kClusterBarrier, {i32}, {});
}

void tpx::tlx::callClusterBarrier(OpBuilder &b, Location loc) {
  tt::CallOp::create(b, loc, TypeRange{}, kClusterBarrier,
                     ValueRange{getI32Constant(b, loc, getLine(loc))}, nullptr,
                     nullptr);
}

static void call(OpBuilder &b, Location loc, StringRef callee,
                 ValueRange operands) {
  tt::CallOp::create(b, loc, TypeRange{}, callee, operands, nullptr, nullptr);
}

static Value toAddress(OpBuilder &b, Location loc, Value pointer) {
  return tt::PtrToIntOp::create(b, loc, b.getI64Type(), pointer);
}

/// The address in CTA `rank`'s local memory of what this program has at
/// `address` (an i64).
static Value toPeerAddress(OpBuilder &b, Location loc, Value address,
                           Value rank) {
  return tt::CallOp::create(b, loc, TypeRange{b.getI64Type()}, kClusterMap,
                            ValueRange{address, rank}, nullptr, nullptr)
      .getResult(0);
}

/// Runs `body` under `pred` when there is one.
static void guarded(OpBuilder &b, Location loc, Value pred,
                    function_ref<void(OpBuilder &)> body) {
  if (!pred) {
    body(b);
    return;
  }
  auto branch = scf::IfOp::create(b, loc, pred, /*withElseRegion=*/false);
  OpBuilder inner = branch.getThenBodyBuilder();
  body(inner);
}

namespace {
struct AllocBarriersLowering : TLXPattern<AllocBarriersOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(AllocBarriersOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t count = op.getType().getCount();
    Type pointer = getTypeConverter()->convertType(op.getType());
    Value base =
        allocateLocalMemory(rewriter, op, pointer, count * kBarrierWords * 4);
    if (!base)
      return rewriter.notifyMatchFailure(op, "not inside a function");
    // Initialised where the op is (as on a GPU, before any use).
    for (int64_t i = 0; i < count; ++i) {
      Value bar = tt::AddPtrOp::create(
          rewriter, loc, pointer, base,
          getI32Constant(rewriter, loc, i * kBarrierWords));
      call(rewriter, loc, kInit,
           {toAddress(rewriter, loc, bar),
            getI32Constant(rewriter, loc, op.getArriveCount())});
    }
    // In a cluster, peers may use these barriers once past their own: every
    // program has initialised its barriers before any goes on (as on the
    // GPU).
    if (tpx::tpxgpu::getModuleClusterSize(op) > 1)
      callClusterBarrier(rewriter, loc);
    rewriter.replaceOp(op, base);
    return success();
  }
};

struct BarrierViewLowering : TLXPattern<BarrierViewOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(BarrierViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, getIndexedPointer(rewriter, op.getLoc(), adaptor.getBarriers(),
                              adaptor.getIndex(), kBarrierWords));
    return success();
  }
};

struct BarrierWaitLowering : TLXPattern<BarrierWaitOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(BarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Where the barrier comes from, for a deadlock report.
    Value index = getI32Constant(rewriter, loc, -1);
    int32_t allocLine = 0;
    if (auto view = op.getBarrier().getDefiningOp<BarrierViewOp>()) {
      index = rewriter.getRemappedValue(view.getIndex());
      if (auto alloc = view.getBarriers().getDefiningOp<AllocBarriersOp>())
        allocLine = getLine(alloc.getLoc());
    } else if (auto alloc = op.getBarrier().getDefiningOp<AllocBarriersOp>()) {
      index = getI32Constant(rewriter, loc, 0);
      allocLine = getLine(alloc.getLoc());
    }
    Value address = toAddress(rewriter, loc, adaptor.getBarrier());
    Value line = getI32Constant(rewriter, loc, getLine(loc));
    Value fromLine = getI32Constant(rewriter, loc, allocLine);
    guarded(rewriter, loc, adaptor.getPred(), [&](OpBuilder &b) {
      call(b, loc, kWait, {address, adaptor.getPhase(), line, fromLine, index});
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierArriveLowering : TLXPattern<BarrierArriveOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(BarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value address = toAddress(rewriter, loc, adaptor.getBarrier());
    if (Value rank = adaptor.getRemoteCtaRank())
      address = toPeerAddress(rewriter, loc, address, rank);
    call(rewriter, loc, kArrive,
         {address, getI32Constant(rewriter, loc, op.getCount())});
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierExpectBytesLowering : TLXPattern<BarrierExpectBytesOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(BarrierExpectBytesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value address = toAddress(rewriter, loc, adaptor.getBarrier());
    guarded(rewriter, loc, adaptor.getPred(), [&](OpBuilder &b) {
      call(b, loc, kExpectTx, {address, adaptor.getBytes()});
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncDescriptorLoadLowering : TLXPattern<AsyncDescriptorLoadOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(AsyncDescriptorLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    BufferType buffer = op.getBuffer().getType();
    auto block =
        RankedTensorType::get(buffer.getShape(), buffer.getElementType());
    Value data = tt::DescriptorLoadOp::create(
        rewriter, loc, block, adaptor.getDesc(), adaptor.getOffsets(),
        tt::CacheModifierAttr::get(rewriter.getContext(), op.getCache()),
        tt::EvictionPolicyAttr::get(rewriter.getContext(), op.getEvict()));
    Value bytes = getI32Constant(rewriter, loc, buffer.getSizeInBytes());
    Value barrier = toAddress(rewriter, loc, adaptor.getBarrier());
    Value mask = adaptor.getMulticast();
    if (!mask) {
      tt::StoreOp::create(
          rewriter, loc,
          getPointers(rewriter, loc, op.getBuffer(), adaptor.getBuffer()), data,
          Value());
      // The whole box counts, padding included, as TMA's transaction bytes.
      call(rewriter, loc, kCompleteTx, {barrier, bytes});
      rewriter.eraseOp(op);
      return success();
    }
    // Multicast: the block lands in the same buffer of every CTA in the
    // mask, and counts on each one's barrier.
    Type pointer = adaptor.getBuffer().getType();
    Value base = toAddress(rewriter, loc, adaptor.getBuffer());
    for (unsigned rank = 0, e = tpx::tpxgpu::getModuleClusterSize(op); rank < e;
         ++rank) {
      Value r = getI32Constant(rewriter, loc, rank);
      Value bit = arith::AndIOp::create(
          rewriter, loc, arith::ShRUIOp::create(rewriter, loc, mask, r),
          getI32Constant(rewriter, loc, 1));
      Value chosen =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, bit,
                                getI32Constant(rewriter, loc, 0));
      guarded(rewriter, loc, chosen, [&](OpBuilder &b) {
        Value peer = tt::IntToPtrOp::create(b, loc, pointer,
                                            toPeerAddress(b, loc, base, r));
        tt::StoreOp::create(b, loc, getPointers(b, loc, op.getBuffer(), peer),
                            data, Value());
        call(b, loc, kCompleteTx, {toPeerAddress(b, loc, barrier, r), bytes});
      });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncDescriptorStoreLowering : TLXPattern<AsyncDescriptorStoreOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(AsyncDescriptorStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = load(rewriter, loc, op.getBuffer(), adaptor.getBuffer());
    tt::DescriptorStoreOp::create(rewriter, loc, adaptor.getDesc(), data,
                                  adaptor.getOffsets());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Ops with nothing to do when every copy completes at its issue.
template <typename Op> struct EraseLowering : TLXPattern<Op> {
  using TLXPattern<Op>::TLXPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

struct NamedBarrierLowering : TLXPattern<NamedBarrierOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(NamedBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    call(rewriter, loc, kNamedBarrier,
         {adaptor.getId(), adaptor.getCount(),
          getI32Constant(rewriter, loc, op.getThreads()),
          getI32Constant(rewriter, loc, op.getArriveOnly() ? 0 : 1),
          getI32Constant(rewriter, loc, getLine(loc))});
    rewriter.eraseOp(op);
    return success();
  }
};

/// The program's rank in its cluster, from the runtime (which runs a
/// cluster's programs at once, ranks x fastest).
struct ClusterCTARankLowering : TLXPattern<ClusterCTARankOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(ClusterCTARankOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, tt::CallOp::create(rewriter, op.getLoc(),
                                              TypeRange{rewriter.getI32Type()},
                                              kClusterRank, ValueRange{},
                                              nullptr, nullptr)
                               .getResults());
    return success();
  }
};

/// A program runs as one thread: its scalar is every lane's, so the ballot
/// is the mask where the predicate holds.
struct VoteBallotSyncLowering : TLXPattern<VoteBallotSyncOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(VoteBallotSyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    rewriter.replaceOpWithNewOp<arith::SelectOp>(
        op, adaptor.getPred(),
        arith::ConstantOp::create(rewriter, loc, op.getMaskAttr()),
        getI32Constant(rewriter, loc, 0));
    return success();
  }
};

/// Every program of the cluster (outside tasks, its only thread) waits for
/// the others; a cluster of one has nothing to wait for.
struct ClusterBarrierLowering : TLXPattern<ClusterBarrierOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(ClusterBarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    callClusterBarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct Clock64Lowering : TLXPattern<Clock64Op> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(Clock64Op op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto clock =
        tt::CallOp::create(rewriter, op.getLoc(), TypeRange{op.getType()},
                           kClock, ValueRange{}, nullptr, nullptr);
    rewriter.replaceOp(op, clock.getResults());
    return success();
  }
};
} // namespace

void tpx::tlx::populateSyncToTTPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns,
                                        BufferStrides &strides) {
  patterns.add<AllocBarriersLowering, BarrierViewLowering, BarrierWaitLowering,
               BarrierArriveLowering, BarrierExpectBytesLowering,
               AsyncDescriptorLoadLowering, AsyncDescriptorStoreLowering,
               EraseLowering<AsyncDescriptorStoreWaitOp>,
               EraseLowering<FenceAsyncSharedOp>, NamedBarrierLowering,
               Clock64Lowering, ClusterCTARankLowering, ClusterBarrierLowering,
               VoteBallotSyncLowering>(converter, patterns.getContext(),
                                       strides);
}
