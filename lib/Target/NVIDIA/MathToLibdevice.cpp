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
// One op is not a libdevice call: f32 `math.exp2` (tl.math.exp2, the base-2
// softmax of flash attention) is the hardware's approximate exponential
// with denormal results flushed, `ex2.approx.ftz.f32`, as Triton lowers it.
// libdevice's __nv_exp2f without FTZ is the same instruction wrapped in a
// range check and two scalings that keep denormal results: three more
// instructions per element on the path attention's inner loop runs most.
//
//===----------------------------------------------------------------------===//
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tpx {
#define GEN_PASS_DEF_TPXNVIDIAMATHTOLIBDEVICE
#include "tpx/Target/NVIDIA/NVIDIAPasses.h.inc"
} // namespace tpx

using namespace mlir;

namespace {
/// f32 math.exp2 -> llvm.nvvm.ex2.approx.ftz.f32 (see the file comment).
struct Exp2ToApproxFtz : public OpRewritePattern<math::Exp2Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::Exp2Op op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
        op, op.getType(),
        rewriter.getStringAttr("llvm.nvvm.ex2.approx.ftz.f32"),
        ValueRange{op.getOperand()});
    return success();
  }
};

struct MathToLibdevicePass
    : public tpx::impl::TPXNVIDIAMathToLibdeviceBase<MathToLibdevicePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // 64-bit index, like the rest of the NVIDIA llir stage.
    LowerToLLVMOptions options(context);
    options.overrideIndexBitwidth(64);
    LLVMTypeConverter converter(context, options);
    RewritePatternSet patterns(context);
    patterns.add<Exp2ToApproxFtz>(context, /*benefit=*/2);
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
