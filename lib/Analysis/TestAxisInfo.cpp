//===- TestAxisInfo.cpp - a pass that prints the AxisInfo of every value --===//
//
// `test-print-axis-info` runs the analysis over the module and emits one
// remark per integer or pointer result (scalar or tensor), so lit tests can
// check each transfer function and join with -verify-diagnostics. Values of
// other types have nothing interesting to show and stay silent.
//
//===----------------------------------------------------------------------===//
#include "tpx/Analysis/AxisInfo.h"
#include "tpx/Analysis/TestPasses.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {

bool isInteresting(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isIntOrIndex() || isa<tpx::tt::PointerType>(element);
}

struct TestPrintAxisInfoPass
    : PassWrapper<TestPrintAxisInfoPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintAxisInfoPass)

  StringRef getArgument() const final { return "test-print-axis-info"; }
  StringRef getDescription() const final {
    return "Print the contiguity, divisibility and constancy of every "
           "integer and pointer value as remarks";
  }

  void runOnOperation() override {
    tpx::AxisInfoResults results(getOperation());
    if (!results.converged()) {
      getOperation().emitError("the AxisInfo analysis did not converge");
      return signalPassFailure();
    }
    getOperation().walk([&](Operation *op) {
      for (Value result : op->getResults()) {
        if (!isInteresting(result.getType()))
          continue;
        std::string text;
        llvm::raw_string_ostream os(text);
        results.getAxisInfo(result).print(os);
        op->emitRemark() << text;
      }
    });
  }
};

} // namespace

void tpx::registerAnalysisTestPasses() {
  PassRegistration<TestPrintAxisInfoPass>();
  registerSharedAllocationTestPass();
}
