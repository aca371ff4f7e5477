//===- ReducePatterns.cpp - tt.reduce on shuffles and shared memory -------===//
//
// A reduction along `axis` combines all elements of a line (fixed coordinate
// off the axis) into that line's output element. It runs in three stages:
//
//  1. In a thread: each group of registers of one line (groupRegisters) is
//     folded in increasing axis coordinate.
//  2. In a warp: for each lane bit whose basis steps along the axis, a
//     butterfly exchange (shuffle xor) with the lane across that bit.
//  3. Across warps, when some warp basis steps along the axis: every thread
//     writes its partials to shared memory at [warp index along the axis]
//     [line], and every thread reads back all the partials of its lines and
//     folds them in warp-axis order.
//
// Why each element is combined exactly once (layouts with unit bases,
// ReduceScanUtils.h): the lanes and warps across an axis bit hold the same
// lines in the same register groups, and those across any other bit hold
// other lines; the canonical registers of a group, the partners across the
// axis lane bits and the warps along the axis cover the line once. Copies
// made by zero bases compute bitwise-identical values (same operands, same
// order), so copies writing the same shared memory slot write one value,
// and every copy of an output element holds the same result.
//
// Operand order: combine(a, b) always gets the part at smaller axis
// coordinates as `a`. The whole is the sequential fold when the register
// axis bits lie below the lane and warp axis bits (the CTA tile spans the
// axis). When registers repeat the CTA tile along the axis, stage 1 folds
// blocks that are not adjacent, as any tree reduction over that layout
// would: the combine must then also commute.
//
//===----------------------------------------------------------------------===//
#include "ReduceScanUtils.h"

#include "tpx/Dialect/TT/IR/TTOps.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;
using namespace tpx::gpu_lowering::reduce_scan;

/// The bits of `in` whose basis steps along `axis`, by increasing step.
static SmallVector<unsigned> getAxisBits(const LinearLayout &layout, InDim in,
                                         unsigned axis) {
  ArrayRef<Coordinate> bases = layout.getBases(in);
  SmallVector<unsigned> bits;
  for (auto [bit, basis] : llvm::enumerate(bases))
    if (basis[axis] != 0)
      bits.push_back(bit);
  llvm::sort(bits, [&](unsigned a, unsigned b) {
    return bases[a][axis] < bases[b][axis];
  });
  return bits;
}

/// `layout` on the reduced shape: every basis with its axis entry dropped,
/// register bits kept so that register indices still name the source's
/// registers. Once every register holds its line's result, this is the
/// layout of those values.
static LinearLayout dropAxisFromLayout(const LinearLayout &layout,
                                       unsigned axis) {
  LinearLayout result(dropAxis(layout.getShape(), axis));
  for (InDim in : {InDim::Register, InDim::Lane, InDim::Warp})
    for (const Coordinate &basis : layout.getBases(in))
      result.addBasis(in, dropAxis(basis, axis));
  return result;
}

/// True (i1) where bit `bit` of the i32 `value` is set.
static Value isBitSet(OpBuilder &b, Location loc, Value value, unsigned bit) {
  Value masked =
      LLVM::AndOp::create(b, loc, value, i32Constant(b, loc, 1ll << bit));
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, masked,
                              i32Constant(b, loc, 0));
}

namespace {
/// One reduction while it is lowered.
struct Reduction {
  tt::ReduceOp op;
  const LinearLayout &layout;
  unsigned axis;
  /// The lowered element type of each operand.
  SmallVector<Type> elementTypes;
  SmallVector<RegisterGroup> groups;
  /// accumulators[g][i]: operand i's partial of group g.
  SmallVector<SmallVector<Value>> accumulators;
};
} // namespace

