//===- ReducePatterns.cpp - tt.reduce on registers, shuffles, shared memory
//===//
//
// A reduction along `axis` of a tensor in the linear layout L combines all
// elements that share an output element (the coordinate with the axis
// component dropped). It runs in three stages:
//
//  1. In a thread: registers whose register contribution agrees off the
//     axis form a group (one group per output element the thread holds);
//     a group is folded in increasing axis coordinate.
//  2. In a warp: for each lane bit whose basis steps along the axis, a
//     butterfly exchange (shuffle xor) with the lane across that bit.
//  3. Across warps, when some warp basis steps along the axis: every warp
//     writes its partials to shared memory, and every thread reads back all
//     partials of its output elements and folds them in warp-axis order.
//
// Invariant the stages rest on (checked by checkUnitBases; every layout
// toLinearLayout builds has it): each nonzero basis steps along exactly one
// dimension by a power of two, and no two nonzero bases are equal. Then
//  - a basis either moves along the axis (leaving the output element alone)
//    or moves the output element (leaving the axis coordinate alone), so the
//    lanes and warps across an axis bit hold the same output elements, in
//    the same groups, and the ones across a non-axis bit never meet;
//  - the layout is injective up to zero bases, so combining one register
//    per distinct register contribution (stage 1) and one partner per axis
//    lane/warp bit (stages 2-3) combines each tensor element exactly once.
//    Copies made by zero lane/warp bases compute bitwise-identical values
//    (same operands, same order), so they need no special care.
//
// Operand order: combine(a, b) always receives the part at smaller axis
// coordinates as `a`. The result is the sequential fold whenever the
// register axis bits lie below the lane and warp axis bits (the CTA tile
// spans the axis). A layout that repeats registers above the CTA tile makes
// the tree interleave blocks, as any tree reduction does.
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"

#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

namespace {

using InDim = LinearLayout::InDim;

/// Why the reduction stages cannot reason about `layout`, if they cannot:
/// every nonzero basis must step along one dimension by a power of two,
/// and no two nonzero bases may be equal (see the file comment).
static std::optional<std::string> checkUnitBases(const LinearLayout &layout) {
  SmallVector<Coordinate> seen;
  for (InDim in : {InDim::Register, InDim::Lane, InDim::Warp})
    for (const Coordinate &basis : layout.getBases(in)) {
      auto isNonzero = [](int64_t value) { return value != 0; };
      auto count = llvm::count_if(basis, isNonzero);
      if (count == 0)
        continue;
      if (count > 1 || !llvm::isPowerOf2_64(*llvm::find_if(basis, isNonzero)))
        return std::string("a layout basis steps along several dimensions "
                           "or by a non-power of two");
      if (llvm::is_contained(seen, basis))
        return std::string("two layout bits hold the same element");
      seen.push_back(basis);
    }
  return std::nullopt;
}

/// `coordinate` without its `axis` entry.
static Coordinate dropAxis(ArrayRef<int64_t> coordinate, unsigned axis) {
  Coordinate result(coordinate.begin(), coordinate.end());
  result.erase(result.begin() + axis);
  return result;
}

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

/// The registers holding the elements of one output element in a thread.
struct RegisterGroup {
  /// The register contribution off the axis, shared by the group.
  Coordinate key;
  /// One register per distinct element, by increasing axis coordinate.
  SmallVector<unsigned> registers;
};

/// Groups the registers of `layout` by output element. A register with a
/// set zero-basis bit duplicates the one with that bit clear (the bases
/// are unit vectors, so only zero bases repeat an element) and is left out.
static SmallVector<RegisterGroup> groupRegisters(const LinearLayout &layout,
                                                 unsigned axis) {
  unsigned duplicates = layout.getReplicationMask(InDim::Register);
  SmallVector<RegisterGroup> groups;
  for (unsigned reg = 0, e = layout.getNumRegisters(); reg < e; ++reg) {
    if (reg & duplicates)
      continue;
    Coordinate key =
        dropAxis(layout.getContribution(InDim::Register, reg), axis);
    auto *it = llvm::find_if(
        groups, [&](const RegisterGroup &group) { return group.key == key; });
    if (it == groups.end()) {
      groups.push_back({key, {}});
      it = std::prev(groups.end());
    }
    it->registers.push_back(reg);
  }
  auto axisOf = [&](unsigned reg) {
    return layout.getContribution(InDim::Register, reg)[axis];
  };
  for (RegisterGroup &group : groups)
    llvm::stable_sort(group.registers, [&](unsigned a, unsigned b) {
      return axisOf(a) < axisOf(b);
    });
  return groups;
}

/// The index of the group holding `reg` (duplicates included).
static unsigned findGroup(ArrayRef<RegisterGroup> groups,
                          const LinearLayout &layout, unsigned axis,
                          unsigned reg) {
  Coordinate key = dropAxis(layout.getContribution(InDim::Register, reg), axis);
  const auto *it = llvm::find_if(
      groups, [&](const RegisterGroup &group) { return group.key == key; });
  assert(it != groups.end() && "every register belongs to a group");
  return it - groups.begin();
}

/// `layout` on the reduced shape: every basis with its axis entry dropped,
/// register bits kept (so register indices still name the source's
/// registers). After the reduction each register holds its group's result,
/// which makes this the layout of the result values in source registers.
static LinearLayout dropAxisFromLayout(const LinearLayout &layout,
                                       unsigned axis) {
  LinearLayout result(dropAxis(layout.getShape(), axis));
  for (InDim in : {InDim::Register, InDim::Lane, InDim::Warp})
    for (const Coordinate &basis : layout.getBases(in))
      result.addBasis(in, dropAxis(basis, axis));
  return result;
}

/// combine(lhs, rhs) through the op's region: accumulators, then values.
static SmallVector<Value> combine(OpBuilder &b, Region &region, ValueRange lhs,
                                  ValueRange rhs) {
  SmallVector<Value> args(lhs.begin(), lhs.end());
  args.append(rhs.begin(), rhs.end());
  return inlineCombineRegion(b, region, args);
}

/// True (i1) when bit `bit` of the i32 `value` is set.
static Value isBitSet(OpBuilder &b, Location loc, Value value, unsigned bit) {
  Value masked =
      LLVM::AndOp::create(b, loc, value, i32Constant(b, loc, 1ll << bit));
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, masked,
                              i32Constant(b, loc, 0));
}

