//===- AMDAsyncCopyPatterns.cpp - async copies on AMD CDNA ----------------===//
//
// tpxgpu.async_copy_global_to_local on gfx9 (CDNA) becomes direct-to-LDS
// loads where the hardware can do them, and a synchronous copy otherwise:
//
//  - global_load_lds_dword / _dwordx4 (rocdl.global.load.lds, 4 or 16
//    bytes; 16 is gfx950's) writes lane l's bytes at M0 + l * size: one
//    wave-uniform LDS base for the whole wavefront. A copy takes this form
//    when, for every register group it copies and every wave, the shared
//    byte offsets of the 64 lanes' elements are exactly base + l * size
//    (checked at compile time on the buffer's address map, isWaveContiguous;
//    row-major buffers without padding whose rows a wave fills are). A
//    masked-off lane writes zeros with an ordinary LDS store and does not
//    load (the exec mask).
//  - otherwise each group is loaded into registers (a branch around the
//    load, zeros where masked off) and stored to LDS at once: the copy is
//    complete before its wait, which the semantics allow.
//
// async_commit_group emits nothing: vmcnt, the wavefront's count of vector
// memory operations in flight, completes in issue order. async_wait
// {num = N} waits with s_waitcnt vmcnt(N * k), k the fewest direct-to-LDS
// instructions any commit group of the function issues (so the last N
// groups may still be in flight, and every older one has landed). Loads
// issued after the copies only make the wait stricter.
//
// fence_async_shared orders NVIDIA's generic and async proxies; AMD has no
// async proxy (MFMA reads registers, direct-to-LDS writes are ordered by
// vmcnt and s_barrier), so it emits nothing.
//
//===----------------------------------------------------------------------===//
#include "ROCDLPrimitives.h"
#include "SharedView.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

namespace {

/// How one async copy is emitted.
struct CopyPlan {
  /// Elements per copied run and its bytes.
  unsigned width = 1;
  unsigned bytes = 1;
  /// Whether every run goes through global_load_lds.
  bool direct = false;
  /// Runs this thread copies (instructions of the direct form).
  unsigned runs = 0;
};

/// Whether the lanes of every wave write consecutive `runBytes`-byte
/// pieces of LDS, lane l at base + l * runBytes, for each register group.
static bool isWaveContiguous(const LinearLayout &layout, const SharedView &view,
                             unsigned width, unsigned runBytes,
                             unsigned duplicates) {
  unsigned dropped =
      view.layout.getAllocShape().size() - layout.getShape().size();
  auto offsetOf = [&](const Coordinate &c) {
    SmallVector<int64_t> full(dropped, 0);
    full.append(c.begin(), c.end());
    return static_cast<int64_t>(view.layout.getByteOffset(full));
  };
  for (unsigned reg = 0; reg < layout.getNumRegisters(); reg += width) {
    if (reg & duplicates)
      continue;
    for (unsigned warp = 0; warp < layout.getNumWarps(); ++warp) {
      int64_t base = offsetOf(layout.apply(reg, 0, warp));
      for (unsigned lane = 1; lane < layout.getNumLanes(); ++lane)
        if (offsetOf(layout.apply(reg, lane, warp)) !=
            base + int64_t(lane) * runBytes)
          return false;
    }
  }
  return true;
}

static FailureOr<CopyPlan> planCopy(tpxgpu::AsyncCopyGlobalToLocalOp op,
                                    const LinearLayout &layout,
                                    const SharedView &view) {
  Type element = cast<tt::PointerType>(op.getSrc().getType().getElementType())
                     .getPointeeType();
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits % 8 != 0)
    return op.emitOpError("of ")
           << element << " elements is not supported (whole bytes only)";
  CopyPlan plan;
  unsigned bytes = bits / 8;
  plan.width =
      std::min(getVectorWidth(op, layout, bytes),
               alignToRows(view, getAccessWidth(view, layout, bytes), bytes));
  while (plan.width > 1 && plan.width * bytes > 16)
    plan.width /= 2;
  plan.bytes = plan.width * bytes;
  unsigned duplicates = layout.getReplicationMask(LinearLayout::Register);
  for (unsigned reg = 0; reg < layout.getNumRegisters(); reg += plan.width)
    if (!(reg & duplicates))
      ++plan.runs;
  plan.direct =
      (plan.bytes == 4 || plan.bytes == 16) && layout.getNumLanes() == 64 &&
      isWaveContiguous(layout, view, plan.width, plan.bytes, duplicates);
  return plan;
}

