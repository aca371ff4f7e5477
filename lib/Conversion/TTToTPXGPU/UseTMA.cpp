//===- UseTMA.cpp - tpxgpu-use-tma ----------------------------------------===//
//
// Tensor-descriptor loads and stores on the copy engine. Each descriptor
// becomes a launcher-built tensor map (a kernel argument with
// #tpxgpu.tensor_map, TensorMaps.h) and each access a TMA copy through an
// nvmma_shared buffer. This is the unpipelined form: every access waits for
// its own copy, on an mbarrier that lives only as long as the access. Loads
// that feed a loop's dots were multi-buffered by
// tpxgpu-pipeline-async-copies before this pass runs.
//
//===----------------------------------------------------------------------===//
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"

#include "tpx/Conversion/TTToTPXGPU/TensorMaps.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPUUSETMA
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;
using namespace tpx::tpxgpu;

namespace {

static void lowerLoad(tt::DescriptorLoadOp load, Value map,
                      TensorMapAttr mapAttr) {
  OpBuilder b(load);
  Location loc = load.getLoc();
  RankedTensorType type = load.getType();
  // Earlier readers of the bytes these buffers may reuse.
  BarrierOp::create(b, loc);
  Value buffer = LocalAllocOp::create(
      b, loc, getTMABlockBufferType(mapAttr, type.getShape(), true), Value());
  Value barrier =
      LocalAllocOp::create(b, loc, getMBarrierType(b.getContext()), Value());
  InitBarrierOp::create(b, loc, barrier, 1);
  // The initialised barrier is visible to the copy engine and to every
  // thread before anyone waits on it.
  FenceAsyncSharedOp::create(b, loc);
  BarrierOp::create(b, loc);
  int64_t bytes = type.getNumElements() *
                  (type.getElementType().getIntOrFloatBitWidth() / 8);
  BarrierExpectOp::create(b, loc, barrier, bytes, Value());
  emitTMALoads(b, loc, map, mapAttr, buffer, load.getIndices(), barrier,
               Value(), load.getCache(), load.getEvict());
  Value phase = arith::ConstantIntOp::create(b, loc, 0, 32);
  WaitBarrierOp::create(b, loc, barrier, phase, Value());
  Value value = LocalLoadOp::create(b, loc, type, buffer, Value());
  // Every thread has passed the wait before the barrier dies.
  BarrierOp::create(b, loc);
  InvalBarrierOp::create(b, loc, barrier);
  load.replaceAllUsesWith(value);
  load.erase();
}

static void lowerStore(tt::DescriptorStoreOp store, Value map,
                       TensorMapAttr mapAttr) {
  OpBuilder b(store);
  Location loc = store.getLoc();
  auto type = store.getSrc().getType();
  // The value goes into shared memory from whatever layout it was computed
  // in (a matmul's accumulator): a conversion just for the store would be a
  // second trip through shared memory.
  Value value = store.getSrc();
  auto convert = value.getDefiningOp<ConvertLayoutOp>();
  if (convert && convert->hasOneUse())
    value = convert.getSrc();
  BarrierOp::create(b, loc);
  Value buffer = LocalAllocOp::create(
      b, loc, getTMABlockBufferType(mapAttr, type.getShape(), false), value);
  // Every thread's generic-proxy writes are visible to the copy engine.
  FenceAsyncSharedOp::create(b, loc);
  BarrierOp::create(b, loc);
  emitTMAStores(b, loc, map, mapAttr, buffer, store.getIndices());
  AsyncTMAStoreWaitOp::create(b, loc, 0);
  // The issuing thread has seen the copy engine finish reading the buffer
  // before anyone reuses its bytes.
  BarrierOp::create(b, loc);
  store.erase();
  if (convert && convert->use_empty())
    convert.erase();
}

struct UseTMAPass : public tpx::impl::TPXGPUUseTMABase<UseTMAPass> {
  void runOnOperation() override {
    SmallVector<tt::MakeTensorDescOp> descs;
    getOperation().walk([&](tt::MakeTensorDescOp op) { descs.push_back(op); });
    for (tt::MakeTensorDescOp desc : descs) {
      if (desc->use_empty()) { // all pipelined, or never used
        desc.erase();
        continue;
      }
      if (std::string why = whyNotTMA(desc); !why.empty()) {
        desc.emitError("tpxgpu-use-tma: this descriptor cannot use TMA (")
            << why
            << "); tpxgpu-lower-tensor-descriptors should have lowered it";
        return signalPassFailure();
      }
      // Loads and stores are all this pass lowers; anything else using the
      // descriptor by now is an op whose lowering never ran (a plugin's
      // op left by a pipeline that omits the plugin's passes, say).
      for (Operation *user : desc->getUsers()) {
        if (isa<tt::DescriptorLoadOp, tt::DescriptorStoreOp>(user))
          continue;
        user->emitError("tpxgpu-use-tma: '")
            << user->getName()
            << "' uses a tensor descriptor, and only tt.descriptor_load and "
               "tt.descriptor_store can use TMA here; was the pass that "
               "lowers this op left out of the pipeline?";
        return signalPassFailure();
      }
      TensorMapAttr mapAttr = getTensorMap(desc);
      Value map = getOrAddTensorMapArgument(desc);
      for (Operation *user : llvm::make_early_inc_range(desc->getUsers())) {
        if (auto load = dyn_cast<tt::DescriptorLoadOp>(user))
          lowerLoad(load, map, mapAttr);
        else
          lowerStore(cast<tt::DescriptorStoreOp>(user), map, mapAttr);
      }
      desc.erase();
    }
  }
};

} // namespace
