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

/// The descriptor's tensor as a strided block of `blockType` at `indices`.
static StridedBlock getBlock(tt::MakeTensorDescOp desc, ValueRange indices,
                             RankedTensorType blockType) {
  StridedBlock block;
  block.base = desc.getBase();
  block.shape.assign(desc.getShape().begin(), desc.getShape().end());
  block.strides.assign(desc.getStrides().begin(), desc.getStrides().end());
  block.offsets.assign(indices.begin(), indices.end());
  block.blockType = blockType;
  return block;
}

/// The pointers of `block` and the mask of those in bounds (every
/// dimension checked: out of bounds, loads read padding and stores drop).
static std::pair<Value, Value> getAccess(OpBuilder &b, Location loc,
                                         const StridedBlock &block) {
  SmallVector<int32_t> all;
  for (unsigned d = 0, e = block.blockType.getRank(); d < e; ++d)
    all.push_back(d);
  return buildBlockPointers(b, loc, block, all);
}

/// The block at `indices` of the descriptor `desc` makes.
static std::pair<Value, Value> getBlockAccess(OpBuilder &b, Location loc,
                                              tt::MakeTensorDescOp desc,
                                              ValueRange indices) {
  return getAccess(
      b, loc,
      getBlock(desc, indices,
               cast<tt::TensorDescType>(desc.getType()).getBlockType()));
}

/// Rows `xOffsets` (columns from `yOffset`) of a descriptor with 1 x W
/// blocks, as the N x W tile `tileType`: descriptor gather and scatter.
static std::pair<Value, Value> getGatherAccess(OpBuilder &b, Location loc,
                                               tt::MakeTensorDescOp desc,
                                               Value xOffsets, Value yOffset,
                                               RankedTensorType tileType) {
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  StridedBlock block = getBlock(desc, {zero, yOffset}, tileType);
  block.rows = xOffsets;
  return getAccess(b, loc, block);
}

/// The read-modify-write a descriptor reduction does per element; none for
/// the wrapping increment and decrement, which tt.atomic_rmw lacks.
static std::optional<tt::RMWOp> getReduceAtomic(tt::DescriptorReduceKind kind,
                                                Type element) {
  bool isFloat = isa<FloatType>(element);
  switch (kind) {
  case tt::DescriptorReduceKind::ADD:
    return isFloat ? tt::RMWOp::FADD : tt::RMWOp::ADD;
  case tt::DescriptorReduceKind::MIN:
    return tt::RMWOp::MIN;
  case tt::DescriptorReduceKind::MAX:
    return tt::RMWOp::MAX;
  case tt::DescriptorReduceKind::AND:
    return tt::RMWOp::AND;
  case tt::DescriptorReduceKind::OR:
    return tt::RMWOp::OR;
  case tt::DescriptorReduceKind::XOR:
    return tt::RMWOp::XOR;
  case tt::DescriptorReduceKind::INC:
  case tt::DescriptorReduceKind::DEC:
    return std::nullopt;
  }
  return std::nullopt;
}

/// True when this pass can rewrite `user` of a descriptor with `block`.
static bool isLowerable(Operation *user, RankedTensorType block) {
  if (auto load = dyn_cast<tt::DescriptorLoadOp>(user))
    return load.getType().getShape() == block.getShape();
  if (auto store = dyn_cast<tt::DescriptorStoreOp>(user))
    return store.getSrc().getType().getShape() == block.getShape();
  if (auto reduce = dyn_cast<tt::DescriptorReduceOp>(user))
    return reduce.getSrc().getType().getShape() == block.getShape() &&
           getReduceAtomic(reduce.getKind(),
                           reduce.getSrc().getType().getElementType());
  auto isGatherTile = [&](RankedTensorType tile) {
    return block.getRank() == 2 && block.getDimSize(0) == 1 &&
           tile.getRank() == 2 && tile.getDimSize(1) == block.getDimSize(1);
  };
  if (auto gather = dyn_cast<tt::DescriptorGatherOp>(user))
    return isGatherTile(gather.getType());
  if (auto scatter = dyn_cast<tt::DescriptorScatterOp>(user))
    return isGatherTile(scatter.getSrc().getType());
  return false;
}

static void lower(Operation *user, tt::MakeTensorDescOp desc) {
  OpBuilder b(user);
  Location loc = user->getLoc();
  bool nan = desc.getPadding() == tt::PaddingOption::PAD_NAN;
  auto load = [&](Value pointers, Value mask, RankedTensorType type,
                  tt::CacheModifier cache, tt::EvictionPolicy evict) {
    return tt::LoadOp::create(b, loc, pointers, mask,
                              buildPadding(b, loc, type, nan),
                              ArrayRef<int32_t>{},
                              /*padding=*/nullptr, cache, evict,
                              /*isVolatile=*/false)
        .getResult();
  };
  if (auto op = dyn_cast<tt::DescriptorLoadOp>(user)) {
    auto [pointers, mask] = getBlockAccess(b, loc, desc, op.getIndices());
    op.replaceAllUsesWith(
        load(pointers, mask, op.getType(), op.getCache(), op.getEvict()));
  } else if (auto op = dyn_cast<tt::DescriptorStoreOp>(user)) {
    auto [pointers, mask] = getBlockAccess(b, loc, desc, op.getIndices());
    tt::StoreOp::create(b, loc, pointers, op.getSrc(), mask);
  } else if (auto op = dyn_cast<tt::DescriptorReduceOp>(user)) {
    auto [pointers, mask] = getBlockAccess(b, loc, desc, op.getIndices());
    RankedTensorType type = op.getSrc().getType();
    tt::AtomicRMWOp::create(
        b, loc, type, *getReduceAtomic(op.getKind(), type.getElementType()),
        pointers, op.getSrc(), mask, tt::MemSemantic::RELAXED,
        tt::MemSyncScope::GPU);
  } else if (auto op = dyn_cast<tt::DescriptorGatherOp>(user)) {
    // Rows out of bounds read zeros, as TMA's gather does (whatever the
    // descriptor's padding).
    nan = false;
    auto [pointers, mask] = getGatherAccess(b, loc, desc, op.getXOffsets(),
                                            op.getYOffset(), op.getType());
    op.replaceAllUsesWith(load(pointers, mask, op.getType(),
                               tt::CacheModifier::NONE,
                               tt::EvictionPolicy::NORMAL));
  } else {
    auto scatter = cast<tt::DescriptorScatterOp>(user);
    auto [pointers, mask] =
        getGatherAccess(b, loc, desc, scatter.getXOffsets(),
                        scatter.getYOffset(), scatter.getSrc().getType());
    tt::StoreOp::create(b, loc, pointers, scatter.getSrc(), mask);
  }
  user->erase();
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
      if (!llvm::all_of(desc->getUsers(), [&](Operation *user) {
            return isLowerable(user, block);
          }))
        continue;
      for (Operation *user : llvm::make_early_inc_range(desc->getUsers()))
        lower(user, desc);
      desc.erase();
    }
  }
};

} // namespace
