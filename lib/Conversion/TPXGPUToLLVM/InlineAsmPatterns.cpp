//===- InlineAsmPatterns.cpp - tt.elementwise_inline_asm, map_elementwise -===//
//
// Both ops apply something scalar to packs of elements: each thread cuts
// its registers into groups of `packed_element` (`pack`) consecutive
// registers and applies the assembly or the scalar region once per group,
// as Triton does. Operands and results share one layout
// (convert-tt-to-tpxgpu places these ops as elementwise), so group g of
// every operand holds the same elements. Which elements form a pack is the
// layout's business: consecutive registers, usually consecutive elements
// along the fastest dimension. A thread holding fewer registers than a
// multiple of the pack (small or replicated tensors) fills its last group
// with zeros and drops what the group computes for them.
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"

#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

namespace {

/// The registers of every value in `lowered`, each padded with zeros of
/// its element type to `groups * pack`; fails (with a diagnostic) when the
/// values hold different numbers of registers.
LogicalResult unpackPadded(Operation *op, OpBuilder &b, ValueRange lowered,
                           unsigned count, unsigned padded,
                           SmallVectorImpl<SmallVector<Value>> &registers) {
  Location loc = op->getLoc();
  for (Value value : lowered) {
    SmallVector<Value> values = unpack(b, loc, value);
    if (values.size() != count)
      return op->emitError("operands of '")
             << op->getName() << "' hold " << values.size() << " and " << count
             << " registers per thread: they must share a layout";
    if (values.size() < padded) {
      Value zero = LLVM::ZeroOp::create(b, loc, values.front().getType());
      values.resize(padded, zero);
    }
    registers.push_back(std::move(values));
  }
  return success();
}

/// The number of registers per thread of the op's values (1 for scalars).
unsigned getRegisterCount(const TypeConverter &converter, Type type) {
  Type lowered = converter.convertType(type);
  return lowered ? getNumRegisters(lowered) : 0;
}

/// The registers of a packed elementwise op (inline asm, map_elementwise):
/// `count` a thread holds of each value, in `groups` packs of `pack`,
/// and `operands` unpacked and padded to whole packs.
struct PackedRegisters {
  unsigned count, groups;
  SmallVector<SmallVector<Value>> operands;
};

/// Plans `op`'s packs from `first` (the value whose layout all share);
/// fails with a diagnostic when a result holds another number of
/// registers.
FailureOr<PackedRegisters> planPacks(Operation *op,
                                     ConversionPatternRewriter &rewriter,
                                     const TypeConverter &converter,
                                     unsigned pack, Value first,
                                     ValueRange loweredOperands) {
  PackedRegisters plan;
  plan.count = getRegisterCount(converter, first.getType());
  if (plan.count == 0)
    return rewriter.notifyMatchFailure(op, "value type has no lowering");
  for (Value result : op->getResults())
    if (getRegisterCount(converter, result.getType()) != plan.count)
      return op->emitError("operands and results of '")
             << op->getName() << "' must share a layout";
  plan.groups = llvm::divideCeil(plan.count, pack);
  if (failed(unpackPadded(op, rewriter, loweredOperands, plan.count,
                          plan.groups * pack, plan.operands)))
    return failure();
  return plan;
}

/// Replaces `op` with one packed struct per result (or the scalar itself)
/// holding the first `count` values of each `results` list.
void replaceWithRegisters(Operation *op, const TypeConverter &converter,
                          ConversionPatternRewriter &rewriter,
                          ArrayRef<SmallVector<Value>> results,
                          unsigned count) {
  Location loc = op->getLoc();
  SmallVector<Value> replacements;
  for (auto [result, values] : llvm::zip_equal(op->getResults(), results)) {
    Type type = converter.convertType(result.getType());
    ArrayRef<Value> kept = ArrayRef<Value>(values).take_front(count);
    replacements.push_back(isa<LLVM::LLVMStructType>(type)
                               ? pack(rewriter, loc, type, kept)
                               : kept.front());
  }
  rewriter.replaceOp(op, replacements);
}

/// One pack of registers as the assembly's operands: narrow types packed
/// into vectors of getInlineAsmElementsPerOperand elements.
void appendAsmOperands(OpBuilder &b, Location loc, ArrayRef<Value> group,
                       unsigned perOperand, SmallVectorImpl<Value> &operands) {
  for (unsigned j = 0; j < group.size(); j += perOperand) {
    if (perOperand == 1) {
      operands.push_back(group[j]);
      continue;
    }
    auto vectorType = VectorType::get({perOperand}, group[j].getType());
    Value vector = LLVM::UndefOp::create(b, loc, vectorType);
    for (unsigned k = 0; k < perOperand && j + k < group.size(); ++k)
      vector = LLVM::InsertElementOp::create(b, loc, vector, group[j + k],
                                             i32Constant(b, loc, k));
    operands.push_back(vector);
  }
}

/// tt.elementwise_inline_asm: one llvm.inline_asm per pack, its operands
/// the pack of every result (outputs), then of every argument, in the
/// order of the op (the constraint string describes them in that order).
struct ElementwiseInlineAsmLowering
    : public OpConversionPattern<tt::ElementwiseInlineAsmOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::ElementwiseInlineAsmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TypeConverter &converter = *getTypeConverter();
    unsigned pack = op.getPackedElement();
    FailureOr<PackedRegisters> plan = planPacks(
        op, rewriter, converter, pack, op->getResult(0), adaptor.getArgs());
    if (failed(plan))
      return failure();
    unsigned count = plan->count, groups = plan->groups;
    SmallVector<SmallVector<Value>> &args = plan->operands;

