//===- DecomposeScaledDots.cpp - tpxgpu-decompose-scaled-dots -------------===//
//
// Hopper has no microscaled (mx) tensor-core instructions, so a
// tt.dot_scaled becomes what it means: each operand decoded to bf16,
// multiplied by its e8m0 block scale (one per 32 elements of K, 2^(s-127))
// and fed to an ordinary tt.dot, which tpxgpu-use-wgmma then runs on
// wgmma. Everything is tt/arith on tensors, so the layout passes place it
// and the SIMT code generator covers it:
//   e2m1 (two per byte)  nibbles split with and/shift, paired by tt.join
//                        and reshaped into the unpacked dimension, then
//                        decoded to bf16 bits in integer arithmetic (exact)
//   e4m3 / e5m2          tt.fp_to_fp to bf16 (exact)
//   bf16 / fp16          as they are; fp16 meets bf16 (or a scale) as bf16
// Scales broadcast along K by expand_dims / broadcast / reshape and
// multiply in bf16: a power of two times an exact bf16 value is exact but
// for results below bf16's normal range, which mul.rn rounds once -- as
// f32 arithmetic then truncation would (f32 and bf16 share their exponent
// range) -- and sm_90 multiplies bf16 pairs in one instruction (measured:
// 0.60x -> 0.74x Triton, bench/results/2026-12-02-h200-session12-*).
// e8m0 0 and 255 decode as 0 and infinity, as on the CPU target.
// fp6 formats (e2m3, e3m2) stay, for the one-thread path to report.
//
//===----------------------------------------------------------------------===//
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"

#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPUDECOMPOSESCALEDDOTS
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;

namespace {

/// Builds the decomposition at one dot_scaled.
class ScaledDotBuilder {
public:
  ScaledDotBuilder(tt::DotScaledOp op) : b(op), loc(op.getLoc()), op(op) {}

  /// The ordinary dot op means, or failure for formats it does not handle.
  FailureOr<Value> build();

private:
  RankedTensorType typeLike(Value v, Type element) {
    return RankedTensorType::get(cast<RankedTensorType>(v.getType()).getShape(),
                                 element);
  }
  Value splat(Value like, int64_t value) {
    auto type = cast<RankedTensorType>(like.getType());
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type,
                               b.getIntegerAttr(type.getElementType(), value)));
  }
  Value shape(Value v, ArrayRef<int64_t> dims) {
    auto type = cast<RankedTensorType>(v.getType());
    return tt::ReshapeOp::create(
        b, loc, RankedTensorType::get(dims, type.getElementType()), v);
  }
  Value transpose(Value v, ArrayRef<int32_t> order) {
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> dims;
    for (int32_t d : order)
      dims.push_back(type.getDimSize(d));
    return tt::TransOp::create(
        b, loc, RankedTensorType::get(dims, type.getElementType()), v,
        b.getDenseI32ArrayAttr(order));
  }
  Value unpackFp4(Value packed, unsigned packedDim);
  Value decodeFp4(Value nibbles);
  Value decode(Value operand, tt::ScaleDotElemType format, bool isLhs,
               bool kPack);
  Value convert(Value value, Type element);
  Value scaleFactors(Value scale, bool isLhs, int64_t k);

  OpBuilder b;
  Location loc;
  tt::DotScaledOp op;
  Type compute;
};

/// Splits each byte of `packed` into its low (first) and high (second)
/// nibble along `packedDim`, doubling that dimension.
Value ScaledDotBuilder::unpackFp4(Value packed, unsigned packedDim) {
  auto type = cast<RankedTensorType>(packed.getType());
  Value low = arith::AndIOp::create(b, loc, packed, splat(packed, 0xF));
  Value high = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, packed, splat(packed, 4)),
      splat(packed, 0xF));
  SmallVector<int64_t> dims(type.getShape());
  SmallVector<int64_t> joined(dims);
  joined.push_back(2);
  Value pairs = tt::JoinOp::create(
      b, loc, RankedTensorType::get(joined, type.getElementType()), low, high);
  // The pair's dimension goes right after the packed one, then merges in.
  if (packedDim + 1 != dims.size())
    pairs = transpose(pairs, {0, 2, 1});
  dims[packedDim] *= 2;
  return shape(pairs, dims);
}

