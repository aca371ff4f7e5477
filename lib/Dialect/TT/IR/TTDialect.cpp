//===- TTDialect.cpp - the tt dialect -------------------------------------===//
#include "tpx/Dialect/TT/IR/TTDialect.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace tpx::tt;

#include "tpx/Dialect/TT/IR/TTAttrs.cpp.inc"
#include "tpx/Dialect/TT/IR/TTDialect.cpp.inc"

namespace {
/// tt functions are inlinable into one another (`tt.call` -> body), which
/// back ends rely on; `tt.return` becomes a plain forwarding of values.
struct TTInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  /// Functions marked `noinline = true` (Triton's @jit(noinline=True)) stay
  /// calls.
  bool isLegalToInline(Operation *, Operation *callable, bool) const final {
    auto noinline = callable->getAttrOfType<BoolAttr>("noinline");
    return !noinline || !noinline.getValue();
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }

  void handleTerminator(Operation *op, Block *newDest) const final {
    auto returnOp = dyn_cast<ReturnOp>(op);
    if (!returnOp)
      return;
    OpBuilder builder(op);
    cf::BranchOp::create(builder, op->getLoc(), newDest,
                         returnOp.getOperands());
    op->erase();
  }

  void handleTerminator(Operation *op, ValueRange valuesToRepl) const final {
    auto returnOp = cast<ReturnOp>(op);
    for (auto [from, to] : llvm::zip(valuesToRepl, returnOp.getOperands()))
      from.replaceAllUsesWith(to);
  }
};
} // namespace

void TTDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tpx/Dialect/TT/IR/TTOps.cpp.inc"
      >();
  addInterfaces<TTInlinerInterface>();
}

/// Argument attributes Triton attaches to kernel arguments. Each must be a
/// positive integer (alignment/contiguity hints) where given.
LogicalResult TTDialect::verifyRegionArgAttribute(Operation *op,
                                                  unsigned regionIndex,
                                                  unsigned argIndex,
                                                  NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  if (name == "tt.divisibility" || name == "tt.contiguity" ||
      name == "tt.constancy") {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || value.getValue().isNonPositive())
      return op->emitOpError() << "argument " << argIndex << " attribute '"
                               << name << "' must be a positive integer";
    return success();
  }
  return success();
}
