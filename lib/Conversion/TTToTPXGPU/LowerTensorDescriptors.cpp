//===- LowerTensorDescriptors.cpp - tpxgpu-lower-tensor-descriptors -------===//
//
// A tensor descriptor tpxgpu-use-tma cannot move with the copy engine
// (tpxgpu::whyNotTMA) becomes its parts: the base pointer, the shape (i32)
// and strides (i64) of each dimension and whether out-of-bounds elements
// read NaN (i1: the padding travels with the descriptor, so one chosen by
// an `if` keeps its own). Its accesses become masked pointer-tensor loads,
// stores and atomics of base + (index + range) x stride
// (BlockValueConversion.h carries the parts through control flow and
// calls).
//
//===----------------------------------------------------------------------===//
#include "BlockAccess.h"
#include "BlockValueConversion.h"

#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"
#include "tpx/Conversion/TTToTPXGPU/TensorMaps.h"

#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/DenseSet.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPULOWERTENSORDESCRIPTORS
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;

/// A descriptor's parts: base, shape, strides, NaN padding.
namespace {
struct DescriptorParts {
  StridedBlock block;
  Value nan; // i1
};
} // namespace

static DescriptorParts getParts(ValueRange parts, tt::TensorDescType type,
                                ValueRange indices, RankedTensorType tileType) {
  unsigned rank = type.getBlockType().getRank();
  DescriptorParts result;
  StridedBlock &block = result.block;
  block.base = parts[0];
  block.shape.assign(parts.begin() + 1, parts.begin() + 1 + rank);
  block.strides.assign(parts.begin() + 1 + rank, parts.begin() + 1 + 2 * rank);
  block.offsets.assign(indices.begin(), indices.end());
  block.blockType = tileType;
  result.nan = parts[1 + 2 * rank];
  return result;
}

/// The pointers of `block` and the mask of those in bounds (every
/// dimension checked: out of bounds, loads read padding and stores drop).
static std::pair<Value, Value> getAccess(OpBuilder &b, Location loc,
                                         const StridedBlock &block) {
  SmallVector<int32_t> all;
  for (unsigned d = 0, e = block.blockType.getRank(); d < e; ++d)
    all.push_back(d);
  return buildBlockPointers(b, loc, block, all);
}

/// Zero, or NaN where `nan` holds and `type` holds floats.
static Value getPadding(OpBuilder &b, Location loc, RankedTensorType type,
                        Value nan) {
  Value zero = buildPadding(b, loc, type, /*nan=*/false);
  if (!isa<FloatType>(type.getElementType()))
    return zero;
  APInt known;
  if (matchPattern(nan, m_ConstantInt(&known)))
    return known.isZero() ? zero : buildPadding(b, loc, type, /*nan=*/true);
  return arith::SelectOp::create(
      b, loc, nan, buildPadding(b, loc, type, /*nan=*/true), zero);
}

/// The read-modify-write a descriptor reduction does per element; none for
/// the wrapping increment and decrement, which tt.atomic_rmw lacks.
static std::optional<tt::RMWOp> getReduceAtomic(tt::DescriptorReduceKind kind,
                                                Type element) {
  bool isFloat = isa<FloatType>(element);
  switch (kind) {
  case tt::DescriptorReduceKind::ADD:
    return isFloat ? tt::RMWOp::FADD : tt::RMWOp::ADD;
  case tt::DescriptorReduceKind::MIN:
    return tt::RMWOp::MIN;
  case tt::DescriptorReduceKind::MAX:
    return tt::RMWOp::MAX;
  case tt::DescriptorReduceKind::AND:
    return tt::RMWOp::AND;
  case tt::DescriptorReduceKind::OR:
    return tt::RMWOp::OR;
  case tt::DescriptorReduceKind::XOR:
    return tt::RMWOp::XOR;
  case tt::DescriptorReduceKind::INC:
  case tt::DescriptorReduceKind::DEC:
    return std::nullopt;
  }
  return std::nullopt;
}

