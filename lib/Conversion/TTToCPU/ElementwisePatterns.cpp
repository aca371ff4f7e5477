//===- ElementwisePatterns.cpp - tt elementwise ops to arith/math ---------===//
#include "FP8Conversion.h"
#include "TTToCPUCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::cpu;

namespace {

/// Converted type of the single result of `op`.
static Type convertedResultType(const TypeConverter *converter,
                                Operation *op) {
  return converter->convertType(op->getResult(0).getType());
}

struct AddPtrOpLowering : public OpConversionPattern<tt::AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t elementSize = getElementByteSize(
        cast<tt::PointerType>(getElementTypeOrSelf(op.getType()))
            .getPointeeType());
    Value result = mapElementwise(
        rewriter, op.getLoc(), convertedResultType(getTypeConverter(), op),
        {adaptor.getPtr(), adaptor.getOffset()},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Type i64 = b.getI64Type();
          Value offset = args[1];
          if (offset.getType() != i64)
            offset = arith::ExtSIOp::create(b, loc, i64, offset);
          Value size = arith::ConstantIntOp::create(b, loc, i64, elementSize);
          Value bytes = arith::MulIOp::create(b, loc, offset, size);
          return arith::AddIOp::create(b, loc, args[0], bytes);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SplatOpLowering : public OpConversionPattern<tt::SplatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(
        convertedResultType(getTypeConverter(), op));
    rewriter.replaceOpWithNewOp<tensor::SplatOp>(op, type, adaptor.getSrc());
    return success();
  }
};

struct UnsplatOpLowering : public OpConversionPattern<tt::UnsplatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::UnsplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = op.getSrc().getType().getRank();
    SmallVector<Value> zeros(
        rank, arith::ConstantIndexOp::create(rewriter, op.getLoc(), 0));
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, adaptor.getSrc(), zeros);
    return success();
  }
};

struct MakeRangeOpLowering : public OpConversionPattern<tt::MakeRangeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::MakeRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // start + index, computed rather than stored: ranges are often long.
    int32_t start = op.getStartAttr().getInt();
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    Value range = mapElementwise(
        rewriter, op.getLoc(), type, {},
        [&](OpBuilder &b, Location loc, ValueRange) -> Value {
          Value index = linalg::IndexOp::create(b, loc, 0);
          Value asInt =
              arith::IndexCastOp::create(b, loc, type.getElementType(), index);
          Value base = arith::ConstantIntOp::create(
              b, loc, type.getElementType(), start);
          return arith::AddIOp::create(b, loc, asInt, base);
        });
    rewriter.replaceOp(op, range);
    return success();
  }
};

/// tt.int_to_ptr and tt.ptr_to_int are identities on i64 addresses.
template <typename OpTy>
struct IdentityCastLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct BitcastOpLowering : public OpConversionPattern<tt::BitcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = convertedResultType(getTypeConverter(), op);
    if (resultType == adaptor.getSrc().getType()) {
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    }
    Type element = getElementTypeOrSelf(resultType);
    rewriter.replaceOp(
        op, mapElementwise(rewriter, op.getLoc(), resultType,
                           {adaptor.getSrc()},
                           [&](OpBuilder &b, Location loc, ValueRange args) {
                             return arith::BitcastOp::create(b, loc, element,
                                                             args[0])
                                 .getResult();
                           }));
    return success();
  }
};