/// Stage 1: folds each group's registers in increasing axis coordinate.
/// `values[i][reg]` is operand i's register `reg`.
static void reduceInThread(OpBuilder &b, Reduction &r,
                           ArrayRef<SmallVector<Value>> values) {
  Region &region = r.op.getCombineOp();
  auto operandsAt = [&](unsigned reg) {
    return llvm::to_vector(llvm::map_range(
        values, [&](const SmallVector<Value> &v) { return v[reg]; }));
  };
  for (const RegisterGroup &group : r.groups) {
    SmallVector<Value> acc = operandsAt(group.registers.front());
    for (unsigned reg : llvm::drop_begin(group.registers))
      acc = combine(b, region, acc, operandsAt(reg));
    r.accumulators.push_back(std::move(acc));
  }
}

/// Stage 2: a butterfly over the lane bits along the axis, by increasing
/// step. Both lanes of a pair pass the lane with the bit clear (the smaller
/// axis coordinates) first, so they compute the same value.
static void reduceAcrossLanes(OpBuilder &b, Location loc, Reduction &r,
                              Value lane) {
  Region &region = r.op.getCombineOp();
  for (unsigned bit : getAxisBits(r.layout, InDim::Lane, r.axis)) {
    Value upper = isBitSet(b, loc, lane, bit);
    for (SmallVector<Value> &acc : r.accumulators) {
      SmallVector<Value> theirs;
      for (Value mine : acc)
        theirs.push_back(shuffleValue(b, loc, mine, [&](Value v) {
          return shuffleXor(b, loc, v, 1u << bit);
        }));
      // Built one after the other: argument order is unspecified in C++.
      SmallVector<Value> lower = selectAll(b, loc, upper, theirs, acc);
      SmallVector<Value> higher = selectAll(b, loc, upper, acc, theirs);
      acc = combine(b, region, lower, higher);
    }
  }
}

/// Stage 3: partials through shared memory, one array per operand laid out
/// as [warp index along the axis][row-major line]. Every thread stores the
/// partials of its groups (the threads sharing a slot store one value),
/// then folds all the warps' partials of its groups by increasing warp
/// index along the axis, which is increasing axis coordinate since the
/// index takes the warp axis bits by increasing step.
static void reduceAcrossWarps(OpBuilder &b, Location loc, Reduction &r,
                              const ThreadIds &ids) {
  SmallVector<unsigned> warpBits = getAxisBits(r.layout, InDim::Warp, r.axis);
  if (warpBits.empty())
    return;
  unsigned numSlots = 1u << warpBits.size();
  SmallVector<int64_t> lineShape = dropAxis(r.layout.getShape(), r.axis);
  SlotArrays slots =
      allocateSlotArrays(b, loc, r.op, r.elementTypes, numSlots, r.layout,
                         r.axis, r.groups, ids, lineShape);
  auto slotPtr = [&](unsigned operand, Value slot, unsigned group) {
    return slots.pointer(b, loc, operand, slot, group);
  };

  Value warpSlot = gatherBits(b, loc, ids.warp, warpBits);
  // Another user of the buffer may still be reading it.
  emitBarrier(b, loc);
  for (auto [g, acc] : llvm::enumerate(r.accumulators))
    for (auto [i, value] : llvm::enumerate(acc))
      storeShared(b, loc, value, slotPtr(i, warpSlot, g));
  emitBarrier(b, loc);

  Region &region = r.op.getCombineOp();
  for (auto [g, acc] : llvm::enumerate(r.accumulators)) {
    auto loadSlot = [&, g = g](unsigned slot) {
      SmallVector<Value> values;
      for (auto [i, type] : llvm::enumerate(r.elementTypes))
        values.push_back(
            loadShared(b, loc, type, slotPtr(i, i32Constant(b, loc, slot), g)));
      return values;
    };
    SmallVector<Value> folded = loadSlot(0);
    for (unsigned slot = 1; slot < numSlots; ++slot)
      folded = combine(b, region, folded, loadSlot(slot));
    acc = std::move(folded);
  }
}

