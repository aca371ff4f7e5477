//===- RemoveLayoutConversions.cpp - tpxgpu-remove-layout-conversions -----===//
//
// convert-tt-to-tpxgpu places each op in the layout it prefers and converts
// at every disagreement, which is simple and always correct but leaves
// conversions that cost a shared-memory round trip and two barriers each.
// This pass takes back the ones that are cheaper to avoid than to do; see
// the pass description in TTToTPXGPUPasses.td.
//
//===----------------------------------------------------------------------===//
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPULinearLayout.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUSharedAccess.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUSharedLayout.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/DenseMap.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPUREMOVELAYOUTCONVERSIONS
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;
using namespace tpx::tpxgpu;

namespace {

/// Recomputes values in other layouts. Each rematerialized op is placed
/// right after the op it copies, so its operands (rematerialized the same
/// way, or scalars) dominate it.
class Rematerializer {
public:
  /// `value` in `layout`, recomputed without any conversion that moves data
  /// between threads except (at most) one replacing a chain of
  /// conversions; null if that is not possible within the depth limit.
  Value get(Value value, Attribute layout, unsigned depth = 0);
  /// Forgets earlier answers (their values may since have been replaced).
  void reset() { cache.clear(); }
  /// A chain may end in a new conversion only of elements at most this
  /// wide: replacing a conversion of f16 by one of f32 (plus recomputing
  /// the chain) would cost more than it saves.
  void setMaxConvertedBits(unsigned bits) { maxConvertedBits = bits; }

private:
  Value compute(Value value, RankedTensorType type, Attribute layout,
                unsigned depth);

  /// Long chains are rare; the limit bounds the work on pathological IR.
  static constexpr unsigned kMaxDepth = 16;
  llvm::DenseMap<std::pair<Value, Attribute>, Value> cache;
  unsigned maxConvertedBits = 64;
};

/// The width of a tensor's elements (pointers count as 64 bits).
static unsigned getElementBits(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
}

/// True when a tensor of `type`'s shape may take `layout` (MMA layouts need
/// whole instructions, for instance).
static bool fits(Attribute layout, RankedTensorType type) {
  return succeeded(verifyLayoutForShape(layout, type.getShape(), [&] {
    // Failure here only means "do not rematerialize"; stay silent.
    return InFlightDiagnostic();
  }));
}

/// The blocked layout of `source` that gives every thread the elements
/// `layout` gives it in `result` when a row-major tt.reshape turns one into
/// the other, for a reshape splitting one dimension of the result into two
/// (dot_scaled's scale broadcast, [M, K/32, 32] -> [M, K]); null for other
/// reshapes or when no blocked layout does. The inner part of the split
/// dimension takes its registers, then its lanes, then its warps; the
/// candidate is checked against the linear layouts.
static Attribute getReshapeSourceLayout(Attribute layout,
                                        RankedTensorType result,
                                        RankedTensorType source) {
  auto blocked = dyn_cast<BlockedEncodingAttr>(layout);
  ArrayRef<int64_t> to = result.getShape(), from = source.getShape();
  if (!blocked || from.size() != to.size() + 1)
    return {};
  unsigned d = 0;
  while (d < to.size() && to[d] == from[d])
    ++d;
  if (d == to.size() || to[d] != from[d] * from[d + 1] ||
      to.drop_front(d + 1) != from.drop_front(d + 2))
    return {};
  auto insertSplit = [&](ArrayRef<unsigned> values, unsigned &need) {
    SmallVector<unsigned> split(values);
    unsigned inner = std::min<unsigned>(values[d], need);
    need /= inner;
    split[d] = values[d] / inner;
    split.insert(split.begin() + d + 1, inner);
    return split;
  };
  unsigned need = static_cast<unsigned>(from[d + 1]);
  SmallVector<unsigned> sizePerThread =
      insertSplit(blocked.getSizePerThread(), need);
  SmallVector<unsigned> threads =
      insertSplit(blocked.getThreadsPerWarp(), need);
  SmallVector<unsigned> warps = insertSplit(blocked.getWarpsPerCTA(), need);
  SmallVector<unsigned> order;
  for (unsigned dim : blocked.getOrder()) {
    if (dim == d) {
      order.push_back(d + 1);
      order.push_back(d);
    } else {
      order.push_back(dim > d ? dim + 1 : dim);
    }
  }
  auto candidate = BlockedEncodingAttr::get(layout.getContext(), sizePerThread,
                                            threads, warps, order);
  std::optional<LinearLayout> fromLayout = toLinearLayout(candidate, from);
  std::optional<LinearLayout> toLayout = toLinearLayout(layout, to);
  if (!fromLayout || !toLayout ||
      !fromLayout->getRegisterMapFrom(*toLayout, [&](ArrayRef<int64_t> c) {
        return getRowMajorCoordinate(c, to, from);
      }))
    return {};
  return candidate;
}

/// The blocked layout of a tt.trans's source that gives every thread the
/// elements `layout` gives it in the result (result dimension i is source
/// dimension order[i]): the same parameters, permuted.
static Attribute getTransSourceLayout(Attribute layout,
                                      ArrayRef<int32_t> perm) {
  auto blocked = dyn_cast<BlockedEncodingAttr>(layout);
  if (!blocked)
    return {};
  unsigned rank = perm.size();
  SmallVector<unsigned> sizePerThread(rank), threads(rank), warps(rank), order;
  for (unsigned i = 0; i < rank; ++i) {
    sizePerThread[perm[i]] = blocked.getSizePerThread()[i];
    threads[perm[i]] = blocked.getThreadsPerWarp()[i];
    warps[perm[i]] = blocked.getWarpsPerCTA()[i];
  }
  for (unsigned dim : blocked.getOrder())
    order.push_back(perm[dim]);
  return BlockedEncodingAttr::get(layout.getContext(), sizePerThread, threads,
                                  warps, order);
}

Value Rematerializer::get(Value value, Attribute layout, unsigned depth) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return value; // scalars are the same in every layout
  if (type.getEncoding() == layout)
    return value;
  auto key = std::make_pair(value, layout);
  if (Value hit = cache.lookup(key))
    return hit;
  if (depth > kMaxDepth || !fits(layout, type))
    return {};
  Value result = compute(value, type, layout, depth);
  if (result)
    cache[key] = result;
  return result;
}

