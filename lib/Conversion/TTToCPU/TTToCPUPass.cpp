//===- TTToCPUPass.cpp - the convert-tt-to-cpu pass -----------------------===//
#include "tpx/Conversion/TTToCPU/TTToCPU.h"

#include "TTToCPUCommon.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tpx {
#define GEN_PASS_DEF_CONVERTTTTOCPU
#include "tpx/Conversion/TTToCPU/TTToCPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;
using namespace tpx::cpu;

/// Appends the six grid arguments (program id x/y/z, number of programs
/// x/y/z) to every tt.func and routes tt.get_program_id,
/// tt.get_num_programs and tt.call through them. Done on tt IR before the
/// conversion so that every later pattern sees plain block arguments.
static void threadGridArguments(ModuleOp module) {
  MLIRContext *context = module.getContext();
  Type i32 = IntegerType::get(context, 32);
  SmallVector<Type> gridTypes(kCPUGridArgCount, i32);
  module.walk([&](tt::FuncOp func) {
    FunctionType type = func.getFunctionType();
    SmallVector<Type> inputs(type.getInputs());
    inputs.append(gridTypes);
    func.setFunctionType(FunctionType::get(context, inputs, type.getResults()));
    if (ArrayAttr argAttrs = func.getArgAttrsAttr()) {
      SmallVector<Attribute> attrs(argAttrs.begin(), argAttrs.end());
      attrs.append(kCPUGridArgCount, DictionaryAttr::get(context));
      func.setArgAttrsAttr(ArrayAttr::get(context, attrs));
    }
    if (func.isExternal())
      return;
    Block &entry = func.getBody().front();
    SmallVector<Value> grid;
    for (unsigned i = 0; i < kCPUGridArgCount; ++i)
      grid.push_back(entry.addArgument(i32, func.getLoc()));
    func.walk([&](Operation *op) {
      if (auto pid = dyn_cast<tt::GetProgramIdOp>(op)) {
        pid.replaceAllUsesWith(grid[static_cast<unsigned>(pid.getAxis())]);
        pid.erase();
      } else if (auto num = dyn_cast<tt::GetNumProgramsOp>(op)) {
        num.replaceAllUsesWith(grid[3 + static_cast<unsigned>(num.getAxis())]);
        num.erase();
      } else if (auto call = dyn_cast<tt::CallOp>(op)) {
        call->insertOperands(call->getNumOperands(), grid);
      }
    });
  });
}

namespace {
/// Any op outside tt whose operand or result types mention tt types (for
/// example arith.select between pointers, or ub.poison of a pointer) is
/// rebuilt with converted types; scf ops are handled structurally.
struct ConvertTypesOfOtherOps : public ConversionPattern {
  ConvertTypesOfOtherOps(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1,
                          context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (isa<tt::TTDialect>(op->getDialect()) || op->getNumRegions() != 0)
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(),
                                                resultTypes)) ||
        resultTypes.size() != op->getNumResults())
      return rewriter.notifyMatchFailure(op, "unsupported result types");
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs());
    // Constants of float8 tensors keep their bits as i8 payloads.
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (!dense || resultTypes.front() == op->getResultTypes().front())
        return failure();
      auto newType = cast<ShapedType>(resultTypes.front());
      state.attributes.set("value", dense.bitcast(newType.getElementType()));
    }
    Operation *newOp = rewriter.create(state);
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};

struct ConvertTTToCPUPass
    : public tpx::impl::ConvertTTToCPUBase<ConvertTTToCPUPass> {
  using ConvertTTToCPUBase::ConvertTTToCPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    threadGridArguments(module);
    if (boundsCheck)
      markUncheckedAccesses(module);

    CPUTypeConverter converter(context);
    ConversionTarget target(*context);
    target.addIllegalDialect<tt::TTDialect>();
    target.addLegalDialect<tensor::TensorDialect, linalg::LinalgDialect,
                           LLVM::LLVMDialect,
                           bufferization::BufferizationDialect>();
    target.addLegalOp<ModuleOp>();
    // Multi-block tt.map_elementwise bodies become scf.execute_region ops;
    // the SCF structural conversion leaves them without a legality rule,
    // which would make the driver reject them (and roll the pattern back).
    target.addLegalOp<scf::ExecuteRegionOp>();
    auto typesLegal = [&](Operation *op) {
      return converter.isLegal(op->getOperandTypes()) &&
             converter.isLegal(op->getResultTypes());
    };
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect,
                                      ub::UBDialect, cf::ControlFlowDialect>(
        typesLegal);
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType());
    });
    target.addDynamicallyLegalOp<func::CallOp, func::ReturnOp>(typesLegal);

    RewritePatternSet patterns(context);
    populateFunctionPatterns(converter, patterns);
    populateElementwisePatterns(converter, patterns);
    populateShapePatterns(converter, patterns);
    CPULoweringOptions options;
    options.boundsCheck = boundsCheck;
    populateMemoryPatterns(converter, patterns, options);
    populateBlockPointerPatterns(converter, patterns, options);
    populateDotPatterns(converter, patterns);
    populateCombinePatterns(converter, patterns);
    populateDebugPatterns(converter, patterns);
    patterns.add<ConvertTypesOfOtherOps>(converter, context);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
