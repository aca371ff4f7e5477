//===- AxisInfoTransfer.cpp - transfer functions of the AxisInfo analysis -===//
//
// Every transfer function must only claim what holds for all runtime
// values: a claim too strong turns into a misaligned vector access, which
// kills the kernel. Where a rule would need more than the lattice tracks it
// gives up to (1, 1, 1) along that dimension.
//
//===----------------------------------------------------------------------===//
#include "AxisInfoTransfer.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::axis_info;

static constexpr int64_t kMaxDivisibility = AxisInfo::kMaxDivisibility;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

SmallVector<int64_t, 4> axis_info::getShape(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t, 4>(tensor.getShape());
  return {1};
}

int64_t axis_info::getStep(Type type) {
  auto pointer = dyn_cast<tt::PointerType>(getElementTypeOrSelf(type));
  if (!pointer)
    return 1;
  Type pointee = pointer.getPointeeType();
  if (isa<tt::PointerType>(pointee))
    return 8;
  if (pointee.isIntOrFloat())
    return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
  return 1;
}

/// Bits of an integer (or index, 64) element type.
static unsigned getBitWidth(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (element.isIndex())
    return 64;
  return element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
}

int64_t axis_info::highestPowerOf2Divisor(int64_t value) {
  if (value == 0)
    return kMaxDivisibility;
  unsigned zeros = llvm::countr_zero(static_cast<uint64_t>(value));
  if (zeros >= llvm::Log2_64(kMaxDivisibility))
    return kMaxDivisibility;
  return int64_t(1) << zeros;
}

/// a * b for powers of two, saturating at kMaxDivisibility.
static int64_t mulCapped(int64_t a, int64_t b) {
  if (a >= kMaxDivisibility || b >= kMaxDivisibility ||
      a > kMaxDivisibility / b)
    return kMaxDivisibility;
  return a * b;
}

/// A dimension of one element has no runs to speak of.
void axis_info::normalize(AxisInfo &info, ArrayRef<int64_t> shape) {
  for (unsigned d = 0; d < info.getRank(); ++d) {
    int64_t size = d < shape.size() ? shape[d] : 1;
    info.contiguity[d] = std::clamp<int64_t>(info.contiguity[d], 1, size);
    info.constancy[d] = std::clamp<int64_t>(info.constancy[d], 1, size);
    info.divisibility[d] =
        std::clamp<int64_t>(info.divisibility[d], 1, kMaxDivisibility);
  }
  if (info.constant) {
    for (auto [d, size] : llvm::enumerate(shape)) {
      info.constancy[d] = size;
      info.contiguity[d] = 1;
    }
  }
}

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

