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
} // namespace

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
}

static int32_t getLine(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return static_cast<int32_t>(file.getLine());
  return 0;
}

static void call(OpBuilder &b, Location loc, StringRef callee,
                 ValueRange operands) {
  tt::CallOp::create(b, loc, TypeRange{}, callee, operands, nullptr, nullptr);
}

static Value toAddress(OpBuilder &b, Location loc, Value pointer) {
  return tt::PtrToIntOp::create(b, loc, b.getI64Type(), pointer);
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
    call(rewriter, loc, kArrive,
         {toAddress(rewriter, loc, adaptor.getBarrier()),
          getI32Constant(rewriter, loc, op.getCount())});
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
    tt::StoreOp::create(
        rewriter, loc,
        getPointers(rewriter, loc, op.getBuffer(), adaptor.getBuffer()), data,
        Value());
    // The whole box counts, padding included, as TMA's transaction bytes.
    call(rewriter, loc, kCompleteTx,
         {toAddress(rewriter, loc, adaptor.getBarrier()),
          getI32Constant(rewriter, loc, buffer.getSizeInBytes())});
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

/// A CPU program is a cluster of one: rank 0 (clusters are not launched
/// on the CPU, so remote arrivals and multicasts never reach here).
struct ClusterCTARankLowering : TLXPattern<ClusterCTARankOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(ClusterCTARankOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, getI32Constant(rewriter, op.getLoc(), 0));
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
               Clock64Lowering, ClusterCTARankLowering,
               // Outside tasks a program runs as one thread, the whole
               // cluster of one: nothing to wait for.
               EraseLowering<ClusterBarrierOp>>(converter,
                                                patterns.getContext(), strides);
}
