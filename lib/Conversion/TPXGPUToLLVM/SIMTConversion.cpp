//===- SIMTConversion.cpp - the conversion both SIMT passes run -----------===//
//
// One dialect conversion from TTIR-with-layouts to LLVM + NVVM or ROCDL.
// Tensor values become structs of registers (LoweringUtils.h); scalar
// arith, math, scf and cf stay for the upstream conversions later in the
// llir stage, so this only has to get rid of tensors, tt and tpxgpu ops.
//
//===----------------------------------------------------------------------===//
#include "SIMTConversion.h"
#include "LoweringUtils.h"
#include "ROCDLBarriers.h"
#include "ROCDLPrimitives.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTDialect.h"
#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

/// Types the upstream conversions after this pass do not handle.
static bool needsConversion(Type type) {
  return isa<RankedTensorType, tt::PointerType>(type);
}

static bool hasConvertibleTypes(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), needsConversion) ||
         llvm::any_of(op->getResultTypes(), needsConversion);
}

/// The dynamic shared memory array every exchange uses (patterns may not
/// create module-level ops, so it exists before the conversion and is
/// dropped afterwards if nothing used it). On AMD it is LDS, the same
/// address space number.
static LLVM::GlobalOp createSharedMemory(ModuleOp module) {
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
  return LLVM::GlobalOp::create(
      b, module.getLoc(), type, /*isConstant=*/false, LLVM::Linkage::External,
      kSharedMemorySymbol, Attribute(), /*alignment=*/16, kSharedAddressSpace);
}