    // The assembly's result: one output per register of every pack, a
    // struct when there are several.
    SmallVector<Type> outputTypes;
    SmallVector<std::pair<Type, unsigned>> resultElements;
    for (Value result : op.getResults()) {
      Type original = getElementTypeOrSelf(result.getType());
      Type element = convertElementType(original);
      unsigned per = tt::getInlineAsmElementsPerOperand(original, pack);
      resultElements.push_back({element, per});
      for (unsigned j = 0; j < pack; j += per)
        outputTypes.push_back(per == 1 ? element
                                       : VectorType::get({per}, element));
    }
    Type asmType =
        outputTypes.size() == 1
            ? outputTypes.front()
            : LLVM::LLVMStructType::getLiteral(getContext(), outputTypes);

    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (unsigned g = 0; g < groups; ++g) {
      SmallVector<Value> operands;
      for (auto [arg, values] : llvm::zip_equal(op.getArgs(), args)) {
        Type original = getElementTypeOrSelf(arg.getType());
        appendAsmOperands(
            rewriter, loc, ArrayRef<Value>(values).slice(g * pack, pack),
            tt::getInlineAsmElementsPerOperand(original, pack), operands);
      }
      auto asmOp = LLVM::InlineAsmOp::create(
          rewriter, loc, asmType, operands, op.getAsmString(),
          op.getConstraints(), /*has_side_effects=*/!op.getPure(),
          /*is_align_stack=*/false, LLVM::TailCallKind::None,
          /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
      SmallVector<Value> outputs;
      if (outputTypes.size() == 1)
        outputs.push_back(asmOp.getResult(0));
      else
        for (unsigned i = 0; i < outputTypes.size(); ++i)
          outputs.push_back(LLVM::ExtractValueOp::create(
              rewriter, loc, asmOp.getResult(0), static_cast<int64_t>(i)));
      // Unpack the outputs of each result into its registers.
      unsigned next = 0;
      for (auto [r, element] : llvm::enumerate(resultElements)) {
        auto [type, per] = element;
        for (unsigned j = 0; j < pack; j += per) {
          Value output = outputs[next++];
          if (per == 1) {
            results[r].push_back(output);
            continue;
          }
          for (unsigned k = 0; k < per; ++k)
            results[r].push_back(LLVM::ExtractElementOp::create(
                rewriter, loc, output, i32Constant(rewriter, loc, k)));
        }
      }
    }
    replaceWithRegisters(op, converter, rewriter, results, count);
    return success();
  }
};

