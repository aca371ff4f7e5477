//===- ShapePatterns.cpp - layout conversions and shape ops ---------------===//
//
// Each shape op is a map from result coordinates to source coordinates.
// When the source layout already gives every thread the elements it needs
// (LinearLayout::getRegisterMapFrom), the op is a register renaming;
// otherwise the data moves through shared memory (the op's scratch), except
// for convert_layout, which tpxgpu-lower-layout-conversions has already
// turned into local_alloc / local_load when it needs shared memory.
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"

#include "tpx/Analysis/ShapeOpCoordinates.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

namespace {

/// The layouts and registers of a one-source shape op.
struct ShapeOperands {
  LinearLayout from, to;
  SmallVector<Value> values;
  Type resultType;
};

static std::optional<ShapeOperands>
getShapeOperands(Operation *op, Value loweredSource,
                 const TypeConverter &converter, OpBuilder &b) {
  auto sourceType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  std::optional<LinearLayout> from = getLayout(op, sourceType);
  std::optional<LinearLayout> to = getLayout(op, resultType);
  Type lowered = converter.convertType(resultType);
  if (!from || !to || !lowered)
    return std::nullopt;
  return ShapeOperands{*from, *to, unpack(b, op->getLoc(), loweredSource),
                       lowered};
}

/// Where a shape op's data meets in shared memory when it cannot rename
/// registers: a buffer of `shape`, written at `sourceToStorage` of source
/// coordinates and read at `resultToStorage` of result coordinates.
struct Staging {
  ArrayRef<int64_t> shape;
  CoordinateMap sourceToStorage;
  CoordinateMap resultToStorage;
};

/// Replaces `op` by the registers of `operands.to`, each read from the
/// source register holding `toSource(coordinate)`, or through shared memory
/// as `staging` says when no register renaming does it.
static LogicalResult
replaceShapeOp(Operation *op, ShapeOperands &operands,
               ConversionPatternRewriter &rewriter,
               function_ref<Coordinate(ArrayRef<int64_t>)> toSource,
               const Staging &staging) {
  Location loc = op->getLoc();
  SmallVector<Value> result;
  if (std::optional<SmallVector<unsigned>> map =
          operands.from.getRegisterMapFrom(operands.to, toSource)) {
    for (unsigned reg : *map)
      result.push_back(operands.values[reg]);
  } else {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    result = exchangeThroughSharedMemory(
        rewriter, loc, op, operands.values, operands.from, operands.to,
        resultType.getElementType(), staging.shape, staging.sourceToStorage,
        staging.resultToStorage);
  }
  rewriter.replaceOp(op, pack(rewriter, loc, operands.resultType, result));
  return success();
}

static SmallVector<Value> sameCoordinate(ArrayRef<Value> c) {
  return SmallVector<Value>(c);
}

/// tpxgpu.barrier: bar.sync 0.
struct BarrierLowering : public OpConversionPattern<tpxgpu::BarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::BarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    emitBarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Only register renamings: a conversion that needs other threads' data
/// has become local_alloc / local_load in the ttgir stage.
struct ConvertLayoutLowering
    : public OpConversionPattern<tpxgpu::ConvertLayoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ops =
        getShapeOperands(op, adaptor.getSrc(), *getTypeConverter(), rewriter);
    if (!ops)
      return failure();
    std::optional<SmallVector<Value>> result =
        renameRegisters(ops->values, ops->from, ops->to);
    if (!result)
      return op.emitOpError("moves data between threads, which needs shared "
                            "memory: run tpxgpu-lower-layout-conversions "
                            "first");
    rewriter.replaceOp(op,
                       pack(rewriter, op.getLoc(), ops->resultType, *result));
    return success();
  }
};

/// Result coordinate without the new dimension.
struct ExpandDimsLowering : public OpConversionPattern<tt::ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ops =
        getShapeOperands(op, adaptor.getSrc(), *getTypeConverter(), rewriter);
    if (!ops)
      return failure();
    unsigned axis = op.getAxis();
    auto drop = [&](ArrayRef<int64_t> c) { return getShapeOpSource(op, c); };
    auto insertZero = [&](ArrayRef<Value> c) {
      SmallVector<Value> result(c);
      result.insert(result.begin() + axis,
                    i32Constant(rewriter, op.getLoc(), 0));
      return result;
    };
    return replaceShapeOp(
        op, *ops, rewriter, drop,
        Staging{op.getType().getShape(), insertZero, sameCoordinate});
  }
};

/// Result coordinate with the broadcast dimensions (size 1 in the source)
/// zeroed.
struct BroadcastLowering : public OpConversionPattern<tt::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ops =
        getShapeOperands(op, adaptor.getSrc(), *getTypeConverter(), rewriter);
    if (!ops)
      return failure();
    ArrayRef<int64_t> sourceShape = op.getSrc().getType().getShape();
    auto project = [&](ArrayRef<int64_t> c) { return getShapeOpSource(op, c); };
    // Through shared memory the source holds only the broadcast-free slice:
    // stage it in a buffer of the source's shape and read it back at
    // projected coordinates.
    auto projectValues = [&](ArrayRef<Value> c) {
      SmallVector<Value> result(c);
      for (auto [v, size] : llvm::zip_equal(result, sourceShape))
        if (size == 1)
          v = i32Constant(rewriter, op.getLoc(), 0);
      return result;
    };
    return replaceShapeOp(op, *ops, rewriter, project,
                          Staging{sourceShape, sameCoordinate, projectValues});
  }
};

