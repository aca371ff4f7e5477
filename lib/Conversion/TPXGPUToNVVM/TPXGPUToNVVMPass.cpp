//===- TPXGPUToNVVMPass.cpp - the convert-tpxgpu-to-nvvm pass -------------===//
//
// One dialect conversion from TTIR-with-layouts to LLVM + NVVM. Tensor
// values become structs of registers (LoweringUtils.h); scalar arith, math,
// scf and cf stay for the upstream conversions later in the llir stage, so
// this pass only has to get rid of tensors, tt and tpxgpu ops.
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTDialect.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

namespace tpx {
#define GEN_PASS_DEF_CONVERTTPXGPUTONVVM
#include "tpx/Conversion/TPXGPUToNVVM/TPXGPUToNVVMPasses.h.inc"
} // namespace tpx

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
/// dropped afterwards if nothing used it).
static LLVM::GlobalOp createSharedMemory(ModuleOp module) {
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
  return LLVM::GlobalOp::create(
      b, module.getLoc(), type, /*isConstant=*/false, LLVM::Linkage::External,
      kSharedMemorySymbol, Attribute(), /*alignment=*/16, kSharedAddressSpace);
}

namespace {
struct ConvertTPXGPUToNVVMPass
    : public tpx::impl::ConvertTPXGPUToNVVMBase<ConvertTPXGPUToNVVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned numWarps = tpxgpu::getModuleNumWarps(module);
    unsigned threadsPerWarp = tpxgpu::getModuleThreadsPerWarp(module);
    if (numWarps == 0) {
      module.emitError("module has no tpxgpu.num-warps: run "
                       "convert-tt-to-tpxgpu before convert-tpxgpu-to-nvvm");
      return signalPassFailure();
    }
    if (threadsPerWarp != 32) {
      module.emitError("NVIDIA warps have 32 threads, the module asks for ")
          << threadsPerWarp;
      return signalPassFailure();
    }
    if (module.lookupSymbol(kSharedMemorySymbol)) {
      module.emitError("symbol '")
          << kSharedMemorySymbol << "' is reserved for shared memory";
      return signalPassFailure();
    }
    // tpxgpu-allocate-shared-memory's high-water mark bounds the scratch
    // from above; the lowering records the bytes its code actually reaches
    // (getSharedMemoryBase), which the launch then reserves.
    module->removeAttr(tpxgpu::TPXGPUDialect::kSharedBytesAttrName);
    LLVM::GlobalOp shared = createSharedMemory(module);
    if (failed(declareDebugSymbols(module)))
      return signalPassFailure();
    // Warp-specialized kernels may need more warps than the module's.
    unsigned blockWarps = numWarps;
    module.walk([&](tt::FuncOp func) {
      if (func.isPublic())
        blockWarps = std::max(blockWarps, tpxgpu::getBlockWarps(func));
    });
    module->setAttr(tpxgpu::TPXGPUDialect::kBlockThreadsAttrName,
                    IntegerAttr::get(IntegerType::get(&getContext(), 32),
                                     blockWarps * threadsPerWarp));

    MLIRContext *context = &getContext();
    TensorTypeConverter converter(context);
    RewritePatternSet patterns(context);
    ConversionTarget target(*context);
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect,
                           cf::ControlFlowDialect>();
    target.addIllegalDialect<tt::TTDialect, tpxgpu::TPXGPUDialect>();
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
        [](Operation *op) { return !hasConvertibleTypes(op); });
    // Created by the tt.map_elementwise lowering around scalar regions
    // (InlineAsmPatterns.cpp): casts between tt and LLVM pointer types for
    // the cloned scalar ops, which reconcile-unrealized-casts removes, and
    // scf.execute_region for regions of several blocks.
    target.addLegalOp<ModuleOp, UnrealizedConversionCastOp,
                      scf::ExecuteRegionOp>();
    // Lowered after the conversion, around partitions it has lowered.
    target.addLegalOp<tpxgpu::WarpSpecializeOp, tpxgpu::WarpYieldOp>();
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    populateFunctionPatterns(converter, patterns);
    populateElementwisePatterns(converter, patterns);
    populateFloatConversionPatterns(converter, patterns);
    populateShapePatterns(converter, patterns);
    populateMemoryPatterns(converter, patterns);
    populateSharedMemoryPatterns(converter, patterns);
    populateAsyncCopyPatterns(converter, patterns);
    populateBarrierTMAPatterns(converter, patterns);
    populateReducePatterns(converter, patterns);
    populateScanPatterns(converter, patterns);
    populateSharedExchangePatterns(converter, patterns);
    populateDotPatterns(converter, patterns);
    populateWarpGroupDotPatterns(converter, patterns);
    populateInlineAsmPatterns(converter, patterns);
    populateDebugPatterns(converter, patterns);
    if (failed(applyPartialConversion(module, target, std::move(patterns))) ||
        failed(lowerWarpSpecializations(module)))
      return signalPassFailure();
    if (!module->hasAttr(tpxgpu::TPXGPUDialect::kSharedBytesAttrName))
      shared.erase();
  }
};
} // namespace