/// e2m1 nibbles (sign, two exponent bits with bias 1, one mantissa bit) as
/// bf16: normal values move their exponent to bf16's bias (127) and their
/// mantissa bit to the top of bf16's; the subnormal 0.5 is 2^-1.
Value ScaledDotBuilder::decodeFp4(Value nibbles) {
  Value n = arith::ExtUIOp::create(b, loc, typeLike(nibbles, b.getI16Type()),
                                   nibbles);
  auto shr = [&](Value v, int64_t s) {
    return arith::ShRUIOp::create(b, loc, v, splat(v, s));
  };
  auto shl = [&](Value v, int64_t s) {
    return arith::ShLIOp::create(b, loc, v, splat(v, s));
  };
  auto mask = [&](Value v, int64_t m) {
    return arith::AndIOp::create(b, loc, v, splat(v, m));
  };
  Value sign = mask(shr(n, 3), 1);
  Value exponent = mask(shr(n, 1), 3);
  Value mantissa = mask(n, 1);
  Value normal = arith::OrIOp::create(
      b, loc, shl(arith::AddIOp::create(b, loc, exponent, splat(n, 126)), 7),
      shl(mantissa, 6));
  Value subnormal = arith::MulIOp::create(b, loc, mantissa, splat(n, 126 << 7));
  Value isSubnormal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            exponent, splat(n, 0));
  Value magnitude =
      arith::SelectOp::create(b, loc, isSubnormal, subnormal, normal);
  Value bits = arith::OrIOp::create(b, loc, shl(sign, 15), magnitude);
  return tt::BitcastOp::create(b, loc, typeLike(bits, b.getBF16Type()), bits);
}

/// `value` as `element` floats (exactly, through f32 where it widens).
Value ScaledDotBuilder::convert(Value value, Type element) {
  Type from = cast<RankedTensorType>(value.getType()).getElementType();
  if (from == element)
    return value;
  if (from.getIntOrFloatBitWidth() < element.getIntOrFloatBitWidth()) {
    if (!element.isF32())
      value = convert(value, b.getF32Type());
    return cast<RankedTensorType>(value.getType()).getElementType() == element
               ? value
               : arith::ExtFOp::create(b, loc, typeLike(value, element), value);
  }
  if (!from.isF32())
    value =
        arith::ExtFOp::create(b, loc, typeLike(value, b.getF32Type()), value);
  return arith::TruncFOp::create(b, loc, typeLike(value, element), value);
}

/// `operand` in its logical (unpacked) shape, as `compute` floats.
Value ScaledDotBuilder::decode(Value operand, tt::ScaleDotElemType format,
                               bool isLhs, bool kPack) {
  Type target = compute;
  Type element = cast<RankedTensorType>(operand.getType()).getElementType();
  Value value;
  switch (format) {
  case tt::ScaleDotElemType::E2M1:
    // k_pack packs K (lhs dim 1, rhs dim 0), else M or N.
    value = decodeFp4(unpackFp4(operand, isLhs == kPack ? 1 : 0));
    break;
  case tt::ScaleDotElemType::E4M3:
  case tt::ScaleDotElemType::E5M2: {
    Type fp8 = format == tt::ScaleDotElemType::E4M3
                   ? Type(b.getType<Float8E4M3FNType>())
                   : Type(b.getType<Float8E5M2Type>());
    if (element != fp8)
      operand = tt::BitcastOp::create(b, loc, typeLike(operand, fp8), operand);
    // Every e4m3 / e5m2 value is exact in f32 and in bf16.
    value = tt::FpToFpOp::create(b, loc, typeLike(operand, b.getBF16Type()),
                                 operand, tt::RoundingModeAttr());
    break;
  }
  default:
    value = operand;
    break;
  }
  return convert(value, target);
}

