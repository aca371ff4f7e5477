//===- LowerTensorDescriptors.cpp - tpxgpu-lower-tensor-descriptors -------===//
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"

#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/ADT/APFloat.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPULOWERTENSORDESCRIPTORS
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;

namespace {

/// The pointers and the in-bounds mask of the block at `indices` of a
/// descriptor made by `desc`.
struct BlockAccess {
  Value pointers, mask;
};

static BlockAccess buildBlockAccess(OpBuilder &b, Location loc,
                                    tt::MakeTensorDescOp desc,
                                    ValueRange indices) {
  auto block = cast<tt::TensorDescType>(desc.getType()).getBlockType();
  ArrayRef<int64_t> shape = block.getShape();
  unsigned rank = shape.size();
  Type i1 = b.getI1Type(), i32 = b.getI32Type(), i64 = b.getI64Type();
  auto full = [&](Type element) {
    return RankedTensorType::get(shape, element);
  };
  Value offset, mask;
  for (unsigned d = 0; d < rank; ++d) {
    // index[d] + range(block[d]), as a full-rank tensor varying along d.
    auto line = [&](Type element) {
      return RankedTensorType::get({shape[d]}, element);
    };
    Value position = arith::AddIOp::create(
        b, loc, tt::SplatOp::create(b, loc, line(i32), indices[d]),
        tt::MakeRangeOp::create(b, loc, line(i32), 0,
                                static_cast<uint32_t>(shape[d])));
    Value inBounds = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::sge, position,
            arith::ConstantOp::create(
                b, loc,
                DenseElementsAttr::get(line(i32), b.getI32IntegerAttr(0)))),
        arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::slt, position,
            tt::SplatOp::create(b, loc, line(i32), desc.getShape()[d])));
    Value scaled = arith::MulIOp::create(
        b, loc, arith::ExtSIOp::create(b, loc, line(i64), position),
        tt::SplatOp::create(b, loc, line(i64), desc.getStrides()[d]));
    // Insert the size-1 dimensions around d, lowest first.
    SmallVector<int64_t> current = {shape[d]};
    for (unsigned a = 0; a < rank; ++a) {
      if (a == d)
        continue;
      current.insert(current.begin() + a, 1);
      scaled =
          tt::ExpandDimsOp::create(b, loc, RankedTensorType::get(current, i64),
                                   scaled, b.getI32IntegerAttr(a));
      inBounds =
          tt::ExpandDimsOp::create(b, loc, RankedTensorType::get(current, i1),
                                   inBounds, b.getI32IntegerAttr(a));
    }
    if (rank > 1) {
      scaled = tt::BroadcastOp::create(b, loc, full(i64), scaled);
      inBounds = tt::BroadcastOp::create(b, loc, full(i1), inBounds);
    }
    offset = offset ? arith::AddIOp::create(b, loc, offset, scaled) : scaled;
    mask = mask ? arith::AndIOp::create(b, loc, mask, inBounds) : inBounds;
  }
  Type pointer = desc.getBase().getType();
  Value pointers = tt::AddPtrOp::create(
      b, loc, full(pointer),
      tt::SplatOp::create(b, loc, full(pointer), desc.getBase()), offset);
  return {pointers, mask};
}

/// The value padding out-of-bounds elements: zero, or NaN for floats when
/// the descriptor asks for it.
static Value getPadding(OpBuilder &b, Location loc, tt::MakeTensorDescOp desc,
                        RankedTensorType type) {
  Type element = type.getElementType();
  TypedAttr value;
  if (auto floatType = dyn_cast<FloatType>(element))
    value = b.getFloatAttr(
        floatType, desc.getPadding() == tt::PaddingOption::PAD_NAN
                       ? llvm::APFloat::getNaN(floatType.getFloatSemantics())
                       : llvm::APFloat::getZero(floatType.getFloatSemantics()));
  else
    value = b.getIntegerAttr(element, 0);
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, value));
}

struct LowerTensorDescriptorsPass
    : public tpx::impl::TPXGPULowerTensorDescriptorsBase<
          LowerTensorDescriptorsPass> {
  void runOnOperation() override {
    SmallVector<tt::MakeTensorDescOp> descs;
    getOperation().walk([&](tt::MakeTensorDescOp op) { descs.push_back(op); });
    for (tt::MakeTensorDescOp desc : descs) {
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
          BlockAccess access =
              buildBlockAccess(b, loc, desc, load.getIndices());
          auto loaded = tt::LoadOp::create(
              b, loc, access.pointers, access.mask,
              getPadding(b, loc, desc, load.getType()), ArrayRef<int32_t>{},
              /*padding=*/nullptr, load.getCache(), load.getEvict(),
              /*isVolatile=*/false);
          load.replaceAllUsesWith(loaded.getResult());
          load.erase();
          continue;
        }
        auto store = cast<tt::DescriptorStoreOp>(user);
        BlockAccess access = buildBlockAccess(b, loc, desc, store.getIndices());
        tt::StoreOp::create(b, loc, access.pointers, store.getSrc(),
                            access.mask);
        store.erase();
      }
      desc.erase();
    }
  }
};

} // namespace
