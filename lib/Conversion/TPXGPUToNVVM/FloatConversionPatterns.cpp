//===- FloatConversionPatterns.cpp - tt.fp_to_fp per register -------------===//
//
// tt.fp_to_fp is Triton's float conversion with a rounding mode, and the
// only one that reaches 8-bit floats. fp8 values are i8 registers here
// (LLVM has no 8-bit float), converted with Hopper's (sm_89+) cvt
// instructions, one element per instruction:
//
//   e4m3/e5m2 -> f16   cvt.rn.f16x2.{e4m3,e5m2}x2 (exact), then on to
//                      f32 or bf16 (exact as well)
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

/// An fp8 element (its i8 bits) as f16.
static Value fp8ToF16(OpBuilder &b, Location loc, Value bits, Type fp8) {
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
  Value bits = inlinePtx(b, loc, b.getI16Type(), value,
                         dst.isF16() ? "cvt.rz.f16.f32 $0, $1;"
                                     : "cvt.rz.bf16.f32 $0, $1;",
                         "=h,f", /*sideEffects=*/false);
  return LLVM::BitcastOp::create(b, loc, dst, bits);
}

static Value convertFloat(OpBuilder &b, Location loc, Value value, Type src,
                          Type dst, bool towardZero) {
  if (src == dst)
    return value;
  if (isFp8(src)) {
    Value half = fp8ToF16(b, loc, value, src);
    return dst.isF16() ? half
                       : convertFloat(b, loc, half, b.getF16Type(), dst, false);
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