/// shuffleXor for any element type: an i1 travels as an i32.
static Value shuffleXorValue(OpBuilder &b, Location loc, Value value,
                             unsigned mask) {
  if (!value.getType().isInteger(1))
    return shuffleXor(b, loc, value, mask);
  Value wide = LLVM::ZExtOp::create(b, loc, b.getI32Type(), value);
  Value shuffled = shuffleXor(b, loc, wide, mask);
  return LLVM::TruncOp::create(b, loc, b.getI1Type(), shuffled);
}

/// The type a value of `type` is stored as in shared memory (an i1 as a
/// byte, as getSharedElementBytes counts it).
static Type getStorageType(Type type) {
  if (type.isInteger(1))
    return IntegerType::get(type.getContext(), 8);
  return type;
}

/// `base[index]` (an element of `type`'s storage) in shared memory.
static Value getSharedElementPtr(OpBuilder &b, Location loc, Value base,
                                 Type type, Value index) {
  return LLVM::GEPOp::create(b, loc, base.getType(), getStorageType(type), base,
                             ValueRange{index});
}

static void storeShared(OpBuilder &b, Location loc, Value value, Value ptr) {
  if (value.getType().isInteger(1))
    value = LLVM::ZExtOp::create(b, loc, b.getI8Type(), value);
  LLVM::StoreOp::create(b, loc, value, ptr);
}

static Value loadShared(OpBuilder &b, Location loc, Type type, Value ptr) {
  Value value = LLVM::LoadOp::create(b, loc, getStorageType(type), ptr);
  if (type.isInteger(1))
    value = LLVM::TruncOp::create(b, loc, type, value);
  return value;
}

/// Row-major index of `coordinate` in `shape` (0 for a scalar).
static Value linearIndex(OpBuilder &b, Location loc, ArrayRef<Value> coordinate,
                         ArrayRef<int64_t> shape) {
  if (shape.empty())
    return i32Constant(b, loc, 0);
  return linearize(b, loc, coordinate, shape);
}

/// The i32 whose bit j is the bit `bits[j]` of the i32 `value`.
static Value gatherBits(OpBuilder &b, Location loc, Value value,
                        ArrayRef<unsigned> bits) {
  Value result = i32Constant(b, loc, 0);
  for (auto [j, bit] : llvm::enumerate(bits)) {
    Value shifted =
        LLVM::LShrOp::create(b, loc, value, i32Constant(b, loc, bit));
    Value one = LLVM::AndOp::create(b, loc, shifted, i32Constant(b, loc, 1));
    Value placed = LLVM::ShlOp::create(b, loc, one, i32Constant(b, loc, j));
    result = LLVM::OrOp::create(b, loc, result, placed);
  }
  return result;
}

