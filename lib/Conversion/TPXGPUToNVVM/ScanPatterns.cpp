//===- ScanPatterns.cpp - tt.scan on registers, shuffles, shared memory ---===//
//
// An inclusive scan along `axis` runs on a "scan layout": one whose bases
// are unit steps (one dimension, a power of two, no two equal, as in
// ReducePatterns.cpp) and whose axis bits are, from the lowest axis value
// up: r_a register bits (axis values 1 .. 2^(r_a-1)), then l_a consecutive
// lane bits k0 .. k0+l_a-1 (axis values 2^r_a ..), then w_a warp bits (any
// warp bits, the rest of the axis). A source already in such a layout is
// scanned in place; any other is converted to one built by hand
// (buildScanLayout) and back.
//
// In a scan layout an element's axis coordinate is
//   regPos + 2^r_a * lanePos + 2^(r_a+l_a) * warpPos
// with regPos from the register, lanePos = lane bits k0.. and warpPos from
// the warp axis bits, and the other coordinates depend only on the
// register's non-axis contribution and on the lane/warp bits off the axis.
// So the elements of one line (fixed non-axis coordinate) sit in one group
// of registers per thread, in the threads of one "segment" of lanes (same
// lane bits off the axis) and of one set of warps (same warp bits off the
// axis). The scan is:
//
//  1. In a thread, an inclusive scan of each group over regPos.
//  2. In a warp, a Hillis-Steele inclusive scan of the thread totals over
//     lanePos: step d combines the value of lanePos - d (shuffle up by
//     d << k0, which stays in the segment when lanePos >= d; other lanes
//     keep theirs). The inclusive value of lanePos - 1 is then the
//     exclusive prefix of the thread.
//  3. Across warps, every segment's total (the inclusive value at the last
//     lanePos, broadcast over the segment) goes to shared memory at
//     [warpPos][line]; each thread folds the totals of warpPos' < warpPos.
//  4. Every register gets combine(warp prefix, lane prefix, value).
//
// reverse = true scans from the high end: positions are counted from the
// other end (regPos, lanePos and warpPos each mirrored), which turns
// "lane - delta" into "lane + delta" (an indexed shuffle). Every combine
// gets the part earlier in scan order first.
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

/// True when every nonzero basis of `layout` steps along one dimension by a
/// power of two and no two nonzero bases are equal: then the layout is
/// injective up to zero bases and each basis moves one coordinate only.
static bool hasUnitBases(const LinearLayout &layout) {
  SmallVector<Coordinate> seen;
  for (InDim in : {InDim::Register, InDim::Lane, InDim::Warp})
    for (const Coordinate &basis : layout.getBases(in)) {
      auto isNonzero = [](int64_t value) { return value != 0; };
      auto count = llvm::count_if(basis, isNonzero);
      if (count == 0)
        continue;
      if (count > 1 || !llvm::isPowerOf2_64(*llvm::find_if(basis, isNonzero)) ||
          llvm::is_contained(seen, basis))
        return false;
      seen.push_back(basis);
    }
  return true;
}

/// `coordinate` without its `axis` entry.
static Coordinate dropAxis(ArrayRef<int64_t> coordinate, unsigned axis) {
  Coordinate result(coordinate.begin(), coordinate.end());
  result.erase(result.begin() + axis);
  return result;
}

/// Where the scan axis lives in a scan layout (see the file comment).
struct ScanAxis {
  unsigned registerBits = 0; // r_a
  unsigned laneShift = 0;    // k0
  unsigned laneBits = 0;     // l_a
  /// The warp bits along the axis, by increasing axis value.
  SmallVector<unsigned> warpBits;
};