/// The plan of `op` from its own (unconverted) types.
static FailureOr<CopyPlan> planCopy(tpxgpu::AsyncCopyGlobalToLocalOp op) {
  std::optional<LinearLayout> layout = getLayout(op, op.getSrc().getType());
  if (!layout)
    return failure();
  FailureOr<SharedView> view = getView(op, op.getDst(), Value());
  if (failed(view))
    return failure();
  return planCopy(op, *layout, *view);
}

struct AMDAsyncCopyLowering
    : public OpConversionPattern<tpxgpu::AsyncCopyGlobalToLocalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<AsyncCopyOperands> operands =
        getAsyncCopyOperands(op, op.getOther(), op.getDst(), adaptor.getDst(),
                             op.getSrc().getType());
    if (failed(operands))
      return failure();
    SharedView *view = &operands->view;
    LinearLayout *layout = &operands->layout;
    FailureOr<CopyPlan> plan = planCopy(op, *layout, *view);
    if (failed(plan))
      return failure();

    SmallVector<Value> pointers = unpack(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpack(rewriter, loc, adaptor.getMask());
    unsigned duplicates = layout->getReplicationMask(LinearLayout::Register);
    ThreadIds ids = getThreadIds(rewriter, loc);
    SmallVector<Value> thread =
        getThreadCoordinate(rewriter, loc, *layout, ids);
    auto wordType =
        VectorType::get({int64_t(plan->bytes / std::min(4u, plan->bytes))},
                        rewriter.getIntegerType(8 * std::min(4u, plan->bytes)));
    Value zeros = LLVM::ConstantOp::create(rewriter, loc, wordType,
                                           rewriter.getZeroAttr(wordType));
    Value laneBytes = LLVM::MulOp::create(
        rewriter, loc, ids.lane, i32Constant(rewriter, loc, plan->bytes));
    Value noLaneBytes = LLVM::SubOp::create(
        rewriter, loc, i32Constant(rewriter, loc, 0), laneBytes);
    for (unsigned reg = 0, e = pointers.size(); reg < e; reg += plan->width) {
      if (reg & duplicates)
        continue;
      Value dst = view->address(
          rewriter, loc,
          getElementCoordinate(rewriter, loc, *layout, reg, thread));
      Value mask = masks.empty() ? Value() : masks[reg];
      if (!plan->direct) {
        Value loaded =
            mask
                ? rocdl::loadWhere(rewriter, loc, wordType, pointers[reg], mask,
                                   zeros, plan->bytes, op.getIsVolatile())
                : LLVM::LoadOp::create(rewriter, loc, wordType, pointers[reg],
                                       plan->bytes, op.getIsVolatile())
                      .getResult();
        LLVM::StoreOp::create(rewriter, loc, loaded, dst, plan->bytes);
        continue;
      }
      // The wave's LDS base: this lane's destination less its own piece,
      // the same in every lane (isWaveContiguous), made scalar for M0.
      Value base = LLVM::GEPOp::create(rewriter, loc, dst.getType(),
                                       rewriter.getI8Type(), dst,
                                       ArrayRef<LLVM::GEPArg>{noLaneBytes});
      Value asInt =
          LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI32Type(), base);
      asInt = ROCDL::ReadfirstlaneOp::create(rewriter, loc,
                                             rewriter.getI32Type(), asInt);
      base = LLVM::IntToPtrOp::create(rewriter, loc, dst.getType(), asInt);
      auto emitLoad = [&](OpBuilder &b, Location loc) {
        ROCDL::GlobalLoadLDSOp::create(
            b, loc, pointers[reg], base, b.getI32IntegerAttr(plan->bytes),
            /*offset=*/b.getI32IntegerAttr(0), /*aux=*/b.getI32IntegerAttr(0),
            /*alias_scopes=*/
            b.getArrayAttr({rocdl::getAsyncCopyScope(b.getContext())}),
            /*noalias_scopes=*/nullptr, /*tbaa=*/nullptr);
      };
      if (!mask) {
        emitLoad(rewriter, loc);
        continue;
      }
      Value off = LLVM::XOrOp::create(
          rewriter, loc, mask,
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                   rewriter.getBoolAttr(true)));
      rocdl::storeWhere(rewriter, loc, zeros, dst, off, plan->bytes);
      scf::IfOp::create(rewriter, loc, mask, [&](OpBuilder &b, Location l) {
        emitLoad(b, l);
        scf::YieldOp::create(b, l);
      });
    }
    rewriter.replaceOp(op, i32Constant(rewriter, loc, 0));
    return success();
  }
};

