//===- GuardIntegerDivision.cpp - the tpx-cpu-guard-integer-division pass -===//
#include "tpx/Conversion/TTToCPU/TTToCPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"

namespace tpx {
#define GEN_PASS_DEF_TPXCPUGUARDINTEGERDIVISION
#include "tpx/Conversion/TTToCPU/TTToCPUPasses.h.inc"
} // namespace tpx

using namespace mlir;

/// `value` (an integer) as a constant of `type` (an integer, index, or a
/// shaped type of them).
static Value constantOf(OpBuilder &b, Location loc, Type type,
                        const APInt &value) {
  Type element = getElementTypeOrSelf(type);
  unsigned width = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
  TypedAttr scalar = b.getIntegerAttr(element, value.sextOrTrunc(width));
  if (auto shaped = dyn_cast<ShapedType>(type))
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(shaped, scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

/// Replaces the divisor of `op` (operand 1) by 1 where it is 0, or, for
/// signed ops, where the division is MIN / -1.
static void guardDivisor(Operation *op, bool isSigned) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  Type type = rhs.getType();
  Type element = getElementTypeOrSelf(type);
  unsigned width = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
  Value zero = constantOf(b, loc, type, APInt(width, 0));
  Value one = constantOf(b, loc, type, APInt(width, 1));
  Value bad =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  if (isSigned && width > 1) {
    Value minimum = constantOf(b, loc, type, APInt::getSignedMinValue(width));
    Value minusOne = constantOf(b, loc, type, APInt::getAllOnes(width));
    Value overflow = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, minimum),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, minusOne));
    bad = arith::OrIOp::create(b, loc, bad, overflow);
  }
  op->setOperand(1, arith::SelectOp::create(b, loc, bad, one, rhs));
}

namespace {
struct GuardIntegerDivisionPass
    : public tpx::impl::TPXCPUGuardIntegerDivisionBase<
          GuardIntegerDivisionPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (isa<arith::DivSIOp, arith::RemSIOp, arith::FloorDivSIOp,
              arith::CeilDivSIOp>(op))
        guardDivisor(op, /*isSigned=*/true);
      else if (isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>(op))
        guardDivisor(op, /*isSigned=*/false);
    });
  }
};
} // namespace