/// The axis split of `layout` when it is a scan layout for `axis`.
static std::optional<ScanAxis> getScanAxis(const LinearLayout &layout,
                                           unsigned axis) {
  if (!hasUnitBases(layout))
    return std::nullopt;
  ScanAxis result;
  // The axis value the next axis bit must add.
  int64_t next = 1;

  SmallVector<int64_t> registerSteps;
  for (const Coordinate &basis : layout.getBases(InDim::Register))
    if (basis[axis] != 0)
      registerSteps.push_back(basis[axis]);
  llvm::sort(registerSteps);
  for (int64_t step : registerSteps) {
    if (step != next)
      return std::nullopt;
    next *= 2;
  }
  result.registerBits = registerSteps.size();

  ArrayRef<Coordinate> lanes = layout.getBases(InDim::Lane);
  for (auto [bit, basis] : llvm::enumerate(lanes)) {
    if (basis[axis] == 0)
      continue;
    if (result.laneBits == 0)
      result.laneShift = bit;
    // Consecutive lane bits, by increasing axis value.
    if (bit != result.laneShift + result.laneBits || basis[axis] != next)
      return std::nullopt;
    ++result.laneBits;
    next *= 2;
  }

  ArrayRef<Coordinate> warps = layout.getBases(InDim::Warp);
  for (auto [bit, basis] : llvm::enumerate(warps))
    if (basis[axis] != 0)
      result.warpBits.push_back(bit);
  llvm::sort(result.warpBits, [&](unsigned a, unsigned b) {
    return warps[a][axis] < warps[b][axis];
  });
  for (unsigned bit : result.warpBits) {
    if (warps[bit][axis] != next)
      return std::nullopt;
    next *= 2;
  }
  // Every axis coordinate must be held somewhere.
  if (next != layout.getShape()[axis])
    return std::nullopt;
  return result;
}

/// A scan layout for `shape` with `laneBits` lane bits and `warpBits` warp
/// bits: each thread holds as many consecutive axis elements as its share
/// of the tensor allows (so that most of the scan runs in registers), then
/// lanes and warps step along the axis, then along the other dimensions
/// (the last dimension first); lanes or warps left over replicate, and
/// registers hold the rest of the other dimensions. The axis always fits:
/// with A axis bits, T thread bits and E >= A element bits, the registers
/// take min(A, max(E - T, 0)) axis bits, which leaves at most T for the
/// lanes and warps.
static LinearLayout buildScanLayout(ArrayRef<int64_t> shape, unsigned axis,
                                    unsigned laneBits, unsigned warpBits) {
  unsigned rank = shape.size();
  SmallVector<unsigned> dimBits, used(rank, 0);
  unsigned totalBits = 0;
  for (int64_t size : shape) {
    dimBits.push_back(llvm::Log2_64(size));
    totalBits += dimBits.back();
  }
  unsigned threadBits = laneBits + warpBits;
  unsigned perThreadBits = totalBits > threadBits ? totalBits - threadBits : 0;
  unsigned axisBits = dimBits[axis];
  unsigned registerAxis = std::min(axisBits, perThreadBits);
  unsigned laneAxis = std::min(laneBits, axisBits - registerAxis);
  unsigned warpAxis = axisBits - registerAxis - laneAxis;
  assert(warpAxis <= warpBits && "the axis has more bits than the threads");

  LinearLayout layout(shape);
  auto take = [&](InDim in, unsigned dim) {
    Coordinate basis(rank, 0);
    basis[dim] = int64_t(1) << used[dim]++;
    layout.addBasis(in, basis);
  };
  for (unsigned i = 0; i < registerAxis; ++i)
    take(InDim::Register, axis);
  for (unsigned i = 0; i < laneAxis; ++i)
    take(InDim::Lane, axis);
  for (unsigned i = 0; i < warpAxis; ++i)
    take(InDim::Warp, axis);

  SmallVector<unsigned> others;
  for (unsigned dim = rank; dim-- > 0;)
    if (dim != axis)
      others.push_back(dim);
  auto fill = [&](InDim in, unsigned count) {
    for (unsigned i = 0; i < count; ++i) {
      const unsigned *dim = llvm::find_if(
          others, [&](unsigned d) { return used[d] < dimBits[d]; });
      if (dim == others.end())
        layout.addBasis(in, Coordinate()); // replicated
      else
        take(in, *dim);
    }
  };
  fill(InDim::Lane, laneBits - laneAxis);
  fill(InDim::Warp, warpBits - warpAxis);
  for (unsigned dim : others)
    while (used[dim] < dimBits[dim])
      take(InDim::Register, dim);
  return layout;
}

/// The registers of one line in a thread, by scan position.
struct RegisterGroup {
  /// The register contribution off the axis, shared by the group.
  Coordinate key;
  /// One register per axis position, in scan order (reversed for a
  /// reverse scan).
  SmallVector<unsigned> registers;
};

