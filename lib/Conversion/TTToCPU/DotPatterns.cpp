//===- DotPatterns.cpp - tt.dot / tt.dot_scaled to linalg -----------------===//
#include "FP8Conversion.h"
#include "TTToCPUCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::cpu;

namespace {

/// An operand as linalg.matmul can consume it: float8 (carried as i8) is
/// decoded to f32 first; other types are promoted by the matmul itself.
static Value prepareOperand(OpBuilder &b, Location loc, Value converted,
                            RankedTensorType original) {
  auto element = dyn_cast<FloatType>(original.getElementType());
  if (!element || element.getWidth() != 8)
    return converted;
  auto f32Type = RankedTensorType::get(original.getShape(), b.getF32Type());
  return mapElementwise(b, loc, f32Type, {converted},
                        [&](OpBuilder &nb, Location l, ValueRange args) {
                          return decodeFloat8(nb, l, args[0], element);
                        });
}

struct DotOpLowering : public OpConversionPattern<tt::DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value a =
        prepareOperand(rewriter, loc, adaptor.getA(), op.getA().getType());
    Value b =
        prepareOperand(rewriter, loc, adaptor.getB(), op.getB().getType());
    Value c = adaptor.getC();
    Value result;
    if (op.getType().getRank() == 3)
      result =
          linalg::BatchMatmulOp::create(rewriter, loc, TypeRange{c.getType()},
                                        ValueRange{a, b}, ValueRange{c})
              .getResult(0);
    else
      result = linalg::MatmulOp::create(rewriter, loc, TypeRange{c.getType()},
                                        ValueRange{a, b}, ValueRange{c})
                   .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Decodes one microscaling element format to f32, per element of `value`
/// (already unpacked to one element per tensor entry).
static Value decodeScaledElement(OpBuilder &b, Location loc, Value value,
                                 tt::ScaleDotElemType format) {
  MLIRContext *context = b.getContext();
  switch (format) {
  case tt::ScaleDotElemType::E4M3:
    return decodeFloat8(b, loc, value, Float8E4M3FNType::get(context));
  case tt::ScaleDotElemType::E5M2:
    return decodeFloat8(b, loc, value, Float8E5M2Type::get(context));
  case tt::ScaleDotElemType::E2M1: {
    // Four-bit e2m1: sign, two exponent bits, one mantissa bit.
    static const float table[16] = {0.0f,  0.5f,  1.0f,  1.5f,  2.0f,  3.0f,
                                    4.0f,  6.0f,  -0.0f, -0.5f, -1.0f, -1.5f,
                                    -2.0f, -3.0f, -4.0f, -6.0f};
    auto tableType = RankedTensorType::get({16}, b.getF32Type());
    Value lut = arith::ConstantOp::create(
        b, loc, tableType,
        DenseElementsAttr::get(tableType, ArrayRef<float>(table)));
    Value index = arith::IndexCastUIOp::create(
        b, loc, b.getIndexType(),
        arith::ExtUIOp::create(b, loc, b.getI32Type(), value));
    return tensor::ExtractOp::create(b, loc, lut, ValueRange{index});
  }
  case tt::ScaleDotElemType::BF16:
  case tt::ScaleDotElemType::FP16:
    return arith::ExtFOp::create(b, loc, b.getF32Type(), value);
  case tt::ScaleDotElemType::E2M3:
  case tt::ScaleDotElemType::E3M2:
    return {};
  }
  return {};
}

/// tt.dot_scaled: operands are unpacked (two e2m1 values per byte along K),
/// decoded to f32, multiplied by their block scales (e8m0, one per 32
/// elements of K; or e4m3, nvfp4's, one per 16) and fed to linalg.matmul.
struct DotScaledOpLowering : public OpConversionPattern<tt::DotScaledOp> {
  using OpConversionPattern::OpConversionPattern;

