//===- BlockPointerPatterns.cpp - block pointers and tensor descriptors ---===//
//
// Block pointers and descriptors have no storage of their own on the host:
// they become their scalar parts (see CPUTypeConverter), and the accesses
// through them become bounds-checked element loops.
//
//===----------------------------------------------------------------------===//
#include "MemoryAccess.h"
#include "TTToCPUCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::cpu;

namespace {

static SmallVector<Value> flattenParts(ArrayRef<ValueRange> operands) {
  SmallVector<Value> values;
  for (ValueRange parts : operands)
    values.append(parts.begin(), parts.end());
  return values;
}

struct MakeTensorPtrOpLowering
    : public OpConversionPattern<tt::MakeTensorPtrOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::MakeTensorPtrOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlockPointerParts parts;
    parts.base = adaptor.getBase().front();
    parts.shape = flattenParts(adaptor.getShape());
    parts.strides = flattenParts(adaptor.getStrides());
    parts.offsets = flattenParts(adaptor.getOffsets());
    rewriter.replaceOpWithMultiple(op, {parts.flatten()});
    return success();
  }
};

struct AdvanceOpLowering : public OpConversionPattern<tt::AdvanceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::AdvanceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    unsigned rank = op.getOffsets().size();
    auto parts = BlockPointerParts::fromValues(adaptor.getPtr(), rank);
    SmallVector<Value> deltas = flattenParts(adaptor.getOffsets());
    for (auto [offset, delta] : llvm::zip(parts.offsets, deltas))
      offset = arith::AddIOp::create(rewriter, op.getLoc(), offset, delta);
    rewriter.replaceOpWithMultiple(op, {parts.flatten()});
    return success();
  }
};

struct MakeTensorDescOpLowering
    : public OpConversionPattern<tt::MakeTensorDescOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::MakeTensorDescOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> values = {adaptor.getBase().front()};
    for (Value v : flattenParts(adaptor.getShape()))
      values.push_back(v);
    for (Value v : flattenParts(adaptor.getStrides()))
      values.push_back(v);
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

/// Block coordinates `indices + ivs` (i64) and the in-bounds predicate of an
/// element of a descriptor block.
static std::pair<SmallVector<Value>, Value>
descriptorElement(OpBuilder &b, Location loc, const TensorDescParts &parts,
                  ValueRange indices, ValueRange ivs) {
  SmallVector<Value> coords;
  for (auto [index, iv] : llvm::zip(indices, ivs))
    coords.push_back(arith::AddIOp::create(b, loc, toI64(b, loc, index),
                                           toI64(b, loc, iv)));
  return {coords, inBounds(b, loc, coords, parts.shape)};
}

/// Padding of a descriptor's out-of-bounds elements: NaN only when the
/// descriptor is made here with padding = nan; zero otherwise.
static bool paddedWithNan(Value desc) {
  auto make = desc.getDefiningOp<tt::MakeTensorDescOp>();
  return make && make.getPadding() == tt::PaddingOption::PAD_NAN;
}

struct DescriptorLoadOpLowering
    : public CPUConversionPattern<tt::DescriptorLoadOp> {
  using CPUConversionPattern::CPUConversionPattern;

  LogicalResult
  matchAndRewrite(tt::DescriptorLoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto descType = cast<tt::TensorDescType>(op.getDesc().getType());
    auto block = cast<RankedTensorType>(
        getTypeConverter()->convertType(descType.getBlockType()));
    auto parts = TensorDescParts::fromValues(adaptor.getDesc(),
                                             block.getRank());
    SmallVector<Value> indices = flattenParts(adaptor.getIndices());
    Type element = block.getElementType();
    int64_t size = getElementByteSize(descType.getBlockType());
    bool nan = paddedWithNan(op.getDesc()) && isa<FloatType>(element);
    Value loaded = buildFromElements(
        rewriter, loc, block,
        [&](OpBuilder &b, Location l, ValueRange ivs) -> Value {
          auto [coords, inside] =
              descriptorElement(b, l, parts, indices, ivs);
          Value address =
              elementAddress(b, l, parts.base, coords, parts.strides, size);
          Value ok = guardAccess(b, l, op, inside, address, size,
                                 /*isWrite=*/false, options.boundsCheck);
          Value v = buildGuarded(
              b, l, ok, element,
              [&](OpBuilder &tb, Location tl) {
                return loadElement(tb, tl, address, element);
              },
              [&](OpBuilder &eb, Location el) -> Value {
                if (nan)
                  return arith::ConstantOp::create(
                      eb, el, element, eb.getFloatAttr(element, NAN));
                return createZero(eb, el, element);
              });
          return v;
        });
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    rewriter.replaceOp(op, reshapeTensor(rewriter, loc, loaded, resultType));
    return success();
  }
};

