//===- TpxRegistration.cpp ------------------------------------------------===//
#include "tpx/Registration/TpxRegistration.h"
#include "tpx/Analysis/TestPasses.h"
#include "tpx/Conversion/TPXGPUToLLVM/TPXGPUToLLVM.h"
#include "tpx/Conversion/TTToCPU/TTToCPU.h"
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TT/IR/TTDialect.h"
#include "tpx/Dialect/TT/Transforms/TTTransforms.h"
#include "tpx/Target/CPU/CPUTarget.h"
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void tpx::registerTpxDialects(mlir::DialectRegistry &registry) {
  registry.insert<tpx::tt::TTDialect, tpx::tpxgpu::TPXGPUDialect,
                  mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::cf::ControlFlowDialect,
                  mlir::ub::UBDialect, mlir::func::FuncDialect,
                  mlir::gpu::GPUDialect, mlir::LLVM::LLVMDialect,
                  mlir::NVVM::NVVMDialect, mlir::nvgpu::NVGPUDialect,
                  mlir::ROCDL::ROCDLDialect, mlir::amdgpu::AMDGPUDialect,
                  mlir::vector::VectorDialect, mlir::memref::MemRefDialect>();
  // Upstream dialects are loaded lazily, with their external interface
  // models (bufferization of arith/linalg/tensor/scf, LLVM IR translation of
  // llvm/nvvm/rocdl, inliner hooks, ...) that the CPU and GPU pipelines use.
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  tpx::registerLLVMAtomicMemoryEffects(registry);
}

void tpx::registerTpxPasses() {
  static bool once = [] {
    mlir::registerAllPasses();
    tpx::registerTTTransformsPasses();
    tpx::registerTTToCPUPasses();
    tpx::registerTTToTPXGPUPasses();
    tpx::registerTPXGPUToLLVMPasses();
    tpx::registerNVIDIAPasses();
    tpx::registerAnalysisTestPasses();
    // Backends' stage emitters, so that every tool can run every stage.
    tpx::registerCPUTarget();
    tpx::registerNVIDIATarget();
    return true;
  }();
  (void)once;
}
