//===- FloatConversionPatterns.cpp - tt.fp_to_fp per register -------------===//
//
// tt.fp_to_fp is Triton's float conversion with a rounding mode, and the
// only one that reaches 8-bit floats. fp8 values are i8 registers here
// (LLVM has no 8-bit float), converted with Hopper's (sm_89+) cvt
// instructions, one element per instruction:
//
//   e4m3/e5m2 -> f16   cvt.rn.f16x2.{e4m3,e5m2}x2 (exact), then on to
//                      f32 (fpext) or bf16 (sm_90's cvt.rn.bf16.f16), both
//                      exact
//   f16 -> e4m3/e5m2   cvt.rn.satfinite.{e4m3,e5m2}x2.f16x2
//   f32 -> e4m3/e5m2   cvt.rn.satfinite.{e4m3,e5m2}x2.f32 (bf16 widens to
//                      f32 first, exactly)
//
// so downcasts round to nearest even and saturate to the largest finite
// value (NaN stays NaN), as the CPU target's conversions do. cvt has no
// round-toward-zero form for fp8: that one widens to f32 and encodes in
// integer arithmetic (tpx::encodeFloat8, shared with the CPU). fp8 -> fp8
// goes through f16. Between the other types: fpext, fptrunc for
// round-to-nearest-even, cvt.rz for round-toward-zero.
//
// On AMD, fp8 is decoded exactly in integer arithmetic (decodeFp8ToF16)
// and encoded with tpx::encodeFloat8, which gives the same rounding and
// saturation; this does not depend on which fp8 flavour (OCP or FNUZ) a
// chip's conversion instructions implement.
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"

#include "tpx/Conversion/Float8Encoding.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

static bool isFp8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

static StringRef getFp8Name(Type type) {
  return isa<Float8E4M3FNType>(type) ? "e4m3" : "e5m2";
}

/// An fp8 element (its i8 bits) as f16, exactly, in integer arithmetic.
/// e5m2 is the upper byte of an f16. e4m3 (no infinities, S.1111.111 the
/// only NaN): a normal value rebiases its exponent (+8), a subnormal one is
/// its mantissa times 2^-9, which an f16 multiplication holds exactly.
static Value decodeFp8ToF16(OpBuilder &b, Location loc, Value bits, Type fp8) {
  Type i16 = b.getI16Type(), f16 = b.getF16Type();
  auto c16 = [&](int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i16, b.getI16IntegerAttr(v));
  };
  Value wide = LLVM::ZExtOp::create(b, loc, i16, bits);
  if (isa<Float8E5M2Type>(fp8))
    return LLVM::BitcastOp::create(b, loc, f16,
                                   LLVM::ShlOp::create(b, loc, wide, c16(8)));
  Value sign = LLVM::ShlOp::create(
      b, loc, LLVM::AndOp::create(b, loc, wide, c16(0x80)), c16(8));
  Value magnitude = LLVM::AndOp::create(b, loc, wide, c16(0x7f));
  Value exponent = LLVM::LShrOp::create(b, loc, magnitude, c16(3));
  Value mantissa = LLVM::AndOp::create(b, loc, magnitude, c16(7));
  // (exponent + 8) << 10 | mantissa << 7 == (magnitude << 7) + (8 << 10).
  Value normal = LLVM::AddOp::create(
      b, loc, LLVM::ShlOp::create(b, loc, magnitude, c16(7)), c16(8 << 10));
  Value subnormal = LLVM::BitcastOp::create(
      b, loc, i16,
      LLVM::FMulOp::create(b, loc,
                           LLVM::UIToFPOp::create(b, loc, f16, mantissa),
                           LLVM::ConstantOp::create(
                               b, loc, f16, b.getF16FloatAttr(1.0f / 512))));
  Value isSubnormal =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, exponent, c16(0));
  Value isNaN = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, magnitude,
                                     c16(0x7f));
  Value result = LLVM::SelectOp::create(
      b, loc, isNaN, c16(0x7e00),
      LLVM::SelectOp::create(b, loc, isSubnormal, subnormal, normal));
  return LLVM::BitcastOp::create(b, loc, f16,
                                 LLVM::OrOp::create(b, loc, result, sign));
}