namespace {

/// a + b (or a - b), where b is scaled by `scale` (bytes per offset unit for
/// tt.addptr) and both step by `step` along contiguous runs.
AxisInfo addLike(const AxisInfo &a, const AxisInfo &b, ArrayRef<int64_t> shape,
                 int64_t step, int64_t scale, bool subtract, bool isPointer) {
  if (!isPointer && a.constant && b.constant) {
    // Unsigned arithmetic wraps instead of overflowing; visitSimple wraps
    // the result to the type's width.
    auto lhs = static_cast<uint64_t>(*a.constant);
    auto rhs = static_cast<uint64_t>(*b.constant);
    auto value = static_cast<int64_t>(subtract ? lhs - rhs : lhs + rhs);
    return AxisInfo::getUniform(shape, highestPowerOf2Divisor(value), value,
                                value >= 0);
  }
  AxisInfo info = AxisInfo::getPessimistic(shape);
  for (unsigned d = 0; d < shape.size(); ++d) {
    // A run stays a run when the other side is constant over it; a
    // subtracted run counts down, which is not contiguity.
    int64_t contiguity = std::min(a.contiguity[d], b.constancy[d]);
    if (!subtract)
      contiguity =
          std::max(contiguity, std::min(a.constancy[d], b.contiguity[d]));
    info.contiguity[d] = contiguity;
    info.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
    info.divisibility[d] =
        std::min(a.getDivisibilityAt(d, contiguity, step),
                 mulCapped(b.getDivisibilityAt(d, contiguity, 1), scale));
  }
  info.nonNegative = !subtract && !isPointer && a.nonNegative && b.nonNegative;
  return info;
}

AxisInfo mul(const AxisInfo &a, const AxisInfo &b, ArrayRef<int64_t> shape) {
  if (a.constant && b.constant) {
    auto value = static_cast<int64_t>(static_cast<uint64_t>(*a.constant) *
                                      static_cast<uint64_t>(*b.constant));
    return AxisInfo::getUniform(shape, highestPowerOf2Divisor(value), value,
                                value >= 0);
  }
  if (b.constant == 1)
    return a;
  if (a.constant == 1)
    return b;
  if (a.constant == 0 || b.constant == 0)
    return AxisInfo::getUniform(shape, kMaxDivisibility, 0, true);
  AxisInfo info = AxisInfo::getPessimistic(shape);
  for (unsigned d = 0; d < shape.size(); ++d) {
    info.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
    // Elements inside a run are not multiples of the run start's divisor.
    info.divisibility[d] = mulCapped(a.getElementDivisibility(d, 1),
                                     b.getElementDivisibility(d, 1));
  }
  info.nonNegative = a.nonNegative && b.nonNegative;
  return info;
}

/// a / b with b a positive constant q: runs of a that start at multiples of
/// a power of two dividing q have one quotient. Truncating signed division
/// splits such runs at zero, so signed operands must be non-negative.
AxisInfo div(const AxisInfo &a, const AxisInfo &b, ArrayRef<int64_t> shape,
             bool isSigned) {
  AxisInfo info = AxisInfo::getPessimistic(shape);
  for (unsigned d = 0; d < shape.size(); ++d)
    info.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
  if (!b.constant || *b.constant <= 0) {
    info.nonNegative = isSigned ? a.nonNegative && b.nonNegative : false;
    return info;
  }
  int64_t q = *b.constant;
  if (q == 1)
    return a;
  if (a.constant && (isSigned || *a.constant >= 0)) {
    int64_t value = *a.constant / q;
    return AxisInfo::getUniform(shape, highestPowerOf2Divisor(value), value,
                                value >= 0);
  }
  bool runsIntact = !isSigned || a.nonNegative;
  for (unsigned d = 0; d < shape.size(); ++d) {
    info.constancy[d] = a.constancy[d];
    if (runsIntact && a.contiguity[d] > 1)
      info.constancy[d] = std::max(info.constancy[d],
                                   std::min({a.contiguity[d], a.divisibility[d],
                                             highestPowerOf2Divisor(q)}));
    int64_t elements = a.getElementDivisibility(d, 1);
    if (llvm::isPowerOf2_64(q) && elements % q == 0)
      info.divisibility[d] = elements / q;
  }
  // Unsigned quotients by q >= 2 fit in the signed range.
  info.nonNegative = isSigned ? a.nonNegative : true;
  return info;
}

/// a % b with b constant along the runs: a run of a that starts at a
/// multiple of both its own length and b's divisor never wraps. Signed
/// remainders of negative runs would wrap (they restart at multiples of b
/// from the other side); like Triton's AxisInfo, the runs are kept anyway
/// when a cannot be proven non-negative, since the values this feeds are
/// offsets, which are non-negative in every program whose accesses are
/// valid (`(pid_n * BN + arange(BN)) % N` with a pid_n computed by
/// subtraction would otherwise lose its vector width).
AxisInfo rem(const AxisInfo &a, const AxisInfo &b, ArrayRef<int64_t> shape,
             bool isSigned) {
  if (a.constant && b.constant && *b.constant > 0 &&
      (isSigned || *a.constant >= 0)) {
    int64_t value = *a.constant % *b.constant;
    return AxisInfo::getUniform(shape, highestPowerOf2Divisor(value), value,
                                value >= 0);
  }
  AxisInfo info = AxisInfo::getPessimistic(shape);
  for (unsigned d = 0; d < shape.size(); ++d) {
    info.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
    int64_t divisor = b.getElementDivisibility(d, 1);
    int64_t contiguity = 1;
    if (a.contiguity[d] > 1)
      contiguity = std::min(
          {a.contiguity[d], a.divisibility[d], divisor, b.constancy[d]});
    info.contiguity[d] = contiguity;
    // x - k * b: a multiple of what divides both.
    info.divisibility[d] =
        std::min(a.getDivisibilityAt(d, contiguity, 1), divisor);
  }
  info.nonNegative = isSigned ? a.nonNegative : b.nonNegative;
  return info;
}

/// A comparison is constant over a run of a (growing by one) against a
/// constant b when the run cannot contain the point where it flips. For
/// a < b and a >= b that point is b itself, so runs starting at multiples of
/// a power of two dividing b never straddle it; for a <= b and a > b it is
/// b + 1, which such runs do straddle. Mirrored when b is the run.
AxisInfo cmp(const AxisInfo &a, const AxisInfo &b, ArrayRef<int64_t> shape,
             arith::CmpIPredicate predicate) {
  using P = arith::CmpIPredicate;
  bool lhsRunSafe = predicate == P::slt || predicate == P::ult ||
                    predicate == P::sge || predicate == P::uge;
  bool rhsRunSafe = predicate == P::sgt || predicate == P::ugt ||
                    predicate == P::sle || predicate == P::ule;
  AxisInfo info = AxisInfo::getPessimistic(shape);
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t constancy = std::min(a.constancy[d], b.constancy[d]);
    if (lhsRunSafe && a.contiguity[d] > 1)
      constancy =
          std::max(constancy,
                   std::min({a.contiguity[d], a.divisibility[d], b.constancy[d],
                             b.getElementDivisibility(d, 1)}));
    if (rhsRunSafe && b.contiguity[d] > 1)
      constancy =
          std::max(constancy,
                   std::min({b.contiguity[d], b.divisibility[d], a.constancy[d],
                             a.getElementDivisibility(d, 1)}));
    info.constancy[d] = constancy;
  }
  return info;
}