/// Groups the registers of the scan layout by line; duplicates (a set
/// zero-basis bit) are left out and take their original's value at the end.
static SmallVector<RegisterGroup> groupRegisters(const LinearLayout &layout,
                                                 unsigned axis, bool reverse) {
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
  for (RegisterGroup &group : groups) {
    llvm::stable_sort(group.registers, [&](unsigned a, unsigned b) {
      return axisOf(a) < axisOf(b);
    });
    if (reverse)
      std::reverse(group.registers.begin(), group.registers.end());
  }
  return groups;
}

/// combine(lhs, rhs) through the op's region: accumulators, then values.
static SmallVector<Value> combine(OpBuilder &b, Region &region, ValueRange lhs,
                                  ValueRange rhs) {
  SmallVector<Value> args(lhs.begin(), lhs.end());
  args.append(rhs.begin(), rhs.end());
  return inlineCombineRegion(b, region, args);
}

/// `select(cond, a, b)` element-wise.
static SmallVector<Value> select(OpBuilder &b, Location loc, Value cond,
                                 ValueRange a, ValueRange other) {
  SmallVector<Value> result;
  for (auto [x, y] : llvm::zip_equal(a, other))
    result.push_back(LLVM::SelectOp::create(b, loc, cond, x, y));
  return result;
}

static Value icmp(OpBuilder &b, Location loc, LLVM::ICmpPredicate predicate,
                  Value lhs, int64_t rhs) {
  return LLVM::ICmpOp::create(b, loc, predicate, lhs, i32Constant(b, loc, rhs));
}

/// Runs `shuffle` on `value`, carrying an i1 as an i32.
static Value shuffleValue(OpBuilder &b, Location loc, Value value,
                          llvm::function_ref<Value(Value)> shuffle) {
  if (!value.getType().isInteger(1))
    return shuffle(value);
  Value wide = LLVM::ZExtOp::create(b, loc, b.getI32Type(), value);
  return LLVM::TruncOp::create(b, loc, b.getI1Type(), shuffle(wide));
}