/// An fp8 element (its i8 bits) as f16.
static Value fp8ToF16(OpBuilder &b, Location loc, Value bits, Type fp8) {
  if (targetsAMD(b))
    return decodeFp8ToF16(b, loc, bits, fp8);
  Value wide = LLVM::ZExtOp::create(b, loc, b.getI16Type(), bits);
  Value pair = inlinePtx(
      b, loc, b.getI32Type(), wide,
      ("cvt.rn.f16x2." + getFp8Name(fp8) + "x2 $0, $1;").str(), "=r,h",
      /*sideEffects=*/false);
  Value low = LLVM::TruncOp::create(b, loc, b.getI16Type(), pair);
  return LLVM::BitcastOp::create(b, loc, b.getF16Type(), low);
}

/// An f16 or f32 value as the i8 bits of `fp8`, rounded to nearest even and
/// saturated.
static Value toFp8(OpBuilder &b, Location loc, Value value, Type fp8) {
  if (targetsAMD(b)) {
    if (!value.getType().isF32())
      value = LLVM::FPExtOp::create(b, loc, b.getF32Type(), value);
    return encodeFloat8(b, loc, value, cast<FloatType>(fp8),
                        /*towardZero=*/false);
  }
  Value pair;
  std::string name = ("cvt.rn.satfinite." + getFp8Name(fp8) + "x2").str();
  if (value.getType().isF16()) {
    Value bits = LLVM::BitcastOp::create(b, loc, b.getI16Type(), value);
    Value wide = LLVM::ZExtOp::create(b, loc, b.getI32Type(), bits);
    pair = inlinePtx(b, loc, b.getI16Type(), wide, name + ".f16x2 $0, $1;",
                     "=h,r", /*sideEffects=*/false);
  } else {
    // The second source goes to the upper byte, the first to the lower.
    Value zero = LLVM::ConstantOp::create(b, loc, b.getF32Type(),
                                          b.getF32FloatAttr(0.0f));
    pair = inlinePtx(b, loc, b.getI16Type(), {zero, value},
                     name + ".f32 $0, $1, $2;", "=h,f,f",
                     /*sideEffects=*/false);
  }
  return LLVM::TruncOp::create(b, loc, b.getI8Type(), pair);
}

/// Round-toward-zero narrowing of an f32 to f16 or bf16.
static Value truncTowardZero(OpBuilder &b, Location loc, Value value,
                             Type dst) {
  if (targetsAMD(b))
    return LLVM::FPTruncOp::create(b, loc, dst, value); // FpToFpLowering
                                                        // rejects it first
  Value bits = inlinePtx(b, loc, b.getI16Type(), value,
                         dst.isF16() ? "cvt.rz.f16.f32 $0, $1;"
                                     : "cvt.rz.bf16.f32 $0, $1;",
                         "=h,f", /*sideEffects=*/false);
  return LLVM::BitcastOp::create(b, loc, dst, bits);
}

static Value convertFloat(OpBuilder &b, Location loc, Value value, Type src,
                          Type dst, bool towardZero);

/// An f16 decoded from fp8 as `dst`, exactly (fp8 has at most three
/// mantissa bits): bf16 with one sm_90 cvt instead of the round trip
/// through f32 (bf16 has f16's range and more), f32 and f64 by fpext.
static Value widenFp8Half(OpBuilder &b, Location loc, Value half, Type dst) {
  if (dst.isF16())
    return half;
  if (!dst.isBF16() || targetsAMD(b))
    return convertFloat(b, loc, half, b.getF16Type(), dst, false);
  Value bits = LLVM::BitcastOp::create(b, loc, b.getI16Type(), half);
  Value converted =
      inlinePtx(b, loc, b.getI16Type(), bits, "cvt.rn.bf16.f16 $0, $1;", "=h,h",
                /*sideEffects=*/false);
  return LLVM::BitcastOp::create(b, loc, b.getBF16Type(), converted);
}

