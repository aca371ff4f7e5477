//===- TPXGPUWarpSpecialize.cpp - tpxgpu.warp_specialize and its warps ----===//
//
// Warp specialization splits a block's warps into partitions that run
// different code at once (a TMA producer beside wgmma consumers). What the
// rest of the compiler needs to know is which warps run an op: layouts are
// chosen, verified and lowered over those warps, and the block is launched
// with enough warps for every partition.
//
//===----------------------------------------------------------------------===//
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"

#include <limits>

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace tpx::tpxgpu;

/// setmaxnreg's bounds (PTX ISA: 24 to 256, a multiple of 8).
static constexpr int32_t kMinRegs = 24, kMaxRegs = 256;
static constexpr int32_t kWarpsPerGroup = 4;

unsigned WarpSpecializeOp::getEndWarp() {
  int64_t end = 0;
  for (auto [start, warps] : llvm::zip(getWarpStarts(), getNumWarps()))
    end = std::max<int64_t>(end, int64_t(start) + warps);
  return std::min<int64_t>(end, std::numeric_limits<unsigned>::max());
}

LogicalResult WarpSpecializeOp::verify() {
  size_t n = getPartitions().size();
  if (n == 0)
    return emitOpError("needs at least one partition");
  if (getNumWarps().size() != n || getWarpStarts().size() != n ||
      getNumRegs().size() != n)
    return emitOpError("needs one num_warps, warp_starts and num_regs entry "
                       "per partition (")
           << n << ")";
  // Its lowering branches around the partitions in the kernel's blocks, and
  // the kernel's launch has the partitions' warps.
  auto function = dyn_cast<FunctionOpInterface>((*this)->getParentOp());
  if (!function)
    return emitOpError("must be directly in a function body (not in a loop, "
                       "a conditional or another warp_specialize)");
  if (!function.isPublic())
    return emitOpError("must be in a kernel (a public function): the "
                       "launch of a kernel calling it would not have its "
                       "partitions' warps");
  unsigned threadsPerWarp = getModuleThreadsPerWarp(*this);
  for (size_t i = 0; i < n; ++i) {
    int64_t warps = getNumWarps()[i], start = getWarpStarts()[i];
    int32_t regs = getNumRegs()[i];
    if (warps <= 0 || !llvm::isPowerOf2_32(warps))
      return emitOpError("partition ")
             << i << ": num_warps must be a positive power of two, got "
             << warps;
    if (start < 0)
      return emitOpError("partition ")
             << i << ": warp_starts must be non-negative, got " << start;
    for (size_t j = 0; j < i; ++j) {
      int64_t otherStart = getWarpStarts()[j];
      if (start < otherStart + getNumWarps()[j] && otherStart < start + warps)
        return emitOpError("partitions ")
               << j << " and " << i << " share warps (warps " << otherStart
               << ".." << otherStart + getNumWarps()[j] - 1 << " and " << start
               << ".." << start + warps - 1 << ")";
    }
    if (regs != 0 && (regs < kMinRegs || regs > kMaxRegs || regs % 8))
      return emitOpError("partition ")
             << i << ": num_regs must be 0 (none) or " << kMinRegs << " to "
             << kMaxRegs << " in steps of 8, got " << regs;
    if (regs != 0 && (warps % kWarpsPerGroup || start % kWarpsPerGroup))
      return emitOpError("partition ")
             << i << ": num_regs needs whole warp groups (setmaxnreg), but "
             << "it runs on warps " << start << ".." << start + warps - 1;
  }
  uint64_t threads = uint64_t(getEndWarp()) * threadsPerWarp;
  if (threads > 1024)
    return emitOpError("partitions need ")
           << getEndWarp() << " warps (" << threads
           << " threads); a block has at most 1024 threads";
  for (auto [i, region] : llvm::enumerate(getPartitions())) {
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(region, captured);
    unsigned warps = getNumWarps()[i], start = getWarpStarts()[i];
    for (Value value : captured) {
      auto tensor = dyn_cast<RankedTensorType>(value.getType());
      if (!tensor)
        continue;
      Attribute layout = tensor.getEncoding();
      if (layout && isDistributedLayout(layout) &&
          tpx::tpxgpu::getNumWarps(layout) == warps && start % warps == 0)
        continue; // each thread has its own elements already
      return emitOpError("partition ")
             << i << " (warps " << start << ".." << start + warps - 1
             << ") uses a tensor from outside (" << value.getType()
             << ") whose registers are not its own: compute it in the "
                "partition";
    }
  }
  return success();
}

/// The warp_specialize partition `op` is in and its index, or null.
static std::pair<WarpSpecializeOp, unsigned> getPartition(Operation *op) {
  for (Region *region = op->getParentRegion(); region;
       region = region->getParentRegion())
    if (auto split = dyn_cast<WarpSpecializeOp>(region->getParentOp()))
      return {split, region->getRegionNumber()};
  return {WarpSpecializeOp(), 0};
}

unsigned tpx::tpxgpu::getNumWarpsAt(Operation *op) {
  auto [split, index] = getPartition(op);
  return split ? split.getNumWarps()[index] : getModuleNumWarps(op);
}

unsigned tpx::tpxgpu::getWarpStartAt(Operation *op) {
  auto [split, index] = getPartition(op);
  return split ? split.getWarpStarts()[index] : 0;
}

unsigned tpx::tpxgpu::getBlockWarps(Operation *func) {
  unsigned warps = getModuleNumWarps(func);
  func->walk([&](WarpSpecializeOp split) {
    warps = std::max(warps, split.getEndWarp());
  });
  return warps;
}
