//===- ScanPatterns.cpp - tt.scan on shuffles and shared memory -----------===//
//
// An inclusive scan along `axis` runs on a "scan layout": one with unit
// bases (ReduceScanUtils.h) whose axis bits are, from the lowest axis value
// up: r_a register bits (axis values 1 .. 2^(r_a-1)), then l_a consecutive
// lane bits k0 .. k0+l_a-1 (axis values 2^r_a ..), then w_a warp bits (any
// warp bits, for the rest of the axis). A source already in such a layout
// is scanned in place; any other is converted to one built by hand
// (buildScanLayout) and the results back.
//
// In a scan layout an element's axis coordinate is
//   regPos + 2^r_a * lanePos + 2^(r_a+l_a) * warpPos
// with regPos from the register, lanePos = lane bits k0 .. k0+l_a-1 and
// warpPos from the warp axis bits, while the coordinate off the axis (the
// line) depends only on the register's contribution off the axis and on the
// lane and warp bits off the axis. So a line lies in one register group per
// thread, across the lanes of one "segment" (same lane bits off the axis)
// and across the warps with the same warp bits off the axis. The scan:
//
//  1. In a thread, an inclusive scan of each group over regPos.
//  2. In a warp, a Hillis-Steele inclusive scan of the thread totals over
//     lanePos: the step of distance d combines the value from lanePos - d
//     (a shuffle up by d << k0, which stays in the segment where
//     lanePos >= d; other lanes keep theirs). The inclusive value from
//     lanePos - 1 is then the thread's exclusive prefix within the warp.
//  3. Across warps, each segment's total (the inclusive value at the last
//     lanePos, broadcast over the segment) goes to shared memory at
//     [warpPos][line]; each thread folds the totals from warpPos' < warpPos.
//  4. Every register gets combine(warp prefix, lane prefix, value), each
//     prefix where it exists.
//
// reverse = true scans from the high end: every position is counted from
// the other end (regPos, lanePos and warpPos each mirrored), which turns
// "lane - d" into "lane + d" (an indexed shuffle). Every combine gets the
// part earlier in scan order first, so the result is the sequential scan
// also for combines that do not commute.
//
//===----------------------------------------------------------------------===//
#include "ReduceScanUtils.h"

#include "tpx/Dialect/TT/IR/TTOps.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;
using namespace tpx::gpu_lowering::reduce_scan;

namespace {
/// Where the scan axis lives in a scan layout (see the file comment).
struct ScanAxis {
  unsigned registerBits = 0; // r_a
  unsigned laneShift = 0;    // k0
  unsigned laneBits = 0;     // l_a
  /// The warp bits along the axis, by increasing axis value.
  SmallVector<unsigned> warpBits;
};
} // namespace

