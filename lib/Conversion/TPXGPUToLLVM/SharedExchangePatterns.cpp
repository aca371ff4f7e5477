//===- SharedExchangePatterns.cpp - cat, gather and histogram -------------===//
//
// Ops whose result elements come from arbitrary elements of their operands
// (tt.cat, tt.gather) or from all of them (tt.histogram) meet in the op's
// scratch in the kernel's dynamic shared memory (placed by
// tpxgpu-allocate-shared-memory, getScratchBytes): barrier (earlier readers
// of those bytes are done), write, barrier, read. Tiles are row-major
// without padding: the reads are either the result's layout walking the
// tile as the writes did (cat) or data-dependent (gather, histogram).
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"
#include "ROCDLPrimitives.h"

#include "tpx/Dialect/TT/IR/TTOps.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

/// The unpadded tile of `shape` elements of `elementType` (a tensor element
/// type) in `op`'s scratch.
static SharedTile getScratchTile(OpBuilder &b, Location loc, Operation *op,
                                 Type elementType, ArrayRef<int64_t> shape) {
  return getSharedTile(b, loc, op,
                       getSharedStorageType(b, convertElementType(elementType)),
                       shape);
}

/// How many consecutive registers of `layout` one access moves: a run along
/// the last dimension within 16 bytes. In a row-major tile whose rows are
/// as long as the layout's (or that only offsets rows by a multiple of the
/// run), such a run is contiguous and aligned to its size (the scratch
/// starts 128-byte aligned).
static unsigned getAccessWidth(const LinearLayout &layout, unsigned bytes) {
  return layout.getRegisterRun(layout.getRank() - 1, std::max(1u, 16 / bytes));
}

static SmallVector<Value> sameCoordinate(ArrayRef<Value> c) {
  return SmallVector<Value>(c);
}

/// Writes the canonical registers of `values` (in `layout`) to the tile at
/// `toTile(coordinate)`; replicas would write the same values.
static void storeRegisters(OpBuilder &b, Location loc, const SharedTile &tile,
                           ValueRange values, const LinearLayout &layout,
                           const ThreadIds &ids, CoordinateMap toTile) {
  unsigned width = getAccessWidth(layout, tile.bytes);
  auto vector = VectorType::get({width}, tile.storage);
  SmallVector<Value> thread = getThreadCoordinate(b, loc, layout, ids);
  for (unsigned reg = 0, e = layout.getNumRegisters(); reg < e; reg += width) {
    if (!isCanonicalRegister(layout, reg))
      continue;
    Value index = linearize(
        b, loc, toTile(getElementCoordinate(b, loc, layout, reg, thread)),
        tile.shape);
    Value data;
    if (width == 1) {
      data = toSharedStorage(b, loc, values[reg], tile.storage);
    } else {
      data = LLVM::UndefOp::create(b, loc, vector);
      for (unsigned i = 0; i < width; ++i)
        data = LLVM::InsertElementOp::create(
            b, loc, data,
            toSharedStorage(b, loc, values[reg + i], tile.storage),
            i32Constant(b, loc, i));
    }
    LLVM::StoreOp::create(b, loc, data, tile.address(b, loc, index),
                          width * tile.bytes);
  }
}

/// Reads every register of `layout` (elements of lowered type `type`) from
/// the tile at `toTile(coordinate)`; replicated registers repeat the first
/// copy.
static SmallVector<Value> loadRegisters(OpBuilder &b, Location loc,
                                        const SharedTile &tile,
                                        const LinearLayout &layout, Type type,
                                        const ThreadIds &ids,
                                        CoordinateMap toTile) {
  unsigned width = getAccessWidth(layout, tile.bytes);
  auto vector = VectorType::get({width}, tile.storage);
  unsigned replicas = layout.getReplicationMask(LinearLayout::Register);
  SmallVector<Value> thread = getThreadCoordinate(b, loc, layout, ids);
  SmallVector<Value> result;
  for (unsigned reg = 0, e = layout.getNumRegisters(); reg < e; reg += width) {
    if (!isCanonicalRegister(layout, reg)) {
      // The run bits are below the replicated ones: the copy is the run
      // at reg & ~replicas, element for element.
      for (unsigned i = 0; i < width; ++i)
        result.push_back(result[(reg + i) & ~replicas]);
      continue;
    }
    Value index = linearize(
        b, loc, toTile(getElementCoordinate(b, loc, layout, reg, thread)),
        tile.shape);
    Value address = tile.address(b, loc, index);
    if (width == 1) {
      result.push_back(fromSharedStorage(
          b, loc,
          LLVM::LoadOp::create(b, loc, tile.storage, address, tile.bytes),
          type));
      continue;
    }
    Value data =
        LLVM::LoadOp::create(b, loc, vector, address, width * tile.bytes);
    for (unsigned i = 0; i < width; ++i)
      result.push_back(fromSharedStorage(
          b, loc,
          LLVM::ExtractElementOp::create(b, loc, data, i32Constant(b, loc, i)),
          type));
  }
  return result;
}