struct AMDAsyncCommitGroupLowering
    : public OpConversionPattern<tpxgpu::AsyncCommitGroupOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::AsyncCommitGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, i32Constant(rewriter, op.getLoc(), 0));
    return success();
  }
};

/// Whether `group` is the empty commit a pipelined loop's drain makes just
/// before waiting for everything (async_wait num = 0 of it).
static bool isDrainCommit(tpxgpu::AsyncCommitGroupOp group) {
  auto wait = dyn_cast_or_null<tpxgpu::AsyncWaitOp>(group->getNextNode());
  return group->getNumOperands() == 0 && wait && wait.getNum() == 0;
}

/// The fewest direct-to-LDS instructions a commit group of `func` issues
/// (0 when a group has copies of the synchronous form only, or none; the
/// drain's empty commit does not count, its wait is vmcnt(0) anyway).
static FailureOr<unsigned> getFewestInstructionsPerGroup(Operation *func) {
  std::optional<unsigned> fewest;
  bool failedPlan = false;
  func->walk([&](tpxgpu::AsyncCommitGroupOp group) {
    if (isDrainCommit(group))
      return;
    unsigned count = 0;
    for (Value token : group->getOperands()) {
      auto copy = token.getDefiningOp<tpxgpu::AsyncCopyGlobalToLocalOp>();
      if (!copy) {
        // A token from elsewhere (a loop argument): its copies are unknown.
        fewest = 0;
        continue;
      }
      FailureOr<CopyPlan> plan = planCopy(copy);
      if (failed(plan)) {
        failedPlan = true;
        continue;
      }
      if (plan->direct)
        count += plan->runs;
    }
    fewest = std::min(fewest.value_or(count), count);
  });
  if (failedPlan)
    return failure();
  return fewest.value_or(0);
}

struct AMDAsyncWaitLowering : public OpConversionPattern<tpxgpu::AsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *func = op->getParentOfType<FunctionOpInterface>();
    FailureOr<unsigned> perGroup =
        func ? getFewestInstructionsPerGroup(func) : FailureOr<unsigned>(0u);
    if (failed(perGroup))
      return failure();
    // gfx9's vmcnt is 6 bits: [3:0] and [15:14] of s_waitcnt's immediate;
    // expcnt [6:4] and lgkmcnt [11:8] left at their maximum (no wait).
    unsigned vmcnt = std::min(63u, op.getNum() * *perGroup);
    int32_t bitfield =
        (vmcnt & 0xF) | ((vmcnt >> 4) << 14) | (0x7 << 4) | (0xF << 8);
    ROCDL::SWaitcntOp::create(rewriter, op.getLoc(), bitfield);
    rewriter.replaceOp(op, i32Constant(rewriter, op.getLoc(), 0));
    return success();
  }
};

struct AMDFenceAsyncSharedLowering
    : public OpConversionPattern<tpxgpu::FenceAsyncSharedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::FenceAsyncSharedOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void gpu_lowering::populateAMDAsyncCopyPatterns(TensorTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<AMDAsyncCopyLowering, AMDAsyncCommitGroupLowering,
               AMDAsyncWaitLowering, AMDFenceAsyncSharedLowering>(
      converter, patterns.getContext());
}
