//===- LowerTensorDescriptors.cpp - tpxgpu-lower-tensor-descriptors -------===//
#include "BlockAccess.h"

#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"
#include "tpx/Conversion/TTToTPXGPU/TensorMaps.h"

#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPULOWERTENSORDESCRIPTORS
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;

namespace {

/// The block at `indices` of the descriptor `desc` makes, every dimension
/// bounds-checked.
static std::pair<Value, Value> getBlockAccess(OpBuilder &b, Location loc,
                                              tt::MakeTensorDescOp desc,
                                              ValueRange indices) {
  StridedBlock block;
  block.base = desc.getBase();
  block.shape.assign(desc.getShape().begin(), desc.getShape().end());
  block.strides.assign(desc.getStrides().begin(), desc.getStrides().end());
  block.offsets.assign(indices.begin(), indices.end());
  block.blockType = cast<tt::TensorDescType>(desc.getType()).getBlockType();
  SmallVector<int32_t> all;
  for (unsigned d = 0, e = block.blockType.getRank(); d < e; ++d)
    all.push_back(d);
  return buildBlockPointers(b, loc, block, all);
}

struct LowerTensorDescriptorsPass
    : public tpx::impl::TPXGPULowerTensorDescriptorsBase<
          LowerTensorDescriptorsPass> {
  void runOnOperation() override {
    SmallVector<tt::MakeTensorDescOp> descs;
    getOperation().walk([&](tt::MakeTensorDescOp op) { descs.push_back(op); });
    for (tt::MakeTensorDescOp desc : descs) {
      // tpxgpu-use-tma moves these with the copy engine.
      if (tpxgpu::whyNotTMA(desc).empty())
        continue;
      auto block = cast<tt::TensorDescType>(desc.getType()).getBlockType();
      // Every use must be a load or store of exactly the block's shape.
      bool ok = llvm::all_of(desc->getUsers(), [&](Operation *user) {
        if (auto load = dyn_cast<tt::DescriptorLoadOp>(user))
          return load.getType().getShape() == block.getShape();
        if (auto store = dyn_cast<tt::DescriptorStoreOp>(user))
          return store.getSrc().getType().getShape() == block.getShape();
        return false;
      });
      if (!ok)
        continue;
      for (Operation *user : llvm::make_early_inc_range(desc->getUsers())) {
        OpBuilder b(user);
        Location loc = user->getLoc();
        if (auto load = dyn_cast<tt::DescriptorLoadOp>(user)) {
          auto [pointers, mask] =
              getBlockAccess(b, loc, desc, load.getIndices());
          bool nan = desc.getPadding() == tt::PaddingOption::PAD_NAN;
          auto loaded = tt::LoadOp::create(
              b, loc, pointers, mask, buildPadding(b, loc, load.getType(), nan),
              ArrayRef<int32_t>{},
              /*padding=*/nullptr, load.getCache(), load.getEvict(),
              /*isVolatile=*/false);
          load.replaceAllUsesWith(loaded.getResult());
          load.erase();
          continue;
        }
        auto store = cast<tt::DescriptorStoreOp>(user);
        auto [pointers, mask] =
            getBlockAccess(b, loc, desc, store.getIndices());
        tt::StoreOp::create(b, loc, pointers, store.getSrc(), mask);
        store.erase();
      }
      desc.erase();
    }
  }
};

} // namespace
