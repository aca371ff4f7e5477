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

#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
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
  auto newType = RankedTensorType::get(type.getShape(), type.getElementType(),
                                       layout);
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
    if (!replacement || replacement.getDefiningOp<ConvertLayoutOp>() &&
                            replacement.getDefiningOp<ConvertLayoutOp>()
                                    .getSrc() == op.getSrc())
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

static std::optional<ArgUse> getUseInLayout(Operation *user,
                                            Attribute layout) {
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

/// Carries loop argument `index` of `loop` in the layout its uses convert
/// to, when every use reaches one layout L (getUseInLayout) and the yielded
/// value is converted from L.
static bool carryInUsedLayout(scf::ForOp loop, unsigned index) {
  BlockArgument arg = loop.getRegionIterArg(index);
  auto argType = dyn_cast<RankedTensorType>(arg.getType());
  if (!argType || arg.use_empty())
    return false;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto yielded = yield.getOperand(index).getDefiningOp<ConvertLayoutOp>();
  if (!yielded)
    return false;
  Attribute layout = yielded.getSrc().getType().getEncoding();
  auto newType = cast<RankedTensorType>(yielded.getSrc().getType());

  // Every use must reach L, and the other operands of elementwise uses must
  // be recomputable in L (done up front, so that failure changes nothing
  // but dead recomputations that canonicalize erases).
  SmallVector<ArgUse> uses;
  llvm::DenseMap<Operation *, SmallVector<Value>> newOperands;
  Rematerializer rematerializer;
  for (Operation *user : arg.getUsers()) {
    std::optional<ArgUse> use = getUseInLayout(user, layout);
    if (!use)
      return false;
    if (user != use->convert.getOperation()) {
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
    }
    uses.push_back(*use);
  }

  OpBuilder b(loop);
  OpOperand &init = loop.getInitArgsMutable()[index];
  init.set(ConvertLayoutOp::create(b, loop.getLoc(), newType, init.get()));
  arg.setType(newType);
  for (ArgUse &use : uses) {
    bool direct = use.user == use.convert.getOperation();
    Value replacement = arg;
    if (!direct) {
      // The elementwise op, redone in L on the argument itself.
      b.setInsertionPoint(use.convert);
      OperationState state(use.user->getLoc(), use.user->getName());
      state.addOperands(newOperands[use.user]);
      state.addAttributes(use.user->getAttrs());
      state.addTypes(RankedTensorType::get(
          newType.getShape(),
          getElementTypeOrSelf(use.user->getResult(0).getType()), layout));
      replacement = b.create(state)->getResult(0);
    }
    use.convert.replaceAllUsesWith(replacement);
    use.convert.erase();
    if (!direct && use.user->use_empty())
      use.user->erase();
  }
  yield->setOperand(index, yielded.getSrc());
  Value result = loop.getResult(index);
  result.setType(newType);
  b.setInsertionPointAfter(loop);
  auto back = ConvertLayoutOp::create(b, loop.getLoc(), argType, result);
  result.replaceAllUsesExcept(back, back);
  return true;
}

struct RemoveLayoutConversionsPass
    : public tpx::impl::TPXGPURemoveLayoutConversionsBase<
          RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    rematerializeConversions(module);
    bool changed = false;
    module.walk([&](scf::ForOp loop) {
      for (unsigned i = 0, e = loop.getNumRegionIterArgs(); i < e; ++i)
        changed |= carryInUsedLayout(loop, i);
    });
    // The conversions put around loops often fold into constants.
    if (changed)
      rematerializeConversions(module);
  }
};

} // namespace