/// What AMD code generation has no lowering for: wgmma and TMA (the AMD
/// pipeline never creates them, plugin IR may; tlx copies tiles itself on
/// AMD). mbarriers, named barriers and warp specialization are LDS-based
/// there (ROCDLBarriers.h). The first such op is reported with the
/// target's name.
static LogicalResult checkAMDCoverage(ModuleOp module, StringRef chip) {
  if (tpxgpu::getModuleClusterSize(module) > 1)
    return module.emitError("thread-block clusters ('")
           << tpxgpu::TPXGPUDialect::kClusterDimsAttrName << "') are not "
           << "available on " << chip << " (an NVIDIA Hopper feature)";
  WalkResult result = module.walk([&](Operation *op) {
    auto arrive = dyn_cast<tpxgpu::ArriveBarrierOp>(op);
    bool nvidiaOnly =
        isa<tpxgpu::WarpGroupDotOp, tpxgpu::WarpGroupDotWaitOp,
            tpxgpu::AsyncTMACopyGlobalToLocalOp,
            tpxgpu::AsyncTMACopyLocalToGlobalOp, tpxgpu::AsyncTMAStoreWaitOp>(
            op) ||
        (arrive && arrive.getRemoteRank());
    if (!nvidiaOnly)
      return WalkResult::advance();
    op->emitError("'") << op->getName() << "' has no lowering for " << chip
                       << " (an NVIDIA Hopper feature)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

LogicalResult gpu_lowering::lowerSIMTModule(ModuleOp module, GPUVendor vendor) {
  bool amd = vendor == GPUVendor::AMD;
  StringRef pass = amd ? "convert-tpxgpu-to-rocdl" : "convert-tpxgpu-to-nvvm";
  unsigned numWarps = tpxgpu::getModuleNumWarps(module);
  unsigned threadsPerWarp = tpxgpu::getModuleThreadsPerWarp(module);
  if (numWarps == 0)
    return module.emitError("module has no tpxgpu.num-warps: run "
                            "convert-tt-to-tpxgpu before ")
           << pass;
  if (threadsPerWarp != (amd ? 64u : 32u))
    return module.emitError(amd ? "AMD CDNA wavefronts have 64 threads"
                                : "NVIDIA warps have 32 threads")
           << ", the module asks for " << threadsPerWarp;
  for (StringRef reserved : {StringRef(kSharedMemorySymbol),
                             StringRef(rocdl::kNamedBarrierTableSymbol)})
    if (module.lookupSymbol(reserved))
      return module.emitError("symbol '")
             << reserved << "' is reserved for shared memory";
  if (amd && failed(checkAMDCoverage(module, tpxgpu::getModuleTarget(module))))
    return failure();
  // tpxgpu-allocate-shared-memory's high-water mark bounds the scratch
  // from above; the lowering records the bytes its code actually reaches
  // (getSharedMemoryBase), which the launch then reserves.
  module->removeAttr(tpxgpu::TPXGPUDialect::kSharedBytesAttrName);
  LLVM::GlobalOp shared = createSharedMemory(module);
  if (amd)
    rocdl::declareNamedBarrierTable(module);
  if (failed(declareDebugSymbols(module)))
    return failure();
  // Warp-specialized kernels may need more warps than the module's.
  unsigned blockWarps = numWarps;
  module.walk([&](tt::FuncOp func) {
    if (func.isPublic())
      blockWarps = std::max(blockWarps, tpxgpu::getBlockWarps(func));
  });
  MLIRContext *context = module.getContext();
  module->setAttr(tpxgpu::TPXGPUDialect::kBlockThreadsAttrName,
                  IntegerAttr::get(IntegerType::get(context, 32),
                                   blockWarps * threadsPerWarp));

  TensorTypeConverter converter(context);
  RewritePatternSet patterns(context);
  ConversionTarget target(*context);
  target.addLegalDialect<LLVM::LLVMDialect, cf::ControlFlowDialect>();
  if (amd)
    target.addLegalDialect<ROCDL::ROCDLDialect>();
  else
    target.addLegalDialect<NVVM::NVVMDialect>();
  target.addIllegalDialect<tt::TTDialect, tpxgpu::TPXGPUDialect>();
  target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
      [](Operation *op) { return !hasConvertibleTypes(op); });
  // NVIDIA divides f32 with div.full.f32, scalars included (DivFLowering).
  target.addDynamicallyLegalOp<arith::DivFOp>([amd](arith::DivFOp op) {
    return !hasConvertibleTypes(op) &&
           (amd || !getElementTypeOrSelf(op.getType()).isF32());
  });
  // Created by the tt.map_elementwise lowering around scalar regions
  // (InlineAsmPatterns.cpp): casts between tt and LLVM pointer types for
  // the cloned scalar ops, which reconcile-unrealized-casts removes, and
  // scf.execute_region for regions of several blocks. The AMD primitives
  // add scf.if around masked accesses (ROCDLPrimitives.h); the structural
  // legality below accepts them, as their types are LLVM's.
  target
      .addLegalOp<ModuleOp, UnrealizedConversionCastOp, scf::ExecuteRegionOp>();
  // Lowered after the conversion, around partitions it has lowered.
  target.addLegalOp<tpxgpu::WarpSpecializeOp, tpxgpu::WarpYieldOp>();
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  populateFunctionPatterns(converter, patterns);
  populateElementwisePatterns(converter, patterns);
  populateFloatConversionPatterns(converter, patterns);
  populateShapePatterns(converter, patterns);
  populateMemoryPatterns(converter, patterns);
  populateBufferOpPatterns(converter, patterns);
  populateSharedMemoryPatterns(converter, patterns);
  populateReducePatterns(converter, patterns);
  populateScanPatterns(converter, patterns);
  populateSharedExchangePatterns(converter, patterns);
  populateDotPatterns(converter, patterns);
  populateInlineAsmPatterns(converter, patterns);
  if (amd)
    populateAMDAsyncCopyPatterns(converter, patterns);
  if (!amd) {
    populateAsyncCopyPatterns(converter, patterns);
    populateWarpGroupDotPatterns(converter, patterns);
  }
  populateBarrierTMAPatterns(converter, patterns);
  populateDebugPatterns(converter, patterns);
  if (failed(applyPartialConversion(module, target, std::move(patterns))) ||
      failed(lowerWarpSpecializations(module)))
    return failure();
  if (!module->hasAttr(tpxgpu::TPXGPUDialect::kSharedBytesAttrName))
    shared.erase();
  if (amd) {
    rocdl::finishNamedBarrierTable(module);
    rocdl::markLDSLoadsApartFromCopies(module);
  }
  return success();
}