Value Rematerializer::compute(Value value, RankedTensorType type,
                              Attribute layout, unsigned depth) {
  auto newType =
      RankedTensorType::get(type.getShape(), type.getElementType(), layout);
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumResults() != 1 || def->getNumRegions() != 0)
    return {};
  OpBuilder b(def->getContext());
  b.setInsertionPointAfter(def);

  // A chain of conversions collapses into one (or none).
  if (auto convert = dyn_cast<ConvertLayoutOp>(def)) {
    Value source = convert.getSrc();
    if (Value direct = get(source, layout, depth + 1))
      return direct;
    if (depth > 0 && getElementBits(source.getType()) > maxConvertedBits)
      return {};
    if (Operation *sourceDef = source.getDefiningOp())
      b.setInsertionPointAfter(sourceDef);
    else
      b.setInsertionPointToStart(cast<BlockArgument>(source).getOwner());
    return ConvertLayoutOp::create(b, def->getLoc(), newType, source);
  }

  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense || !dense.isSplat())
      return {};
    return arith::ConstantOp::create(
        b, def->getLoc(),
        DenseElementsAttr::get(newType, dense.getSplatValue<Attribute>()));
  }

  // Which layout each tensor operand must be in for the result to be in
  // `layout`.
  SmallVector<Attribute> operandLayouts;
  if (isa<tt::SplatOp, tt::MakeRangeOp>(def)) {
    // Scalar operands only.
  } else if (auto expand = dyn_cast<tt::ExpandDimsOp>(def)) {
    operandLayouts.push_back(
        SliceEncodingAttr::get(def->getContext(), expand.getAxis(), layout));
  } else if (isa<tt::BroadcastOp>(def)) {
    // The source (size 1 where the result is broadcast) takes the same
    // layout; get() checks that the layout may describe its shape.
    operandLayouts.push_back(layout);
  } else if (auto trans = dyn_cast<tt::TransOp>(def)) {
    Attribute source = getTransSourceLayout(layout, trans.getOrder());
    if (!source)
      return {};
    operandLayouts.push_back(source);
  } else if (auto reshape = dyn_cast<tt::ReshapeOp>(def)) {
    // Only where the reshape stays a register renaming.
    Attribute source =
        getReshapeSourceLayout(layout, type, reshape.getSrc().getType());
    if (!source)
      return {};
    operandLayouts.push_back(source);
  } else if (def->hasTrait<OpTrait::Elementwise>() && isMemoryEffectFree(def)) {
    for (Value operand : def->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        operandLayouts.push_back(layout);
  } else {
    return {}; // loads, reductions, dots...: not worth recomputing
  }

  IRMapping mapping;
  unsigned next = 0;
  for (Value operand : def->getOperands()) {
    if (!isa<RankedTensorType>(operand.getType()))
      continue;
    Value rematerialized = get(operand, operandLayouts[next++], depth + 1);
    if (!rematerialized)
      return {};
    mapping.map(operand, rematerialized);
  }
  // Operands were rematerialized after their own definitions, which may
  // be later in the block than `def` only if they are `def`'s operands'
  // copies placed after those operands -- all before `def`. So `def` is a
  // valid place for the copy.
  Operation *copy = b.clone(*def, mapping);
  copy->getResult(0).setType(newType);
  return copy->getResult(0);
}