/// State of one reduction while it is lowered.
struct Reduction {
  tt::ReduceOp op;
  const LinearLayout &layout;
  unsigned axis;
  /// Lowered element type of each operand.
  SmallVector<Type> elementTypes;
  SmallVector<RegisterGroup> groups;
  /// accumulators[g][i]: operand i's partial of group g.
  SmallVector<SmallVector<Value>> accumulators;
};

/// Stage 1: folds each group's registers in increasing axis coordinate.
/// `values[i][reg]` is operand i's register `reg`.
static void reduceInThread(OpBuilder &b, Reduction &r,
                           ArrayRef<SmallVector<Value>> values) {
  Region &region = r.op.getCombineOp();
  for (const RegisterGroup &group : r.groups) {
    auto operandsAt = [&](unsigned reg) {
      return llvm::to_vector(llvm::map_range(
          values, [&](const SmallVector<Value> &v) { return v[reg]; }));
    };
    SmallVector<Value> acc = operandsAt(group.registers.front());
    for (unsigned reg : llvm::drop_begin(group.registers))
      acc = combine(b, region, acc, operandsAt(reg));
    r.accumulators.push_back(std::move(acc));
  }
}

/// Stage 2: a butterfly over the lane bits along the axis, by increasing
/// step. Both lanes of a pair pass the lane with the bit clear (which holds
/// the smaller axis coordinates) first, so they compute the same value.
static void reduceAcrossLanes(OpBuilder &b, Location loc, Reduction &r,
                              Value lane) {
  Region &region = r.op.getCombineOp();
  for (unsigned bit : getAxisBits(r.layout, InDim::Lane, r.axis)) {
    Value upper = isBitSet(b, loc, lane, bit);
    for (SmallVector<Value> &acc : r.accumulators) {
      SmallVector<Value> lower, higher;
      for (Value mine : acc) {
        Value theirs = shuffleXorValue(b, loc, mine, 1u << bit);
        lower.push_back(LLVM::SelectOp::create(b, loc, upper, theirs, mine));
        higher.push_back(LLVM::SelectOp::create(b, loc, upper, mine, theirs));
      }
      acc = combine(b, region, lower, higher);
    }
  }
}

