//===- ElementwisePatterns.cpp - per-register arith/math and tt ops -------===//
//
// Elementwise ops on tensors repeat the scalar op once per register: both
// operands of an elementwise op share one layout (convert-tt-to-tpxgpu
// guarantees it), so register r of every operand holds the same element.
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"

#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <functional>

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

static Type getScalarType(const TypeConverter &converter, Type type) {
  return convertElementType(getElementTypeOrSelf(type));
}

namespace {

/// Any arith or math op on tensors (or on tt pointers, e.g. arith.select of
/// two pointers): the same op per register on the element types.
struct ElementwiseArithLowering : public ConversionPattern {
  ElementwiseArithLowering(TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1,
                          context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        op->getNumResults() != 1 || op->getNumRegions() != 0 ||
        isa<arith::ConstantOp>(op))
      return failure();
    Type elementType =
        getScalarType(*getTypeConverter(), op->getResult(0).getType());
    return replacePerRegister(op, operands, *getTypeConverter(), rewriter,
                              [&](unsigned, ArrayRef<Value> args) {
                                OperationState state(op->getLoc(),
                                                     op->getName());
                                state.addOperands(args);
                                state.addTypes(elementType);
                                state.addAttributes(op->getAttrs());
                                return rewriter.create(state)->getResult(0);
                              });
  }
};

/// f32 arith.divf on NVIDIA: PTX's div.full.f32 per register (at most 2
/// ulp from the correctly rounded quotient), as Triton lowers `/`; the
/// correctly rounded tt.precise_divf (tl.math.div_rn) becomes llvm.fdiv,
/// which NVPTX emits as div.rn.f32. Scalars too (SIMTConversion.cpp makes
/// every f32 arith.divf illegal there). AMD keeps LLVM's fdiv.
struct DivFLowering : public OpConversionPattern<arith::DivFOp> {
  DivFLowering(TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (targetsAMD(rewriter) || !getElementTypeOrSelf(op.getType()).isF32())
      return failure();
    auto divide = [&](unsigned, ArrayRef<Value> args) -> Value {
      return inlinePtx(rewriter, op.getLoc(), rewriter.getF32Type(), args,
                       "div.full.f32 $0, $1, $2;", "=f,f,f",
                       /*sideEffects=*/false);
    };
    if (!isa<RankedTensorType>(op.getType())) {
      SmallVector<Value> args(adaptor.getOperands());
      rewriter.replaceOp(op, divide(0, args));
      return success();
    }
    return replacePerRegister(op, adaptor.getOperands(), *getTypeConverter(),
                              rewriter, divide);
  }
};

/// The i8 bits of an fp8 or i1 constant (LLVM has no 8-bit float and
/// packs i1 arrays), else `dense` itself; flattened to one dimension.
static DenseElementsAttr getStorableValues(DenseElementsAttr dense) {
  Type element = dense.getElementType();
  auto flat = [&](Type type) {
    return RankedTensorType::get({dense.getNumElements()}, type);
  };
  Builder b(dense.getContext());
  if (element.isInteger(1)) {
    SmallVector<int8_t> bytes;
    for (bool bit : dense.getValues<bool>())
      bytes.push_back(bit);
    return DenseElementsAttr::get(flat(b.getI8Type()), ArrayRef(bytes));
  }
  if (isa<FloatType>(element) && element.getIntOrFloatBitWidth() == 8)
    return dense.reshape(flat(element)).bitcast(b.getI8Type());
  return dense.reshape(flat(element));
}

