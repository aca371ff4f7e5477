//===- FunctionPatterns.cpp - tt.func / tt.call / tt.return to func -------===//
#include "TTToCPUCommon.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::cpu;

namespace {

struct FuncOpLowering : public OpConversionPattern<tt::FuncOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::FuncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FunctionType type = op.getFunctionType();
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    for (auto [i, input] : llvm::enumerate(type.getInputs())) {
      SmallVector<Type> converted;
      if (failed(getTypeConverter()->convertType(input, converted)))
        return rewriter.notifyMatchFailure(op, "unsupported argument type");
      signature.addInputs(i, converted);
    }
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(type.getResults(), results)))
      return rewriter.notifyMatchFailure(op, "unsupported result type");

    auto func = func::FuncOp::create(
        rewriter, op.getLoc(), op.getName(),
        rewriter.getFunctionType(signature.getConvertedTypes(), results));
    func.setSymVisibilityAttr(op.getSymVisibilityAttr());
    // Public tt functions are kernels: the entry-point pass looks for this.
    if (op.isPublic())
      func->setAttr("tpx.kernel", rewriter.getUnitAttr());
    if (auto noinline = op->getAttr("noinline"))
      func->setAttr("tpx.noinline", noinline);
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (!func.isExternal() &&
        !rewriter.applySignatureConversion(&func.getBody().front(), signature,
                                           getTypeConverter()))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReturnOpLowering : public OpConversionPattern<tt::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::ReturnOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> values;
    for (ValueRange parts : adaptor.getOperands())
      values.append(parts.begin(), parts.end());
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op, values);
    return success();
  }
};

struct CallOpLowering : public OpConversionPattern<tt::CallOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::CallOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> operands;
    for (ValueRange parts : adaptor.getOperands())
      operands.append(parts.begin(), parts.end());
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(),
                                                resultTypes)) ||
        resultTypes.size() != op.getNumResults())
      return rewriter.notifyMatchFailure(
          op, "calls returning block pointers or descriptors are unsupported");
    auto call = func::CallOp::create(rewriter, op.getLoc(), op.getCallee(),
                                     resultTypes, operands);
    rewriter.replaceOp(op, call.getResults());
    return success();
  }
};

} // namespace

void tpx::cpu::populateFunctionPatterns(CPUTypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<FuncOpLowering, ReturnOpLowering, CallOpLowering>(
      converter, patterns.getContext());
}