/// The results of a reduction of rank > 1 in `outLayouts`: every source
/// register takes its group's result, which lays the results out in
/// dropAxisFromLayout(source); the slice of the source layout has the same
/// thread part, so it takes a choice of registers (any other result layout
/// a conversion).
static SmallVector<Value> buildTensorResults(OpBuilder &b, Location loc,
                                             Reduction &r,
                                             ArrayRef<LinearLayout> outLayouts,
                                             TypeRange structTypes) {
  LinearLayout keyLayout = dropAxisFromLayout(r.layout, r.axis);
  SmallVector<unsigned> groupOf;
  for (unsigned reg = 0, e = r.layout.getNumRegisters(); reg < e; ++reg) {
    Coordinate key =
        dropAxis(r.layout.getContribution(InDim::Register, reg), r.axis);
    const auto *it = llvm::find_if(
        r.groups, [&](const RegisterGroup &group) { return group.key == key; });
    assert(it != r.groups.end() && "every register belongs to a group");
    groupOf.push_back(it - r.groups.begin());
  }
  auto identity = [](ArrayRef<int64_t> c) {
    return Coordinate(c.begin(), c.end());
  };

  SmallVector<Value> results;
  for (auto [i, outLayout, structType] :
       llvm::enumerate(outLayouts, structTypes)) {
    SmallVector<Value> keyValues;
    for (unsigned g : groupOf)
      keyValues.push_back(r.accumulators[g][i]);
    SmallVector<Value> outValues;
    if (auto map = keyLayout.getRegisterMapFrom(outLayout, identity)) {
      for (unsigned reg : *map)
        outValues.push_back(keyValues[reg]);
    } else {
      outValues = convertLayout(b, loc, r.op, keyValues, keyLayout, outLayout,
                                r.elementTypes[i]);
    }
    results.push_back(pack(b, loc, structType, outValues));
  }
  return results;
}

namespace {
struct ReduceOpConversion : public OpConversionPattern<tt::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Everything that can fail is checked before any IR is created.
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    std::optional<LinearLayout> layout = getSourcesLayout(op, op.getSrcs());
    if (!layout)
      return failure();
    if (std::optional<std::string> why = checkUnitBases(*layout))
      return op->emitOpError("cannot lower a reduction over ")
             << layout->str() << ": " << *why;
    for (Value lowered : adaptor.getSrcs())
      if (getNumFields(lowered.getType()) != layout->getNumRegisters())
        return op->emitOpError("a lowered source does not have the ")
               << layout->getNumRegisters() << " registers of its layout";
    SmallVector<LinearLayout> outLayouts;
    SmallVector<Type> structTypes;
    if (srcType.getRank() > 1) {
      for (Type type : op.getResultTypes()) {
        auto resultType = cast<RankedTensorType>(type);
        std::optional<LinearLayout> outLayout = getLayout(op, resultType);
        Type structType = getTypeConverter()->convertType(resultType);
        if (!outLayout || !structType)
          return op->emitOpError("cannot lower the result type ") << type;
        outLayouts.push_back(std::move(*outLayout));
        structTypes.push_back(structType);
      }
    }

    Reduction r{op, *layout, unsigned(op.getAxis()), {}, {}, {}};
    SmallVector<SmallVector<Value>> values;
    for (auto [src, lowered] : llvm::zip(op.getSrcs(), adaptor.getSrcs())) {
      r.elementTypes.push_back(convertElementType(
          cast<RankedTensorType>(src.getType()).getElementType()));
      values.push_back(unpack(rewriter, loc, lowered));
    }
    r.groups = groupRegisters(*layout, r.axis);

    reduceInThread(rewriter, r, values);
    ThreadIds ids = getThreadIds(rewriter, loc);
    reduceAcrossLanes(rewriter, loc, r, ids.lane);
    reduceAcrossWarps(rewriter, loc, r, ids);

    if (srcType.getRank() == 1) {
      // One line: every thread now holds its result.
      assert(r.accumulators.size() == 1 && "a rank-1 source has one line");
      rewriter.replaceOp(op, r.accumulators.front());
      return success();
    }
    rewriter.replaceOp(
        op, buildTensorResults(rewriter, loc, r, outLayouts, structTypes));
    return success();
  }
};
} // namespace

void tpx::gpu_lowering::populateReducePatterns(TensorTypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<ReduceOpConversion>(converter, patterns.getContext());
}