/// The type a value of `type` is stored as in shared memory (an i1 as a
/// byte, as getSharedElementBytes counts it).
static Type getStorageType(Type type) {
  if (type.isInteger(1))
    return IntegerType::get(type.getContext(), 8);
  return type;
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

/// A position along the axis in scan order: `index` (in [0, count)) itself,
/// or mirrored for a reverse scan.
static Value toScanPosition(OpBuilder &b, Location loc, Value index,
                            unsigned count, bool reverse) {
  if (!reverse)
    return index;
  return LLVM::SubOp::create(b, loc, i32Constant(b, loc, count - 1), index);
}

/// A prefix that applies where `valid` holds (a null prefix: none).
struct Prefix {
  SmallVector<Value> values;
  Value valid;
};

/// State of one scan while it is lowered, on the scan layout.
struct Scan {
  tt::ScanOp op;
  const LinearLayout &layout;
  unsigned axis;
  bool reverse;
  ScanAxis split;
  SmallVector<Type> elementTypes;
  SmallVector<RegisterGroup> groups;
  /// values[i][reg]: operand i in register `reg` of the scan layout.
  SmallVector<SmallVector<Value>> values;
  /// totals[g]: the inclusive value of group g's last register.
  SmallVector<SmallVector<Value>> totals;
};

/// Stage 1: each group's registers, scanned in scan order.
static void scanInThread(OpBuilder &b, Scan &s) {
  Region &region = s.op.getCombineOp();
  for (const RegisterGroup &group : s.groups) {
    auto operandsAt = [&](unsigned reg) {
      return llvm::to_vector(llvm::map_range(
          s.values, [&](const SmallVector<Value> &v) { return v[reg]; }));
    };
    SmallVector<Value> acc = operandsAt(group.registers.front());
    for (unsigned reg : llvm::drop_begin(group.registers)) {
      acc = combine(b, region, acc, operandsAt(reg));
      for (auto [i, value] : llvm::enumerate(acc))
        s.values[i][reg] = value;
    }
    s.totals.push_back(std::move(acc));
  }
}

/// Stage 2: turns every thread total into the inclusive scan of the thread
/// totals over lanePos (in its segment), and returns each group's
/// exclusive lane prefix (valid where lanePos >= 1). Hillis-Steele: after
/// the step of distance d, the value at lanePos p is the fold of
/// (max(0, p - 2d), p]; the step combines the earlier window first.
static Prefix scanAcrossLanes(OpBuilder &b, Location loc, Scan &s, Value lane) {
  unsigned laneCount = 1u << s.split.laneBits;
  unsigned shift = s.split.laneShift;
  Value laneIndex = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, lane, i32Constant(b, loc, shift)),
      i32Constant(b, loc, laneCount - 1));
  Value position = toScanPosition(b, loc, laneIndex, laneCount, s.reverse);

  // The value of the lane `distance` positions earlier in scan order: lower
  // lanes for a forward scan, higher ones for a reverse scan (any lane of
  // the warp where there is none; the caller ignores it there).
  unsigned laneMask = (1u << s.layout.getNumBits(InDim::Lane)) - 1;
  auto fromEarlier = [&](Value value, unsigned distance) {
    unsigned delta = distance << shift;
    return shuffleValue(b, loc, value, [&](Value v) {
      if (!s.reverse)
        return shuffleUp(b, loc, v, delta);
      Value source = LLVM::AndOp::create(
          b, loc, LLVM::AddOp::create(b, loc, lane, i32Constant(b, loc, delta)),
          i32Constant(b, loc, laneMask));
      return shuffleIndex(b, loc, v, source);
    });
  };
  auto allFromEarlier = [&](ArrayRef<Value> values, unsigned distance) {
    return llvm::to_vector(llvm::map_range(
        values, [&](Value v) { return fromEarlier(v, distance); }));
  };

  Region &region = s.op.getCombineOp();
  for (unsigned distance = 1; distance < laneCount; distance *= 2) {
    Value valid = icmp(b, loc, LLVM::ICmpPredicate::uge, position, distance);
    for (SmallVector<Value> &total : s.totals) {
      SmallVector<Value> combined =
          combine(b, region, allFromEarlier(total, distance), total);
      total = select(b, loc, valid, combined, total);
    }
  }

  Prefix prefix;
  prefix.valid = icmp(b, loc, LLVM::ICmpPredicate::uge, position, 1);
  for (const SmallVector<Value> &total : s.totals)
    prefix.values.append(allFromEarlier(total, 1));
  return prefix;
}

/// The row-major index of each group's line among the lines of the
/// tensor (`lineShape`: the shape without the axis).
static SmallVector<Value> getLineIndices(OpBuilder &b, Location loc,
                                         const Scan &s, const ThreadIds &ids,
                                         ArrayRef<int64_t> lineShape) {
  if (lineShape.empty())
    return SmallVector<Value>(s.groups.size(), i32Constant(b, loc, 0));
  SmallVector<Value> threadCoordinate =
      getThreadCoordinate(b, loc, s.layout, ids);
  SmallVector<Value> indices;
  for (const RegisterGroup &group : s.groups) {
    SmallVector<Value> coordinate = getElementCoordinate(
        b, loc, s.layout, group.registers.front(), threadCoordinate);
    coordinate.erase(coordinate.begin() + s.axis);
    indices.push_back(linearize(b, loc, coordinate, lineShape));
  }
  return indices;
}