/// Clones the blocks of `region` into `execute` (its entry block taking
/// `args` for its arguments), with scf.yield for
/// tt.map_elementwise.return (block by block, so that no tt terminator is
/// ever created for the conversion to legalize).
void cloneIntoExecuteRegion(ConversionPatternRewriter &rewriter, Region &region,
                            ValueRange args, scf::ExecuteRegionOp execute) {
  OpBuilder::InsertionGuard guard(rewriter);
  Region &dest = execute.getRegion();
  IRMapping mapping;
  mapping.map(region.front().getArguments(), args);
  // Blocks first, so that branches can name their successors.
  for (Block &block : region) {
    SmallVector<Type> types;
    SmallVector<Location> locs;
    if (&block != &region.front())
      for (BlockArgument arg : block.getArguments()) {
        types.push_back(arg.getType());
        locs.push_back(arg.getLoc());
      }
    Block *copy = rewriter.createBlock(&dest, dest.end(), types, locs);
    mapping.map(&block, copy);
    if (&block != &region.front())
      mapping.map(block.getArguments(), copy->getArguments());
  }
  for (Block &block : region) {
    rewriter.setInsertionPointToEnd(mapping.lookup(&block));
    for (Operation &op : block) {
      if (auto ret = dyn_cast<tt::MapElementwiseReturnOp>(op)) {
        SmallVector<Value> values;
        for (Value v : ret.getOperands())
          values.push_back(mapping.lookupOrDefault(v));
        scf::YieldOp::create(rewriter, ret.getLoc(), values);
        continue;
      }
      rewriter.clone(op, mapping);
    }
  }
}

/// tt.map_elementwise: the scalar region once per pack, its arguments the
/// pack of every source in turn (pack elements of source 0, then of source
/// 1, ...) and its yields the pack of every result in turn. A single block
/// is cloned in place; a region of several blocks becomes an
/// scf.execute_region, whose tt.map_elementwise.return ops are scf.yield.
struct MapElementwiseLowering
    : public OpConversionPattern<tt::MapElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::MapElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TypeConverter &converter = *getTypeConverter();
    unsigned pack = op.getPack();
    FailureOr<PackedRegisters> plan = planPacks(
        op, rewriter, converter, pack, op.getSrcs()[0], adaptor.getSrcs());
    if (failed(plan))
      return failure();
    unsigned count = plan->count, groups = plan->groups;
    SmallVector<SmallVector<Value>> &srcs = plan->operands;
    Region &region = op.getScalarOp();
    Block &entry = region.front();

    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (unsigned g = 0; g < groups; ++g) {
      // The region's arguments have the tt element types: lowered values
      // whose type differs (pointers) go in through casts the conversion
      // removes once their users are lowered.
      SmallVector<Value> args;
      for (auto [s, values] : llvm::enumerate(srcs))
        for (unsigned p = 0; p < pack; ++p) {
          Value value = values[g * pack + p];
          Type type = entry.getArgument(s * pack + p).getType();
          if (value.getType() != type)
            value =
                UnrealizedConversionCastOp::create(rewriter, loc, type, value)
                    .getResult(0);
          args.push_back(value);
        }
      SmallVector<Value> yielded;
      if (region.hasOneBlock()) {
        yielded = inlineCombineRegion(rewriter, region, args);
      } else {
        SmallVector<Type> types;
        for (Value result : op.getResults())
          types.append(pack, getElementTypeOrSelf(result.getType()));
        auto execute = scf::ExecuteRegionOp::create(rewriter, loc, types);
        cloneIntoExecuteRegion(rewriter, region, args, execute);
        yielded.assign(execute.getResults().begin(),
                       execute.getResults().end());
      }
      if (yielded.size() != op.getNumResults() * pack)
        return op.emitError("the scalar region yields ")
               << yielded.size() << " values, expected "
               << op.getNumResults() * pack;
      for (unsigned r = 0; r < op.getNumResults(); ++r)
        for (unsigned p = 0; p < pack; ++p) {
          Value value = yielded[r * pack + p];
          Type type = convertElementType(value.getType());
          if (value.getType() != type)
            value =
                UnrealizedConversionCastOp::create(rewriter, loc, type, value)
                    .getResult(0);
          results[r].push_back(value);
        }
    }
    replaceWithRegisters(op, converter, rewriter, results, count);
    return success();
  }
};

} // namespace

void gpu_lowering::populateInlineAsmPatterns(TensorTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<ElementwiseInlineAsmLowering, MapElementwiseLowering>(
      converter, patterns.getContext());
}
