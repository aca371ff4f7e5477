//===- FunctionPatterns.cpp - kernels, calls and grid queries -------------===//
//
// A public tt.func is a kernel: an llvm.func marked nvvm.kernel whose
// block size the launcher must match (nvvm.reqntid); on AMD rocdl.kernel
// with that flat and required work-group size. Private functions
// (left when a call is noinline) become internal llvm.funcs taking and
// returning register structs.
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"
#include "ROCDLPrimitives.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

namespace {

/// The tensor map the launcher passes as argument `index` of `op`, if any.
static tpxgpu::TensorMapAttr getTensorMap(tt::FuncOp op, unsigned index) {
  return dyn_cast_or_null<tpxgpu::TensorMapAttr>(
      op.getArgAttr(index, tpxgpu::TPXGPUDialect::kTensorMapAttrName));
}

/// A 128-byte, 64-byte aligned __grid_constant__ parameter: the kernel
/// reads the map in place (cvta.param), as TMA requires of a map in .param
/// space. The attribute stays for the artifact (NVIDIABackend.cpp).
static void setTensorMapParameter(LLVM::LLVMFuncOp func, unsigned index,
                                  tpxgpu::TensorMapAttr map) {
  MLIRContext *context = func.getContext();
  Builder b(context);
  auto bytes = LLVM::LLVMArrayType::get(b.getI8Type(), 128);
  func.setArgAttr(index, LLVM::LLVMDialect::getByValAttrName(),
                  TypeAttr::get(bytes));
  func.setArgAttr(index, LLVM::LLVMDialect::getAlignAttrName(),
                  b.getI64IntegerAttr(64));
  func.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),
                  b.getUnitAttr());
  func.setArgAttr(index, tpxgpu::TPXGPUDialect::kTensorMapAttrName, map);
}

struct FuncOpLowering : public OpConversionPattern<tt::FuncOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::FuncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FunctionType type = op.getFunctionType();
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    for (auto [i, input] : llvm::enumerate(type.getInputs())) {
      Type converted = getTypeConverter()->convertType(input);
      if (isa<tt::TensorDescType>(input) && !getTensorMap(op, i))
        converted = nullptr; // only launcher-built tensor maps are lowered
      if (!converted)
        return op.emitError("argument ")
               << i << " of type " << input
               << " has no GPU lowering (block pointers, and tensor "
                  "descriptors other than tpxgpu-use-tma's tensor maps, are "
                  "lowered by the one-thread path only)";
      signature.addInputs(i, converted);
    }
    if (type.getNumResults() > 1)
      return op.emitError("functions returning more than one value are not "
                          "supported by the GPU code generator");
    Type result = LLVM::LLVMVoidType::get(getContext());
    if (type.getNumResults() == 1) {
      result = getTypeConverter()->convertType(type.getResult(0));
      if (!result)
        return op.emitError("result type ")
               << type.getResult(0) << " has no GPU lowering";
    }
    auto func = LLVM::LLVMFuncOp::create(
        rewriter, op.getLoc(), op.getName(),
        LLVM::LLVMFunctionType::get(result, signature.getConvertedTypes()));
    if (op.isPublic()) {
      if (type.getNumResults() != 0)
        return op.emitError("a kernel (public function) must return nothing");
      unsigned threads =
          tpxgpu::getBlockWarps(op) * tpxgpu::getModuleThreadsPerWarp(op);
      if (targetsAMD(rewriter)) {
        // The backend sizes registers for the flat work-group size (the
        // default allows 1024 threads, which would cap VGPRs needlessly).
        func->setAttr(ROCDL::ROCDLDialect::getKernelFuncAttrName(),
                      rewriter.getUnitAttr());
        func->setAttr(ROCDL::ROCDLDialect::getFlatWorkGroupSizeAttrName(),
                      rewriter.getStringAttr(std::to_string(threads) + "," +
                                             std::to_string(threads)));
        func->setAttr(ROCDL::ROCDLDialect::getReqdWorkGroupSizeAttrName(),
                      rewriter.getDenseI32ArrayAttr(
                          {static_cast<int32_t>(threads), 1, 1}));
      } else {
        func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                      rewriter.getUnitAttr());
        func->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                      rewriter.getDenseI32ArrayAttr(
                          {static_cast<int32_t>(threads), 1, 1}));
      }
    } else {
      func.setLinkage(LLVM::Linkage::Internal);
      if (op->hasAttr("noinline"))
        func.setNoInline(true);
    }
    for (unsigned i = 0, e = type.getNumInputs(); i < e; ++i)
      if (tpxgpu::TensorMapAttr map = getTensorMap(op, i))
        setTensorMapParameter(func, i, map);
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
  matchAndRewrite(tt::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, adaptor.getOperands());
    return success();
  }
};

struct CallOpLowering : public OpConversionPattern<tt::CallOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> resultTypes;
    if (failed(
            getTypeConverter()->convertTypes(op.getResultTypes(), resultTypes)))
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    auto call = LLVM::CallOp::create(rewriter, op.getLoc(), resultTypes,
                                     op.getCallee(), adaptor.getOperands());
    rewriter.replaceOp(op, call.getResults());
    return success();
  }
};

/// Reads one of three special registers (x, y, z) as i32.
template <typename X, typename Y, typename Z>
static Value readAxis(OpBuilder &b, Location loc, tt::ProgramIDDim axis) {
  Type i32 = b.getI32Type();
  switch (axis) {
  case tt::ProgramIDDim::X:
    return X::create(b, loc, i32);
  case tt::ProgramIDDim::Y:
    return Y::create(b, loc, i32);
  case tt::ProgramIDDim::Z:
    return Z::create(b, loc, i32);
  }
  llvm_unreachable("unknown program id dimension");
}

struct GetProgramIdLowering : public OpConversionPattern<tt::GetProgramIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::GetProgramIdOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (targetsAMD(rewriter)) {
      rewriter.replaceOp(
          op, rocdl::getBlockId(rewriter, op.getLoc(), unsigned(op.getAxis())));
      return success();
    }
    rewriter.replaceOp(
        op, readAxis<NVVM::BlockIdXOp, NVVM::BlockIdYOp, NVVM::BlockIdZOp>(
                rewriter, op.getLoc(), op.getAxis()));
    return success();
  }
};

struct GetNumProgramsLowering
    : public OpConversionPattern<tt::GetNumProgramsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::GetNumProgramsOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (targetsAMD(rewriter)) {
      rewriter.replaceOp(
          op, rocdl::getGridDim(rewriter, op.getLoc(), unsigned(op.getAxis())));
      return success();
    }
    rewriter.replaceOp(
        op, readAxis<NVVM::GridDimXOp, NVVM::GridDimYOp, NVVM::GridDimZOp>(
                rewriter, op.getLoc(), op.getAxis()));
    return success();
  }
};

} // namespace

void gpu_lowering::populateFunctionPatterns(TensorTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<FuncOpLowering, ReturnOpLowering, CallOpLowering,
               GetProgramIdLowering, GetNumProgramsLowering>(
      converter, patterns.getContext());
}