/// An integer register as i32 (sign-extended, as Triton reads indices and
/// histogram values) or, when wider, as it is.
static Value toAtLeastI32(OpBuilder &b, Location loc, Value value) {
  if (value.getType().getIntOrFloatBitWidth() >= 32)
    return value;
  return LLVM::SExtOp::create(b, loc, b.getI32Type(), value);
}

/// An integer constant of `type` (i32 or i64).
static Value intConstant(OpBuilder &b, Location loc, Type type, int64_t v) {
  return type.isInteger(64) ? i64Constant(b, loc, v) : i32Constant(b, loc, v);
}

namespace {

/// tt.cat along dimension 0, lhs then rhs (Triton leaves the order free;
/// the CPU target and users expect this one): the operands are written to
/// rows [0, N) and [N, 2N) of a tile of the result's shape, which the
/// result reads in its layout.
struct CatLowering : public OpConversionPattern<tt::CatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::CatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType operandType = op.getLhs().getType();
    RankedTensorType resultType = op.getType();
    int64_t rows = operandType.getDimSize(0);
    if (resultType.getDimSize(0) != 2 * rows ||
        resultType.getShape().drop_front() !=
            operandType.getShape().drop_front())
      return op.emitOpError("concatenates along dimension 0: expected the "
                            "result to have twice the operands' rows, got ")
             << operandType << " -> " << resultType;
    std::optional<LinearLayout> from = getLayout(op, operandType);
    std::optional<LinearLayout> to = getLayout(op, resultType);
    Type lowered = getTypeConverter()->convertType(resultType);
    if (!from || !to || !lowered)
      return failure();

    Location loc = op.getLoc();
    SharedTile tile = getScratchTile(
        rewriter, loc, op, resultType.getElementType(), resultType.getShape());
    ThreadIds ids = getThreadIds(rewriter, loc);
    // Earlier readers of the scratch must be done before it is overwritten.
    emitBarrier(rewriter, loc);
    storeRegisters(rewriter, loc, tile, unpack(rewriter, loc, adaptor.getLhs()),
                   *from, ids, sameCoordinate);
    Value offset = i32Constant(rewriter, loc, rows);
    auto belowLhs = [&](ArrayRef<Value> c) {
      SmallVector<Value> result(c);
      result[0] = LLVM::AddOp::create(rewriter, loc, result[0], offset);
      return result;
    };
    storeRegisters(rewriter, loc, tile, unpack(rewriter, loc, adaptor.getRhs()),
                   *from, ids, belowLhs);
    emitBarrier(rewriter, loc);
    SmallVector<Value> result = loadRegisters(
        rewriter, loc, tile, *to,
        convertElementType(resultType.getElementType()), ids, sameCoordinate);
    rewriter.replaceOp(op, pack(rewriter, loc, lowered, result));
    return success();
  }
};

