//===- SharedMemoryPlan.cpp - double-buffered conversions in loops --------===//
//
// Every layout conversion through shared memory is "barrier, store,
// barrier, load" on one shared buffer: the first barrier waits until the
// buffer's previous readers are done. In a loop body whose only
// shared-memory users are top-level conversions (a matmul's operand
// conversions), each conversion gets its own region, two copies of it
// selected by the iteration's parity. Region copy p is written in iteration
// j and next in j + 2; the conversion's own second barrier in iteration
// j + 1 lies between every thread's reads in j and the writes in j + 2, so
// the first barrier is not needed. One barrier before the loop separates it
// from whatever used the buffer before.
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

/// The layouts of a one-source, one-result tensor op; none if either has no
/// linear form (the lowering will report that).
static std::optional<std::pair<LinearLayout, LinearLayout>>
getLayouts(Operation *op) {
  auto from = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto to = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!from || !to || !from.getEncoding() || !to.getEncoding())
    return std::nullopt;
  auto a = tpxgpu::toLinearLayout(from.getEncoding(), from.getShape());
  auto b = tpxgpu::toLinearLayout(to.getEncoding(), to.getShape());
  if (!a || !b)
    return std::nullopt;
  return std::make_pair(*a, *b);
}

/// True when `op` is a conversion through shared memory (not a register
/// renaming).
static bool convertsThroughShared(tpxgpu::ConvertLayoutOp op) {
  auto layouts = getLayouts(op);
  if (!layouts)
    return false;
  auto identity = [](ArrayRef<int64_t> c) { return Coordinate(c); };
  return !(layouts->first == layouts->second) &&
         !layouts->first.getRegisterMapFrom(layouts->second, identity);
}

/// Ops whose lowering may touch shared memory. Broadcasts and expand_dims
/// only do when they are not register renamings, reductions only across
/// warps; everything else with shared memory in its lowering (scans,
/// transposes, reshapes, atomics, calls) counts.
static bool mayUseSharedMemory(Operation *op) {
  // A reduction stays within warps (shuffles only) when no warp steps
  // along its axis and its result is the slice of its source.
  if (auto reduce = dyn_cast<tt::ReduceOp>(op)) {
    auto source = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
    auto result = dyn_cast<RankedTensorType>(reduce.getResult()[0].getType());
    auto slice = result
                     ? dyn_cast<tpxgpu::SliceEncodingAttr>(result.getEncoding())
                     : nullptr;
    if (!source.getEncoding() || !slice ||
        slice.getParent() != source.getEncoding())
      return true;
    auto layout =
        tpxgpu::toLinearLayout(source.getEncoding(), source.getShape());
    return !layout || llvm::any_of(layout->getBases(LinearLayout::Warp),
                                   [&](const Coordinate &basis) {
                                     return basis[reduce.getAxis()] != 0;
                                   });
  }
  if (isa<tt::ScanOp, tt::TransOp, tt::ReshapeOp, tt::AtomicRMWOp,
          tt::AtomicCASOp, tt::CallOp>(op) ||
      isa_and_nonnull<tpxgpu::TPXGPUDialect>(op->getDialect()))
    return true;
  if (isa<tt::BroadcastOp, tt::ExpandDimsOp>(op)) {
    auto layouts = getLayouts(op);
    if (!layouts)
      return true;
    auto toSource = [&](ArrayRef<int64_t> c) {
      return getShapeOpSource(op, c);
    };
    return !layouts->first.getRegisterMapFrom(layouts->second, toSource);
  }
  return false;
}

static void planLoop(scf::ForOp loop) {
  SmallVector<tpxgpu::ConvertLayoutOp> conversions;
  bool clean = true;
  loop.getBody()->walk([&](Operation *op) {
    if (auto convert = dyn_cast<tpxgpu::ConvertLayoutOp>(op)) {
      if (!convertsThroughShared(convert))
        return;
      if (convert->getParentOp() != loop.getOperation())
        clean = false;
      conversions.push_back(convert);
      return;
    }
    if (isa<scf::ForOp, scf::WhileOp>(op) || mayUseSharedMemory(op))
      clean = false;
  });
  if (!clean || conversions.empty())
    return;
  uint64_t offset = 0;
  SmallVector<uint64_t> offsets;
  for (tpxgpu::ConvertLayoutOp convert : conversions) {
    auto layouts = getLayouts(convert);
    offsets.push_back(offset);
    // 128-byte aligned regions keep vector and ldmatrix accesses aligned.
    offset += llvm::alignTo(
        getConversionBytes(layouts->first, convert.getType().getElementType()),
        128);
  }
  Builder b(loop.getContext());
  // The regions start above every buffer tpxgpu-allocate-shared-memory
  // keeps live in the loop: at the highest scratch offset it gave the
  // conversions (the lowering adds it to the plan's offsets).
  int64_t base = 0;
  StringRef scratch = tpxgpu::TPXGPUDialect::kSharedOffsetAttrName;
  for (tpxgpu::ConvertLayoutOp convert : conversions)
    if (auto placed = convert->getAttrOfType<IntegerAttr>(scratch))
      base = std::max(base, placed.getInt());
  for (auto [convert, start] : llvm::zip_equal(conversions, offsets)) {
    if (convert->hasAttr(scratch))
      convert->setAttr(scratch, b.getI64IntegerAttr(base));
    convert->setAttr(kSharedOffsetAttr, b.getI64IntegerAttr(start));
    convert->setAttr(kSharedParityStrideAttr, b.getI64IntegerAttr(offset));
  }
  OpBuilder before(loop);
  tpxgpu::BarrierOp::create(before, loop.getLoc());
}

void gpu_lowering::planLoopSharedMemory(ModuleOp module) {
  // Innermost loops only: an outer loop containing a loop is not clean.
  module.walk([&](scf::ForOp loop) { planLoop(loop); });
}
