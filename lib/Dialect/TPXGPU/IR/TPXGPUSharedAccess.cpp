//===- TPXGPUSharedAccess.cpp - how threads access a memdesc --------------===//
//
// The bank model: shared memory has 32 banks of 4-byte words; one
// wavefront serves at most one word per bank, and lanes reading or writing
// the same word share it. A warp's access therefore takes as many
// wavefronts as the most distinct words any one bank holds among its
// lanes' bytes, and at least its bytes / 128.
//
//===----------------------------------------------------------------------===//
#include "tpx/Dialect/TPXGPU/IR/TPXGPUSharedAccess.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace mlir;
using namespace tpx::tpxgpu;

namespace {
constexpr unsigned kNumBanks = 32;
constexpr unsigned kBankBytes = 4;
} // namespace

unsigned tpx::tpxgpu::getSharedRegisterRun(const SharedLayout &layout,
                                           unsigned viewRank,
                                           const LinearLayout &regs,
                                           unsigned bytes) {
  // Dimensions a memdesc_index dropped come first in the allocation.
  unsigned dropped = layout.getAllocShape().size() - viewRank;
  unsigned contiguous = layout.getContiguousDim();
  if (contiguous < dropped)
    return 1;
  return regs.getRegisterRun(
      contiguous - dropped,
      std::min(layout.getMaxContiguousElements(), std::max(1u, 16 / bytes)));
}

unsigned tpx::tpxgpu::alignSharedAccessToRows(const SharedLayout &layout,
                                              unsigned width, unsigned bytes) {
  ArrayRef<int64_t> shape = layout.getAllocShape();
  if (shape.size() < 2 + layout.getNumBufferDims())
    return width;
  SmallVector<int64_t> next(shape.size(), 0);
  // One step along the slowest tile dimension that is not contiguous.
  unsigned contiguous = layout.getContiguousDim();
  for (unsigned d = layout.getNumBufferDims(); d < shape.size(); ++d)
    if (d != contiguous && shape[d] > 1) {
      next[d] = 1;
      uint64_t stride = layout.getByteOffset(next);
      while (width > 1 && stride % (width * bytes))
        width /= 2;
      next[d] = 0;
    }
  return width;
}

SharedAccessCost tpx::tpxgpu::getSharedAccessCost(const SharedLayout &layout,
                                                  const LinearLayout &regs,
                                                  unsigned width,
                                                  unsigned bytes) {
  unsigned dropped = layout.getAllocShape().size() - regs.getRank();
  unsigned replicated = regs.getReplicationMask(LinearLayout::Register);
  uint64_t accessBytes = uint64_t(width) * bytes;
  SharedAccessCost cost;
  SmallVector<int64_t> full(layout.getAllocShape().size(), 0);
  for (unsigned warp = 0; warp < regs.getNumWarps(); ++warp)
    for (unsigned reg = 0; reg < regs.getNumRegisters(); reg += width) {
      if (reg & replicated)
        continue; // the lowering skips registers repeating others
      llvm::SmallVector<llvm::DenseSet<uint64_t>, kNumBanks> words(kNumBanks);
      for (unsigned lane = 0; lane < regs.getNumLanes(); ++lane) {
        Coordinate element = regs.apply(reg, lane, warp);
        std::copy(element.begin(), element.end(), full.begin() + dropped);
        uint64_t offset = layout.getByteOffset(full);
        uint64_t first = offset / kBankBytes;
        uint64_t last = (offset + accessBytes - 1) / kBankBytes;
        for (uint64_t word = first; word <= last; ++word)
          words[word % kNumBanks].insert(word);
      }
      uint64_t most = 0;
      for (const auto &bank : words)
        most = std::max<uint64_t>(most, bank.size());
      uint64_t ideal = llvm::divideCeil(
          uint64_t(regs.getNumLanes()) * accessBytes, kNumBanks * kBankBytes);
      cost.ideal += ideal;
      cost.wavefronts += std::max(most, ideal);
    }
  return cost;
}
