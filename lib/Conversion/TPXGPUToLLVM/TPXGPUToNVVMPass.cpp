//===- TPXGPUToNVVMPass.cpp - the convert-tpxgpu-to-nvvm pass -------------===//
//
// The SIMT conversion (SIMTConversion.cpp) for NVIDIA: NVVM ops, inline PTX
// for predicated accesses, mma.sync / wgmma, TMA and mbarriers.
//
//===----------------------------------------------------------------------===//
#include "SIMTConversion.h"

#include "tpx/Conversion/TPXGPUToLLVM/TPXGPUToLLVM.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tpx {
#define GEN_PASS_DEF_CONVERTTPXGPUTONVVM
#include "tpx/Conversion/TPXGPUToLLVM/TPXGPUToLLVMPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;

namespace {
struct ConvertTPXGPUToNVVMPass
    : public tpx::impl::ConvertTPXGPUToNVVMBase<ConvertTPXGPUToNVVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (tpxgpu::isAMDModule(module)) {
      module.emitError("convert-tpxgpu-to-nvvm: the module is compiled for ")
          << tpxgpu::getModuleTarget(module)
          << " (tpxgpu.target); run convert-tpxgpu-to-rocdl";
      return signalPassFailure();
    }
    if (failed(gpu_lowering::lowerSIMTModule(module,
                                             gpu_lowering::GPUVendor::NVIDIA)))
      signalPassFailure();
  }
};
} // namespace