  /// operand[m, k] for a (`isLhs`) or operand[k, n] for b, as f32 [rows x
  /// cols] of the logical (unpacked) shape. `scaleElement` is the scale's
  /// element type before conversion (fp8 travels as i8).
  Value decodeOperand(OpBuilder &b, Location loc, Value packed, Value scale,
                      Type scaleElement, tt::ScaleDotElemType format,
                      bool isLhs, bool kPack, int64_t m, int64_t n,
                      int64_t k) const {
    bool isFp4 = format == tt::ScaleDotElemType::E2M1;
    SmallVector<int64_t> shape =
        isLhs ? SmallVector<int64_t>{m, k} : SmallVector<int64_t>{k, n};
    auto type = RankedTensorType::get(shape, b.getF32Type());
    Value init = createEmptyTensor(b, loc, type);
    return buildLoopNest(
        b, loc, shape, {init},
        [&](OpBuilder &lb, Location l, ValueRange ivs, ValueRange iter) {
          SmallVector<Value> at(ivs.begin(), ivs.end());
          Value two = arith::ConstantIndexOp::create(lb, l, 2);
          // With k_pack the K dimension is packed; otherwise M (lhs) or
          // N (rhs).
          unsigned packedDim = isLhs ? (kPack ? 1 : 0) : (kPack ? 0 : 1);
          Value raw;
          if (isFp4) {
            Value half = arith::DivUIOp::create(lb, l, at[packedDim], two);
            SmallVector<Value> byteAt = at;
            byteAt[packedDim] = half;
            Value byte = tensor::ExtractOp::create(lb, l, packed, byteAt);
            Value odd = arith::RemUIOp::create(lb, l, at[packedDim], two);
            Value shift = arith::MulIOp::create(
                lb, l, arith::IndexCastOp::create(lb, l, lb.getI8Type(), odd),
                arith::ConstantIntOp::create(lb, l, lb.getI8Type(), 4));
            raw = arith::AndIOp::create(
                lb, l, arith::ShRUIOp::create(lb, l, byte, shift),
                arith::ConstantIntOp::create(lb, l, lb.getI8Type(), 0xF));
          } else {
            raw = tensor::ExtractOp::create(lb, l, packed, at);
          }
          Value value = decodeScaledElement(lb, l, raw, format);
          if (scale) {
            // Scale rows are M (lhs) or N (rhs); columns are K / group
            // (32 for mx formats, 16 for nvfp4's e4m3 scales).
            Value row = isLhs ? at[0] : at[1];
            Value kIndex = isLhs ? at[1] : at[0];
            int64_t groups =
                cast<RankedTensorType>(scale.getType()).getDimSize(1);
            Value group = arith::DivUIOp::create(
                lb, l, kIndex,
                arith::ConstantIndexOp::create(lb, l, k / groups));
            Value s =
                tensor::ExtractOp::create(lb, l, scale, ValueRange{row, group});
            Value factor;
            if (isa<Float8E4M3FNType>(scaleElement)) {
              factor =
                  decodeScaledElement(lb, l, s, tt::ScaleDotElemType::E4M3);
            } else {
              // e8m0: 2^(s - 127), built directly as the f32 exponent field.
              Value bits = arith::ShLIOp::create(
                  lb, l, arith::ExtUIOp::create(lb, l, lb.getI32Type(), s),
                  arith::ConstantIntOp::create(lb, l, lb.getI32Type(), 23));
              factor = arith::BitcastOp::create(lb, l, lb.getF32Type(), bits);
            }
            value = arith::MulFOp::create(lb, l, value, factor);
          }
          return SmallVector<Value>{
              tensor::InsertOp::create(lb, l, value, iter[0], at)};
        })[0];
  }

  LogicalResult
  matchAndRewrite(tt::DotScaledOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    for (auto format : {op.getAElemType(), op.getBElemType()})
      if (format == tt::ScaleDotElemType::E2M3 ||
          format == tt::ScaleDotElemType::E3M2)
        return op.emitOpError("fp6 operands (")
               << tt::stringifyScaleDotElemType(format)
               << ") are not supported on the CPU target";
    Location loc = op.getLoc();
    auto d = op.getType();
    int64_t m = d.getDimSize(0), n = d.getDimSize(1);
    int64_t ka = op.getA().getType().getDimSize(1);
    bool aFp4 = op.getAElemType() == tt::ScaleDotElemType::E2M1;
    int64_t k = (aFp4 && op.getLhsKPack()) ? 2 * ka : ka;
    auto scaleElement = [](Value scale) {
      return scale ? getElementTypeOrSelf(scale.getType()) : Type();
    };
    Value a = decodeOperand(rewriter, loc, adaptor.getA(), adaptor.getAScale(),
                            scaleElement(op.getAScale()), op.getAElemType(),
                            true, op.getLhsKPack(), m, n, k);
    Value b = decodeOperand(rewriter, loc, adaptor.getB(), adaptor.getBScale(),
                            scaleElement(op.getBScale()), op.getBElemType(),
                            false, op.getRhsKPack(), m, n, k);
    Value result = linalg::MatmulOp::create(
                       rewriter, loc, TypeRange{adaptor.getC().getType()},
                       ValueRange{a, b}, ValueRange{adaptor.getC()})
                       .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tpx::cpu::populateDotPatterns(CPUTypeConverter &converter,
                                   RewritePatternSet &patterns) {
  patterns.add<DotOpLowering, DotScaledOpLowering>(converter,
                                                   patterns.getContext());
}