/// Replaces conversions whose source can be recomputed in the result's
/// layout. Returns true if anything changed.
static bool rematerializeConversions(ModuleOp module) {
  Rematerializer rematerializer;
  SmallVector<ConvertLayoutOp> conversions;
  module.walk([&](ConvertLayoutOp op) { conversions.push_back(op); });
  bool changed = false;
  for (ConvertLayoutOp op : conversions) {
    rematerializer.reset();
    rematerializer.setMaxConvertedBits(getElementBits(op.getType()));
    Value replacement =
        rematerializer.get(op.getSrc(), op.getType().getEncoding());
    // A single conversion that get() re-created is no improvement.
    if (!replacement ||
        replacement.getDefiningOp<ConvertLayoutOp>() &&
            replacement.getDefiningOp<ConvertLayoutOp>().getSrc() ==
                op.getSrc())
      continue;
    // The dead conversion is left to canonicalize, so that no value this
    // walk still refers to disappears under it.
    op.replaceAllUsesWith(replacement);
    changed = true;
  }
  return changed;
}

/// How one use of a loop argument reaches layout L: directly through a
/// conversion, or through one elementwise op (scaling an accumulator, say)
/// whose result is only converted to L and whose other operands can be
/// recomputed in L.
struct ArgUse {
  Operation *user;
  ConvertLayoutOp convert;
};

static std::optional<ArgUse> getUseInLayout(Operation *user, Attribute layout) {
  if (auto convert = dyn_cast<ConvertLayoutOp>(user))
    return convert.getType().getEncoding() == layout
               ? std::optional<ArgUse>(ArgUse{user, convert})
               : std::nullopt;
  if (!user->hasTrait<OpTrait::Elementwise>() || !isMemoryEffectFree(user) ||
      user->getNumResults() != 1 || !user->getResult(0).hasOneUse())
    return std::nullopt;
  auto convert = dyn_cast<ConvertLayoutOp>(*user->getResult(0).user_begin());
  if (!convert || convert.getType().getEncoding() != layout)
    return std::nullopt;
  return ArgUse{user, convert};
}

/// The elementwise op that computes loop argument `index`'s next value from
/// the argument itself (a pointer tensor's increment, `p + BK`), when its
/// result is used only by the yield.
static Operation *getIncrement(scf::ForOp loop, unsigned index) {
  BlockArgument arg = loop.getRegionIterArg(index);
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  Value next = yield.getOperand(index);
  Operation *def = next.getDefiningOp();
  if (!def || def->getBlock() != loop.getBody() ||
      !def->hasTrait<OpTrait::Elementwise>() || !isMemoryEffectFree(def) ||
      def->getNumResults() != 1 || !next.hasOneUse() ||
      !llvm::is_contained(def->getOperands(), arg))
    return nullptr;
  return def;
}

