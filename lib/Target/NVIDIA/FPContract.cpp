//===- FPContract.cpp - tpx-nvidia-fp-contract ----------------------------===//
//
// Float multiplies and adds become contractable (the pass description in
// NVIDIAPasses.td says why): the fusion is a fact in the IR, on each op,
// rather than a target option of the PTX emitter, so that a pipeline
// without this pass keeps every rounding.
//
//===----------------------------------------------------------------------===//
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace tpx {
#define GEN_PASS_DEF_TPXNVIDIAFPCONTRACT
#include "tpx/Target/NVIDIA/NVIDIAPasses.h.inc"
} // namespace tpx

using namespace mlir;

namespace {
struct FPContractPass
    : public tpx::impl::TPXNVIDIAFPContractBase<FPContractPass> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (!isa<LLVM::FMulOp, LLVM::FAddOp, LLVM::FSubOp>(op))
        return;
      auto flags = cast<LLVM::FastmathFlagsInterface>(op);
      LLVM::FastmathFlags old = flags.getFastmathAttr().getValue();
      op->setAttr(flags.getFastmathAttrName(),
                  LLVM::FastmathFlagsAttr::get(
                      op->getContext(), old | LLVM::FastmathFlags::contract));
    });
  }
};
} // namespace