/// The e8m0 scales of an operand (rows M or N, K / 32 columns), one per
/// element of the operand's logical shape: 2^(s - 127) as bf16, whose
/// exponent field is the scale's byte.
Value ScaledDotBuilder::scaleFactors(Value scale, bool isLhs, int64_t k) {
  auto type = cast<RankedTensorType>(scale.getType());
  Type i8 = b.getI8Type();
  Type bf16 = b.getBF16Type();
  Value factors;
  if (isa<Float8E4M3FNType>(type.getElementType())) {
    // nvfp4's e4m3 scales (one per 16 of K): exact in bf16, and so is their
    // product with an fp4 or fp8 value (at most 8 significant bits).
    factors = tt::FpToFpOp::create(b, loc, typeLike(scale, bf16), scale,
                                   tt::RoundingModeAttr());
  } else {
    if (type.getElementType() != i8)
      scale = tt::BitcastOp::create(b, loc, typeLike(scale, i8), scale);
    Value wide =
        arith::ExtUIOp::create(b, loc, typeLike(scale, b.getI16Type()), scale);
    Value bits = arith::ShLIOp::create(b, loc, wide, splat(wide, 7));
    factors = tt::BitcastOp::create(b, loc, typeLike(bits, bf16), bits);
  }
  int64_t rows = type.getDimSize(0), groups = type.getDimSize(1);
  Value column = tt::ExpandDimsOp::create(
      b, loc, RankedTensorType::get({rows, groups, 1}, bf16), factors,
      b.getI32IntegerAttr(2));
  Value spread = tt::BroadcastOp::create(
      b, loc, RankedTensorType::get({rows, groups, k / groups}, bf16), column);
  Value perElement = shape(spread, {rows, k});
  return isLhs ? perElement : transpose(perElement, {1, 0});
}

/// The logical K of `op`'s operand `operand` (packed fp4 holds two
/// elements a byte along K with k_pack).
static int64_t getLogicalK(Value operand, tt::ScaleDotElemType format,
                           bool isLhs, bool kPack) {
  auto type = cast<RankedTensorType>(operand.getType());
  int64_t k = type.getDimSize(isLhs ? 1 : 0);
  return format == tt::ScaleDotElemType::E2M1 && kPack ? 2 * k : k;
}

/// True when the decomposition covers `op`: no fp6, 2-D operands of one K,
/// and scales of K / 32-element groups.
static bool canDecompose(tt::DotScaledOp op) {
  using Format = tt::ScaleDotElemType;
  for (Format format : {op.getAElemType(), op.getBElemType()})
    if (format == Format::E2M3 || format == Format::E3M2)
      return false;
  if (op.getType().getRank() != 2)
    return false;
  int64_t k = getLogicalK(op.getA(), op.getAElemType(), true, op.getLhsKPack());
  if (k != getLogicalK(op.getB(), op.getBElemType(), false, op.getRhsKPack()))
    return false;
  for (Value scale : {op.getAScale(), op.getBScale()}) {
    if (!scale)
      continue;
    auto type = cast<RankedTensorType>(scale.getType());
    if (type.getRank() != 2 || type.getDimSize(1) == 0 ||
        k % type.getDimSize(1) != 0)
      return false;
  }
  return true;
}

FailureOr<Value> ScaledDotBuilder::build() {
  using Format = tt::ScaleDotElemType;
  if (!canDecompose(op))
    return failure();
  bool allFp16 = op.getAElemType() == Format::FP16 &&
                 op.getBElemType() == Format::FP16 && !op.getAScale() &&
                 !op.getBScale();
  compute = allFp16 ? Type(b.getF16Type()) : Type(b.getBF16Type());
  Value a = decode(op.getA(), op.getAElemType(), true, op.getLhsKPack());
  Value bv = decode(op.getB(), op.getBElemType(), false, op.getRhsKPack());
  int64_t k = cast<RankedTensorType>(a.getType()).getDimSize(1);
  // In bf16 (see the file comment).
  auto scaled = [&](Value operand, Value scale, bool isLhs) -> Value {
    if (!scale)
      return operand;
    // Both are `compute` (bf16: a scaled operand never stays fp16).
    return arith::MulFOp::create(b, loc, operand,
                                 scaleFactors(scale, isLhs, k));
  };
  a = scaled(a, op.getAScale(), true);
  bv = scaled(bv, op.getBScale(), false);
  return tt::DotOp::create(b, loc, op.getType(), a, bv, op.getC(),
                           tt::InputPrecision::IEEE, /*maxNumImpreciseAcc=*/0)
      .getResult();
}

struct DecomposeScaledDotsPass
    : public tpx::impl::TPXGPUDecomposeScaledDotsBase<DecomposeScaledDotsPass> {
  void runOnOperation() override {
    SmallVector<tt::DotScaledOp> dots;
    getOperation().walk([&](tt::DotScaledOp op) { dots.push_back(op); });
    for (tt::DotScaledOp op : dots) {
      ScaledDotBuilder builder(op);
      FailureOr<Value> dot = builder.build();
      if (failed(dot))
        continue;
      op.replaceAllUsesWith(*dot);
      op.erase();
    }
  }
};

} // namespace