/// True when this pass can rewrite `op`, which makes or uses descriptors.
static bool canConvert(Operation *op) {
  if (isa<tt::MakeTensorDescOp>(op))
    return true;
  auto blockOf = [](Value desc) {
    return cast<tt::TensorDescType>(desc.getType()).getBlockType();
  };
  if (auto load = dyn_cast<tt::DescriptorLoadOp>(op))
    return load.getType().getShape() == blockOf(load.getDesc()).getShape();
  if (auto store = dyn_cast<tt::DescriptorStoreOp>(op))
    return store.getSrc().getType().getShape() ==
           blockOf(store.getDesc()).getShape();
  if (auto reduce = dyn_cast<tt::DescriptorReduceOp>(op))
    return reduce.getSrc().getType().getShape() ==
               blockOf(reduce.getDesc()).getShape() &&
           getReduceAtomic(reduce.getKind(),
                           reduce.getSrc().getType().getElementType());
  auto isGatherTile = [&](Value desc, RankedTensorType tile) {
    RankedTensorType block = blockOf(desc);
    return block.getRank() == 2 && block.getDimSize(0) == 1 &&
           tile.getRank() == 2 && tile.getDimSize(1) == block.getDimSize(1);
  };
  if (auto gather = dyn_cast<tt::DescriptorGatherOp>(op))
    return isGatherTile(gather.getDesc(), gather.getType());
  if (auto scatter = dyn_cast<tt::DescriptorScatterOp>(op))
    return isGatherTile(scatter.getDesc(), scatter.getSrc().getType());
  return false;
}

namespace {
struct MakeTensorDescConversion : OpConversionPattern<tt::MakeTensorDescOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::MakeTensorDescOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> parts = {adaptor.getBase().front()};
    llvm::append_range(parts, flattenParts(adaptor.getShape()));
    llvm::append_range(parts, flattenParts(adaptor.getStrides()));
    parts.push_back(arith::ConstantIntOp::create(
        rewriter, op.getLoc(), rewriter.getI1Type(),
        op.getPadding() == tt::PaddingOption::PAD_NAN));
    rewriter.replaceOpWithMultiple(op, {parts});
    return success();
  }
};

/// The accesses through a descriptor: loads, stores and reductions of a
/// whole block at `indices`; gathers and scatters of rows `xOffsets`
/// (columns from `yOffset`) of a descriptor with 1 x W blocks.
template <typename Op>
struct DescriptorAccessConversion : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  using OneToNOpAdaptor =
      typename Op::template GenericAdaptor<ArrayRef<ValueRange>>;
  static constexpr bool isLoad = std::is_same_v<Op, tt::DescriptorLoadOp>;
  static constexpr bool isGather = std::is_same_v<Op, tt::DescriptorGatherOp>;
  static constexpr bool isScatter = std::is_same_v<Op, tt::DescriptorScatterOp>;
  static constexpr bool isStore =
      std::is_same_v<Op, tt::DescriptorStoreOp> || isScatter;

  LogicalResult
  matchAndRewrite(Op op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<tt::TensorDescType>(op.getDesc().getType());
    DescriptorParts parts;
    if constexpr (isGather || isScatter) {
      RankedTensorType tile;
      if constexpr (isGather)
        tile = op.getType();
      else
        tile = op.getSrc().getType();
      Value zero =
          arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), 0);
      parts = getParts(adaptor.getDesc(), type,
                       {zero, adaptor.getYOffset().front()}, tile);
      parts.block.rows = adaptor.getXOffsets().front();
    } else {
      parts = getParts(adaptor.getDesc(), type,
                       flattenParts(adaptor.getIndices()), type.getBlockType());
    }
    auto [pointers, mask] = getAccess(rewriter, loc, parts.block);
    if constexpr (isLoad || isGather) {
      // Rows a gather reads out of bounds are zeros, as TMA's gather gives
      // (whatever the descriptor's padding).
      Value padding =
          isGather ? buildPadding(rewriter, loc, op.getType(), /*nan=*/false)
                   : getPadding(rewriter, loc, op.getType(), parts.nan);
      tt::CacheModifier cache = tt::CacheModifier::NONE;
      tt::EvictionPolicy evict = tt::EvictionPolicy::NORMAL;
      if constexpr (isLoad) {
        cache = op.getCache();
        evict = op.getEvict();
      }
      rewriter.replaceOpWithNewOp<tt::LoadOp>(
          op, pointers, mask, padding, ArrayRef<int32_t>{},
          /*padding=*/nullptr, cache, evict, /*isVolatile=*/false);
    } else if constexpr (isStore) {
      tt::StoreOp::create(rewriter, loc, pointers, adaptor.getSrc().front(),
                          mask);
      rewriter.eraseOp(op);
    } else {
      RankedTensorType srcType = op.getSrc().getType();
      tt::AtomicRMWOp::create(
          rewriter, loc, srcType,
          *getReduceAtomic(op.getKind(), srcType.getElementType()), pointers,
          adaptor.getSrc().front(), mask, tt::MemSemantic::RELAXED,
          tt::MemSyncScope::GPU);
      rewriter.eraseOp(op);
    }
    return success();
  }
};

