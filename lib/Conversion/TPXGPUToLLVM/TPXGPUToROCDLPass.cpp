//===- TPXGPUToROCDLPass.cpp - the convert-tpxgpu-to-rocdl pass -----------===//
//
// The SIMT conversion (SIMTConversion.cpp) for AMD CDNA: ROCDL ops, wave64,
// branches around masked accesses, LLVM atomics, LDS for shared memory
// (ROCDLPrimitives.h says what differs from NVIDIA).
//
//===----------------------------------------------------------------------===//
#include "SIMTConversion.h"

#include "tpx/Conversion/TPXGPUToLLVM/TPXGPUToLLVM.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tpx {
#define GEN_PASS_DEF_CONVERTTPXGPUTOROCDL
#include "tpx/Conversion/TPXGPUToLLVM/TPXGPUToLLVMPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;

namespace {
struct ConvertTPXGPUToROCDLPass
    : public tpx::impl::ConvertTPXGPUToROCDLBase<ConvertTPXGPUToROCDLPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef target = tpxgpu::getModuleTarget(module);
    if (target.empty()) {
      if (!StringRef(chip).starts_with("gfx")) {
        module.emitError("convert-tpxgpu-to-rocdl: chip must be an AMD GPU "
                         "(gfx<N>), got '")
            << chip << "'";
        return signalPassFailure();
      }
      module->setAttr(tpxgpu::TPXGPUDialect::kTargetAttrName,
                      StringAttr::get(&getContext(), chip));
    } else if (!tpxgpu::isAMDModule(module)) {
      module.emitError("convert-tpxgpu-to-rocdl: the module is compiled for ")
          << target << " (tpxgpu.target); run convert-tpxgpu-to-nvvm";
      return signalPassFailure();
    }
    if (failed(gpu_lowering::lowerSIMTModule(module,
                                             gpu_lowering::GPUVendor::AMD)))
      signalPassFailure();
  }
};
} // namespace