/// Carries loop argument `index` of `loop` in the layout its uses convert
/// to, when every use reaches one layout L (getUseInLayout) and the yielded
/// value is converted from L -- or is computed from the argument by an
/// elementwise increment (a loop-carried pointer tensor whose load wants
/// another layout: the increment is redone in L).
static bool carryInUsedLayout(scf::ForOp loop, unsigned index) {
  BlockArgument arg = loop.getRegionIterArg(index);
  auto argType = dyn_cast<RankedTensorType>(arg.getType());
  if (!argType || arg.use_empty())
    return false;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto yielded = yield.getOperand(index).getDefiningOp<ConvertLayoutOp>();
  Operation *increment = yielded ? nullptr : getIncrement(loop, index);
  Attribute layout;
  if (yielded) {
    layout = yielded.getSrc().getType().getEncoding();
  } else if (increment) {
    for (Operation *user : arg.getUsers())
      if (auto convert = dyn_cast<ConvertLayoutOp>(user)) {
        Attribute used = convert.getType().getEncoding();
        if (layout && layout != used)
          return false;
        layout = used;
      }
  }
  if (!layout || layout == argType.getEncoding())
    return false;
  auto newType = argType.cloneWithEncoding(layout);

  // Every use must reach L, and the other operands of elementwise uses must
  // be recomputable in L (done up front, so that failure changes nothing
  // but dead recomputations that canonicalize erases).
  SmallVector<ArgUse> uses;
  llvm::DenseMap<Operation *, SmallVector<Value>> newOperands;
  Rematerializer rematerializer;
  auto operandsInLayout = [&](Operation *user) -> bool {
    SmallVector<Value> operands;
    for (Value operand : user->getOperands()) {
      if (operand == arg || !isa<RankedTensorType>(operand.getType())) {
        operands.push_back(operand);
        continue;
      }
      Value inLayout = rematerializer.get(operand, layout);
      if (!inLayout)
        return false;
      operands.push_back(inLayout);
    }
    newOperands[user] = std::move(operands);
    return true;
  };
  for (Operation *user : arg.getUsers()) {
    if (user == increment) {
      if (!operandsInLayout(user))
        return false;
      continue;
    }
    std::optional<ArgUse> use = getUseInLayout(user, layout);
    if (!use)
      return false;
    if (user != use->convert.getOperation() && !operandsInLayout(user))
      return false;
    uses.push_back(*use);
  }

  OpBuilder b(loop);
  OpOperand &init = loop.getInitArgsMutable()[index];
  init.set(ConvertLayoutOp::create(b, loop.getLoc(), newType, init.get()));
  arg.setType(newType);
  // The elementwise op `user`, redone in L on the argument itself.
  auto redo = [&](Operation *user) {
    OperationState state(user->getLoc(), user->getName());
    state.addOperands(newOperands[user]);
    state.addAttributes(user->getAttrs());
    state.addTypes(RankedTensorType::get(
        newType.getShape(), getElementTypeOrSelf(user->getResult(0).getType()),
        layout));
    return b.create(state)->getResult(0);
  };
  for (ArgUse &use : uses) {
    bool direct = use.user == use.convert.getOperation();
    Value replacement = arg;
    if (!direct) {
      b.setInsertionPoint(use.convert);
      replacement = redo(use.user);
    }
    use.convert.replaceAllUsesWith(replacement);
    use.convert.erase();
    if (!direct && use.user->use_empty())
      use.user->erase();
  }
  if (increment) {
    b.setInsertionPoint(increment);
    yield->setOperand(index, redo(increment));
    increment->erase();
  } else {
    yield->setOperand(index, yielded.getSrc());
  }
  Value result = loop.getResult(index);
  result.setType(newType);
  b.setInsertionPointAfter(loop);
  auto back = ConvertLayoutOp::create(b, loop.getLoc(), argType, result);
  result.replaceAllUsesExcept(back, back);
  return true;
}

/// True for the layouts forward propagation starts from: an MMA (or AMD
/// MFMA) accumulator layout or a slice of one (a row reduction of it).
static bool isMmaBased(Attribute layout) {
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout))
    return isMmaBased(slice.getParent());
  return isa<NvidiaMmaEncodingAttr, AmdMfmaEncodingAttr>(layout);
}

static bool propagateForward(SmallVector<ConvertLayoutOp> worklist,
                             MLIRContext *context);

/// Forward propagation from every conversion out of an MMA-based layout.
static bool propagateForward(ModuleOp module) {
  SmallVector<ConvertLayoutOp> worklist;
  module.walk([&](ConvertLayoutOp op) {
    if (isMmaBased(op.getSrc().getType().getEncoding()))
      worklist.push_back(op);
  });
  return propagateForward(std::move(worklist), module.getContext());
}