/// True when `desc` stays a descriptor: one tpxgpu-use-tma moves, or a
/// kernel argument (the one-thread path lowers those).
static bool isKeptDescriptor(Value desc,
                             const llvm::DenseSet<Operation *> &tma) {
  if (Operation *def = desc.getDefiningOp())
    return tma.contains(def);
  auto func = dyn_cast_if_present<tt::FuncOp>(
      cast<BlockArgument>(desc).getOwner()->getParentOp());
  return func && func.isPublic();
}

struct LowerTensorDescriptorsPass
    : public tpx::impl::TPXGPULowerTensorDescriptorsBase<
          LowerTensorDescriptorsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // tpxgpu-use-tma moves these (and their loads and stores) with the
    // copy engine: they stay.
    llvm::DenseSet<Operation *> tma;
    getOperation().walk([&](tt::MakeTensorDescOp desc) {
      if (tpxgpu::whyNotTMA(desc).empty())
        tma.insert(desc);
    });
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion(
        [](tt::TensorDescType type,
           SmallVectorImpl<Type> &parts) -> std::optional<LogicalResult> {
          RankedTensorType block = type.getBlockType();
          Builder b(type.getContext());
          parts.push_back(tt::PointerType::get(block.getElementType(), 1));
          parts.append(block.getRank(), b.getI32Type()); // shape
          parts.append(block.getRank(), b.getI64Type()); // strides
          parts.push_back(b.getI1Type());                // NaN padding
          return success();
        });
    RewritePatternSet patterns(context);
    patterns.add<MakeTensorDescConversion,
                 DescriptorAccessConversion<tt::DescriptorLoadOp>,
                 DescriptorAccessConversion<tt::DescriptorStoreOp>,
                 DescriptorAccessConversion<tt::DescriptorReduceOp>,
                 DescriptorAccessConversion<tt::DescriptorGatherOp>,
                 DescriptorAccessConversion<tt::DescriptorScatterOp>>(converter,
                                                                      context);
    // What else touches a descriptor stays, for the coverage check to name.
    (void)convertBlockValues(
        getOperation(), converter, std::move(patterns), canConvert,
        [&](Operation *op) {
          if (tma.contains(op))
            return true;
          if (auto func = dyn_cast<tt::FuncOp>(op))
            return func.isPublic();
          auto isDesc = [](Value v) {
            return isa<tt::TensorDescType>(v.getType());
          };
          return llvm::any_of(op->getOperands(), isDesc) &&
                 llvm::none_of(op->getResults(), isDesc) &&
                 llvm::all_of(op->getOperands(), [&](Value v) {
                   return !isDesc(v) || isKeptDescriptor(v, tma);
                 });
        });
  }
};

} // namespace