/// tt.gather: result[c] = src[c with c[axis] = indices[c]]. The source is
/// written to a tile of its shape; each result register reads the element
/// its index register names. The indices share the result's layout
/// (convert-tt-to-tpxgpu converts them to it), so register r of both is
/// one element.
struct GatherLowering : public OpConversionPattern<tt::GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType srcType = op.getSrc().getType();
    RankedTensorType indexType = op.getIndices().getType();
    RankedTensorType resultType = op.getType();
    std::optional<LinearLayout> from = getLayout(op, srcType);
    std::optional<LinearLayout> indexLayout = getLayout(op, indexType);
    std::optional<LinearLayout> to = getLayout(op, resultType);
    Type lowered = getTypeConverter()->convertType(resultType);
    if (!from || !indexLayout || !to || !lowered)
      return failure();
    if (!(*indexLayout == *to))
      return op.emitOpError("needs its indices in the result's layout "
                            "(convert-tt-to-tpxgpu converts them), got ")
             << indexType << " for " << resultType;
    unsigned axis = op.getAxis();
    int64_t axisSize = srcType.getDimSize(axis);
    if (!llvm::isPowerOf2_64(axisSize))
      return op.emitOpError("needs a power-of-two source dimension ")
             << axis << ", got " << srcType;

    Location loc = op.getLoc();
    SharedTile tile = getScratchTile(
        rewriter, loc, op, srcType.getElementType(), srcType.getShape());
    ThreadIds ids = getThreadIds(rewriter, loc);
    emitBarrier(rewriter, loc);
    storeRegisters(rewriter, loc, tile, unpack(rewriter, loc, adaptor.getSrc()),
                   *from, ids, sameCoordinate);
    emitBarrier(rewriter, loc);

    Type type = convertElementType(resultType.getElementType());
    SmallVector<Value> indices = unpack(rewriter, loc, adaptor.getIndices());
    SmallVector<Value> thread = getThreadCoordinate(rewriter, loc, *to, ids);
    unsigned replicas = to->getReplicationMask(LinearLayout::Register);
    // Out-of-range indices are undefined behaviour in Triton; wrapping
    // them keeps every read inside the tile.
    Value axisMask = i32Constant(rewriter, loc, axisSize - 1);
    SmallVector<Value> result;
    for (unsigned reg = 0, e = to->getNumRegisters(); reg < e; ++reg) {
      if (reg & replicas) {
        result.push_back(result[reg & ~replicas]);
        continue;
      }
      SmallVector<Value> coordinate =
          getElementCoordinate(rewriter, loc, *to, reg, thread);
      Value index = toAtLeastI32(rewriter, loc, indices[reg]);
      if (!index.getType().isInteger(32))
        index =
            LLVM::TruncOp::create(rewriter, loc, rewriter.getI32Type(), index);
      coordinate[axis] = LLVM::AndOp::create(rewriter, loc, index, axisMask);
      Value address = tile.address(
          rewriter, loc, linearize(rewriter, loc, coordinate, tile.shape));
      result.push_back(
          fromSharedStorage(rewriter, loc,
                            LLVM::LoadOp::create(rewriter, loc, tile.storage,
                                                 address, tile.bytes),
                            type));
    }
    rewriter.replaceOp(op, pack(rewriter, loc, lowered, result));
    return success();
  }
};