static Value convertFloat(OpBuilder &b, Location loc, Value value, Type src,
                          Type dst, bool towardZero) {
  if (src == dst)
    return value;
  if (isFp8(src)) {
    return widenFp8Half(b, loc, fp8ToF16(b, loc, value, src), dst);
  }
  if (isFp8(dst) && towardZero) {
    // f16 and bf16 widen exactly.
    if (!src.isF32())
      value = LLVM::FPExtOp::create(b, loc, b.getF32Type(), value);
    return encodeFloat8(b, loc, value, cast<FloatType>(dst),
                        /*towardZero=*/true);
  }
  if (isFp8(dst)) {
    if (!src.isF16() && !src.isF32())
      value = convertFloat(b, loc, value, src, b.getF32Type(), false);
    return toFp8(b, loc, value, dst);
  }
  unsigned from = src.getIntOrFloatBitWidth(), to = dst.getIntOrFloatBitWidth();
  if (to > from)
    return LLVM::FPExtOp::create(b, loc, dst, value);
  if (to == from) { // f16 <-> bf16: through f32, which holds both exactly
    Value wide = LLVM::FPExtOp::create(b, loc, b.getF32Type(), value);
    return convertFloat(b, loc, wide, b.getF32Type(), dst, towardZero);
  }
  if (towardZero && src.isF32() && (dst.isF16() || dst.isBF16()))
    return truncTowardZero(b, loc, value, dst);
  return LLVM::FPTruncOp::create(b, loc, dst, value);
}

/// Two fp8 elements (their i8 bits) as f16, with one cvt of the pair.
static std::pair<Value, Value>
fp8PairToF16(OpBuilder &b, Location loc, Value first, Value second, Type fp8) {
  // As a two-byte vector: LLVM folds it into one 16-bit extract of the
  // loaded word when the bytes are neighbours there.
  Type i16 = b.getI16Type();
  Value bytes =
      LLVM::UndefOp::create(b, loc, VectorType::get({2}, b.getI8Type()));
  bytes = LLVM::InsertElementOp::create(b, loc, bytes, first,
                                        i32Constant(b, loc, 0));
  bytes = LLVM::InsertElementOp::create(b, loc, bytes, second,
                                        i32Constant(b, loc, 1));
  Value pair = inlinePtx(
      b, loc, b.getI32Type(),
      ValueRange{LLVM::BitcastOp::create(b, loc, i16, bytes)},
      ("cvt.rn.f16x2." + getFp8Name(fp8) + "x2 $0, $1;").str(), "=r,h",
      /*sideEffects=*/false);
  auto half = [&](unsigned shift) {
    Value bits = LLVM::TruncOp::create(
        b, loc, i16,
        shift ? LLVM::LShrOp::create(
                    b, loc, pair,
                    LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                             b.getI32IntegerAttr(shift)))
              : pair);
    return LLVM::BitcastOp::create(b, loc, b.getF16Type(), bits);
  };
  return {half(0), half(16)};
}

/// Two f16 or f32 values as the i8 bits of `fp8` (rounded to nearest even,
/// saturated), with one cvt of the pair.
static std::pair<Value, Value> pairToFp8(OpBuilder &b, Location loc,
                                         Value first, Value second, Type fp8) {
  std::string name = ("cvt.rn.satfinite." + getFp8Name(fp8) + "x2").str();
  Value pair;
  if (first.getType().isF16()) {
    Type i32 = b.getI32Type();
    auto bits = [&](Value v) {
      return LLVM::ZExtOp::create(
          b, loc, i32, LLVM::BitcastOp::create(b, loc, b.getI16Type(), v));
    };
    Value packed = LLVM::OrOp::create(
        b, loc, bits(first),
        LLVM::ShlOp::create(
            b, loc, bits(second),
            LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(16))));
    pair = inlinePtx(b, loc, b.getI16Type(), ValueRange{packed},
                     name + ".f16x2 $0, $1;", "=h,r", /*sideEffects=*/false);
  } else {
    // The first source goes to the upper byte, the second to the lower.
    pair = inlinePtx(b, loc, b.getI16Type(), ValueRange{second, first},
                     name + ".f32 $0, $1, $2;", "=h,f,f",
                     /*sideEffects=*/false);
  }
  Type i8 = b.getI8Type();
  Value high = LLVM::LShrOp::create(
      b, loc, pair,
      LLVM::ConstantOp::create(b, loc, b.getI16Type(), b.getI16IntegerAttr(8)));
  return {LLVM::TruncOp::create(b, loc, i8, pair),
          LLVM::TruncOp::create(b, loc, i8, high)};
}

