//===- LowerBlockPointers.cpp - the tpxgpu-lower-block-pointers pass ------===//
//
// A block pointer (!tt.ptr<tensor<...>>) becomes its parts: the base
// pointer, the shape and strides (i64) and the offsets (i32) of each
// dimension; tt.advance adds to the offsets, and a load or store through it
// becomes a masked pointer-tensor access, the mask checking the dimensions
// in its boundaryCheck (BlockValueConversion.h carries the parts through
// control flow and calls). Loop-invariant parts carried by a loop are
// folded away by the canonicalizer.
//
//===----------------------------------------------------------------------===//
#include "BlockAccess.h"
#include "BlockValueConversion.h"

#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"
#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPULOWERBLOCKPOINTERS
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;

static RankedTensorType getBlockType(Type type) {
  auto pointer = dyn_cast<tt::PointerType>(type);
  return pointer ? dyn_cast<RankedTensorType>(pointer.getPointeeType())
                 : RankedTensorType();
}

/// The block a block pointer's parts describe.
static StridedBlock getBlock(ValueRange parts, RankedTensorType blockType) {
  unsigned rank = blockType.getRank();
  StridedBlock block;
  block.base = parts[0];
  block.shape.assign(parts.begin() + 1, parts.begin() + 1 + rank);
  block.strides.assign(parts.begin() + 1 + rank, parts.begin() + 1 + 2 * rank);
  block.offsets.assign(parts.begin() + 1 + 2 * rank, parts.end());
  block.blockType = blockType;
  return block;
}

static SmallVector<Value> getParts(const StridedBlock &block) {
  SmallVector<Value> parts = {block.base};
  llvm::append_range(parts, block.shape);
  llvm::append_range(parts, block.strides);
  llvm::append_range(parts, block.offsets);
  return parts;
}

namespace {
struct MakeTensorPtrConversion : OpConversionPattern<tt::MakeTensorPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::MakeTensorPtrOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> parts = {adaptor.getBase().front()};
    llvm::append_range(parts, flattenParts(adaptor.getShape()));
    llvm::append_range(parts, flattenParts(adaptor.getStrides()));
    llvm::append_range(parts, flattenParts(adaptor.getOffsets()));
    rewriter.replaceOpWithMultiple(op, {parts});
    return success();
  }
};

struct AdvanceConversion : OpConversionPattern<tt::AdvanceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::AdvanceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StridedBlock block = getBlock(adaptor.getPtr(), getBlockType(op.getType()));
    for (auto [offset, delta] :
         llvm::zip_equal(block.offsets, flattenParts(adaptor.getOffsets())))
      offset = arith::AddIOp::create(rewriter, op.getLoc(), offset, delta);
    rewriter.replaceOpWithMultiple(op, {getParts(block)});
    return success();
  }
};

struct LoadConversion : OpConversionPattern<tt::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::LoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType blockType = getBlockType(op.getPtr().getType());
    if (!blockType)
      return failure();
    Location loc = op.getLoc();
    auto [pointers, mask] =
        buildBlockPointers(rewriter, loc, getBlock(adaptor.getPtr(), blockType),
                           op.getBoundaryCheck());
    Value other;
    if (mask)
      other = buildPadding(rewriter, loc, cast<RankedTensorType>(op.getType()),
                           op.getPadding() == tt::PaddingOption::PAD_NAN);
    rewriter.replaceOpWithNewOp<tt::LoadOp>(
        op, pointers, mask, other, ArrayRef<int32_t>{}, /*padding=*/nullptr,
        op.getCache(), op.getEvict(), op.getIsVolatile());
    return success();
  }
};

struct StoreConversion : OpConversionPattern<tt::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::StoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType blockType = getBlockType(op.getPtr().getType());
    if (!blockType)
      return failure();
    auto [pointers, mask] = buildBlockPointers(
        rewriter, op.getLoc(), getBlock(adaptor.getPtr(), blockType),
        op.getBoundaryCheck());
    rewriter.replaceOpWithNewOp<tt::StoreOp>(
        op, pointers, adaptor.getValue().front(), mask, ArrayRef<int32_t>{},
        op.getCache(), op.getEvict());
    return success();
  }
};

struct LowerBlockPointersPass
    : public tpx::impl::TPXGPULowerBlockPointersBase<LowerBlockPointersPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion(
        [](tt::PointerType type,
           SmallVectorImpl<Type> &parts) -> std::optional<LogicalResult> {
          RankedTensorType block = getBlockType(type);
          if (!block)
            return std::nullopt;
          Builder b(type.getContext());
          parts.push_back(tt::PointerType::get(block.getElementType(),
                                               type.getAddressSpace()));
          parts.append(block.getRank(), b.getI64Type()); // shape
          parts.append(block.getRank(), b.getI64Type()); // strides
          parts.append(block.getRank(), b.getI32Type()); // offsets
          return success();
        });
    RewritePatternSet patterns(context);
    patterns.add<MakeTensorPtrConversion, AdvanceConversion, LoadConversion,
                 StoreConversion>(converter, context);
    // What else touches a block pointer stays, for the coverage check to
    // name.
    (void)convertBlockValues(
        getOperation(), converter, std::move(patterns),
        [](Operation *op) {
          return isa<tt::MakeTensorPtrOp, tt::AdvanceOp, tt::LoadOp,
                     tt::StoreOp>(op);
        },
        [](Operation *) { return false; });
  }
};
} // namespace
