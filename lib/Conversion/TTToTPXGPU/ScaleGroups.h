//===- ScaleGroups.h - loads multiplied by group-wise scales -----*- C++ -*-===//
//
// tpxgpu-decompose-scaled-dots multiplies each loaded dot_scaled operand by
// its scales, one per group of 32 elements along K, broadcast by
// expand_dims / broadcast / reshape (and a transpose for the rhs). A thread
// that holds elements of many groups needs one scale for each: the rhs of
// a row-major [K, N] load in the default layout holds 4 rows 32 apart (4
// groups) x 16 columns, 64 scales a thread. Keeping a thread's rows inside
// one group (4 consecutive rows instead) needs 16.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_CONVERSION_TTTOTPXGPU_SCALEGROUPS_H
#define TPX_LIB_CONVERSION_TTTOTPXGPU_SCALEGROUPS_H

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

#include <optional>

namespace tpx {

/// Dimension `dim` of a loaded value is multiplied by values that are equal
/// in groups of `size` consecutive elements.
struct ScaleGroups {
  unsigned dim;
  int64_t size;
};

/// The groups of the value `load`'s result is multiplied by, when it is
/// used (through unary elementwise ops) only by such a multiply.
std::optional<ScaleGroups> getScaleGroups(tt::LoadOp load);

/// `layout` with the repetitions along the grouped dimension turned into
/// consecutive elements of each thread, when they then stay in one group;
/// else `layout` itself.
tpxgpu::BlockedEncodingAttr
keepScaleGroupsInThreads(tpxgpu::BlockedEncodingAttr layout,
                         llvm::ArrayRef<int64_t> shape, ScaleGroups groups);

} // namespace tpx

#endif // TPX_LIB_CONVERSION_TTTOTPXGPU_SCALEGROUPS_H
