//===- LayoutChoice.cpp - the layouts convert-tt-to-tpxgpu picks ----------===//
//
// Pure functions from a tensor shape (and the module's warp configuration) to
// a layout, kept apart from the IR walk so that later passes (and tests) can
// ask for the same choices.
//
//===----------------------------------------------------------------------===//
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"

#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace tpx;
using namespace tpx::tpxgpu;

/// Bytes one element occupies in memory. A tensor of pointers is laid out
/// for what it points to: the loads and stores through it move pointees, and
/// the pointer tensor and the loaded tensor should agree without a
/// conversion.
static unsigned getAccessBytes(Type elementType) {
  if (auto pointer = dyn_cast<tt::PointerType>(elementType)) {
    Type pointee = pointer.getPointeeType();
    if (pointee.isIntOrFloat())
      return std::max(1u, pointee.getIntOrFloatBitWidth() / 8);
    return 8; // a pointer to pointers (or to a block): a 64-bit address
  }
  if (elementType.isIntOrFloat())
    return std::max(1u, elementType.getIntOrFloatBitWidth() / 8);
  return 8;
}

BlockedEncodingAttr tpxgpu::getDefaultBlockedLayout(
    MLIRContext *context, ArrayRef<int64_t> shape, Type elementType,
    unsigned numWarps, unsigned threadsPerWarp, ArrayRef<unsigned> fastest,
    unsigned maxVector) {
  unsigned rank = shape.size();
  assert(rank > 0 && "a blocked layout needs at least one dimension");
  assert((fastest.empty() || fastest.size() == rank) && "order of every dim");
  SmallVector<unsigned> sizePerThread(rank, 1), threads(rank, 1),
      warps(rank, 1), order(rank);
  for (unsigned i = 0; i < rank; ++i)
    order[i] = fastest.empty() ? rank - 1 - i : fastest[i];

  // One 16-byte access per thread is the widest global load/store; a
  // dimension smaller than that caps the vector (no thread holds padding).
  unsigned vector =
      llvm::bit_floor(std::max(1u, 16 / getAccessBytes(elementType)));
  if (maxVector)
    vector = std::min(vector, llvm::bit_floor(maxVector));
  sizePerThread[order[0]] =
      static_cast<unsigned>(std::min<int64_t>(vector, shape[order[0]]));

  // Threads, then warps, fill dimensions fastest first so that neighbouring
  // lanes touch neighbouring vectors (coalescing). Whatever the tensor
  // cannot use replicates along the slowest dimension, keeping the products
  // equal to the warp size and the warp count as the module requires.
  auto distribute = [&](SmallVectorImpl<unsigned> &counts, unsigned total,
                        auto coveredBefore) {
    unsigned left = total;
    for (unsigned dim : order) {
      int64_t room = std::max<int64_t>(1, shape[dim] / coveredBefore(dim));
      unsigned here = static_cast<unsigned>(std::min<int64_t>(left, room));
      counts[dim] = here;
      left /= here;
    }
    counts[order.back()] *= left;
  };
  distribute(threads, threadsPerWarp,
             [&](unsigned dim) -> int64_t { return sizePerThread[dim]; });
  distribute(warps, numWarps, [&](unsigned dim) -> int64_t {
    return int64_t(sizePerThread[dim]) * threads[dim];
  });
  return BlockedEncodingAttr::get(context, sizePerThread, threads, warps,
                                  order);
}

/// Splits the warps between M and N while each still gets a whole tile,
/// preferring M (rows of A are then read by one warp each); warps beyond
/// the tile count replicate along M.
static std::pair<unsigned, unsigned> splitWarps(int64_t tilesM, int64_t tilesN,
                                                unsigned numWarps,
                                                bool warpsAlongM) {
  unsigned warpsM = 1, warpsN = 1;
  for (unsigned left = numWarps; left > 1; left /= 2) {
    bool roomM = tilesM / warpsM > 1, roomN = tilesN / warpsN > 1;
    if (roomM && (warpsAlongM || warpsM <= warpsN || !roomN))
      warpsM *= 2;
    else if (roomN)
      warpsN *= 2;
    else
      warpsM *= 2;
  }
  return {warpsM, warpsN};
}

NvidiaMmaEncodingAttr tpxgpu::chooseNvidiaMmaLayout(MLIRContext *context,
                                                    ArrayRef<int64_t> shape,
                                                    unsigned numWarps,
                                                    unsigned threadsPerWarp,
                                                    bool warpsAlongM) {
  // mma.sync is an NVIDIA 32-lane instruction on 2-D tiles made of 16x8
  // accumulator fragments.
  constexpr int64_t kInstrM = 16, kInstrN = 8;
  if (threadsPerWarp != 32 || shape.size() != 2 || shape[0] % kInstrM != 0 ||
      shape[1] % kInstrN != 0)
    return {};
  auto [warpsM, warpsN] =
      splitWarps(shape[0] / kInstrM, shape[1] / kInstrN, numWarps, warpsAlongM);
  return NvidiaMmaEncodingAttr::get(context, /*version=*/2, {warpsM, warpsN},
                                    {unsigned(kInstrM), unsigned(kInstrN)});
}

unsigned tpxgpu::getMfmaOperandKWidth(Type operandType) {
  // gfx950's double-rate integer forms take 128 bits of A and B a lane
  // (<4 x i32>: 16 i8); the f16/bf16 forms take <8 x half>, the 8-bit
  // float ones an i64 (8 bytes).
  if (operandType && operandType.isInteger(8))
    return 16;
  return kMfmaOperandKWidth;
}

unsigned tpxgpu::getMfmaOperandKWidth(AmdMfmaEncodingAttr mfma) {
  unsigned block = mfma.getInstrShape()[0];
  return mfma.getInstrShape()[2] / (64 / block);
}

AmdMfmaEncodingAttr tpxgpu::chooseAmdMfmaLayout(
    MLIRContext *context, StringRef chip, ArrayRef<int64_t> shape, int64_t k,
    unsigned numWarps, bool warpsAlongM, Type operandType) {
  // The forms with 8 f16/bf16 (16 i8) elements a lane are CDNA4's
  // (gfx950); CDNA3's have half the K and other operand layouts.
  if (chip != "gfx950" || shape.size() != 2)
    return {};
  // A 32x32 block spreads K over 2 lane groups, a 16x16 block over 4.
  unsigned kWidth = getMfmaOperandKWidth(operandType);
  unsigned block = 0;
  if (shape[0] % 32 == 0 && shape[1] % 32 == 0 && k % (2 * kWidth) == 0)
    block = 32;
  else if (shape[0] % 16 == 0 && shape[1] % 16 == 0 && k % (4 * kWidth) == 0)
    block = 16;
  if (!block)
    return {};
  auto [warpsM, warpsN] =
      splitWarps(shape[0] / block, shape[1] / block, numWarps, warpsAlongM);
  unsigned instrK = kWidth * (64 / block);
  return AmdMfmaEncodingAttr::get(context, /*version=*/4, {warpsM, warpsN},
                                  {block, block, instrK},
                                  /*isTransposed=*/false);
}

unsigned tpxgpu::getMmaOperandKWidth(Type elementType) {
  unsigned bits =
      elementType.isIntOrFloat() ? elementType.getIntOrFloatBitWidth() : 32;
  return std::max(1u, 32 / std::max(1u, bits));
}
