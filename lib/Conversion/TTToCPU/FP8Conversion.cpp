//===- FP8Conversion.cpp - float conversions incl. software float8 --------===//
#include "FP8Conversion.h"

#include "tpx/Conversion/Float8Encoding.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::cpu;

Value tpx::cpu::decodeFloat8(OpBuilder &b, Location loc, Value bits,
                             FloatType type) {
  SmallVector<float> decoded = getFloat8Values(type);
  auto tableType = RankedTensorType::get({256}, b.getF32Type());
  Value table = arith::ConstantOp::create(
      b, loc, tableType,
      DenseElementsAttr::get(tableType, ArrayRef<float>(decoded)));
  Value index = arith::IndexCastUIOp::create(
      b, loc, b.getIndexType(),
      arith::ExtUIOp::create(b, loc, b.getI32Type(), bits));
  return tensor::ExtractOp::create(b, loc, table, ValueRange{index});
}

Value tpx::cpu::convertFloat(OpBuilder &b, Location loc, Value value,
                             FloatType srcType, FloatType dstType,
                             bool towardZero) {
  if (srcType == dstType)
    return value;
  FloatType f32 = b.getF32Type();
  if (srcType.getWidth() == 8) {
    value = decodeFloat8(b, loc, value, srcType);
    srcType = f32;
    if (dstType == f32)
      return value;
  }
  if (dstType.getWidth() == 8) {
    if (srcType.getWidth() < 32)
      value = arith::ExtFOp::create(b, loc, f32, value);
    else if (srcType.getWidth() > 32)
      value = arith::TruncFOp::create(b, loc, f32, value);
    return encodeFloat8(b, loc, value, dstType, towardZero);
  }
  // f16 <-> bf16 have equal widths: go through f32, which holds both exactly.
  if (dstType.getWidth() == srcType.getWidth()) {
    value = arith::ExtFOp::create(b, loc, f32, value);
    srcType = f32;
  }
  if (dstType.getWidth() > srcType.getWidth())
    return arith::ExtFOp::create(b, loc, dstType, value);
  // A truncf with a rounding-mode attribute becomes LLVM's constrained
  // fptrunc, which only *assumes* the FP environment is in that mode (nothing
  // sets it, so rtz silently rounds to nearest) and, for bf16, needs the
  // compiler-rt call __truncsfbf2 that the JIT does not provide. Round to
  // nearest with a plain truncf and, for rtz, step the result one ulp toward
  // zero where rounding went away from zero. Stepping the magnitude's bits
  // down by one is exact across binades, from infinity to the largest finite
  // value and into subnormals; NaNs compare false and stay NaN.
  Value nearest = arith::TruncFOp::create(b, loc, dstType, value);
  if (!towardZero)
    return nearest;
  Value widened = arith::ExtFOp::create(b, loc, srcType, nearest);
  Value absWidened = math::AbsFOp::create(b, loc, widened);
  Value absValue = math::AbsFOp::create(b, loc, value);
  Value roundedAway = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                            absWidened, absValue);
  Type intType = b.getIntegerType(dstType.getWidth());
  Value bits = arith::BitcastOp::create(b, loc, intType, nearest);
  Value stepped = arith::BitcastOp::create(
      b, loc, dstType,
      arith::SubIOp::create(b, loc, bits,
                            arith::ConstantIntOp::create(b, loc, intType, 1)));
  return arith::SelectOp::create(b, loc, roundedAway, stepped, nearest);
}
