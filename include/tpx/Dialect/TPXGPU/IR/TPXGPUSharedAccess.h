//===- TPXGPUSharedAccess.h - how threads access a memdesc ------*- C++ -*-===//
//
// The shared-memory accesses a local_store or local_load of a distributed
// layout makes, as the NVVM lowering emits them (SharedMemoryPatterns.cpp):
// how many elements each access moves, and how many shared-memory
// wavefronts the warps' accesses take against the minimum their bytes
// need. Passes that choose between storing a value in its own layout and
// converting it first (tpxgpu-remove-layout-conversions) ask here, so the
// choice and the code agree.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_DIALECT_TPXGPU_IR_TPXGPUSHAREDACCESS_H
#define TPX_DIALECT_TPXGPU_IR_TPXGPUSHAREDACCESS_H

#include "tpx/Dialect/TPXGPU/IR/TPXGPULinearLayout.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUSharedLayout.h"

namespace tpx::tpxgpu {

/// Elements per access of registers `regs` (a layout of a rank-`viewRank`
/// view of an allocation with `layout`, `bytes` per element): a run of
/// registers holding elements consecutive along the contiguous dimension,
/// at most 16 bytes and aligned to its size; 1 when the view does not have
/// the contiguous dimension.
unsigned getSharedRegisterRun(const SharedLayout &layout, unsigned viewRank,
                              const LinearLayout &regs, unsigned bytes);

/// `width` shrunk until the byte stride between rows of a padded layout
/// keeps accesses of `width` elements aligned.
unsigned alignSharedAccessToRows(const SharedLayout &layout, unsigned width,
                                 unsigned bytes);

/// Both: the width the lowering's vector accesses have.
inline unsigned getSharedAccessWidth(const SharedLayout &layout,
                                     unsigned viewRank,
                                     const LinearLayout &regs, unsigned bytes) {
  return alignSharedAccessToRows(
      layout, getSharedRegisterRun(layout, viewRank, regs, bytes), bytes);
}

/// The shared-memory wavefronts of every warp's accesses to a view of
/// `layout` by registers `regs`, `width` elements of `bytes` at a time,
/// and the fewest their bytes allow (a wavefront serves one 4-byte word in
/// each of the 32 banks; threads reading one word share it). Equal counts
/// mean the accesses are free of bank conflicts.
struct SharedAccessCost {
  uint64_t wavefronts = 0;
  uint64_t ideal = 0;
  bool isConflictFree() const { return wavefronts == ideal; }
};
SharedAccessCost getSharedAccessCost(const SharedLayout &layout,
                                     const LinearLayout &regs, unsigned width,
                                     unsigned bytes);

} // namespace tpx::tpxgpu

#endif // TPX_DIALECT_TPXGPU_IR_TPXGPUSHAREDACCESS_H
