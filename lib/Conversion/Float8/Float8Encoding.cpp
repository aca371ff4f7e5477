//===- Float8Encoding.cpp - f32 to float8 bits in integer arithmetic ------===//
//
// Both targets carry float8 values as i8 bit patterns (LLVM has no 8-bit
// float). The CPU has no float8 conversion instruction, and the GPU's cvt
// only rounds to nearest even, so a conversion rounding toward zero is
// built here from integer arith ops, once, for both.
//
//===----------------------------------------------------------------------===//
#include "tpx/Conversion/Float8Encoding.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <optional>

using namespace mlir;

namespace {
/// What the encoder needs to know about a float8 format, derived from LLVM's
/// APFloat description of it.
struct Float8Format {
  int mantissaBits;
  int bias;
  uint32_t maxFiniteCode; // positive
  uint32_t nanCode;       // positive quiet NaN
  bool hasNegativeZero;
  std::optional<uint32_t> infCode; // positive infinity, if the format has one
  SmallVector<float> decoded;      // value of every code 0..255
};
} // namespace

static Float8Format describe(FloatType type) {
  const llvm::fltSemantics &sem = type.getFloatSemantics();
  Float8Format format;
  format.mantissaBits = llvm::APFloat::semanticsPrecision(sem) - 1;
  format.bias = 1 - llvm::APFloat::semanticsMinExponent(sem);
  format.maxFiniteCode = 0;
  format.nanCode = 0xFF;
  float largest = -1;
  for (uint32_t code = 0; code < 256; ++code) {
    llvm::APFloat value(sem, llvm::APInt(8, code));
    bool lost;
    value.convert(llvm::APFloat::IEEEsingle(),
                  llvm::APFloat::rmNearestTiesToEven, &lost);
    float f = value.convertToFloat();
    format.decoded.push_back(f);
    if (std::isnan(f) && (format.nanCode == 0xFF || code == 0x7F))
      format.nanCode = code;
    if (code < 0x80 && std::isinf(f))
      format.infCode = code;
    if (code < 0x80 && std::isfinite(f) && f > largest) {
      largest = f;
      format.maxFiniteCode = code;
    }
  }
  format.hasNegativeZero =
      format.decoded[0x80] == 0.0f && std::signbit(format.decoded[0x80]);
  return format;
}

SmallVector<float> tpx::getFloat8Values(FloatType type) {
  return describe(type).decoded;
}

Value tpx::encodeFloat8(OpBuilder &b, Location loc, Value value, FloatType type,
                        bool towardZero) {
  Float8Format format = describe(type);
  Type i32 = b.getI32Type();
  auto c = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32, v);
  };
  Value bits = arith::BitcastOp::create(b, loc, i32, value);
  Value sign = arith::ShRUIOp::create(b, loc, bits, c(31));
  Value magnitude = arith::AndIOp::create(b, loc, bits, c(0x7FFFFFFF));
  Value exponent = arith::ShRUIOp::create(b, loc, magnitude, c(23));
  Value mantissa = arith::AndIOp::create(b, loc, magnitude, c(0x7FFFFF));
  // Significand with its implicit bit (f32 subnormals flush to zero below,
  // far under the float8 range).
  Value significand = arith::OrIOp::create(b, loc, mantissa, c(1 << 23));
  // Target biased exponent; below 1 the result is subnormal.
  Value targetExp =
      arith::AddIOp::create(b, loc, exponent, c(format.bias - 127));
  Value isNormal =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, targetExp, c(0));
  // Bits of the significand dropped: 23 - M for normals, more below.
  Value subnormalExtra = arith::SubIOp::create(b, loc, c(1), targetExp);
  Value shift = arith::AddIOp::create(
      b, loc, c(23 - format.mantissaBits),
      arith::SelectOp::create(b, loc, isNormal, c(0), subnormalExtra));
  Value tooSmall =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, shift, c(25));
  Value safeShift = arith::MinSIOp::create(b, loc, shift, c(25));
  Value kept = arith::ShRUIOp::create(b, loc, significand, safeShift);
  // Normals: code = (exp << M) | mantissa-top-bits, i.e. the kept bits with
  // the implicit one replaced by the exponent; adding the rounding carry
  // later moves into the exponent naturally.
  Value mantissaMask = c((1 << format.mantissaBits) - 1);
  Value normalCode = arith::OrIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, targetExp, c(format.mantissaBits)),
      arith::AndIOp::create(b, loc, kept, mantissaMask));
  Value code = arith::SelectOp::create(b, loc, isNormal, normalCode, kept);
  if (!towardZero) {
    Value one = c(1);
    Value remainderMask = arith::SubIOp::create(
        b, loc, arith::ShLIOp::create(b, loc, one, safeShift), one);
    Value remainder = arith::AndIOp::create(b, loc, significand, remainderMask);
    Value half = arith::ShLIOp::create(
        b, loc, one, arith::SubIOp::create(b, loc, safeShift, one));
    Value above = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                        remainder, half);
    Value tie = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      remainder, half);
    Value odd = arith::TruncIOp::create(b, loc, b.getI1Type(), kept);
    Value roundUp = arith::OrIOp::create(
        b, loc, above, arith::AndIOp::create(b, loc, tie, odd));
    code = arith::AddIOp::create(b, loc, code,
                                 arith::ExtUIOp::create(b, loc, i32, roundUp));
  }
  code = arith::SelectOp::create(b, loc, tooSmall, c(0), code);
  // Zero stays zero (the implicit bit above would otherwise leak in).
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, exponent, c(0));
  code = arith::SelectOp::create(b, loc, isZero, c(0), code);
  // Saturate finite values past the range to the largest finite value: rtne
  // is the GPU's cvt.rn.satfinite, and rtz never rounds away from zero.
  Value overflow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                         code, c(format.maxFiniteCode));
  Value isInfOrBig = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                           exponent, c(255));
  code = arith::SelectOp::create(
      b, loc, arith::OrIOp::create(b, loc, overflow, isInfOrBig),
      c(format.maxFiniteCode), code);
  // Infinities saturate under rtne (satfinite) but are exact under rtz, so
  // formats that have an infinity (e5m2) keep it there, as Triton's rtz
  // conversion (through f16, truncating) does.
  if (towardZero && format.infCode) {
    Value isInf = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        magnitude, c(0x7F800000));
    code = arith::SelectOp::create(b, loc, isInf, c(*format.infCode), code);
  }
  // Sign: formats without a negative zero map -0 to +0.
  Value signed_ = arith::OrIOp::create(
      b, loc, code, arith::ShLIOp::create(b, loc, sign, c(7)));
  if (!format.hasNegativeZero) {
    Value codeIsZero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, code, c(0));
    signed_ = arith::SelectOp::create(b, loc, codeIsZero, c(0), signed_);
  }
  // Every NaN becomes the positive canonical NaN (0x7F), whatever its sign
  // and payload: that is what the GPU's cvt instructions produce, so results
  // match it bit for bit.
  Value isNan =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
  Value result =
      arith::SelectOp::create(b, loc, isNan, c(format.nanCode), signed_);
  return arith::TruncIOp::create(b, loc, b.getI8Type(), result);
}