/// Tensor constants. A splat is the scalar constant in every register.
/// Other values differ per thread: they are a table in global memory,
/// which each register reads at its element's index (a kernel's tables
/// are small, and stay in the caches).
struct ConstantLowering : public OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tensorType = dyn_cast<RankedTensorType>(op.getType());
    if (!tensorType)
      return failure();
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense)
      return op.emitError("the GPU code generator lowers dense tensor "
                          "constants only");
    Type resultType = getTypeConverter()->convertType(tensorType);
    if (!resultType)
      return failure();
    Location loc = op.getLoc();
    if (dense.isSplat()) {
      auto splat = cast<TypedAttr>(dense.getSplatValue<Attribute>());
      Value scalar;
      // fp8 values are their i8 bits here.
      if (isa<FloatType>(splat.getType()) &&
          splat.getType().getIntOrFloatBitWidth() == 8)
        scalar = LLVM::ConstantOp::create(
            rewriter, loc, rewriter.getI8Type(),
            rewriter.getIntegerAttr(
                rewriter.getI8Type(),
                cast<FloatAttr>(splat).getValue().bitcastToAPInt()));
      else
        scalar = arith::ConstantOp::create(rewriter, loc, splat);
      SmallVector<Value> values(getNumRegisters(resultType), scalar);
      rewriter.replaceOp(op, pack(rewriter, loc, resultType, values));
      return success();
    }
    std::optional<LinearLayout> layout = getLayout(op, tensorType);
    if (!layout)
      return failure();
    DenseElementsAttr values = getStorableValues(dense);
    Type stored = values.getElementType();
    auto module = op->getParentOfType<ModuleOp>();
    auto arrayType =
        LLVM::LLVMArrayType::get(stored, uint64_t(values.getNumElements()));
    std::string name;
    for (unsigned n = 0; name.empty() || module.lookupSymbol(name); ++n)
      name = "tpx_constant_" + std::to_string(n);
    LLVM::GlobalOp table;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      table = LLVM::GlobalOp::create(rewriter, loc, arrayType,
                                     /*isConstant=*/true,
                                     LLVM::Linkage::Internal, name, values,
                                     /*alignment=*/16, kGlobalAddressSpace);
    }
    Value base = LLVM::AddressOfOp::create(rewriter, loc, table);
    SmallVector<Value> thread = getThreadCoordinate(
        rewriter, loc, *layout, getThreadIds(rewriter, loc));
    Type element = convertElementType(tensorType.getElementType());
    SmallVector<Value> registers;
    for (unsigned r = 0, e = layout->getNumRegisters(); r < e; ++r) {
      Value index =
          linearize(rewriter, loc,
                    getElementCoordinate(rewriter, loc, *layout, r, thread),
                    tensorType.getShape());
      Value address = LLVM::GEPOp::create(rewriter, loc, base.getType(), stored,
                                          base, ArrayRef<LLVM::GEPArg>{index});
      Value loaded = LLVM::LoadOp::create(rewriter, loc, stored, address);
      if (element.isInteger(1))
        loaded = LLVM::TruncOp::create(rewriter, loc, element, loaded);
      registers.push_back(loaded);
    }
    rewriter.replaceOp(op, pack(rewriter, loc, resultType, registers));
    return success();
  }
};

struct SplatLowering : public OpConversionPattern<tt::SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return failure();
    SmallVector<Value> values(getNumRegisters(resultType), adaptor.getSrc());
    rewriter.replaceOp(op, pack(rewriter, op.getLoc(), resultType, values));
    return success();
  }
};

/// Register r holds start + (its element's coordinate).
struct MakeRangeLowering : public OpConversionPattern<tt::MakeRangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::MakeRangeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<LinearLayout> layout = getLayout(op, op.getType());
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!layout || !resultType)
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> thread = getThreadCoordinate(
        rewriter, loc, *layout, getThreadIds(rewriter, loc));
    Value start = i32Constant(rewriter, loc, op.getStart());
    SmallVector<Value> values;
    for (unsigned r = 0, e = layout->getNumRegisters(); r < e; ++r) {
      Value index =
          getElementCoordinate(rewriter, loc, *layout, r, thread).front();
      values.push_back(LLVM::AddOp::create(rewriter, loc, start, index));
    }
    rewriter.replaceOp(op, pack(rewriter, loc, resultType, values));
    return success();
  }
};

/// ptr + offset elements of the pointee: a GEP (signed offsets, as in
/// Triton).
struct AddPtrLowering : public OpConversionPattern<tt::AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto pointerType =
        dyn_cast<tt::PointerType>(getElementTypeOrSelf(op.getType()));
    if (!pointerType)
      return rewriter.notifyMatchFailure(op, "block pointers are unsupported");
    // The GEP steps by the element's lowered size (a pointer; fp8 bytes).
    Type pointee = convertElementType(pointerType.getPointeeType());
    Type resultType = getScalarType(*getTypeConverter(), op.getType());
    Location loc = op.getLoc();
    return replacePerRegister(
        op, adaptor.getOperands(), *getTypeConverter(), rewriter,
        [&](unsigned, ArrayRef<Value> args) -> Value {
          return LLVM::GEPOp::create(rewriter, loc, resultType, pointee,
                                     args[0], ArrayRef<LLVM::GEPArg>{args[1]});
        });
  }
};

template <typename OpTy, typename LLVMOpTy>
struct CastLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getScalarType(*this->getTypeConverter(), op.getType());
    return replacePerRegister(
        op, adaptor.getOperands(), *this->getTypeConverter(), rewriter,
        [&](unsigned, ArrayRef<Value> args) -> Value {
          return LLVMOpTy::create(rewriter, op.getLoc(), resultType, args[0]);
        });
  }
};

/// tt.bitcast between pointers is a no-op in LLVM's opaque pointers.
struct BitcastLowering : public OpConversionPattern<tt::BitcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getScalarType(*getTypeConverter(), op.getType());
    return replacePerRegister(op, adaptor.getOperands(), *getTypeConverter(),
                              rewriter,
                              [&](unsigned, ArrayRef<Value> args) -> Value {
                                if (args[0].getType() == resultType)
                                  return args[0];
                                return LLVM::BitcastOp::create(
                                    rewriter, op.getLoc(), resultType, args[0]);
                              });
  }
};