/// Rebuilds `op` (same name, attributes and regions) with `operands` and
/// `resultTypes`, before `op`.
static Operation *rebuild(Operation *op, ValueRange operands,
                          TypeRange resultTypes) {
  OpBuilder b(op);
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(operands);
  state.addTypes(resultTypes);
  state.addAttributes(op->getAttrs());
  for (Region &region : op->getRegions()) {
    Region *copy = state.addRegion();
    IRMapping mapping;
    region.cloneInto(copy, mapping);
  }
  return b.create(state);
}

/// `type` with `layout` (scalars stay scalars).
static Type withLayout(Type type, Attribute layout) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return type;
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               layout);
}

/// Gives an scf.if result the MMA-based layout a branch computes it in,
/// when the other branch's value can be had in that layout too: the
/// conversions before the yields become one after the if, which forward
/// propagation then moves on. A masked attention tile selected on the
/// diagonal block only (`if ...: qk = tl.where(mask, qk, -inf)`) otherwise
/// leaves the loop's scores in a blocked layout, converted through shared
/// memory both ways every iteration. Returns true if anything changed.
static bool hoistConversionsOutOfIfs(ModuleOp module) {
  SmallVector<scf::IfOp> ifs;
  module.walk([&](scf::IfOp op) {
    if (op.getNumResults() && op.elseBlock())
      ifs.push_back(op);
  });
  bool changed = false;
  for (scf::IfOp op : ifs) {
    scf::YieldOp yields[] = {op.thenYield(), op.elseYield()};
    SmallVector<Type> types(op.getResultTypes());
    bool any = false;
    for (unsigned i = 0, e = types.size(); i < e; ++i) {
      auto type = dyn_cast<RankedTensorType>(types[i]);
      if (!type)
        continue;
      Attribute layout;
      for (scf::YieldOp yield : yields)
        if (auto convert = yield.getOperand(i).getDefiningOp<ConvertLayoutOp>())
          if (isMmaBased(convert.getSrc().getType().getEncoding())) {
            layout = convert.getSrc().getType().getEncoding();
            break;
          }
      if (!layout || layout == type.getEncoding())
        continue;
      Rematerializer rematerializer;
      Value values[2];
      for (unsigned branch = 0; branch < 2; ++branch)
        values[branch] =
            rematerializer.get(yields[branch].getOperand(i), layout);
      // A branch that would need a conversion into the layout (a value
      // loaded in another) would only move the cost into that branch.
      if (!values[0] || !values[1] ||
          values[0].getDefiningOp<ConvertLayoutOp>() ||
          values[1].getDefiningOp<ConvertLayoutOp>())
        continue;
      for (unsigned branch = 0; branch < 2; ++branch)
        yields[branch]->setOperand(i, values[branch]);
      types[i] = withLayout(type, layout);
      any = true;
    }
    if (!any)
      continue;
    Operation *moved = rebuild(op, op->getOperands(), types);
    OpBuilder b(op->getContext());
    b.setInsertionPointAfter(moved);
    for (auto [old, now] : llvm::zip(op->getResults(), moved->getResults())) {
      if (old.getType() == now.getType()) {
        old.replaceAllUsesWith(now);
        continue;
      }
      old.replaceAllUsesWith(
          ConvertLayoutOp::create(b, op->getLoc(), old.getType(), now)
              .getResult());
    }
    op->erase();
    changed = true;
  }
  return changed;
}