/// Bitwise and/or/xor: constant where both are; a conjunction keeps the
/// trailing zeros of either operand, the others only the common ones.
AxisInfo bitwise(const AxisInfo &a, const AxisInfo &b, ArrayRef<int64_t> shape,
                 bool isAnd) {
  AxisInfo info = AxisInfo::getPessimistic(shape);
  for (unsigned d = 0; d < shape.size(); ++d) {
    info.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
    int64_t lhs = a.getElementDivisibility(d, 1);
    int64_t rhs = b.getElementDivisibility(d, 1);
    info.divisibility[d] = isAnd ? std::max(lhs, rhs) : std::min(lhs, rhs);
  }
  info.nonNegative =
      isAnd ? a.nonNegative || b.nonNegative : a.nonNegative && b.nonNegative;
  return info;
}

/// select, min and max: each element is one of the operands' elements.
AxisInfo choose(const AxisInfo *condition, const AxisInfo &a, const AxisInfo &b,
                ArrayRef<int64_t> shape, int64_t step) {
  AxisInfo info = AxisInfo::getPessimistic(shape);
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t constancy = std::min(a.constancy[d], b.constancy[d]);
    // Both runs line up and the choice does not change along them.
    int64_t contiguity = condition
                             ? std::min({condition->constancy[d],
                                         a.contiguity[d], b.contiguity[d]})
                             : 1;
    if (condition)
      constancy = std::min(constancy, condition->constancy[d]);
    info.constancy[d] = constancy;
    info.contiguity[d] = contiguity;
    info.divisibility[d] = std::min(a.getDivisibilityAt(d, contiguity, step),
                                    b.getDivisibilityAt(d, contiguity, step));
  }
  if (condition && condition->constant)
    return *condition->constant ? a : b;
  if (a.constant == b.constant)
    info.constant = a.constant;
  info.nonNegative = a.nonNegative && b.nonNegative;
  return info;
}

