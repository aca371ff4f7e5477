//===- BlockValueConversion.cpp - block values as their parts -------------===//
#include "BlockValueConversion.h"

#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace tpx;

SmallVector<Value> tpx::flattenParts(ArrayRef<ValueRange> parts) {
  SmallVector<Value> values;
  for (ValueRange range : parts)
    values.append(range.begin(), range.end());
  return values;
}

namespace {
/// A call passes each value's parts and returns them.
struct CallConversion : OpConversionPattern<tt::CallOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::CallOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    SmallVector<unsigned> counts;
    for (Type type : op.getResultTypes()) {
      size_t before = types.size();
      if (failed(getTypeConverter()->convertType(type, types)))
        return rewriter.notifyMatchFailure(op, "unconvertible result");
      counts.push_back(types.size() - before);
    }
    // Argument and result attributes would no longer line up with the
    // parts; nothing after this pass reads them.
    auto call = tt::CallOp::create(rewriter, op.getLoc(), types, op.getCallee(),
                                   flattenParts(adaptor.getOperands()),
                                   /*arg_attrs=*/nullptr,
                                   /*res_attrs=*/nullptr);
    SmallVector<ValueRange> results;
    unsigned next = 0;
    for (unsigned count : counts) {
      results.push_back(call.getResults().slice(next, count));
      next += count;
    }
    rewriter.replaceOpWithMultiple(op, results);
    return success();
  }
};

struct ReturnConversion : OpConversionPattern<tt::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::ReturnOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tt::ReturnOp>(
        op, flattenParts(adaptor.getOperands()));
    return success();
  }
};
} // namespace

/// True when some operand, result or region argument of `op` has a type
/// `converter` splits.
static bool touchesBlockValues(Operation *op, const TypeConverter &converter) {
  auto illegal = [&](Type type) { return !converter.isLegal(type); };
  if (llvm::any_of(op->getOperandTypes(), illegal) ||
      llvm::any_of(op->getResultTypes(), illegal))
    return true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (llvm::any_of(block.getArgumentTypes(), illegal))
        return true;
  return false;
}

LogicalResult
tpx::convertBlockValues(ModuleOp module, const TypeConverter &converter,
                        RewritePatternSet &&patterns,
                        function_ref<bool(Operation *)> canConvert,
                        function_ref<bool(Operation *)> isKept) {
  // A value that stays: made by an op that stays or an argument of a
  // function that does. It may reach only ops that stay.
  auto isKeptValue = [&](Value value) {
    if (converter.isLegal(value.getType()))
      return false;
    if (Operation *def = value.getDefiningOp())
      return isKept(def);
    Operation *owner = cast<BlockArgument>(value).getOwner()->getParentOp();
    return isa_and_present<tt::FuncOp>(owner) && isKept(owner);
  };
  // Decided before anything changes: the legality callbacks run on IR the
  // conversion is rewriting.
  llvm::DenseSet<Operation *> kept;
  bool any = false;
  WalkResult checked = module.walk([&](Operation *op) {
    if (!touchesBlockValues(op, converter))
      return WalkResult::advance();
    if (isKept(op)) {
      kept.insert(op);
      return WalkResult::advance();
    }
    any = true;
    if (llvm::any_of(op->getOperands(), isKeptValue))
      return WalkResult::interrupt();
    if (auto func = dyn_cast<tt::FuncOp>(op))
      return func.isPublic() ? WalkResult::interrupt() : WalkResult::advance();
    if (isa<scf::ForOp, scf::IfOp, scf::WhileOp, scf::YieldOp, scf::ConditionOp,
            tt::CallOp, tt::ReturnOp>(op) ||
        canConvert(op))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  if (checked.wasInterrupted())
    return failure();
  if (!any)
    return success();

  MLIRContext *context = module.getContext();
  ConversionTarget target(*context);
  target.markUnknownOpDynamicallyLegal([&](Operation *op) {
    return kept.contains(op) || converter.isLegal(op);
  });
  target.addDynamicallyLegalOp<tt::FuncOp>([&](tt::FuncOp func) {
    return kept.contains(func) ||
           converter.isSignatureLegal(func.getFunctionType());
  });
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  populateFunctionOpInterfaceTypeConversionPattern<tt::FuncOp>(patterns,
                                                               converter);
  patterns.add<CallConversion, ReturnConversion>(converter, context);
  return applyPartialConversion(module, target, std::move(patterns));
}
