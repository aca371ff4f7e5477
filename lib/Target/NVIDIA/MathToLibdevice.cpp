//===- MathToLibdevice.cpp - scalar math ops to libdevice calls -----------===//
//
// The loop lowering leaves scalar math ops. The CPU pipeline sends them to
// LLVM intrinsics and libm; on the GPU most of those intrinsics have no
// NVPTX lowering (llvm.exp.f32 would become a call of `expf`, which does not
// exist on the device), so they become calls of libdevice's `__nv_*`
// functions instead, which the PTX emitter links in. Ops that upstream has
// no libdevice pattern for (ctlz, absi, ...) are left to
// convert-math-to-llvm, whose intrinsics NVPTX does lower.
//
//===----------------------------------------------------------------------===//
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tpx {
#define GEN_PASS_DEF_TPXNVIDIAMATHTOLIBDEVICE
#include "tpx/Target/NVIDIA/NVIDIAPasses.h.inc"
} // namespace tpx

using namespace mlir;

namespace {
struct MathToLibdevicePass
    : public tpx::impl::TPXNVIDIAMathToLibdeviceBase<MathToLibdevicePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // 64-bit index, like the rest of the NVIDIA llir stage.
    LowerToLLVMOptions options(context);
    options.overrideIndexBitwidth(64);
    LLVMTypeConverter converter(context, options);
    RewritePatternSet patterns(context);
    populateLibDeviceConversionPatterns(converter, patterns);
    // Only the matched ops change: everything without a libdevice pattern
    // is left for the later lowering passes.
    ConversionTarget target(*context);
    target.addLegalDialect<LLVM::LLVMDialect>();
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
