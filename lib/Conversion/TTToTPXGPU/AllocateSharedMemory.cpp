//===- AllocateSharedMemory.cpp - the tpxgpu-allocate-shared-memory pass --===//
//
// Runs SharedMemoryAllocation (tpx/Analysis/SharedMemoryAllocation.h) and
// records its offsets on the IR, where convert-tpxgpu-to-nvvm reads them.
//
//===----------------------------------------------------------------------===//
#include "tpx/Analysis/SharedMemoryAllocation.h"
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPUALLOCATESHAREDMEMORY
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;

namespace {
struct AllocateSharedMemoryPass
    : public tpx::impl::TPXGPUAllocateSharedMemoryBase<
          AllocateSharedMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<SharedMemoryAllocation> allocation =
        SharedMemoryAllocation::compute(module);
    if (failed(allocation))
      return signalPassFailure();
    allocation->annotate(module);
  }
};
} // namespace
