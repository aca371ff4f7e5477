//===- AnnotateContiguity.cpp - the tpxgpu-annotate-contiguity pass -------===//
//
// The SIMT lowering moves several registers with one vector instruction
// only where the AxisInfo analysis proves the addresses consecutive and
// aligned and the mask uniform. The fact is computed here, in the ttgir
// stage, and recorded on the memory op as `tpxgpu.contiguity`, so that it
// shows in stage dumps and lit tests and the lowering reads one number per
// dimension instead of running the analysis in the middle of a conversion.
//
//===----------------------------------------------------------------------===//
#include "tpx/Analysis/AxisInfo.h"
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/IR/Builders.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPUANNOTATECONTIGUITY
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;

/// Bytes of one pointee element, the unit AxisInfo's pointer runs step by.
static int64_t getPointeeBytes(Type pointerTensor) {
  auto pointer = cast<tt::PointerType>(getElementTypeOrSelf(pointerTensor));
  Type pointee = pointer.getPointeeType();
  if (isa<tt::PointerType>(pointee))
    return 8;
  if (pointee.isIntOrFloat())
    return std::max<unsigned>(1, pointee.getIntOrFloatBitWidth() / 8);
  return 1;
}

/// Per dimension, the largest power of two v such that runs of v elements
/// (starting at multiples of v) have consecutive pointers, start at a
/// multiple of v * pointee bytes and, when masked, see one mask value.
/// Alignment and the mask are folded in so that any v' <= v is also safe:
/// the lowering only takes the minimum with what the layout allows.
static SmallVector<int64_t> getAccessContiguity(const AxisInfo &pointer,
                                                const AxisInfo *mask,
                                                int64_t elementBytes) {
  SmallVector<int64_t> result;
  for (unsigned d = 0; d < pointer.getRank(); ++d) {
    int64_t width = pointer.contiguity[d];
    if (mask && mask->getRank() == pointer.getRank())
      width = std::min(width, mask->constancy[d]);
    else if (mask)
      width = 1;
    // A sub-run of `width` inside a known run starts width * elementBytes
    // bytes after the previous one, so it is aligned exactly when the
    // run's start is a multiple of the whole vector.
    while (width > 1 && pointer.divisibility[d] % (width * elementBytes) != 0)
      width /= 2;
    result.push_back(std::max<int64_t>(width, 1));
  }
  return result;
}

namespace {
struct TPXGPUAnnotateContiguityPass
    : public tpx::impl::TPXGPUAnnotateContiguityBase<
          TPXGPUAnnotateContiguityPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    AxisInfoResults results(module);
    if (!results.converged()) {
      module.emitError("tpxgpu-annotate-contiguity: the AxisInfo analysis "
                       "did not reach a fixpoint");
      return signalPassFailure();
    }
    Builder b(module.getContext());
    StringRef name = tpxgpu::TPXGPUDialect::kContiguityAttrName;
    auto annotate = [&](Operation *op, Value pointer, Value mask) {
      if (!isa<RankedTensorType>(pointer.getType()) ||
          !isa<tt::PointerType>(getElementTypeOrSelf(pointer.getType()))) {
        // A scalar access, or one through a block pointer: one element at a
        // time; a stale fact must not survive.
        op->removeAttr(name);
        return;
      }
      AxisInfo pointerInfo = results.getAxisInfo(pointer);
      // A scalar mask is one value for the whole access.
      std::optional<AxisInfo> maskInfo;
      if (mask && isa<RankedTensorType>(mask.getType()))
        maskInfo = results.getAxisInfo(mask);
      op->setAttr(name, b.getDenseI64ArrayAttr(getAccessContiguity(
                            pointerInfo, maskInfo ? &*maskInfo : nullptr,
                            getPointeeBytes(pointer.getType()))));
    };
    module.walk([&](Operation *op) {
      if (auto load = dyn_cast<tt::LoadOp>(op))
        annotate(op, load.getPtr(), load.getMask());
      else if (auto store = dyn_cast<tt::StoreOp>(op))
        annotate(op, store.getPtr(), store.getMask());
      else if (auto atomic = dyn_cast<tt::AtomicRMWOp>(op))
        annotate(op, atomic.getPtr(), atomic.getMask());
      else if (auto copy = dyn_cast<tpxgpu::AsyncCopyGlobalToLocalOp>(op))
        annotate(op, copy.getSrc(), copy.getMask());
      else if (auto cas = dyn_cast<tt::AtomicCASOp>(op))
        annotate(op, cas.getPtr(), Value());
    });
  }
};
} // namespace