/// Shared by descriptor_store and descriptor_reduce: visits every in-bounds
/// element of the block with its address and source value.
static void forEachDescriptorElement(
    OpBuilder &b, Location loc, Operation *op, bool boundsCheck,
    Type descTypeRaw, ValueRange descParts, ValueRange indices, Value src,
    const TypeConverter *converter,
    function_ref<void(OpBuilder &, Location, Value address, Value value)>
        body) {
  auto descType = cast<tt::TensorDescType>(descTypeRaw);
  auto block =
      cast<RankedTensorType>(converter->convertType(descType.getBlockType()));
  auto parts = TensorDescParts::fromValues(descParts, block.getRank());
  int64_t size = getElementByteSize(descType.getBlockType());
  Value blockSrc = reshapeTensor(b, loc, src, block);
  buildLoopNest(b, loc, block.getShape(), {},
                [&](OpBuilder &lb, Location l, ValueRange ivs, ValueRange) {
                  auto [coords, inside] =
                      descriptorElement(lb, l, parts, indices, ivs);
                  Value address = elementAddress(lb, l, parts.base, coords,
                                                 parts.strides, size);
                  Value ok = guardAccess(lb, l, op, inside, address, size,
                                         /*isWrite=*/true, boundsCheck);
                  buildGuardedEffect(lb, l, ok, [&](OpBuilder &tb,
                                                    Location tl) {
                    body(tb, tl, address,
                         tensor::ExtractOp::create(tb, tl, blockSrc, ivs));
                  });
                  return SmallVector<Value>();
                });
}

struct DescriptorStoreOpLowering
    : public CPUConversionPattern<tt::DescriptorStoreOp> {
  using CPUConversionPattern::CPUConversionPattern;

  LogicalResult
  matchAndRewrite(tt::DescriptorStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    forEachDescriptorElement(
        rewriter, op.getLoc(), op, options.boundsCheck, op.getDesc().getType(), adaptor.getDesc(),
        flattenParts(adaptor.getIndices()), adaptor.getSrc().front(),
        getTypeConverter(),
        [](OpBuilder &b, Location l, Value address, Value value) {
          storeElement(b, l, address, value);
        });
    rewriter.eraseOp(op);
    return success();
  }
};

static LLVM::AtomicBinOp toBinOp(tt::DescriptorReduceKind kind,
                                 Type element) {
  bool isFloat = isa<FloatType>(element);
  switch (kind) {
  case tt::DescriptorReduceKind::ADD:
    return isFloat ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
  case tt::DescriptorReduceKind::MIN:
    return isFloat ? LLVM::AtomicBinOp::fmin : LLVM::AtomicBinOp::min;
  case tt::DescriptorReduceKind::MAX:
    return isFloat ? LLVM::AtomicBinOp::fmax : LLVM::AtomicBinOp::max;
  case tt::DescriptorReduceKind::INC:
    return LLVM::AtomicBinOp::uinc_wrap;
  case tt::DescriptorReduceKind::DEC:
    return LLVM::AtomicBinOp::udec_wrap;
  case tt::DescriptorReduceKind::AND:
    return LLVM::AtomicBinOp::_and;
  case tt::DescriptorReduceKind::OR:
    return LLVM::AtomicBinOp::_or;
  case tt::DescriptorReduceKind::XOR:
    return LLVM::AtomicBinOp::_xor;
  }
  return LLVM::AtomicBinOp::add;
}

struct DescriptorReduceOpLowering
    : public CPUConversionPattern<tt::DescriptorReduceOp> {
  using CPUConversionPattern::CPUConversionPattern;

  LogicalResult
  matchAndRewrite(tt::DescriptorReduceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type element = getElementTypeOrSelf(adaptor.getSrc().front().getType());
    LLVM::AtomicBinOp kind = toBinOp(op.getKind(), element);
    forEachDescriptorElement(
        rewriter, op.getLoc(), op, options.boundsCheck, op.getDesc().getType(), adaptor.getDesc(),
        flattenParts(adaptor.getIndices()), adaptor.getSrc().front(),
        getTypeConverter(),
        [&](OpBuilder &b, Location l, Value address, Value value) {
          atomicUpdate(b, l, kind, address, value,
                       LLVM::AtomicOrdering::monotonic);
        });
    rewriter.eraseOp(op);
    return success();
  }
};