/// Result dimension i is source dimension order[i].
struct TransLowering : public OpConversionPattern<tt::TransOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ops =
        getShapeOperands(op, adaptor.getSrc(), *getTypeConverter(), rewriter);
    if (!ops)
      return failure();
    ArrayRef<int32_t> order = op.getOrder();
    auto toSource = [&](ArrayRef<int64_t> c) {
      return getShapeOpSource(op, c);
    };
    auto sourceToResult = [&](ArrayRef<Value> c) {
      SmallVector<Value> result;
      for (int32_t dim : order)
        result.push_back(c[dim]);
      return result;
    };
    return replaceShapeOp(
        op, *ops, rewriter, toSource,
        Staging{op.getType().getShape(), sourceToResult, sameCoordinate});
  }
};

/// Row-major order is kept (also with allow_reorder, which only permits a
/// different one): a register renaming when the layouts allow, else the
/// elements meet at their flat index in shared memory.
struct ReshapeLowering : public OpConversionPattern<tt::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ops =
        getShapeOperands(op, adaptor.getSrc(), *getTypeConverter(), rewriter);
    if (!ops)
      return failure();
    Location loc = op.getLoc();
    ArrayRef<int64_t> sourceShape = op.getSrc().getType().getShape();
    ArrayRef<int64_t> resultShape = op.getType().getShape();
    // A register renaming when every thread holds its elements already
    // (a reshape that splits or merges dimensions inside the registers,
    // lanes or warps of one layout).
    if (std::optional<SmallVector<unsigned>> map =
            ops->from.getRegisterMapFrom(ops->to, [&](ArrayRef<int64_t> c) {
              return getShapeOpSource(op, c);
            })) {
      SmallVector<Value> result;
      for (unsigned reg : *map)
        result.push_back(ops->values[reg]);
      rewriter.replaceOp(op, pack(rewriter, loc, ops->resultType, result));
      return success();
    }
    int64_t elements = op.getType().getNumElements();
    auto flatSource = [&](ArrayRef<Value> c) {
      return SmallVector<Value>{linearize(rewriter, loc, c, sourceShape)};
    };
    auto flatResult = [&](ArrayRef<Value> c) {
      return SmallVector<Value>{linearize(rewriter, loc, c, resultShape)};
    };
    SmallVector<Value> result = exchangeThroughSharedMemory(
        rewriter, loc, op, ops->values, ops->from, ops->to,
        op.getType().getElementType(), {elements}, flatSource, flatResult);
    rewriter.replaceOp(op, pack(rewriter, loc, ops->resultType, result));
    return success();
  }
};

/// The operands' registers interleaved: convert-tt-to-tpxgpu gives the
/// result the layout whose fastest register is the new dimension
/// (getJoinedLayout), all else as the operands'.
struct JoinLowering : public OpConversionPattern<tt::JoinOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::JoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto operand = dyn_cast_or_null<tpxgpu::BlockedEncodingAttr>(
        op.getLhs().getType().getEncoding());
    if (!operand ||
        op.getType().getEncoding() != tpxgpu::getJoinedLayout(operand))
      return op.emitError("tt.join needs blocked operands and the result "
                          "layout convert-tt-to-tpxgpu gives it, got ")
             << op.getLhs().getType() << " -> " << op.getType();
    Location loc = op.getLoc();
    SmallVector<Value> lhs = unpack(rewriter, loc, adaptor.getLhs());
    SmallVector<Value> rhs = unpack(rewriter, loc, adaptor.getRhs());
    SmallVector<Value> result;
    for (auto [l, r] : llvm::zip_equal(lhs, rhs)) {
      result.push_back(l);
      result.push_back(r);
    }
    rewriter.replaceOp(op, pack(rewriter, loc,
                                getTypeConverter()->convertType(op.getType()),
                                result));
    return success();
  }
};

/// The even registers are the first result, the odd ones the second.
struct SplitLowering : public OpConversionPattern<tt::SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto source = dyn_cast_or_null<tpxgpu::BlockedEncodingAttr>(
        op.getSrc().getType().getEncoding());
    if (!source || tpxgpu::getSplitLayout(source) !=
                       op.getOutLHS().getType().getEncoding())
      return op.emitError("tt.split needs the source layout "
                          "convert-tt-to-tpxgpu gives it, got ")
             << op.getSrc().getType() << " -> " << op.getOutLHS().getType();
    Location loc = op.getLoc();
    SmallVector<Value> values = unpack(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> halves[2];
    for (auto [i, value] : llvm::enumerate(values))
      halves[i % 2].push_back(value);
    Type type = getTypeConverter()->convertType(op.getOutLHS().getType());
    rewriter.replaceOp(op, {pack(rewriter, loc, type, halves[0]),
                            pack(rewriter, loc, type, halves[1])});
    return success();
  }
};

/// A one-element tensor is held whole by every thread (its layout
/// replicates it everywhere), so its scalar is register 0.
struct UnsplatLowering : public OpConversionPattern<tt::UnsplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::UnsplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> values = unpack(rewriter, op.getLoc(), adaptor.getSrc());
    if (values.empty())
      return failure();
    rewriter.replaceOp(op, values.front());
    return success();
  }
};

} // namespace

void gpu_lowering::populateShapePatterns(TensorTypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<BarrierLowering, ConvertLayoutLowering, ExpandDimsLowering,
               BroadcastLowering, TransLowering, ReshapeLowering, JoinLowering,
               SplitLowering, UnsplatLowering>(converter,
                                               patterns.getContext());
}