/// Stage 3: the fold of the totals of the warps earlier along the axis (in
/// the same line), through shared memory laid out per operand as
/// [warpPos][row-major line index]; valid where warpPos >= 1.
static Prefix scanAcrossWarps(OpBuilder &b, Location loc, Scan &s,
                              const ThreadIds &ids) {
  unsigned warpCount = 1u << s.split.warpBits.size();
  unsigned laneCount = 1u << s.split.laneBits;
  SmallVector<int64_t> lineShape = dropAxis(s.layout.getShape(), s.axis);
  int64_t numLines = 1;
  for (int64_t size : lineShape)
    numLines *= size;

  // The segment total sits in the lane at the last scan position; every
  // lane of the segment takes it so that all of them store the same value.
  Value lastLane = ids.lane;
  if (laneCount > 1) {
    unsigned segmentBits = (laneCount - 1) << s.split.laneShift;
    lastLane = s.reverse
                   ? LLVM::AndOp::create(b, loc, ids.lane,
                                         i32Constant(b, loc, ~segmentBits))
                         .getResult()
                   : LLVM::OrOp::create(b, loc, ids.lane,
                                        i32Constant(b, loc, segmentBits))
                         .getResult();
  }
  auto segmentTotal = [&](Value value) {
    if (laneCount == 1)
      return value;
    return shuffleValue(b, loc, value, [&](Value v) {
      return shuffleIndex(b, loc, v, lastLane);
    });
  };

  SmallVector<uint64_t> offsets;
  uint64_t bytes = 0;
  for (Type type : s.elementTypes) {
    unsigned elementBytes = getSharedElementBytes(type);
    bytes = llvm::alignTo(bytes, elementBytes);
    offsets.push_back(bytes);
    bytes += warpCount * numLines * elementBytes;
  }
  Value base = getSharedMemoryBase(b, loc, s.op, bytes);

  SmallVector<Value> lineIndices = getLineIndices(b, loc, s, ids, lineShape);
  auto slotPtr = [&](unsigned operand, Value warpPos, unsigned group) {
    Value index = LLVM::AddOp::create(
        b, loc,
        LLVM::MulOp::create(b, loc, warpPos, i32Constant(b, loc, numLines)),
        lineIndices[group]);
    Value operandBase =
        LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                            ArrayRef<LLVM::GEPArg>{int32_t(offsets[operand])});
    return LLVM::GEPOp::create(b, loc, base.getType(),
                               getStorageType(s.elementTypes[operand]),
                               operandBase, ValueRange{index});
  };

  SmallVector<SmallVector<Value>> segmentTotals;
  for (const SmallVector<Value> &total : s.totals)
    segmentTotals.push_back(
        llvm::to_vector(llvm::map_range(total, segmentTotal)));
  Value warpIndex = gatherBits(b, loc, ids.warp, s.split.warpBits);
  Value warpPos = toScanPosition(b, loc, warpIndex, warpCount, s.reverse);
  // Another conversion may still be reading the buffer.
  emitBarrier(b, loc);
  for (auto [g, total] : llvm::enumerate(segmentTotals))
    for (auto [i, value] : llvm::enumerate(total))
      storeShared(b, loc, value, slotPtr(i, warpPos, g));
  emitBarrier(b, loc);

  // folds[q]: the fold of the totals at warp positions 0..q; the warp at
  // position m needs folds[m - 1].
  Region &region = s.op.getCombineOp();
  Prefix prefix;
  prefix.valid = icmp(b, loc, LLVM::ICmpPredicate::uge, warpPos, 1);
  for (unsigned g = 0, e = s.groups.size(); g < e; ++g) {
    auto loadPosition = [&](unsigned position) {
      SmallVector<Value> values;
      for (auto [i, type] : llvm::enumerate(s.elementTypes))
        values.push_back(loadShared(
            b, loc, type, slotPtr(i, i32Constant(b, loc, position), g)));
      return values;
    };
    SmallVector<Value> fold = loadPosition(0);
    SmallVector<Value> chosen = fold;
    for (unsigned q = 1; q + 1 < warpCount; ++q) {
      fold = combine(b, region, fold, loadPosition(q));
      Value here = icmp(b, loc, LLVM::ICmpPredicate::eq, warpPos, q + 1);
      chosen = select(b, loc, here, fold, chosen);
    }
    prefix.values.append(chosen);
  }
  return prefix;
}

/// The values of group g in a flat per-group prefix list.
static SmallVector<Value> groupSlice(ArrayRef<Value> flat, unsigned g,
                                     unsigned numOperands) {
  return llvm::to_vector(flat.slice(g * numOperands, numOperands));
}

