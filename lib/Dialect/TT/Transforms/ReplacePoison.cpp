//===- ReplacePoison.cpp - the tt-replace-poison pass ---------------------===//
#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/Transforms/TTTransforms.h"

#include "mlir/Dialect/UB/IR/UBOps.h"

namespace tpx {
#define GEN_PASS_DEF_TTREPLACEPOISON
#include "tpx/Dialect/TT/Transforms/TTTransforms.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;

/// Zero of `type`: a scalar or a tensor of integers, floats or pointers.
static Value buildZero(OpBuilder &b, Location loc, Type type) {
  Type element = getElementTypeOrSelf(type);
  if (auto pointer = dyn_cast<tt::PointerType>(element)) {
    // A null pointer: int_to_ptr of a zero i64 (of the same shape).
    Type i64 = b.getI64Type();
    Type intType = type;
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      intType = tensor.clone(i64);
    else
      intType = i64;
    Value zero = buildZero(b, loc, intType);
    return tt::IntToPtrOp::create(b, loc, type, zero);
  }
  if (!element.isIntOrIndexOrFloat())
    return {};
  TypedAttr scalar = b.getZeroAttr(element);
  if (auto shaped = dyn_cast<ShapedType>(type))
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(shaped, scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

namespace {
struct ReplacePoison : public tpx::impl::TTReplacePoisonBase<ReplacePoison> {
  void runOnOperation() override {
    bool failedAny = false;
    getOperation()->walk([&](ub::PoisonOp poison) {
      OpBuilder b(poison);
      Value zero = buildZero(b, poison.getLoc(), poison.getType());
      if (!zero) {
        poison.emitError("ub.poison of type ")
            << poison.getType() << " has no zero to replace it with";
        failedAny = true;
        return;
      }
      poison.replaceAllUsesWith(zero);
      poison.erase();
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
