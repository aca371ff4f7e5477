//===- AsyncCopyPatterns.cpp - cp.async, its groups and proxy fences ------===//
//
//  - async_copy_global_to_local: each thread copies its own elements of the
//    pointer tensor (layout L) into the memdesc with `cp.async`, one copy
//    per run of registers that is consecutive both in global memory (the
//    op's `tpxgpu.contiguity`) and in the shared address map, 4, 8 or 16
//    bytes (`.cg` for 16, bypassing L1; `.ca` below). A masked-off run
//    reads nothing and writes zeros (the source-size operand is 0). Runs
//    narrower than 4 bytes, which cp.async cannot move, are copied
//    synchronously (predicated ld.global, st.shared), so any IR lowers.
//  - async_commit_group: cp.async.commit_group;
//  - async_wait {num = N}: cp.async.wait_group N. Tokens lower to i32 0:
//    the hardware tracks groups per thread, in commit order.
//  - fence_async_shared: fence.proxy.async.shared::cta.
//
// A layout that gives one element to several threads is rejected: every
// owner would copy it, racing (tpxgpu-pipeline-async-copies never makes
// one).
//
//===----------------------------------------------------------------------===//
#include "SharedView.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

/// The widest copy cp.async has.
static constexpr unsigned kMaxCopyBytes = 16;

/// A synchronous copy of one run of `bytes` (1 or 2) bytes, where cp.async
/// cannot: a predicated load into a 16-bit register, then a shared store.
static void copySynchronously(OpBuilder &b, Location loc, Value dst, Value src,
                              Value mask, unsigned bytes) {
  Type i16 = b.getI16Type();
  std::string asmText =
      llvm::formatv("mov.b16 $0, 0;\n\t@$2 ld.global.{0} $0, [ $1 ];",
                    bytes == 2 ? "b16" : "u8");
  Value predicate = mask ? mask
                         : LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                                    b.getBoolAttr(true));
  Value loaded = inlinePtx(b, loc, i16, {src, predicate}, asmText, "=h,l,b",
                           /*sideEffects=*/true);
  if (bytes == 1)
    loaded = LLVM::TruncOp::create(b, loc, b.getI8Type(), loaded);
  LLVM::StoreOp::create(b, loc, loaded, dst, bytes);
}

FailureOr<AsyncCopyOperands>
gpu_lowering::getAsyncCopyOperands(Operation *op, Value other, Value memdesc,
                                   Value loweredDst, RankedTensorType srcType) {
  if (other && !tt::isZeroConstant(other))
    return op->emitOpError("with an 'other' that is not zero is not "
                           "supported: masked-off elements are zeros (the "
                           "copies' zero fill)");
  FailureOr<SharedView> view = getView(op, memdesc, loweredDst);
  if (failed(view))
    return failure();
  std::optional<LinearLayout> layout = getLayout(op, srcType);
  if (!layout)
    return failure();
  if (layout->getReplicationMask(LinearLayout::Lane) ||
      layout->getReplicationMask(LinearLayout::Warp))
    return op->emitOpError("from a layout that gives elements to several "
                           "threads is not supported (each would copy "
                           "them); use a layout without replication");
  return AsyncCopyOperands{*view, *layout};
}

namespace {

struct AsyncCopyLowering
    : public OpConversionPattern<tpxgpu::AsyncCopyGlobalToLocalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    FailureOr<AsyncCopyOperands> operands = getAsyncCopyOperands(
        op, op.getOther(), op.getDst(), adaptor.getDst(), srcType);
    if (failed(operands))
      return failure();
    SharedView *view = &operands->view;
    LinearLayout *layout = &operands->layout;
    Type element =
        cast<tt::PointerType>(srcType.getElementType()).getPointeeType();
    unsigned bits = element.getIntOrFloatBitWidth();
    if (bits % 8 != 0)
      return op.emitOpError("of ") << element
                                   << " elements is not supported (whole "
                                      "bytes only)";
    unsigned bytes = bits / 8;
    unsigned width = std::min(
        getVectorWidth(op, *layout, bytes),
        alignToRows(*view, getAccessWidth(*view, *layout, bytes), bytes));
    while (width > 1 && width * bytes > kMaxCopyBytes)
      width /= 2;
    unsigned copyBytes = width * bytes;

    SmallVector<Value> pointers = unpack(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpack(rewriter, loc, adaptor.getMask());
    unsigned duplicates = layout->getReplicationMask(LinearLayout::Register);
    ThreadIds ids = getThreadIds(rewriter, loc);
    SmallVector<Value> thread =
        getThreadCoordinate(rewriter, loc, *layout, ids);
    auto modifier = NVVM::LoadCacheModifierKindAttr::get(
        getContext(), copyBytes == kMaxCopyBytes
                          ? NVVM::LoadCacheModifierKind::CG
                          : NVVM::LoadCacheModifierKind::CA);
    // One address computation per copy op where the swizzle allows: the
    // other copies are constants past register 0's (rows 8 apart).
    Value first;
    for (unsigned reg = 0, e = pointers.size(); reg < e; reg += width) {
      if (reg & duplicates)
        continue;
      Value dst =
          view->registerAddress(rewriter, loc, *layout, reg, thread, first);
      Value mask = masks.empty() ? Value() : masks[reg];
      if (copyBytes < 4) {
        copySynchronously(rewriter, loc, dst, pointers[reg], mask, copyBytes);
        continue;
      }
      Value sourceBytes;
      if (mask)
        sourceBytes = LLVM::SelectOp::create(
            rewriter, loc, mask, i32Constant(rewriter, loc, copyBytes),
            i32Constant(rewriter, loc, 0));
      NVVM::CpAsyncOp::create(rewriter, loc, dst, pointers[reg],
                              rewriter.getI32IntegerAttr(copyBytes), modifier,
                              sourceBytes);
    }
    rewriter.replaceOp(op, i32Constant(rewriter, loc, 0));
    return success();
  }
};

struct AsyncCommitGroupLowering
    : public OpConversionPattern<tpxgpu::AsyncCommitGroupOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::AsyncCommitGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncCommitGroupOp::create(rewriter, op.getLoc());
    rewriter.replaceOp(op, i32Constant(rewriter, op.getLoc(), 0));
    return success();
  }
};

struct AsyncWaitLowering : public OpConversionPattern<tpxgpu::AsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncWaitGroupOp::create(rewriter, op.getLoc(), op.getNum());
    rewriter.replaceOp(op, i32Constant(rewriter, op.getLoc(), 0));
    return success();
  }
};

struct FenceAsyncSharedLowering
    : public OpConversionPattern<tpxgpu::FenceAsyncSharedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::FenceAsyncSharedOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    inlinePtx(rewriter, op.getLoc(), Type(), {},
              "fence.proxy.async.shared::cta;", "", /*sideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void gpu_lowering::populateAsyncCopyPatterns(TensorTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<AsyncCopyLowering, AsyncCommitGroupLowering, AsyncWaitLowering,
               FenceAsyncSharedLowering>(converter, patterns.getContext());
}
