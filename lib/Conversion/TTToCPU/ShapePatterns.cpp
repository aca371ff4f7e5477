//===- ShapePatterns.cpp - tt shape ops to tensor/linalg ------------------===//
#include "TTToCPUCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::cpu;

namespace {

static RankedTensorType convertedTensor(const TypeConverter *converter,
                                        Type type) {
  return cast<RankedTensorType>(converter->convertType(type));
}

/// tt.broadcast: a linalg.generic reading the source at index 0 along every
/// dimension that grows from size 1.
struct BroadcastOpLowering : public OpConversionPattern<tt::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType();
    auto resultType = convertedTensor(getTypeConverter(), op.getType());
    int64_t rank = resultType.getRank();
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d)
      exprs.push_back(srcType.getDimSize(d) == resultType.getDimSize(d)
                          ? getAffineDimExpr(d, context)
                          : getAffineConstantExpr(0, context));
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank, 0, exprs, context),
        AffineMap::getMultiDimIdentityMap(rank, context)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Value init = createEmptyTensor(rewriter, op.getLoc(), resultType);
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), TypeRange{resultType},
        ValueRange{adaptor.getSrc()}, ValueRange{init}, maps, iterators,
        [](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(b, loc, args[0]);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// tt.expand_dims and tt.reshape keep row-major element order.
template <typename OpTy>
struct ReshapeLikeLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = convertedTensor(this->getTypeConverter(), op.getType());
    rewriter.replaceOp(
        op, reshapeTensor(rewriter, op.getLoc(), adaptor.getSrc(), type));
    return success();
  }
};

struct TransOpLowering : public OpConversionPattern<tt::TransOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = convertedTensor(getTypeConverter(), op.getType());
    Value init = createEmptyTensor(rewriter, op.getLoc(), type);
    SmallVector<int64_t> permutation(op.getOrder().begin(),
                                     op.getOrder().end());
    auto transpose = linalg::TransposeOp::create(
        rewriter, op.getLoc(), adaptor.getSrc(), init, permutation);
    rewriter.replaceOp(op, transpose.getResult());
    return success();
  }
};

/// Inserts `source` into `dest` at `offsets` with unit strides; the source
/// may have dropped unit dimensions of the slice.
static Value insertSlice(OpBuilder &b, Location loc, Value source, Value dest,
                         ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> strides(offsets.size(), 1);
  return tensor::InsertSliceOp::create(b, loc, source, dest, ValueRange(),
                                       ValueRange(), ValueRange(), offsets,
                                       sizes, strides);
}

/// tt.cat concatenates along dimension 0 (Triton leaves the order free; the
/// natural order is the one users expect).
struct CatOpLowering : public OpConversionPattern<tt::CatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::CatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = convertedTensor(getTypeConverter(), op.getType());
    auto lhsType = op.getLhs().getType();
    if (type.getDimSize(0) != 2 * lhsType.getDimSize(0) ||
        type.getShape().drop_front() != lhsType.getShape().drop_front())
      return op.emitOpError("on the CPU target concatenates along dimension "
                            "0; result shape does not match that");
    Location loc = op.getLoc();
    Value result = createEmptyTensor(rewriter, loc, type);
    SmallVector<int64_t> offsets(type.getRank(), 0);
    result = insertSlice(rewriter, loc, adaptor.getLhs(), result, offsets,
                         lhsType.getShape());
    offsets[0] = lhsType.getDimSize(0);
    result = insertSlice(rewriter, loc, adaptor.getRhs(), result, offsets,
                         lhsType.getShape());
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct JoinOpLowering : public OpConversionPattern<tt::JoinOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::JoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = convertedTensor(getTypeConverter(), op.getType());
    Location loc = op.getLoc();
    SmallVector<int64_t> sizes(op.getLhs().getType().getShape());
    sizes.push_back(1);
    SmallVector<int64_t> offsets(type.getRank(), 0);
    Value result = createEmptyTensor(rewriter, loc, type);
    result = insertSlice(rewriter, loc, adaptor.getLhs(), result, offsets,
                         sizes);
    offsets.back() = 1;
    result = insertSlice(rewriter, loc, adaptor.getRhs(), result, offsets,
                         sizes);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SplitOpLowering : public OpConversionPattern<tt::SplitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto outType = convertedTensor(getTypeConverter(), op.getOutLHS().getType());
    auto srcType = op.getSrc().getType();
    SmallVector<int64_t> sizes(srcType.getShape());
    sizes.back() = 1;
    SmallVector<int64_t> offsets(srcType.getRank(), 0);
    SmallVector<int64_t> strides(srcType.getRank(), 1);
    SmallVector<Value> results;
    for (int64_t half = 0; half < 2; ++half) {
      offsets.back() = half;
      results.push_back(tensor::ExtractSliceOp::create(
          rewriter, op.getLoc(), outType, adaptor.getSrc(), ValueRange(),
          ValueRange(), ValueRange(), offsets, sizes, strides));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// tt.gather: result[i] = src[i with i[axis] replaced by indices[i]].
struct GatherOpLowering : public OpConversionPattern<tt::GatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = convertedTensor(getTypeConverter(), op.getType());
    int64_t axis = op.getAxis();
    Value src = adaptor.getSrc();
    Value result = mapElementwise(
        rewriter, op.getLoc(), type, {adaptor.getIndices()},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          SmallVector<Value> coords;
          for (int64_t d = 0; d < type.getRank(); ++d)
            coords.push_back(linalg::IndexOp::create(b, loc, d));
          Value index = args[0];
          if (!index.getType().isInteger(64))
            index = arith::ExtSIOp::create(b, loc, b.getI64Type(), index);
          coords[axis] =
              arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
          return tensor::ExtractOp::create(b, loc, src, coords);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tpx::cpu::populateShapePatterns(CPUTypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns.add<BroadcastOpLowering, ReshapeLikeLowering<tt::ExpandDimsOp>,
               ReshapeLikeLowering<tt::ReshapeOp>, TransOpLowering,
               CatOpLowering, JoinOpLowering, SplitOpLowering,
               GatherOpLowering>(converter, patterns.getContext());
}