/// fp8 <-> f16/bf16/f32 (not toward zero) on a tensor: PTX's cvt converts
/// two values at once, so registers go in pairs (any two: the conversion is
/// elementwise), an odd last one alone. Fails (for the per-register path)
/// on other conversions.
static LogicalResult convertFp8InPairs(tt::FpToFpOp op, Value source,
                                       const TypeConverter &converter,
                                       ConversionPatternRewriter &rewriter) {
  Type src = getElementTypeOrSelf(op.getSrc().getType());
  Type dst = getElementTypeOrSelf(op.getType());
  bool decode = isFp8(src) && !isFp8(dst) && !dst.isF64();
  bool encode = isFp8(dst) && (src.isF16() || src.isF32());
  if (targetsAMD(rewriter))
    return failure(); // one element at a time (no paired cvt)
  Type resultType = converter.convertType(op.getType());
  if ((op.getRounding() && *op.getRounding() == tt::RoundingMode::RTZ) ||
      !(decode || encode) || !isa<RankedTensorType>(op.getType()) ||
      !resultType)
    return failure();
  Location loc = op.getLoc();
  SmallVector<Value> values = unpack(rewriter, loc, source);
  SmallVector<Value> results;
  for (unsigned r = 0; r + 1 < values.size(); r += 2) {
    if (decode) {
      auto [x, y] = fp8PairToF16(rewriter, loc, values[r], values[r + 1], src);
      results.push_back(widenFp8Half(rewriter, loc, x, dst));
      results.push_back(widenFp8Half(rewriter, loc, y, dst));
    } else {
      auto [x, y] = pairToFp8(rewriter, loc, values[r], values[r + 1], dst);
      results.push_back(x);
      results.push_back(y);
    }
  }
  if (values.size() % 2)
    results.push_back(convertFloat(rewriter, loc, values.back(), src, dst,
                                   /*towardZero=*/false));
  if (!isa<LLVM::LLVMStructType>(resultType))
    rewriter.replaceOp(op, results.front());
  else
    rewriter.replaceOp(op, pack(rewriter, loc, resultType, results));
  return success();
}

namespace {
struct FpToFpLowering : public OpConversionPattern<tt::FpToFpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::FpToFpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type src = getElementTypeOrSelf(op.getSrc().getType());
    Type dst = getElementTypeOrSelf(op.getType());
    bool towardZero =
        op.getRounding() && *op.getRounding() == tt::RoundingMode::RTZ;
    if (towardZero && isFp8(dst) && src.getIntOrFloatBitWidth() > 32)
      return op.emitError("round-toward-zero conversions to 8-bit floats are "
                          "lowered from f32, f16 and bf16 only, got ")
             << src;
    if (towardZero && !isFp8(dst) && !src.isF32() && !isFp8(src) &&
        dst.getIntOrFloatBitWidth() <= src.getIntOrFloatBitWidth())
      return op.emitError("round-toward-zero narrowing is lowered from f32 "
                          "only, got ")
             << src << " -> " << dst;
    if (towardZero && targetsAMD(rewriter) && !isFp8(dst) && src.isF32() &&
        (dst.isF16() || dst.isBF16()))
      return op.emitError("round-toward-zero narrowing to ")
             << dst << " is not lowered for AMD GPUs yet";
    if (succeeded(convertFp8InPairs(op, adaptor.getSrc(), *getTypeConverter(),
                                    rewriter)))
      return success();
    return replacePerRegister(op, adaptor.getOperands(), *getTypeConverter(),
                              rewriter, [&](unsigned, ArrayRef<Value> args) {
                                return convertFloat(rewriter, op.getLoc(),
                                                    args[0], src, dst,
                                                    towardZero);
                              });
  }
};
} // namespace

void gpu_lowering::populateFloatConversionPatterns(
    TensorTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<FpToFpLowering>(converter, patterns.getContext());
}