/// Stage 3: partials through shared memory, laid out per operand as
/// [warp index along the axis][row-major output element]. Every thread
/// stores each of its groups' partials (threads storing to one slot store
/// the same value), then reads all the warps' partials of its groups and
/// folds them by increasing warp index along the axis, which is increasing
/// axis coordinate since the warp axis bits are taken by increasing step.
static void reduceAcrossWarps(OpBuilder &b, Location loc, Reduction &r,
                              const ThreadIds &ids) {
  SmallVector<unsigned> warpBits = getAxisBits(r.layout, InDim::Warp, r.axis);
  if (warpBits.empty())
    return;
  unsigned numSlots = 1u << warpBits.size();
  SmallVector<int64_t> outShape = dropAxis(r.layout.getShape(), r.axis);
  int64_t outSize = 1;
  for (int64_t size : outShape)
    outSize *= size;

  // One region per operand, each aligned for its element.
  SmallVector<uint64_t> offsets;
  uint64_t bytes = 0;
  for (Type type : r.elementTypes) {
    unsigned elementBytes = getSharedElementBytes(type);
    bytes = llvm::alignTo(bytes, elementBytes);
    offsets.push_back(bytes);
    bytes += numSlots * outSize * elementBytes;
  }
  Value base = getSharedMemoryBase(b, loc, r.op, bytes);
  SmallVector<Value> operandBases;
  for (uint64_t offset : offsets)
    operandBases.push_back(
        LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                            ArrayRef<LLVM::GEPArg>{int32_t(offset)}));

  // The output element of each group, as a row-major index.
  SmallVector<Value> threadCoordinate =
      getThreadCoordinate(b, loc, r.layout, ids);
  SmallVector<Value> outIndices;
  for (const RegisterGroup &group : r.groups) {
    SmallVector<Value> coordinate = getElementCoordinate(
        b, loc, r.layout, group.registers.front(), threadCoordinate);
    coordinate.erase(coordinate.begin() + r.axis);
    outIndices.push_back(linearIndex(b, loc, coordinate, outShape));
  }
  auto slotPtr = [&](unsigned operand, Value slot, unsigned group) {
    Value index = LLVM::AddOp::create(
        b, loc, LLVM::MulOp::create(b, loc, slot, i32Constant(b, loc, outSize)),
        outIndices[group]);
    return getSharedElementPtr(b, loc, operandBases[operand],
                               r.elementTypes[operand], index);
  };

  // Another conversion may still be reading the buffer.
  emitBarrier(b, loc);
  Value warpSlot = gatherBits(b, loc, ids.warp, warpBits);
  for (auto [g, acc] : llvm::enumerate(r.accumulators))
    for (auto [i, value] : llvm::enumerate(acc))
      storeShared(b, loc, value, slotPtr(i, warpSlot, g));
  emitBarrier(b, loc);

  Region &region = r.op.getCombineOp();
  for (auto [g, acc] : llvm::enumerate(r.accumulators)) {
    auto loadSlot = [&](unsigned slot) {
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

/// The results of a reduction of rank > 1: every source register takes its
/// group's value, which lays the results out in the source layout with
/// the axis dropped; the result layout (the slice of the source layout)
/// has the same thread part, so this is a choice of registers.
static FailureOr<SmallVector<Value>>
buildTensorResults(ConversionPatternRewriter &rewriter, Location loc,
                   Reduction &r, const TypeConverter &converter) {
  LinearLayout keyLayout = dropAxisFromLayout(r.layout, r.axis);
  SmallVector<unsigned> groupOf;
  for (unsigned reg = 0, e = r.layout.getNumRegisters(); reg < e; ++reg)
    groupOf.push_back(findGroup(r.groups, r.layout, r.axis, reg));

  SmallVector<Value> results;
  for (auto [i, result] : llvm::enumerate(r.op.getResults())) {
    auto resultType = cast<RankedTensorType>(result.getType());
    std::optional<LinearLayout> outLayout = getLayout(r.op, resultType);
    Type structType = converter.convertType(resultType);
    if (!outLayout || !structType)
      return failure();
    SmallVector<Value> keyValues;
    for (unsigned g : groupOf)
      keyValues.push_back(r.accumulators[g][i]);
    SmallVector<Value> outValues;
    auto identity = [](ArrayRef<int64_t> c) {
      return Coordinate(c.begin(), c.end());
    };
    if (auto map = keyLayout.getRegisterMapFrom(*outLayout, identity)) {
      for (unsigned reg : *map)
        outValues.push_back(keyValues[reg]);
    } else {
      // A result layout other than the slice of the source: move the data.
      outValues = convertLayout(rewriter, loc, r.op, keyValues, keyLayout,
                                *outLayout, r.elementTypes[i]);
    }
    results.push_back(pack(rewriter, loc, structType, outValues));
  }
  return results;
}

struct ReduceOpConversion : public OpConversionPattern<tt::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    for (Value src : op.getSrcs())
      if (cast<RankedTensorType>(src.getType()).getEncoding() !=
          srcType.getEncoding())
        return op->emitOpError(
            "sources in different layouts cannot be lowered to NVVM");
    std::optional<LinearLayout> layout = getLayout(op, srcType);
    if (!layout)
      return failure();
    if (std::optional<std::string> why = checkUnitBases(*layout))
      return op->emitOpError("cannot lower a reduction over this layout: ")
             << *why;

    Reduction r{op, *layout, unsigned(op.getAxis()), {}, {}, {}};
    SmallVector<SmallVector<Value>> values;
    for (auto [src, lowered] : llvm::zip(op.getSrcs(), adaptor.getSrcs())) {
      r.elementTypes.push_back(convertElementType(
          cast<RankedTensorType>(src.getType()).getElementType()));
      values.push_back(unpack(rewriter, loc, lowered));
      if (values.back().size() != layout->getNumRegisters())
        return op->emitOpError("lowered source has ")
               << values.back().size() << " registers, its layout "
               << layout->getNumRegisters();
    }
    r.groups = groupRegisters(*layout, r.axis);

    reduceInThread(rewriter, r, values);
    ThreadIds ids = getThreadIds(rewriter, loc);
    reduceAcrossLanes(rewriter, loc, r, ids.lane);
    reduceAcrossWarps(rewriter, loc, r, ids);

    if (srcType.getRank() == 1) {
      // One output element, now held by every thread.
      assert(r.accumulators.size() == 1 && "rank-1 source has one group");
      rewriter.replaceOp(op, r.accumulators.front());
      return success();
    }
    FailureOr<SmallVector<Value>> results =
        buildTensorResults(rewriter, loc, r, *getTypeConverter());
    if (failed(results))
      return failure();
    rewriter.replaceOp(op, *results);
    return success();
  }
};

} // namespace

void tpx::gpu_lowering::populateReducePatterns(TensorTypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<ReduceOpConversion>(converter, patterns.getContext());
}