struct FpToFpOpLowering : public OpConversionPattern<tt::FpToFpOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::FpToFpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<FloatType>(getElementTypeOrSelf(op.getSrc().getType()));
    auto dstType = cast<FloatType>(getElementTypeOrSelf(op.getType()));
    bool towardZero = op.getRounding() &&
                      *op.getRounding() == tt::RoundingMode::RTZ;
    Value result = mapElementwise(
        rewriter, op.getLoc(), convertedResultType(getTypeConverter(), op),
        {adaptor.getSrc()},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return convertFloat(b, loc, args[0], srcType, dstType, towardZero);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ClampFOpLowering : public OpConversionPattern<tt::ClampFOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::ClampFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    bool propagateNan = op.getPropagateNan() == tt::PropagateNan::ALL;
    Value result = mapElementwise(
        rewriter, op.getLoc(), convertedResultType(getTypeConverter(), op),
        {adaptor.getX(), adaptor.getMin(), adaptor.getMax()},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          if (propagateNan) {
            Value lower = arith::MaximumFOp::create(b, loc, args[0], args[1]);
            return arith::MinimumFOp::create(b, loc, lower, args[2]);
          }
          Value lower = arith::MaxNumFOp::create(b, loc, args[0], args[1]);
          return arith::MinNumFOp::create(b, loc, lower, args[2]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Lowers a tt op that maps 1:1 onto one scalar builder.
template <typename OpTy>
struct ScalarMapLowering : public OpConversionPattern<OpTy> {
  using ScalarFn =
      std::function<Value(OpBuilder &, Location, ValueRange)>;
  ScalarMapLowering(const TypeConverter &converter, MLIRContext *context,
                    ScalarFn fn)
      : OpConversionPattern<OpTy>(converter, context), fn(std::move(fn)) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = this->getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(op, mapElementwise(rewriter, op.getLoc(), type,
                                          adaptor.getOperands(), fn));
    return success();
  }
  ScalarFn fn;
};

/// Known libdevice/ocml functions map to math ops so kernels calling them
/// run on the host; others are called by their symbol name and must be
/// provided by the process (resolved when the kernel is loaded).
static Value buildKnownMathCall(OpBuilder &b, Location loc, StringRef symbol,
                                ValueRange args) {
  StringRef name = symbol;
  for (StringRef prefix : {"__nv_", "__ocml_"})
    name.consume_front(prefix);
  for (StringRef suffix : {"_f32", "_f64", "_f16"})
    if (name.consume_back(suffix))
      break;
  // libdevice spells the f32 variant with a trailing 'f' (expf, sinf, ...).
  auto unary = [&](auto tag) -> Value {
    using Op = decltype(tag);
    return args.size() == 1 ? Op::create(b, loc, args[0]).getResult()
                            : Value();
  };
  auto binary = [&](auto tag) -> Value {
    using Op = decltype(tag);
    return args.size() == 2 ? Op::create(b, loc, args[0], args[1]).getResult()
                            : Value();
  };
  std::string base = name.str();
  if (base.size() > 1 && base.back() == 'f' && base != "erf" &&
      base != "erfcf" && base != "rsqrtf")
    base.pop_back();
  if (base == "rsqrtf")
    base = "rsqrt";
  if (base == "erfcf")
    base = "erfc";
  if (base == "exp") return unary(math::ExpOp());
  if (base == "exp2") return unary(math::Exp2Op());
  if (base == "expm1") return unary(math::ExpM1Op());
  if (base == "log") return unary(math::LogOp());
  if (base == "log2") return unary(math::Log2Op());
  if (base == "log10") return unary(math::Log10Op());
  if (base == "log1p") return unary(math::Log1pOp());
  if (base == "sin") return unary(math::SinOp());
  if (base == "cos") return unary(math::CosOp());
  if (base == "tan") return unary(math::TanOp());
  if (base == "asin") return unary(math::AsinOp());
  if (base == "acos") return unary(math::AcosOp());
  if (base == "atan") return unary(math::AtanOp());
  if (base == "sinh") return unary(math::SinhOp());
  if (base == "cosh") return unary(math::CoshOp());
  if (base == "tanh") return unary(math::TanhOp());
  if (base == "asinh") return unary(math::AsinhOp());
  if (base == "acosh") return unary(math::AcoshOp());
  if (base == "atanh") return unary(math::AtanhOp());
  if (base == "sqrt") return unary(math::SqrtOp());
  if (base == "rsqrt") return unary(math::RsqrtOp());
  if (base == "cbrt") return unary(math::CbrtOp());
  if (base == "erf") return unary(math::ErfOp());
  if (base == "erfc") return unary(math::ErfcOp());
  if (base == "floor") return unary(math::FloorOp());
  if (base == "ceil") return unary(math::CeilOp());
  if (base == "trunc") return unary(math::TruncOp());
  if (base == "round") return unary(math::RoundOp());
  if (base == "rint" || base == "nearbyint")
    return unary(math::RoundEvenOp());
  if (base == "fabs") return unary(math::AbsFOp());
  if (base == "pow") return binary(math::PowFOp());
  if (base == "atan2") return binary(math::Atan2Op());
  if (base == "fmod") return binary(arith::RemFOp());
  if (base == "copysign") return binary(math::CopySignOp());
  if (base == "fmax") return binary(arith::MaxNumFOp());
  if (base == "fmin") return binary(arith::MinNumFOp());
  if (base == "fma" && args.size() == 3)
    return math::FmaOp::create(b, loc, args[0], args[1], args[2]);
  return {};
}

struct ExternElementwiseOpLowering
    : public OpConversionPattern<tt::ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = convertedResultType(getTypeConverter(), op);
    Type element = getElementTypeOrSelf(resultType);
    StringRef symbol = op.getSymbol();
    SmallVector<Type> argTypes;
    for (Value arg : adaptor.getSrcs())
      argTypes.push_back(getElementTypeOrSelf(arg.getType()));
    bool unknown = false;
    Value result = mapElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getSrcs(),
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          if (Value known = buildKnownMathCall(b, loc, symbol, args))
            return known;
          unknown = true;
          return func::CallOp::create(b, loc, symbol, TypeRange{element}, args)
              .getResult(0);
        });
    if (unknown) {
      // Declare the external function once, so that the host linker can
      // resolve it (or report it as missing) when the kernel is loaded.
      auto module = op->getParentOfType<ModuleOp>();
      if (!module.lookupSymbol(symbol)) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(module.getBody());
        auto decl = func::FuncOp::create(
            rewriter, op.getLoc(), symbol,
            rewriter.getFunctionType(argTypes, {element}));
        decl.setPrivate();
      }
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// tt.elementwise_inline_asm runs its assembly once per element as LLVM
/// inline assembly for the target being compiled: x86 assembly works on the
/// CPU; PTX written for the GPU fails when LLVM assembles it, with LLVM's
/// own message naming the instruction.
struct InlineAsmOpLowering
    : public OpConversionPattern<tt::ElementwiseInlineAsmOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::ElementwiseInlineAsmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getPackedElement() != 1)
      return op.emitOpError("with packed_element = ")
             << op.getPackedElement()
             << " is not supported on the CPU target (only 1)";
    Location loc = op.getLoc();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(),
                                                resultTypes)))
      return failure();
    SmallVector<Type> elementTypes;
    for (Type type : resultTypes)
      elementTypes.push_back(getElementTypeOrSelf(type));
    // One result is returned as is, several as an LLVM struct.
    Type asmResult =
        elementTypes.size() == 1
            ? elementTypes.front()
            : LLVM::LLVMStructType::getLiteral(getContext(), elementTypes);
    auto callAsm = [&](OpBuilder &b, Location l, ValueRange ivs) {
      SmallVector<Value> operands;
      for (Value arg : adaptor.getArgs())
        operands.push_back(extractElement(b, l, arg, ivs));
      auto asmOp = LLVM::InlineAsmOp::create(
          b, l, asmResult, operands, op.getAsmString(), op.getConstraints(),
          /*has_side_effects=*/!op.getPure(), /*is_align_stack=*/false,
          LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
          /*operand_attrs=*/nullptr);
      SmallVector<Value> values;
      if (elementTypes.size() == 1) {
        values.push_back(asmOp.getResult(0));
      } else {
        for (size_t i = 0; i < elementTypes.size(); ++i)
          values.push_back(LLVM::ExtractValueOp::create(
              b, l, asmOp.getResult(0), static_cast<int64_t>(i)));
      }
      return values;
    };
    auto tensorType = dyn_cast<RankedTensorType>(resultTypes.front());
    if (!tensorType) {
      rewriter.replaceOp(op, callAsm(rewriter, loc, ValueRange()));
      return success();
    }
    SmallVector<Value> inits;
    for (Type type : resultTypes)
      inits.push_back(
          createEmptyTensor(rewriter, loc, cast<RankedTensorType>(type)));
    SmallVector<Value> results = buildLoopNest(
        rewriter, loc, tensorType.getShape(), inits,
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange iter) {
          SmallVector<Value> values = callAsm(b, l, ivs);
          SmallVector<Value> next;
          for (auto [v, t] : llvm::zip(values, iter))
            next.push_back(tensor::InsertOp::create(b, l, v, t, ivs));
          return next;
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void tpx::cpu::populateElementwisePatterns(CPUTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<AddPtrOpLowering, SplatOpLowering, UnsplatOpLowering,
               MakeRangeOpLowering, IdentityCastLowering<tt::IntToPtrOp>,
               IdentityCastLowering<tt::PtrToIntOp>, BitcastOpLowering,
               FpToFpOpLowering, ClampFOpLowering, ExternElementwiseOpLowering,
               InlineAsmOpLowering>(converter, context);
  patterns.add<ScalarMapLowering<tt::PreciseSqrtOp>>(
      converter, context, [](OpBuilder &b, Location loc, ValueRange args) {
        return math::SqrtOp::create(b, loc, args[0]).getResult();
      });
  patterns.add<ScalarMapLowering<tt::PreciseDivFOp>>(
      converter, context, [](OpBuilder &b, Location loc, ValueRange args) {
        return arith::DivFOp::create(b, loc, args[0], args[1]).getResult();
      });
  patterns.add<ScalarMapLowering<tt::MulhiUIOp>>(
      converter, context, [](OpBuilder &b, Location loc, ValueRange args) {
        return arith::MulUIExtendedOp::create(b, loc, args[0], args[1])
            .getHigh();
      });
}