/// A tt elementwise op with a scalar equivalent (`build`) in arith or math,
/// which the llir stage lowers further (math through libdevice).
template <typename OpTy>
struct ScalarEquivalentLowering : public OpConversionPattern<OpTy> {
  using ScalarBuilder =
      std::function<Value(OpBuilder &, Location, OpTy, ArrayRef<Value>)>;
  ScalarEquivalentLowering(TypeConverter &converter, MLIRContext *context,
                           ScalarBuilder build)
      : OpConversionPattern<OpTy>(converter, context), build(std::move(build)) {
  }

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return replacePerRegister(op, adaptor.getOperands(),
                              *this->getTypeConverter(), rewriter,
                              [&](unsigned, ArrayRef<Value> args) {
                                return build(rewriter, op.getLoc(), op, args);
                              });
  }

  ScalarBuilder build;
};

/// tt.extern_elementwise of a libdevice function: a call of the `__nv_*`
/// symbol per register; the PTX emitter links libdevice, which defines it.
/// On AMD the device library is ROCm's (`__ocml_*`, `__ockl_*`), which the
/// amdgcn emitter links.
/// (The coverage check keeps other symbols off this path: nothing on the
/// device would define them.)
struct ExternElementwiseLowering
    : public OpConversionPattern<tt::ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef symbol = op.getSymbol();
    if (targetsAMD(rewriter)) {
      if (!symbol.starts_with("__ocml_") && !symbol.starts_with("__ockl_"))
        return op.emitError("the AMD code generator calls only ROCm device "
                            "library functions (__ocml_*, __ockl_*), not '")
               << symbol << "'";
    } else if (!symbol.starts_with("__nv_")) {
      return op.emitError("the GPU code generator calls only libdevice "
                          "functions (__nv_*), not '")
             << symbol << "'";
    }
    Type result = getScalarType(*getTypeConverter(), op.getType());
    SmallVector<Type> params;
    for (Value src : op.getSrcs())
      params.push_back(getScalarType(*getTypeConverter(), src.getType()));
    auto calleeType = LLVM::LLVMFunctionType::get(result, params);
    auto module = op->getParentOfType<ModuleOp>();
    auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(symbol);
    if (!callee) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      callee =
          LLVM::LLVMFuncOp::create(rewriter, op.getLoc(), symbol, calleeType);
    } else if (callee.getFunctionType() != calleeType) {
      return op.emitError("'")
             << symbol << "' is called with the types " << calleeType
             << " here and " << callee.getFunctionType() << " elsewhere";
    }
    return replacePerRegister(
        op, adaptor.getOperands(), *getTypeConverter(), rewriter,
        [&](unsigned, ArrayRef<Value> args) -> Value {
          return LLVM::CallOp::create(rewriter, op.getLoc(), callee, args)
              .getResult();
        });
  }
};

} // namespace

void gpu_lowering::populateElementwisePatterns(TensorTypeConverter &converter,
                                               RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ElementwiseArithLowering>(converter, context);
  patterns.add<DivFLowering>(converter, context);
  patterns
      .add<ConstantLowering, SplatLowering, MakeRangeLowering, AddPtrLowering,
           BitcastLowering, CastLowering<tt::IntToPtrOp, LLVM::IntToPtrOp>,
           CastLowering<tt::PtrToIntOp, LLVM::PtrToIntOp>,
           ExternElementwiseLowering>(converter, context);
  // clampf: with propagateNan = all a NaN anywhere gives NaN (maximumf /
  // minimumf); otherwise NaN bounds are ignored (maxnumf / minnumf).
  patterns.add<ScalarEquivalentLowering<tt::ClampFOp>>(
      converter, context,
      [](OpBuilder &b, Location loc, tt::ClampFOp op,
         ArrayRef<Value> args) -> Value {
        if (op.getPropagateNan() == tt::PropagateNan::ALL)
          return arith::MinimumFOp::create(
              b, loc, arith::MaximumFOp::create(b, loc, args[0], args[1]),
              args[2]);
        return arith::MinNumFOp::create(
            b, loc, arith::MaxNumFOp::create(b, loc, args[0], args[1]),
            args[2]);
      });
  // IEEE-rounded: LLVM's sqrt intrinsic is sqrt.rn (math.sqrt would become
  // libdevice's __nv_sqrtf, which is sqrt.approx unless __CUDA_PREC_SQRT is
  // reflected: tl.sqrt's meaning, not tl.sqrt_rn's) and llvm.fdiv without
  // fast-math flags is div.rn (arith.divf would be DivFLowering's
  // div.full.f32).
  patterns.add<ScalarEquivalentLowering<tt::PreciseSqrtOp>>(
      converter, context,
      [](OpBuilder &b, Location loc, tt::PreciseSqrtOp, ArrayRef<Value> args)
          -> Value { return LLVM::SqrtOp::create(b, loc, args[0]); });
  patterns.add<ScalarEquivalentLowering<tt::PreciseDivFOp>>(
      converter, context,
      [](OpBuilder &b, Location loc, tt::PreciseDivFOp, ArrayRef<Value> args)
          -> Value { return LLVM::FDivOp::create(b, loc, args[0], args[1]); });
  patterns.add<ScalarEquivalentLowering<tt::MulhiUIOp>>(
      converter, context,
      [](OpBuilder &b, Location loc, tt::MulhiUIOp,
         ArrayRef<Value> args) -> Value {
        return arith::MulUIExtendedOp::create(b, loc, args[0], args[1])
            .getHigh();
      });
}
