//===- TLXAMDTileCopies.cpp - TLX's TMA copies done by the program on AMD -===//
//
// gfx950 has no TMA, so a task's async_descriptor_load does what the copy
// engine would, with its own threads, and keeps the mbarrier contract the
// program was written for:
//
//   the block's pointers and bounds, from the descriptor the kernel made
//     (tt.make_tensor_descriptor's base, shape and strides; the innermost
//     dimension is contiguous, as TMA requires)
//   tpxgpu.async_copy_global_to_local   direct-to-LDS loads where the rows
//                                       allow, zeros out of bounds (TMA's
//                                       zero padding)
//   async_commit_group, async_wait 0    this wavefront's copies have landed
//   tpxgpu.barrier                      ... and every wavefront's of the task
//   tpxgpu.barrier_complete_tx          the block's bytes count on the
//                                       barrier, as TMA's complete_tx
//
// so the consumer's barrier_wait completes once the expect_bytes arrival
// and the bytes are both in. The copy is synchronous for the task that
// issues it (a producer task does nothing else), asynchronous for the
// consumers. async_descriptor_store is a barrier, a local_load and a tt.store
// masked to the tensor (TMA clips out-of-bounds elements), and its wait a
// barrier: every thread has read the buffer before anyone reuses it.
//
//===----------------------------------------------------------------------===//
#include "TLXAMDTileCopies.h"

#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tpx;
namespace tg = tpx::tpxgpu;

static constexpr unsigned kWaveSize = 64;

std::string tlx::amd::whyNotTileCopy(Value desc) {
  auto make = desc.getDefiningOp<tt::MakeTensorDescOp>();
  if (!make)
    return "a descriptor not made by tl.make_tensor_descriptor in the kernel "
           "(on AMD the copy is the program's own, from the descriptor's "
           "base, shape and strides)";
  unsigned rank = make.getType().getBlockType().getRank();
  if (rank != 1 && rank != 2)
    return "a descriptor of rank " + std::to_string(rank) +
           " (tiles of rank 1 and 2 are copied on AMD)";
  if (make.getPadding() == tt::PaddingOption::PAD_NAN)
    return "a descriptor with padding_option=\"nan\" (AMD's copies fill "
           "out-of-bounds elements with zeros only)";
  return "";
}

namespace {
/// The pointers of one block of a descriptor and which of them are inside
/// the tensor, in one blocked layout over the task's warps.
struct TileAddresses {
  Value pointers, inBounds;
  RankedTensorType valueType;
};
} // namespace

static TileAddresses buildTileAddresses(OpBuilder &b, Location loc,
                                        tt::MakeTensorDescOp make,
                                        ValueRange offsets, unsigned numWarps) {
  MLIRContext *context = b.getContext();
  RankedTensorType block = make.getType().getBlockType();
  ArrayRef<int64_t> shape = block.getShape();
  unsigned rank = shape.size();
  Type element = block.getElementType();
  auto layout =
      tg::getDefaultBlockedLayout(context, shape, element, numWarps, kWaveSize);
  Type i1 = b.getI1Type(), i32 = b.getI32Type(), i64 = b.getI64Type();
  auto full = [&](Type type) {
    return RankedTensorType::get(shape, type, layout);
  };
  auto splat = [&](Value scalar, RankedTensorType type) -> Value {
    return tt::SplatOp::create(b, loc, type, scalar);
  };

  Value elementOffsets, inBounds;
  for (unsigned d = 0; d < rank; ++d) {
    // Dimension d's coordinates, in the layout with the other one removed.
    Attribute rangeLayout =
        rank == 1
            ? Attribute(layout)
            : Attribute(tg::SliceEncodingAttr::get(context, 1 - d, layout));
    auto rangeType = [&](Type type) {
      return RankedTensorType::get({shape[d]}, type, rangeLayout);
    };
    Value range = tt::MakeRangeOp::create(b, loc, rangeType(i32), 0,
                                          static_cast<int32_t>(shape[d]));
    Value coord =
        arith::AddIOp::create(b, loc, splat(offsets[d], rangeType(i32)), range);
    Value zero = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(rangeType(i32), b.getI32IntegerAttr(0)));
    Value inside = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, coord, zero),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, coord,
                              splat(make.getShape()[d], rangeType(i32))));
    Value term = arith::ExtSIOp::create(b, loc, rangeType(i64), coord);
    // TMA's innermost stride is 1; leaving the multiply out keeps the
    // addresses visibly contiguous for the vector widths.
    Value stride = make.getStrides()[d];
    if (d + 1 != rank || !matchPattern(stride, m_One()))
      term = arith::MulIOp::create(b, loc, term, splat(stride, rangeType(i64)));
    if (rank == 2) {
      auto expand = [&](Value v, Type type) -> Value {
        SmallVector<int64_t> unit(shape);
        unit[1 - d] = 1;
        Value expanded = tt::ExpandDimsOp::create(
            b, loc, RankedTensorType::get(unit, type, layout), v, 1 - d);
        return tt::BroadcastOp::create(b, loc, full(type), expanded);
      };
      term = expand(term, i64);
      inside = expand(inside, i1);
    }
    elementOffsets = elementOffsets
                         ? arith::AddIOp::create(b, loc, elementOffsets, term)
                         : term;
    inBounds =
        inBounds ? arith::AndIOp::create(b, loc, inBounds, inside) : inside;
  }
  auto pointerType = full(tt::PointerType::get(element, 1));
  Value pointers = tt::AddPtrOp::create(
      b, loc, pointerType, splat(make.getBase(), pointerType), elementOffsets);
  return {pointers, inBounds, full(element)};
}

static uint32_t getBlockBytes(tt::MakeTensorDescOp make) {
  RankedTensorType block = make.getType().getBlockType();
  return static_cast<uint32_t>(block.getNumElements() *
                               block.getElementTypeBitWidth() / 8);
}

void tlx::amd::emitTileLoad(OpBuilder &b, Location loc, Value desc,
                            ValueRange offsets, Value buffer, Value barrier,
                            unsigned numWarps, tt::CacheModifier cache,
                            tt::EvictionPolicy evict) {
  auto make = desc.getDefiningOp<tt::MakeTensorDescOp>();
  TileAddresses tile = buildTileAddresses(b, loc, make, offsets, numWarps);
  auto copy = tg::AsyncCopyGlobalToLocalOp::create(
      b, loc, tile.pointers, buffer, tile.inBounds, Value(), cache, evict,
      /*isVolatile=*/false);
  auto group = tg::AsyncCommitGroupOp::create(
      b, loc, b.getType<tg::AsyncTokenType>(), ValueRange{copy.getToken()});
  tg::AsyncWaitOp::create(b, loc, ValueRange{group.getResult()}, 0);
  tg::BarrierOp::create(b, loc);
  tg::BarrierCompleteTxOp::create(b, loc, barrier, getBlockBytes(make),
                                  Value());
}

void tlx::amd::emitTileStore(OpBuilder &b, Location loc, Value desc,
                             ValueRange offsets, Value buffer,
                             unsigned numWarps) {
  auto make = desc.getDefiningOp<tt::MakeTensorDescOp>();
  TileAddresses tile = buildTileAddresses(b, loc, make, offsets, numWarps);
  tg::BarrierOp::create(b, loc);
  Value values =
      tg::LocalLoadOp::create(b, loc, tile.valueType, buffer, Value());
  tt::StoreOp::create(b, loc, tile.pointers, values, tile.inBounds,
                      ArrayRef<int32_t>{}, tt::CacheModifier::NONE,
                      tt::EvictionPolicy::NORMAL);
}