/// Shortens runs to ones that start at multiples of their own length, for
/// conversions that wrap around: such a run never contains the wrap point
/// (a multiple of every power of two up to the width), while a run of
/// unaligned start could (-1, 0 zero-extended is 2^32 - 1, 2^32).
AxisInfo withAlignedRuns(const AxisInfo &a, int64_t wrap) {
  AxisInfo info = a;
  for (unsigned d = 0; d < a.getRank(); ++d) {
    int64_t contiguity = std::min({a.contiguity[d], a.divisibility[d], wrap});
    info.divisibility[d] = a.getDivisibilityAt(d, contiguity, 1);
    info.contiguity[d] = contiguity;
  }
  return info;
}

/// Forgets contiguity (keeping what it implied for every element), for
/// casts that change what one step is.
AxisInfo withoutContiguity(const AxisInfo &a, int64_t step) {
  AxisInfo info = a;
  for (unsigned d = 0; d < a.getRank(); ++d) {
    info.divisibility[d] = a.getElementDivisibility(d, step);
    info.contiguity[d] = 1;
  }
  return info;
}

} // namespace
std::optional<AxisInfo>
axis_info::transfer(Operation *op, ArrayRef<const AxisInfo *> operands) {
  if (op->getNumResults() != 1)
    return std::nullopt;
  Value result = op->getResult(0);
  Type resultType = result.getType();
  SmallVector<int64_t, 4> shape = getShape(resultType);
  int64_t step = getStep(resultType);
  // An operand's facts in the result's shape: scalars used with tensors
  // (a select's condition) are uniform over it.
  auto operand = [&](unsigned i) {
    Value value = op->getOperand(i);
    const AxisInfo &info = *operands[i];
    if (!isa<RankedTensorType>(value.getType()) &&
        isa<RankedTensorType>(resultType))
      return AxisInfo::getUniform(
          shape, info.getElementDivisibility(0, getStep(value.getType())),
          info.constant, info.nonNegative);
    if (info.getRank() != shape.size())
      return AxisInfo::getPessimistic(shape);
    return info;
  };

  std::optional<AxisInfo> info =
      llvm::TypeSwitch<Operation *, std::optional<AxisInfo>>(op)
          .Case([&](arith::ConstantOp constant) -> std::optional<AxisInfo> {
            Attribute value = constant.getValue();
            if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
              if (!dense.isSplat())
                return std::nullopt;
              value = dense.getSplatValue<Attribute>();
            }
            if (auto integer = dyn_cast<IntegerAttr>(value)) {
              int64_t v =
                  integer.getType().isInteger(1)
                      ? static_cast<int64_t>(integer.getValue().getZExtValue())
                      : integer.getValue().getSExtValue();
              return AxisInfo::getUniform(shape, highestPowerOf2Divisor(v), v,
                                          v >= 0);
            }
            return AxisInfo::getUniform(shape, 1, std::nullopt, false);
          })
          .Case([&](tt::MakeRangeOp range) -> std::optional<AxisInfo> {
            auto start = static_cast<int32_t>(range.getStart());
            AxisInfo info = AxisInfo::getPessimistic(shape);
            info.contiguity[0] = shape[0];
            info.divisibility[0] = highestPowerOf2Divisor(start);
            info.nonNegative = start >= 0;
            return info;
          })
          .Case([&](tt::SplatOp splat) -> std::optional<AxisInfo> {
            AxisInfo source = *operands[0];
            return AxisInfo::getUniform(shape,
                                        source.getElementDivisibility(0, step),
                                        source.constant, source.nonNegative);
          })
          .Case<tt::GetProgramIdOp, tt::GetNumProgramsOp>(
              [&](Operation *) -> std::optional<AxisInfo> {
                AxisInfo info = AxisInfo::getPessimistic(shape);
                info.nonNegative = true;
                return info;
              })
          .Case([&](tt::AddPtrOp) -> std::optional<AxisInfo> {
            return addLike(operand(0), operand(1), shape, step, step,
                           /*subtract=*/false, /*isPointer=*/true);
          })
          .Case([&](arith::AddIOp) -> std::optional<AxisInfo> {
            return addLike(operand(0), operand(1), shape, 1, 1, false, false);
          })
          .Case([&](arith::SubIOp) -> std::optional<AxisInfo> {
            return addLike(operand(0), operand(1), shape, 1, 1, true, false);
          })
          .Case([&](arith::MulIOp) -> std::optional<AxisInfo> {
            return mul(operand(0), operand(1), shape);
          })
          .Case([&](arith::ShLIOp) -> std::optional<AxisInfo> {
            AxisInfo amount = operand(1);
            if (!amount.constant || *amount.constant < 0 ||
                *amount.constant >= 32)
              return std::nullopt;
            int64_t factor = int64_t(1) << *amount.constant;
            return mul(operand(0),
                       AxisInfo::getUniform(shape, factor, factor, true),
                       shape);
          })
          .Case([&](arith::DivSIOp) -> std::optional<AxisInfo> {
            return div(operand(0), operand(1), shape, /*isSigned=*/true);
          })
          .Case([&](arith::DivUIOp) -> std::optional<AxisInfo> {
            return div(operand(0), operand(1), shape, /*isSigned=*/false);
          })
          .Case([&](arith::RemSIOp) -> std::optional<AxisInfo> {
            return rem(operand(0), operand(1), shape, /*isSigned=*/true);
          })
          .Case([&](arith::RemUIOp) -> std::optional<AxisInfo> {
            return rem(operand(0), operand(1), shape, /*isSigned=*/false);
          })
          .Case([&](arith::CmpIOp compare) -> std::optional<AxisInfo> {
            return cmp(operand(0), operand(1), shape, compare.getPredicate());
          })
          .Case([&](arith::AndIOp) -> std::optional<AxisInfo> {
            return bitwise(operand(0), operand(1), shape, /*isAnd=*/true);
          })
          .Case<arith::OrIOp, arith::XOrIOp>(
              [&](Operation *) -> std::optional<AxisInfo> {
                return bitwise(operand(0), operand(1), shape, false);
              })
          .Case([&](arith::SelectOp) -> std::optional<AxisInfo> {
            AxisInfo condition = operand(0);
            return choose(&condition, operand(1), operand(2), shape, step);
          })
          .Case<arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(
              [&](Operation *) -> std::optional<AxisInfo> {
                return choose(nullptr, operand(0), operand(1), shape, step);
              })
          .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
                arith::IndexCastOp, arith::IndexCastUIOp>(
              [&](Operation *) -> std::optional<AxisInfo> {
                AxisInfo source = operand(0);
                unsigned from = getBitWidth(op->getOperand(0).getType());
                unsigned to = getBitWidth(resultType);
                if (to < from) {
                  // Truncation wraps at multiples of 2^to.
                  int64_t wrap = to >= 32 ? kMaxDivisibility : int64_t(1) << to;
                  AxisInfo info = withAlignedRuns(source, wrap);
                  for (int64_t &divisibility : info.divisibility)
                    divisibility = std::min(divisibility, wrap);
                  info.constant.reset();
                  info.nonNegative = false;
                  return info;
                }
                bool zeroExtends =
                    isa<arith::ExtUIOp, arith::IndexCastUIOp>(op);
                if (!zeroExtends || source.nonNegative || to == from)
                  return source;
                // Zero extension moves negative values up by 2^from.
                AxisInfo info = withAlignedRuns(source, kMaxDivisibility);
                info.nonNegative = true;
                info.constant.reset();
                return info;
              })
          .Case([&](tt::ExpandDimsOp expand) -> std::optional<AxisInfo> {
            AxisInfo source = *operands[0];
            // The new dimension has one element: every element is a run
            // start there, a multiple of what any dimension says of all
            // elements.
            int64_t all = 1;
            for (unsigned d = 0; d < source.getRank(); ++d)
              all = std::max(all, source.getElementDivisibility(d, step));
            unsigned axis = expand.getAxis();
            AxisInfo info = source;
            info.contiguity.insert(info.contiguity.begin() + axis, 1);
            info.constancy.insert(info.constancy.begin() + axis, 1);
            info.divisibility.insert(info.divisibility.begin() + axis, all);
            return info;
          })
          .Case([&](tt::BroadcastOp broadcast) -> std::optional<AxisInfo> {
            AxisInfo source = *operands[0];
            ArrayRef<int64_t> from =
                cast<RankedTensorType>(broadcast.getSrc().getType()).getShape();
            if (source.getRank() != shape.size())
              return std::nullopt;
            AxisInfo info = source;
            for (unsigned d = 0; d < shape.size(); ++d) {
              if (from[d] != 1 || shape[d] == 1)
                continue;
              info.contiguity[d] = 1;
              info.constancy[d] = shape[d];
              info.divisibility[d] = source.getElementDivisibility(d, step);
            }
            return info;
          })
          .Case([&](tt::TransOp trans) -> std::optional<AxisInfo> {
            AxisInfo source = *operands[0];
            ArrayRef<int32_t> order = trans.getOrder();
            if (order.size() != source.getRank())
              return std::nullopt;
            AxisInfo info = source;
            for (auto [d, from] : llvm::enumerate(order)) {
              info.contiguity[d] = source.contiguity[from];
              info.divisibility[d] = source.divisibility[from];
              info.constancy[d] = source.constancy[from];
            }
            return info;
          })
          .Case([&](tpxgpu::ConvertLayoutOp) -> std::optional<AxisInfo> {
            return operand(0);
          })
          .Case([&](tt::PtrToIntOp) -> std::optional<AxisInfo> {
            AxisInfo source = *operands[0];
            int64_t from = getStep(op->getOperand(0).getType());
            // A pointer run steps by its pointee's bytes, an integer run by 1.
            return from == 1 ? source : withoutContiguity(source, from);
          })
          .Case([&](tt::IntToPtrOp) -> std::optional<AxisInfo> {
            AxisInfo source = *operands[0];
            return step == 1 ? source : withoutContiguity(source, 1);
          })
          .Case([&](tt::BitcastOp) -> std::optional<AxisInfo> {
            Type from = op->getOperand(0).getType();
            if (!isa<tt::PointerType>(getElementTypeOrSelf(from)) ||
                !isa<tt::PointerType>(getElementTypeOrSelf(resultType)))
              return std::nullopt;
            AxisInfo source = *operands[0];
            return getStep(from) == step
                       ? source
                       : withoutContiguity(source, getStep(from));
          })
          .Default([&](Operation *) -> std::optional<AxisInfo> {
            return std::nullopt;
          });

  // Any pure elementwise function of values constant over a run is constant
  // over it (masks made of comparisons and logic, mostly). Not inline asm:
  // with packed elements, each position of a pack may compute something
  // else.
  if (!info && isa<RankedTensorType>(resultType) &&
      op->hasTrait<OpTrait::Elementwise>() && isMemoryEffectFree(op) &&
      !isa<tt::ElementwiseInlineAsmOp>(op)) {
    info = AxisInfo::getPessimistic(shape);
    for (unsigned i = 0; i < op->getNumOperands(); ++i) {
      AxisInfo source = operand(i);
      for (unsigned d = 0; d < shape.size(); ++d)
        info->constancy[d] = std::min(info->constancy[d], source.constancy[d]);
    }
  }
  if (!info || info->getRank() != shape.size())
    return std::nullopt;
  // Folded constants live in the result's width (what wrapped away only
  // had higher powers of two, so the divisibility stays right).
  unsigned bits = getBitWidth(resultType);
  if (info->constant && getElementTypeOrSelf(resultType).isInteger() &&
      bits > 1 && bits < 64)
    info->constant = llvm::SignExtend64(*info->constant, bits);
  normalize(*info, shape);
  info->step = step;
  return info;
}