/// The axis split of `layout` when it is a scan layout for `axis`.
static std::optional<ScanAxis> getScanAxis(const LinearLayout &layout,
                                           unsigned axis) {
  if (checkUnitBases(layout))
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

  for (auto [bit, basis] : llvm::enumerate(layout.getBases(InDim::Lane))) {
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
/// take min(A, max(E - T, 0)) axis bits, which leaves at most T.
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

static Value icmp(OpBuilder &b, Location loc, LLVM::ICmpPredicate predicate,
                  Value lhs, int64_t rhs) {
  return LLVM::ICmpOp::create(b, loc, predicate, lhs, i32Constant(b, loc, rhs));
}

/// A position in scan order: `index` (in [0, count)) itself, or mirrored
/// for a reverse scan.
static Value toScanPosition(OpBuilder &b, Location loc, Value index,
                            unsigned count, bool reverse) {
  if (!reverse)
    return index;
  return LLVM::SubOp::create(b, loc, i32Constant(b, loc, count - 1), index);
}

namespace {
/// Per group, the fold of everything before a thread in one stage, which
/// applies where `valid` holds.
struct Prefix {
  SmallVector<SmallVector<Value>> values;
  Value valid;
};

/// One scan while it is lowered, on the scan layout.
struct Scan {
  tt::ScanOp op;
  const LinearLayout &layout;
  unsigned axis;
  bool reverse;
  ScanAxis split;
  SmallVector<Type> elementTypes;
  /// Groups with their registers in scan order.
  SmallVector<RegisterGroup> groups;
  /// values[i][reg]: operand i in register `reg` of the scan layout.
  SmallVector<SmallVector<Value>> values;
  /// totals[g]: the inclusive value of group g's last register in scan
  /// order; after stage 2, of its thread's lanePos in the segment.
  SmallVector<SmallVector<Value>> totals;
};
} // namespace

/// Stage 1: each group's registers, scanned in scan order.
static void scanInThread(OpBuilder &b, Scan &s) {
  Region &region = s.op.getCombineOp();
  auto operandsAt = [&](unsigned reg) {
    return llvm::to_vector(llvm::map_range(
        s.values, [&](const SmallVector<Value> &v) { return v[reg]; }));
  };
  for (const RegisterGroup &group : s.groups) {
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
/// totals over lanePos in its segment, and returns the exclusive lane
/// prefix (valid where lanePos >= 1). Hillis-Steele: after the step of
/// distance d the value at lanePos p is the fold of positions
/// max(0, p - 2d + 1) .. p, the earlier window combined first.
static Prefix scanAcrossLanes(OpBuilder &b, Location loc, Scan &s, Value lane) {
  unsigned laneCount = 1u << s.split.laneBits;
  unsigned shift = s.split.laneShift;
  Value shifted =
      LLVM::LShrOp::create(b, loc, lane, i32Constant(b, loc, shift));
  Value laneIndex =
      LLVM::AndOp::create(b, loc, shifted, i32Constant(b, loc, laneCount - 1));
  Value position = toScanPosition(b, loc, laneIndex, laneCount, s.reverse);

  // The values of the lane `distance` positions earlier in scan order: a
  // lower lane for a forward scan, a higher one for a reverse scan (some
  // lane of the warp where there is none; callers ignore those).
  unsigned laneMask = (1u << s.layout.getNumBits(InDim::Lane)) - 1;
  auto fromEarlier = [&](ArrayRef<Value> values, unsigned distance) {
    unsigned delta = distance << shift;
    SmallVector<Value> result;
    for (Value value : values)
      result.push_back(shuffleValue(b, loc, value, [&](Value v) {
        if (!s.reverse)
          return shuffleUp(b, loc, v, delta);
        Value later =
            LLVM::AddOp::create(b, loc, lane, i32Constant(b, loc, delta));
        Value source =
            LLVM::AndOp::create(b, loc, later, i32Constant(b, loc, laneMask));
        return shuffleIndex(b, loc, v, source);
      }));
    return result;
  };

  Region &region = s.op.getCombineOp();
  for (unsigned distance = 1; distance < laneCount; distance *= 2) {
    Value valid = icmp(b, loc, LLVM::ICmpPredicate::uge, position, distance);
    for (SmallVector<Value> &total : s.totals) {
      SmallVector<Value> combined =
          combine(b, region, fromEarlier(total, distance), total);
      total = selectAll(b, loc, valid, combined, total);
    }
  }

  Prefix prefix;
  prefix.valid = icmp(b, loc, LLVM::ICmpPredicate::uge, position, 1);
  for (const SmallVector<Value> &total : s.totals)
    prefix.values.push_back(fromEarlier(total, 1));
  return prefix;
}

/// Stage 3: the fold of the totals of the warps before this one along the
/// axis (same line), through shared memory laid out per operand as
/// [warpPos][row-major line]; valid where warpPos >= 1.
static Prefix scanAcrossWarps(OpBuilder &b, Location loc, Scan &s,
                              const ThreadIds &ids) {
  unsigned warpCount = 1u << s.split.warpBits.size();
  unsigned laneCount = 1u << s.split.laneBits;
  SmallVector<int64_t> lineShape = dropAxis(s.layout.getShape(), s.axis);

  // The segment total sits in the lane at the last lanePos; every lane of
  // the segment takes it, so that all of them store the same value.
  SmallVector<SmallVector<Value>> segmentTotals = s.totals;
  if (laneCount > 1) {
    unsigned segmentBits = (laneCount - 1) << s.split.laneShift;
    Value lastLane =
        s.reverse ? LLVM::AndOp::create(b, loc, ids.lane,
                                        i32Constant(b, loc, ~segmentBits))
                        .getResult()
                  : LLVM::OrOp::create(b, loc, ids.lane,
                                       i32Constant(b, loc, segmentBits))
                        .getResult();
    for (SmallVector<Value> &total : segmentTotals)
      for (Value &value : total)
        value = shuffleValue(b, loc, value, [&](Value v) {
          return shuffleIndex(b, loc, v, lastLane);
        });
  }

  SlotArrays slots =
      allocateSlotArrays(b, loc, s.op, s.elementTypes, warpCount, s.layout,
                         s.axis, s.groups, ids, lineShape);
  auto slotPtr = [&](unsigned operand, Value warpPos, unsigned group) {
    return slots.pointer(b, loc, operand, warpPos, group);
  };

  Value warpIndex = gatherBits(b, loc, ids.warp, s.split.warpBits);
  Value warpPos = toScanPosition(b, loc, warpIndex, warpCount, s.reverse);
  // Another user of the buffer may still be reading it.
  emitBarrier(b, loc);
  for (auto [g, total] : llvm::enumerate(segmentTotals))
    for (auto [i, value] : llvm::enumerate(total))
      storeShared(b, loc, value, slotPtr(i, warpPos, g));
  emitBarrier(b, loc);

  // fold(q): the fold of the totals at warp positions 0 .. q; the warp at
  // position m >= 1 takes fold(m - 1).
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
      chosen = selectAll(b, loc, here, fold, chosen);
    }
    prefix.values.push_back(std::move(chosen));
  }
  return prefix;
}

/// Stage 4: every register becomes combine(prefix, value), the prefix being
/// the warp prefix then the lane prefix, those of them that hold.
static void applyPrefixes(OpBuilder &b, Location loc, Scan &s,
                          const std::optional<Prefix> &lanes,
                          const std::optional<Prefix> &warps) {
  if (!lanes && !warps)
    return;
  Region &region = s.op.getCombineOp();
  for (auto [g, group] : llvm::enumerate(s.groups)) {
    SmallVector<Value> prefix;
    Value valid;
    if (lanes && warps) {
      ArrayRef<Value> lanePrefix = lanes->values[g];
      ArrayRef<Value> warpPrefix = warps->values[g];
      SmallVector<Value> both = combine(b, region, warpPrefix, lanePrefix);
      prefix = selectAll(b, loc, lanes->valid,
                         selectAll(b, loc, warps->valid, both, lanePrefix),
                         warpPrefix);
      valid = LLVM::OrOp::create(b, loc, lanes->valid, warps->valid);
    } else {
      const Prefix &only = lanes ? *lanes : *warps;
      prefix = only.values[g];
      valid = only.valid;
    }
    for (unsigned reg : group.registers) {
      SmallVector<Value> current;
      for (const SmallVector<Value> &operand : s.values)
        current.push_back(operand[reg]);
      SmallVector<Value> updated = selectAll(
          b, loc, valid, combine(b, region, prefix, current), current);
      for (auto [i, value] : llvm::enumerate(updated))
        s.values[i][reg] = value;
    }
  }
}

namespace {
struct ScanOpConversion : public OpConversionPattern<tt::ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Everything that can fail is checked before any IR is created.
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    std::optional<LinearLayout> layout = getSourcesLayout(op, op.getSrcs());
    if (!layout)
      return failure();
    for (Value lowered : adaptor.getSrcs())
      if (getNumFields(lowered.getType()) != layout->getNumRegisters())
        return op->emitOpError("a lowered source does not have the ")
               << layout->getNumRegisters() << " registers of its layout";
    SmallVector<Type> structTypes;
    for (Type type : op.getResultTypes()) {
      // A scan's results have its sources' type, so also their layout.
      structTypes.push_back(getTypeConverter()->convertType(type));
      if (!structTypes.back())
        return op->emitOpError("cannot lower the result type ") << type;
    }
    unsigned axis = op.getAxis();
    LinearLayout scanLayout = *layout;
    std::optional<ScanAxis> split = getScanAxis(scanLayout, axis);
    if (!split) {
      scanLayout = buildScanLayout(srcType.getShape(), axis,
                                   layout->getNumBits(InDim::Lane),
                                   layout->getNumBits(InDim::Warp));
      split = getScanAxis(scanLayout, axis);
      if (!split)
        return op->emitOpError("cannot build a scan layout from ")
               << layout->str();
    }
    bool converted = !(scanLayout == *layout);

    Scan s{op, scanLayout, axis, op.getReverse(), *split, {}, {}, {}, {}};
    for (auto [src, lowered] : llvm::zip(op.getSrcs(), adaptor.getSrcs())) {
      Type elementType = convertElementType(
          cast<RankedTensorType>(src.getType()).getElementType());
      SmallVector<Value> registers = unpack(rewriter, loc, lowered);
      if (converted)
        registers = convertLayout(rewriter, loc, op, registers, *layout,
                                  scanLayout, elementType);
      s.elementTypes.push_back(elementType);
      s.values.push_back(std::move(registers));
    }
    s.groups = groupRegisters(scanLayout, axis);
    if (s.reverse)
      for (RegisterGroup &group : s.groups)
        std::reverse(group.registers.begin(), group.registers.end());

    scanInThread(rewriter, s);
    ThreadIds ids = getThreadIds(rewriter, loc);
    std::optional<Prefix> lanes, warps;
    if (s.split.laneBits > 0)
      lanes = scanAcrossLanes(rewriter, loc, s, ids.lane);
    if (!s.split.warpBits.empty())
      warps = scanAcrossWarps(rewriter, loc, s, ids);
    applyPrefixes(rewriter, loc, s, lanes, warps);

    // A register with a set zero-basis bit takes the value of the one with
    // those bits clear.
    unsigned duplicates = scanLayout.getReplicationMask(InDim::Register);
    SmallVector<Value> results;
    for (auto [i, structType] : llvm::enumerate(structTypes)) {
      SmallVector<Value> registers;
      for (unsigned reg = 0, e = scanLayout.getNumRegisters(); reg < e; ++reg)
        registers.push_back(s.values[i][reg & ~duplicates]);
      if (converted)
        registers = convertLayout(rewriter, loc, op, registers, scanLayout,
                                  *layout, s.elementTypes[i]);
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
