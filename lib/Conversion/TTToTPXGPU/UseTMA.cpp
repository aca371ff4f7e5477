//===- UseTMA.cpp - tpxgpu-use-tma ----------------------------------------===//
//
// Tensor-descriptor loads and stores on the copy engine. Each descriptor
// becomes a launcher-built tensor map (a new kernel argument with
// #tpxgpu.tensor_map) and each access a TMA copy through an nvmma_shared
// buffer. This is the unpipelined form: every access waits for its own
// copy, on an mbarrier that lives only as long as the access.
//
//===----------------------------------------------------------------------===//
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"

#include "tpx/Conversion/TTToTPXGPU/TensorMaps.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPUUSETMA
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;
using namespace tpx::tpxgpu;

namespace {

/// The shared buffer one block of `map` lands in: nvmma_shared with the
/// map's swizzle, so that the TMA's swizzled writes and the buffer's address
/// map agree (and wgmma could read it).
static MemDescType getBlockBuffer(TensorMapAttr map, ArrayRef<int64_t> block,
                                  bool mutableMemory) {
  Type element = map.getElementType();
  auto layout = NvmmaSharedEncodingAttr::get(
      element.getContext(), map.getSwizzle(), /*transposed=*/false,
      element.getIntOrFloatBitWidth());
  return MemDescType::get(block, element, layout, mutableMemory);
}

static MemDescType getBarrierType(MLIRContext *context) {
  auto layout = SwizzledSharedEncodingAttr::get(context, 1, 1, 1, {0});
  return MemDescType::get({1}, IntegerType::get(context, 64), layout);
}

/// One TMA copy per box: box k covers columns [k * w, (k + 1) * w) of the
/// block, at that offset in the buffer and in the coordinates.
template <typename CopyFn>
static void forEachBox(OpBuilder &b, Location loc, Value buffer,
                       TensorMapAttr map, ValueRange indices, CopyFn copy) {
  auto type = cast<MemDescType>(buffer.getType());
  int64_t width = map.getBox()[1];
  for (int64_t column = 0; column < type.getShape()[1]; column += width) {
    Value box = buffer;
    SmallVector<Value> coords(indices);
    if (type.getShape()[1] != width) {
      auto view = MemDescType::get({type.getShape()[0], width},
                                   type.getElementType(), type.getEncoding(),
                                   type.getMutableMemory(),
                                   type.getAllocShape());
      box = MemDescSubviewOp::create(b, loc, view, buffer, ValueRange(),
                                     b.getDenseI64ArrayAttr({0, column}));
      if (column) {
        Value offset = arith::ConstantIntOp::create(b, loc, column, 32);
        coords[1] = arith::AddIOp::create(b, loc, coords[1], offset);
      }
    }
    copy(box, coords);
  }
}

static void lowerLoad(tt::DescriptorLoadOp load, Value map,
                      TensorMapAttr mapAttr) {
  OpBuilder b(load);
  Location loc = load.getLoc();
  RankedTensorType type = load.getType();
  // Earlier readers of the bytes these buffers may reuse.
  BarrierOp::create(b, loc);
  Value buffer = LocalAllocOp::create(
      b, loc, getBlockBuffer(mapAttr, type.getShape(), true), Value());
  Value barrier =
      LocalAllocOp::create(b, loc, getBarrierType(b.getContext()), Value());
  InitBarrierOp::create(b, loc, barrier, 1);
  // The initialised barrier is visible to the copy engine and to every
  // thread before anyone waits on it.
  FenceAsyncSharedOp::create(b, loc);
  BarrierOp::create(b, loc);
  int64_t bytes = type.getNumElements() *
                  (type.getElementType().getIntOrFloatBitWidth() / 8);
  BarrierExpectOp::create(b, loc, barrier, bytes, Value());
  forEachBox(b, loc, buffer, mapAttr, load.getIndices(),
             [&](Value box, ValueRange coords) {
               AsyncTMACopyGlobalToLocalOp::create(b, loc, map, coords,
                                                   barrier, box, Value(),
                                                   load.getCache(),
                                                   load.getEvict());
             });
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
  BarrierOp::create(b, loc);
  Value buffer = LocalAllocOp::create(
      b, loc, getBlockBuffer(mapAttr, type.getShape(), false), store.getSrc());
  // Every thread's generic-proxy writes are visible to the copy engine.
  FenceAsyncSharedOp::create(b, loc);
  BarrierOp::create(b, loc);
  forEachBox(b, loc, buffer, mapAttr, store.getIndices(),
             [&](Value box, ValueRange coords) {
               AsyncTMACopyLocalToGlobalOp::create(b, loc, map, coords, box);
             });
  AsyncTMAStoreWaitOp::create(b, loc, 0);
  // The issuing thread has seen the copy engine finish reading the buffer
  // before anyone reuses its bytes.
  BarrierOp::create(b, loc);
  store.erase();
}

struct UseTMAPass : public tpx::impl::TPXGPUUseTMABase<UseTMAPass> {
  void runOnOperation() override {
    SmallVector<tt::MakeTensorDescOp> descs;
    getOperation().walk([&](tt::MakeTensorDescOp op) { descs.push_back(op); });
    for (tt::MakeTensorDescOp desc : descs) {
      if (std::string why = whyNotTMA(desc); !why.empty()) {
        desc.emitError("tpxgpu-use-tma: this descriptor cannot use TMA (")
            << why
            << "); tpxgpu-lower-tensor-descriptors should have lowered it";
        return signalPassFailure();
      }
      TensorMapAttr mapAttr = getTensorMap(desc);
      auto kernel = desc->getParentOfType<tt::FuncOp>();
      auto boxType = tt::TensorDescType::get(
          &getContext(),
          RankedTensorType::get(mapAttr.getBox(), mapAttr.getElementType()));
      unsigned index = kernel.getNumArguments();
      NamedAttribute attr(
          StringAttr::get(&getContext(), TPXGPUDialect::kTensorMapAttrName),
          mapAttr);
      if (failed(kernel.insertArgument(
              index, boxType, DictionaryAttr::get(&getContext(), {attr}),
              desc.getLoc())))
        return signalPassFailure();
      Value map = kernel.getArgument(index);
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