/// Moves a conversion out of an MMA accumulator layout past the elementwise
/// ops and reductions that use its result, so that they compute in the MMA
/// layout (a softmax on a QK^T tile, say) and the conversion lands where a
/// layout is really required (a dot operand, a store) -- where it often
/// becomes a register renaming (an f16 accumulator tile is already a dot
/// operand A) or folds into another conversion.
static bool propagateForward(SmallVector<ConvertLayoutOp> worklist,
                             MLIRContext *context) {
  bool changed = false;
  while (!worklist.empty()) {
    ConvertLayoutOp convert = worklist.pop_back_val();
    Value source = convert.getSrc();
    Attribute from = cast<RankedTensorType>(source.getType()).getEncoding();
    bool progress = false;
    for (Operation *user : llvm::make_early_inc_range(convert->getUsers())) {
      bool elementwise = user->hasTrait<OpTrait::Elementwise>() &&
                         isMemoryEffectFree(user) &&
                         user->getNumResults() == 1 &&
                         isa<RankedTensorType>(user->getResult(0).getType());
      auto reduce = dyn_cast<tt::ReduceOp>(user);
      if (!elementwise && !reduce)
        continue;
      // Every tensor operand in the source layout, recomputed if need be.
      Rematerializer rematerializer;
      SmallVector<Value> operands;
      bool ok = true;
      for (Value operand : user->getOperands()) {
        if (!isa<RankedTensorType>(operand.getType())) {
          operands.push_back(operand);
          continue;
        }
        Value inLayout = operand == convert.getResult()
                             ? source
                             : rematerializer.get(operand, from);
        if (!inLayout) {
          ok = false;
          break;
        }
        operands.push_back(inLayout);
      }
      if (!ok)
        continue;
      SmallVector<Type> resultTypes;
      for (Value result : user->getResults()) {
        Attribute layout = from;
        if (reduce &&
            cast<RankedTensorType>(reduce.getSrcs()[0].getType()).getRank() > 1)
          layout = SliceEncodingAttr::get(context, reduce.getAxis(), from);
        resultTypes.push_back(withLayout(result.getType(), layout));
      }
      Operation *moved = rebuild(user, operands, resultTypes);
      OpBuilder b(user);
      for (auto [old, now] :
           llvm::zip(user->getResults(), moved->getResults())) {
        if (old.getType() == now.getType()) {
          old.replaceAllUsesWith(now);
          continue;
        }
        auto back =
            ConvertLayoutOp::create(b, user->getLoc(), old.getType(), now);
        old.replaceAllUsesWith(back.getResult());
        worklist.push_back(back);
      }
      user->erase();
      changed = progress = true;
    }
    // A use skipped because another operand could not yet be had in the
    // source layout may be movable now that its neighbours moved.
    if (progress && !convert->use_empty())
      worklist.push_back(convert);
  }
  return changed;
}

/// The MMA-based layout that loop argument `index`'s next value is computed
/// in before conversions take it to the argument's layout, if any: the
/// softmax statistics of attention (row reductions of an accumulator) and a
/// block's probabilities carried to the next iteration's dot (an
/// accumulator-shaped value) are such values.
static Attribute getMmaBasedYieldLayout(scf::ForOp loop, unsigned index) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  Operation *def = yield.getOperand(index).getDefiningOp();
  if (!def || def->getParentOp() != loop.getOperation())
    return {};
  // Through a chain of conversions (slice of an MMA layout -> 1-D blocked
  // -> slice of a blocked layout, say) to the first MMA-based source.
  auto fromConversion = [](Value v) -> Attribute {
    while (auto convert = v.getDefiningOp<ConvertLayoutOp>()) {
      v = convert.getSrc();
      Attribute layout = convert.getSrc().getType().getEncoding();
      if (isMmaBased(layout))
        return layout;
    }
    return {};
  };
  if (Attribute layout = fromConversion(yield.getOperand(index)))
    return layout;
  if (!def->hasTrait<OpTrait::Elementwise>())
    return {};
  for (Value operand : def->getOperands())
    if (Attribute layout = fromConversion(operand))
      return layout;
  return {};
}

/// Carries loop argument `index` in `layout`: converts the init before the
/// loop, the argument back to its old layout for its uses (then propagates
/// that conversion forward through them), the yielded value into `layout`
/// and the result back after the loop. The conversions that remain fold
/// away in rematerializeConversions when the propagation got through.
static void carryInLayout(scf::ForOp loop, unsigned index, Attribute layout) {
  BlockArgument arg = loop.getRegionIterArg(index);
  auto oldType = cast<RankedTensorType>(arg.getType());
  auto newType = cast<RankedTensorType>(withLayout(oldType, layout));
  OpBuilder b(loop);
  OpOperand &init = loop.getInitArgsMutable()[index];
  init.set(ConvertLayoutOp::create(b, loop.getLoc(), newType, init.get()));
  arg.setType(newType);
  b.setInsertionPointToStart(loop.getBody());
  auto asBefore = ConvertLayoutOp::create(b, loop.getLoc(), oldType, arg);
  arg.replaceAllUsesExcept(asBefore, asBefore);
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  b.setInsertionPoint(yield);
  yield->setOperand(index, ConvertLayoutOp::create(b, loop.getLoc(), newType,
                                                   yield.getOperand(index)));
  Value result = loop.getResult(index);
  result.setType(newType);
  b.setInsertionPointAfter(loop);
  auto back = ConvertLayoutOp::create(b, loop.getLoc(), oldType, result);
  result.replaceAllUsesExcept(back, back);
  propagateForward({asBefore}, loop.getContext());
}

