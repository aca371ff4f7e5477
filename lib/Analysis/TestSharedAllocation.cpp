//===- TestSharedAllocation.cpp - print the shared-memory allocation ------===//
//
// `test-print-shared-allocation` runs SharedMemoryAllocation and emits one
// remark per buffer or scratch region (offset, size, live range) and one on
// the module with the total, so lit tests can check placements with
// -verify-diagnostics or FileCheck.
//
//===----------------------------------------------------------------------===//
#include "tpx/Analysis/SharedMemoryAllocation.h"
#include "tpx/Analysis/TestPasses.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct TestPrintSharedAllocationPass
    : PassWrapper<TestPrintSharedAllocationPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintSharedAllocationPass)

  StringRef getArgument() const final { return "test-print-shared-allocation"; }
  StringRef getDescription() const final {
    return "Print the shared-memory offset and size of every buffer and "
           "scratch user, and the module's total, as remarks";
  }

  void runOnOperation() override {
    FailureOr<tpx::SharedMemoryAllocation> allocation =
        tpx::SharedMemoryAllocation::compute(getOperation());
    if (failed(allocation))
      return signalPassFailure();
    for (const tpx::SharedAllocation &a : allocation->getAllocations())
      a.owner->emitRemark()
          << (a.scratch ? "scratch" : "buffer") << " offset = " << a.offset
          << " size = " << a.size << " align = " << a.alignment;
    getOperation().emitRemark()
        << "shared bytes = " << allocation->getTotalBytes();
  }
};
} // namespace

void tpx::registerSharedAllocationTestPass() {
  PassRegistration<TestPrintSharedAllocationPass>();
}
