//===- DebugPatterns.cpp - tt.print and tt.assert to runtime calls --------===//
//
// Both call into the CPU runtime (lib/Runtime/CPURuntimeSymbols.cpp):
//   void tpx_cpu_print(const char *prefix, i32 pidX, i32 pidY, i32 pidZ,
//                      i64 index, i32 kind, i64 bits, f64 value)
//   void tpx_cpu_assert_fail(const char *message, i32 pidX, i32 pidY,
//                            i32 pidZ, i64 index)
// A failed assert is recorded and reported by the launch as an error; the
// process is never aborted.
//
//===----------------------------------------------------------------------===//
#include "TTToCPUCommon.h"

#include "tpx/Conversion/TTToCPU/TTToCPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::cpu;

namespace {

/// Print kinds understood by tpx_cpu_print.
enum PrintKind : int32_t { Signed = 0, Unsigned = 1, Float = 2, Hex = 3 };

static constexpr const char *kPrintFn = "tpx_cpu_print";
static constexpr const char *kAssertFn = "tpx_cpu_assert_fail";

/// Address of a NUL-terminated copy of `text` in a private global.
static Value globalString(OpBuilder &b, Location loc, ModuleOp module,
                          StringRef text) {
  std::string data = text.str();
  data.push_back('\0');
  std::string name =
      "tpx_str_" + std::to_string(llvm::hash_value(data) & 0xffffffffu);
  auto arrayType = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
  if (!module.lookupSymbol(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(b, loc, arrayType, /*isConstant=*/true,
                           LLVM::Linkage::Internal, name,
                           b.getStringAttr(data));
  }
  return LLVM::AddressOfOp::create(b, loc,
                                   LLVM::LLVMPointerType::get(b.getContext()),
                                   name);
}

struct PrintOpLowering : public OpConversionPattern<tt::PrintOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    Type ptr = LLVM::LLVMPointerType::get(getContext());
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    Type f64 = rewriter.getF64Type();
    declareRuntimeFunction(
        rewriter, module, kPrintFn,
        rewriter.getFunctionType({ptr, i32, i32, i32, i64, i32, i64, f64}, {}));
    SmallVector<Value> grid = getGridArguments(op);
    Value prefix = globalString(rewriter, loc, module, op.getPrefix());
    if (op.getArgs().empty()) {
      Value none = arith::ConstantIntOp::create(rewriter, loc, i64, -1);
      Value zero = arith::ConstantIntOp::create(rewriter, loc, i64, 0);
      func::CallOp::create(
          rewriter, loc, kPrintFn, TypeRange{},
          ValueRange{prefix, grid[0], grid[1], grid[2], none,
                     arith::ConstantIntOp::create(rewriter, loc, i32, Signed),
                     zero, createZero(rewriter, loc, f64)});
    }
    for (auto [i, arg] : llvm::enumerate(adaptor.getArgs())) {
      Type originalElement = getElementTypeOrSelf(op.getArgs()[i].getType());
      bool isSigned = op.getIsSigned()[i] != 0;
      auto shape = tt::getShapeOrEmpty(arg.getType());
      auto shapeType = dyn_cast<RankedTensorType>(arg.getType());
      buildLoopNest(
          rewriter, loc, shape, {},
          [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange) {
            Value v = extractElement(b, l, arg, ivs);
            int32_t kind = op.getHex() ? Hex : (isSigned ? Signed : Unsigned);
            Value bits = arith::ConstantIntOp::create(b, l, i64, 0);
            Value real = createZero(b, l, f64);
            if (isa<FloatType>(originalElement) &&
                cast<FloatType>(originalElement).getWidth() > 8 &&
                !op.getHex()) {
              kind = Float;
              real = v.getType() == f64
                         ? v
                         : arith::ExtFOp::create(b, l, f64, v).getResult();
            } else {
              unsigned width = v.getType().getIntOrFloatBitWidth();
              Value asInt = v;
              if (isa<FloatType>(v.getType()))
                asInt = arith::BitcastOp::create(
                    b, l, b.getIntegerType(width), v);
              if (width < 64)
                asInt = (kind == Signed)
                            ? arith::ExtSIOp::create(b, l, i64, asInt)
                                  .getResult()
                            : arith::ExtUIOp::create(b, l, i64, asInt)
                                  .getResult();
              bits = asInt;
            }
            Value index = arith::ConstantIntOp::create(b, l, i64, -1);
            if (shapeType) {
              // Row-major linear index of the element.
              index = arith::ConstantIntOp::create(b, l, i64, 0);
              for (auto [d, iv] : llvm::enumerate(ivs)) {
                index = arith::MulIOp::create(
                    b, l, index,
                    arith::ConstantIntOp::create(b, l, i64,
                                                 shapeType.getDimSize(d)));
                index = arith::AddIOp::create(b, l, index,
                                              indexToInt(b, l, iv, i64));
              }
            }
            func::CallOp::create(
                b, l, kPrintFn, TypeRange{},
                ValueRange{prefix, grid[0], grid[1], grid[2], index,
                           arith::ConstantIntOp::create(b, l, i32, kind), bits,
                           real});
            return SmallVector<Value>();
          });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertOpLowering : public OpConversionPattern<tt::AssertOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    Type ptr = LLVM::LLVMPointerType::get(getContext());
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    declareRuntimeFunction(rewriter, module, kAssertFn,
                           rewriter.getFunctionType({ptr, i32, i32, i32, i64},
                                                    {}));
    SmallVector<Value> grid = getGridArguments(op);
    Value message = globalString(rewriter, loc, module, op.getMessage());
    Value condition = adaptor.getCondition();
    auto shapeType = dyn_cast<RankedTensorType>(condition.getType());
    buildLoopNest(
        rewriter, loc, tt::getShapeOrEmpty(condition.getType()), {},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange) {
          Value ok = extractElement(b, l, condition, ivs);
          Value failed = arith::XOrIOp::create(
              b, l, ok, arith::ConstantIntOp::create(b, l, b.getI1Type(), 1));
          Value index = arith::ConstantIntOp::create(b, l, i64, -1);
          if (shapeType && !ivs.empty())
            index = indexToInt(b, l, ivs.back(), i64);
          scf::IfOp::create(b, l, failed, [&](OpBuilder &tb, Location tl) {
            func::CallOp::create(
                tb, tl, kAssertFn, TypeRange{},
                ValueRange{message, grid[0], grid[1], grid[2], index});
            scf::YieldOp::create(tb, tl);
          });
          return SmallVector<Value>();
        });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tpx::cpu::populateDebugPatterns(CPUTypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns.add<PrintOpLowering, AssertOpLowering>(converter,
                                                  patterns.getContext());
}