/// A local_store of a conversion's result stores the conversion's source
/// instead when that store is free of bank conflicts: local_store lowers
/// from any distributed layout, and the conversion would cost a round trip
/// through scratch, two barriers and the scratch's bytes. An MMA
/// accumulator stored into an NVMMA-swizzled buffer (a TMA store's
/// source) takes this path; one stored into an unswizzled buffer, where the
/// rows of a warp's registers fall into the same banks, keeps its
/// conversion to a layout with conflict-free stores. The bank model is
/// NVIDIA's; on AMD targets (LDS banking is not modelled) the conversions
/// stay.
static void storeSourceLayouts(ModuleOp module) {
  if (getModuleTarget(module).starts_with("gfx"))
    return;
  module.walk([](LocalStoreOp store) {
    auto convert = store.getSrc().getDefiningOp<ConvertLayoutOp>();
    if (!convert)
      return;
    RankedTensorType source = convert.getSrc().getType();
    MemDescType buffer = store.getDst().getType();
    std::optional<LinearLayout> regs =
        source.getEncoding()
            ? toLinearLayout(source.getEncoding(), source.getShape())
            : std::nullopt;
    std::optional<SharedLayout> layout = SharedLayout::get(buffer);
    if (!regs || !layout)
      return;
    unsigned bytes = layout->getElementBytes();
    unsigned width =
        getSharedAccessWidth(*layout, buffer.getRank(), *regs, bytes);
    if (getSharedAccessCost(*layout, *regs, width, bytes).isConflictFree())
      store.getSrcMutable().assign(convert.getSrc());
  });
}

/// Forward propagation and folding, in turns until neither changes
/// anything: folding two conversions into one can make a conversion out of an
/// MMA-based layout that propagation can move further (a row maximum of
/// `S` converted slice -> 1-D blocked -> scaled by a scalar, as in
/// `tl.max(qk, 1) * qk_scale`, moves through the scaling only once the two
/// conversions after the reduction are one). Each round moves conversions
/// past ops; the bound only guards against a pathological ping-pong.
static void propagateToFixpoint(ModuleOp module) {
  for (int round = 0; round < 8; ++round) {
    bool changed = propagateForward(module);
    // The conversions propagation leaves before an scf.if's yields move
    // out of the if, and on in the next round.
    changed |= hoistConversionsOutOfIfs(module);
    if (!changed)
      return;
    rematerializeConversions(module);
  }
}

struct RemoveLayoutConversionsPass
    : public tpx::impl::TPXGPURemoveLayoutConversionsBase<
          RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    rematerializeConversions(module);
    propagateToFixpoint(module);
    bool changed = false;
    module.walk([&](scf::ForOp loop) {
      for (unsigned i = 0, e = loop.getNumRegionIterArgs(); i < e; ++i) {
        if (carryInUsedLayout(loop, i)) {
          changed = true;
          continue;
        }
        auto type =
            dyn_cast<RankedTensorType>(loop.getRegionIterArg(i).getType());
        if (!type)
          continue;
        if (Attribute layout = getMmaBasedYieldLayout(loop, i);
            layout && layout != type.getEncoding()) {
          carryInLayout(loop, i, layout);
          changed = true;
        }
      }
    });
    // The conversions put around loops often fold into constants; those
    // after a loop now carrying an MMA layout move forward like the others
    // (a matmul epilogue truncates in the accumulator layout and converts
    // the narrower result once).
    if (changed) {
      rematerializeConversions(module);
      propagateToFixpoint(module);
    }
    storeSourceLayouts(module);
  }
};

} // namespace