/// tt.histogram: counts of the values in [0, bins), masked-off ones not
/// counted. The counts live in the scratch: every thread zeroes the bins
/// of its result registers, then the owner of each source element (one
/// thread per element, so replicas count once) adds 1 to its bin with a
/// shared-memory atomic when the value is in range and not masked off, and
/// the result registers read the totals.
struct HistogramLowering : public OpConversionPattern<tt::HistogramOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType srcType = op.getSrc().getType();
    RankedTensorType resultType = op.getType();
    Type countType = resultType.getElementType();
    if (!countType.isInteger(32) && !countType.isInteger(64))
      return op.emitOpError("counts in i32 or i64 on the SIMT path, got ")
             << resultType;
    int64_t bins = resultType.getDimSize(0);
    if (!llvm::isPowerOf2_64(bins))
      return op.emitOpError("needs a power-of-two number of bins, got ")
             << bins;
    std::optional<LinearLayout> from = getLayout(op, srcType);
    std::optional<LinearLayout> to = getLayout(op, resultType);
    Type lowered = getTypeConverter()->convertType(resultType);
    if (!from || !to || !lowered)
      return failure();
    Value mask = op.getMask();
    if (auto maskType =
            mask ? dyn_cast<RankedTensorType>(mask.getType()) : nullptr) {
      std::optional<LinearLayout> maskLayout = getLayout(op, maskType);
      if (!maskLayout)
        return failure();
      if (!(*maskLayout == *from))
        return op.emitOpError("needs its mask in the source's layout "
                              "(convert-tt-to-tpxgpu converts it), got ")
               << maskType << " for " << srcType;
    }

    Location loc = op.getLoc();
    SharedTile tile = getScratchTile(rewriter, loc, op, countType, {bins});
    ThreadIds ids = getThreadIds(rewriter, loc);
    emitBarrier(rewriter, loc);
    // Replicas of a bin write the same zero: no owner test needed.
    SmallVector<Value> resultThread =
        getThreadCoordinate(rewriter, loc, *to, ids);
    Value zero = intConstant(rewriter, loc, countType, 0);
    for (unsigned reg = 0, e = to->getNumRegisters(); reg < e; ++reg) {
      if (!isCanonicalRegister(*to, reg))
        continue;
      Value bin =
          getElementCoordinate(rewriter, loc, *to, reg, resultThread)[0];
      LLVM::StoreOp::create(rewriter, loc, zero,
                            tile.address(rewriter, loc, bin), tile.bytes);
    }
    emitBarrier(rewriter, loc);

    SmallVector<Value> values = unpack(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> masks;
    if (adaptor.getMask()) {
      masks = unpack(rewriter, loc, adaptor.getMask());
      if (masks.size() == 1)
        masks.assign(values.size(), masks.front());
    }
    Value owner = getOwnerPredicate(rewriter, loc, op, from);
    // Counted within each warp first, as Triton does: per source register,
    // one ballot of the counted lanes and one per bit of the bin index;
    // lane l owns bins l, l + 32, ... (l alone below 32 bins) and counts
    // the lanes whose bin matches its own in every bit (popc of the ANDed
    // ballots, each inverted where the bin's bit is 0). Only the warp's
    // totals then meet in shared memory: bins / 32 reductions a lane
    // instead of one per element (half of Triton's speed, measured).
    // Ballots are as wide as the warp: 32 lanes on NVIDIA, 64 on AMD.
    Type i32 = rewriter.getI32Type();
    unsigned warpSize = getWarpSize(rewriter);
    bool amd = targetsAMD(rewriter);
    Type laneMaskType = rewriter.getIntegerType(warpSize);
    auto c32 = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
    auto cMask = [&](int64_t v) {
      return intConstant(rewriter, loc, laneMaskType, v);
    };
    auto ballot = [&](Value predicate) {
      if (amd)
        return rocdl::ballot(rewriter, loc, predicate);
      return inlinePtx(rewriter, loc, i32, predicate,
                       "vote.sync.ballot.b32 $0, $1, 0xffffffff;", "=r,b",
                       /*sideEffects=*/true);
    };
    unsigned bitsOfBin = llvm::Log2_64(bins);
    unsigned laneBits = std::min(bitsOfBin, llvm::Log2_32(warpSize));
    int64_t ownedBins = std::max<int64_t>(1, bins / warpSize);
    Value allOnes = cMask(-1);
    // Where a lane's own bin bit b (b < laneBits) is 0, the ballot is
    // inverted: XOR with (bit - 1), all ones for 0 and zero for 1.
    Value lane = ids.lane;
    if (laneMaskType != i32)
      lane = LLVM::ZExtOp::create(rewriter, loc, laneMaskType, lane);
    SmallVector<Value> laneFlips;
    for (unsigned b = 0; b < laneBits; ++b) {
      Value bit = LLVM::AndOp::create(
          rewriter, loc, LLVM::LShrOp::create(rewriter, loc, lane, cMask(b)),
          cMask(1));
      laneFlips.push_back(LLVM::SubOp::create(rewriter, loc, bit, cMask(1)));
    }
    SmallVector<Value> counts(ownedBins, c32(0));
    for (unsigned reg = 0, e = from->getNumRegisters(); reg < e; ++reg) {
      if (!isCanonicalRegister(*from, reg))
        continue;
      Value value = toAtLeastI32(rewriter, loc, values[reg]);
      Type valueType = value.getType();
      // One unsigned comparison: negative values are large unsigned ones.
      Value counted =
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult, value,
                               intConstant(rewriter, loc, valueType, bins));
      if (owner)
        counted = LLVM::AndOp::create(rewriter, loc, counted, owner);
      if (!masks.empty())
        counted = LLVM::AndOp::create(rewriter, loc, counted, masks[reg]);
      Value bin = value;
      if (!valueType.isInteger(32))
        bin = LLVM::TruncOp::create(rewriter, loc, i32, bin);
      SmallVector<Value> bitBallots;
      for (unsigned b = 0; b < bitsOfBin; ++b) {
        Value set = LLVM::ICmpOp::create(
            rewriter, loc, LLVM::ICmpPredicate::ne,
            LLVM::AndOp::create(rewriter, loc, bin, c32(int64_t(1) << b)),
            c32(0));
        bitBallots.push_back(
            ballot(LLVM::AndOp::create(rewriter, loc, counted, set)));
      }
      Value lanesMatch = ballot(counted);
      for (unsigned b = 0; b < laneBits; ++b)
        lanesMatch = LLVM::AndOp::create(
            rewriter, loc, lanesMatch,
            LLVM::XOrOp::create(rewriter, loc, bitBallots[b], laneFlips[b]));
      for (int64_t j = 0; j < ownedBins; ++j) {
        Value match = lanesMatch;
        for (unsigned b = laneBits; b < bitsOfBin; ++b) {
          bool set = (j >> (b - laneBits)) & 1;
          match = LLVM::AndOp::create(
              rewriter, loc, match,
              set ? bitBallots[b]
                  : LLVM::XOrOp::create(rewriter, loc, bitBallots[b], allOnes)
                        .getResult());
        }
        Value matches =
            LLVM::CtPopOp::create(rewriter, loc, laneMaskType, match);
        if (laneMaskType != i32)
          matches = LLVM::TruncOp::create(rewriter, loc, i32, matches);
        counts[j] = LLVM::AddOp::create(rewriter, loc, counts[j], matches);
      }
    }
    // Each lane adds its bins' warp totals (lanes past the bins own none).
    unsigned countBits = countType.getIntOrFloatBitWidth();
    Value ownsBin = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::ult, ids.lane, c32(bins));
    for (int64_t j = 0; j < ownedBins; ++j) {
      Value bin =
          LLVM::AddOp::create(rewriter, loc, ids.lane, c32(warpSize * j));
      Value count = counts[j];
      if (countBits == 64)
        count = LLVM::ZExtOp::create(rewriter, loc, countType, count);
      Value nonZero = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::ne, counts[j], c32(0));
      Value predicate = LLVM::AndOp::create(rewriter, loc, ownsBin, nonZero);
      if (amd) {
        // LDS atomics at workgroup scope; relaxed: the barrier below
        // orders them before the reads.
        (void)rocdl::atomicWhere(
            rewriter, loc, countType, tile.address(rewriter, loc, bin), count,
            Value(), tt::RMWOp::ADD, predicate, tt::MemSemantic::RELAXED,
            tt::MemSyncScope::CTA);
        continue;
      }
      inlinePtx(
          rewriter, loc, Type(),
          {tile.address(rewriter, loc, bin), count, predicate},
          llvm::formatv("@$2 red.shared.add.u{0} [ $0 ], $1;", countBits).str(),
          countBits == 64 ? "r,l,b" : "r,r,b", /*sideEffects=*/true);
    }
    emitBarrier(rewriter, loc);

    unsigned replicas = to->getReplicationMask(LinearLayout::Register);
    SmallVector<Value> result;
    for (unsigned reg = 0, e = to->getNumRegisters(); reg < e; ++reg) {
      if (reg & replicas) {
        result.push_back(result[reg & ~replicas]);
        continue;
      }
      Value bin =
          getElementCoordinate(rewriter, loc, *to, reg, resultThread)[0];
      result.push_back(LLVM::LoadOp::create(rewriter, loc, countType,
                                            tile.address(rewriter, loc, bin),
                                            tile.bytes));
    }
    rewriter.replaceOp(op, pack(rewriter, loc, lowered, result));
    return success();
  }
};

} // namespace

void gpu_lowering::populateSharedExchangePatterns(
    TensorTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<CatLowering, GatherLowering, HistogramLowering>(
      converter, patterns.getContext());
}