/// Stage 4: every scanned register becomes combine(prefix, value), where
/// the prefix is the warp prefix then the lane prefix, whichever hold.
static void applyPrefixes(OpBuilder &b, Location loc, Scan &s,
                          const std::optional<Prefix> &lanes,
                          const std::optional<Prefix> &warps) {
  if (!lanes && !warps)
    return;
  Region &region = s.op.getCombineOp();
  unsigned numOperands = s.values.size();
  for (auto [g, group] : llvm::enumerate(s.groups)) {
    SmallVector<Value> prefix;
    Value valid;
    if (lanes && warps) {
      SmallVector<Value> lanePrefix = groupSlice(lanes->values, g, numOperands);
      SmallVector<Value> warpPrefix = groupSlice(warps->values, g, numOperands);
      SmallVector<Value> both = combine(b, region, warpPrefix, lanePrefix);
      prefix =
          select(b, loc, lanes->valid,
                 select(b, loc, warps->valid, both, lanePrefix), warpPrefix);
      valid = LLVM::OrOp::create(b, loc, lanes->valid, warps->valid);
    } else {
      const Prefix &only = lanes ? *lanes : *warps;
      prefix = groupSlice(only.values, g, numOperands);
      valid = only.valid;
    }
    for (unsigned reg : group.registers) {
      SmallVector<Value> current;
      for (const SmallVector<Value> &operand : s.values)
        current.push_back(operand[reg]);
      SmallVector<Value> updated =
          select(b, loc, valid, combine(b, region, prefix, current), current);
      for (auto [i, value] : llvm::enumerate(updated))
        s.values[i][reg] = value;
    }
  }
}

struct ScanOpConversion : public OpConversionPattern<tt::ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::ScanOp op, OpAdaptor adaptor,
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
    unsigned axis = op.getAxis();

    // Find or build the scan layout.
    LinearLayout scanLayout = *layout;
    std::optional<ScanAxis> split = getScanAxis(scanLayout, axis);
    if (!split) {
      scanLayout = buildScanLayout(srcType.getShape(), axis,
                                   layout->getNumBits(InDim::Lane),
                                   layout->getNumBits(InDim::Warp));
      split = getScanAxis(scanLayout, axis);
      if (!split)
        return op->emitOpError("cannot build a scan layout for ")
               << layout->str();
    }
    bool converted = !(scanLayout == *layout);

    Scan s{op, scanLayout, axis, op.getReverse(), *split, {}, {}, {}, {}};
    for (auto [src, lowered] : llvm::zip(op.getSrcs(), adaptor.getSrcs())) {
      Type elementType = convertElementType(
          cast<RankedTensorType>(src.getType()).getElementType());
      SmallVector<Value> registers = unpack(rewriter, loc, lowered);
      if (registers.size() != layout->getNumRegisters())
        return op->emitOpError("lowered source has ")
               << registers.size() << " registers, its layout "
               << layout->getNumRegisters();
      if (converted)
        registers = convertLayout(rewriter, loc, op, registers, *layout,
                                  scanLayout, elementType);
      s.elementTypes.push_back(elementType);
      s.values.push_back(std::move(registers));
    }
    s.groups = groupRegisters(scanLayout, axis, s.reverse);

    scanInThread(rewriter, s);
    ThreadIds ids = getThreadIds(rewriter, loc);
    std::optional<Prefix> lanes, warps;
    if (s.split.laneBits > 0)
      lanes = scanAcrossLanes(rewriter, loc, s, ids.lane);
    if (!s.split.warpBits.empty())
      warps = scanAcrossWarps(rewriter, loc, s, ids);
    applyPrefixes(rewriter, loc, s, lanes, warps);

    // Duplicated registers take their original's value (the same register
    // with the zero-basis bits cleared).
    unsigned duplicates = scanLayout.getReplicationMask(InDim::Register);
    SmallVector<Value> results;
    for (auto [i, result] : llvm::enumerate(op.getResults())) {
      SmallVector<Value> registers;
      for (unsigned reg = 0, e = scanLayout.getNumRegisters(); reg < e; ++reg)
        registers.push_back(s.values[i][reg & ~duplicates]);
      if (converted)
        registers = convertLayout(rewriter, loc, op, registers, scanLayout,
                                  *layout, s.elementTypes[i]);
      Type structType = getTypeConverter()->convertType(result.getType());
      if (!structType)
        return op->emitOpError("cannot lower the result type ")
               << result.getType();
      results.push_back(pack(rewriter, loc, structType, registers));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void tpx::gpu_lowering::populateScanPatterns(TensorTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<ScanOpConversion>(converter, patterns.getContext());
}