/// Row `x_offsets[i]`, columns `y_offset + j` of a descriptor with 1xN
/// blocks: visits (i, j) with the element's address and in-bounds flag.
static void forEachGatherElement(
    OpBuilder &b, Location loc, const TensorDescParts &parts,
    Value xOffsets, Value yOffset, ArrayRef<int64_t> shape, int64_t size,
    ValueRange iterInit,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange ivs,
                                    Value address, Value ok, ValueRange iter)>
        body,
    SmallVectorImpl<Value> &results) {
  SmallVector<Value> out = buildLoopNest(
      b, loc, shape, iterInit,
      [&](OpBuilder &lb, Location l, ValueRange ivs, ValueRange iter) {
        Value row = tensor::ExtractOp::create(lb, l, xOffsets, ivs[0]);
        Value col = arith::AddIOp::create(lb, l, toI64(lb, l, yOffset),
                                          toI64(lb, l, ivs[1]));
        SmallVector<Value> coords = {toI64(lb, l, row), col};
        Value ok = inBounds(lb, l, coords, parts.shape);
        Value address =
            elementAddress(lb, l, parts.base, coords, parts.strides, size);
        return body(lb, l, ivs, address, ok, iter);
      });
  results.assign(out.begin(), out.end());
}

struct DescriptorGatherOpLowering
    : public CPUConversionPattern<tt::DescriptorGatherOp> {
  using CPUConversionPattern::CPUConversionPattern;

  LogicalResult
  matchAndRewrite(tt::DescriptorGatherOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto descType = cast<tt::TensorDescType>(op.getDesc().getType());
    auto parts = TensorDescParts::fromValues(adaptor.getDesc(), 2);
    auto resultType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    Type element = resultType.getElementType();
    Value init = createEmptyTensor(rewriter, loc, resultType);
    SmallVector<Value> results;
    forEachGatherElement(
        rewriter, loc, parts, adaptor.getXOffsets().front(),
        adaptor.getYOffset().front(), resultType.getShape(),
        getElementByteSize(descType.getBlockType()), {init},
        [&](OpBuilder &b, Location l, ValueRange ivs, Value address,
            Value inside, ValueRange iter) {
          Value ok = guardAccess(
              b, l, op, inside, address,
              getElementByteSize(descType.getBlockType()), /*isWrite=*/false,
              options.boundsCheck);
          Value v = buildGuarded(
              b, l, ok, element,
              [&](OpBuilder &tb, Location tl) {
                return loadElement(tb, tl, address, element);
              },
              [&](OpBuilder &eb, Location el) {
                return createZero(eb, el, element);
              });
          return SmallVector<Value>{
              tensor::InsertOp::create(b, l, v, iter[0], ivs)};
        },
        results);
    rewriter.replaceOp(op, results[0]);
    return success();
  }
};

struct DescriptorScatterOpLowering
    : public CPUConversionPattern<tt::DescriptorScatterOp> {
  using CPUConversionPattern::CPUConversionPattern;

  LogicalResult
  matchAndRewrite(tt::DescriptorScatterOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto descType = cast<tt::TensorDescType>(op.getDesc().getType());
    auto parts = TensorDescParts::fromValues(adaptor.getDesc(), 2);
    Value src = adaptor.getSrc().front();
    auto srcType = cast<RankedTensorType>(src.getType());
    SmallVector<Value> results;
    forEachGatherElement(
        rewriter, op.getLoc(), parts, adaptor.getXOffsets().front(),
        adaptor.getYOffset().front(), srcType.getShape(),
        getElementByteSize(descType.getBlockType()), {},
        [&](OpBuilder &b, Location l, ValueRange ivs, Value address,
            Value inside, ValueRange) {
          Value ok = guardAccess(
              b, l, op, inside, address,
              getElementByteSize(descType.getBlockType()), /*isWrite=*/true,
              options.boundsCheck);
          buildGuardedEffect(b, l, ok, [&](OpBuilder &tb, Location tl) {
            storeElement(tb, tl, address,
                         tensor::ExtractOp::create(tb, tl, src, ivs));
          });
          return SmallVector<Value>();
        },
        results);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tpx::cpu::populateBlockPointerPatterns(
    CPUTypeConverter &converter, RewritePatternSet &patterns,
    const CPULoweringOptions &options) {
  patterns.add<MakeTensorPtrOpLowering, AdvanceOpLowering,
               MakeTensorDescOpLowering>(converter, patterns.getContext());
  patterns.add<DescriptorLoadOpLowering, DescriptorStoreOpLowering,
               DescriptorReduceOpLowering, DescriptorGatherOpLowering,
               DescriptorScatterOpLowering>(converter, patterns.getContext(),
                                            options);
}
