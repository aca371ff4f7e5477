//===- MemoryPatterns.cpp - tt.load/store/atomics to guarded LLVM accesses ===//
#include "MemoryAccess.h"
#include "TTToCPUCommon.h"

#include "tpx/Conversion/LLVMAtomics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <functional>

using namespace mlir;
using namespace tpx;
using namespace tpx::cpu;

namespace {

/// The first value of an optional 1:N operand, or null.
static Value single(ValueRange parts) {
  return parts.empty() ? Value() : parts.front();
}

/// Address and in-bounds predicate of the block-pointer element at `ivs`.
static std::pair<Value, Value> blockElement(OpBuilder &b, Location loc,
                                            const BlockPointerParts &parts,
                                            ValueRange ivs,
                                            ArrayRef<int32_t> boundaryCheck,
                                            int64_t elementSize) {
  SmallVector<Value> indices;
  for (auto [offset, iv] : llvm::zip(parts.offsets, ivs))
    indices.push_back(arith::AddIOp::create(b, loc, toI64(b, loc, offset),
                                            toI64(b, loc, iv)));
  Value address =
      elementAddress(b, loc, parts.base, indices, parts.strides, elementSize);
  SmallVector<Value> checked, bounds;
  for (int32_t dim : boundaryCheck) {
    checked.push_back(indices[dim]);
    bounds.push_back(parts.shape[dim]);
  }
  return {address, inBounds(b, loc, checked, bounds)};
}

struct LoadOpLowering : public CPUConversionPattern<tt::LoadOp> {
  using CPUConversionPattern::CPUConversionPattern;

  LogicalResult
  matchAndRewrite(tt::LoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type element = getElementTypeOrSelf(resultType);
    bool isVolatile = op.getIsVolatile();
    ValueRange ptrParts = adaptor.getPtr();
    Value mask = single(adaptor.getMask());
    Value other = single(adaptor.getOther());

    auto ptrType = dyn_cast<tt::PointerType>(op.getPtr().getType());
    if (ptrType && isa<RankedTensorType>(ptrType.getPointeeType())) {
      auto block = cast<RankedTensorType>(resultType);
      auto parts = BlockPointerParts::fromValues(ptrParts, block.getRank());
      bool nanPadding =
          op.getPadding() && *op.getPadding() == tt::PaddingOption::PAD_NAN;
      int64_t size = getElementByteSize(op.getType());
      Value result = buildFromElements(
          rewriter, loc, block,
          [&](OpBuilder &b, Location l, ValueRange ivs) -> Value {
            auto [address, inside] =
                blockElement(b, l, parts, ivs, op.getBoundaryCheck(), size);
            Value ok = guardAccess(b, l, op, inside, address, size,
                                   /*isWrite=*/false, options.boundsCheck);
            Value v = buildGuarded(
                b, l, ok, element,
                [&](OpBuilder &tb, Location tl) {
                  return loadElement(tb, tl, address, element, isVolatile);
                },
                [&](OpBuilder &eb, Location el) -> Value {
                  if (nanPadding && isa<FloatType>(element))
                    return arith::ConstantOp::create(
                        eb, el, element,
                        eb.getFloatAttr(element, std::nan("")));
                  return createZero(eb, el, element);
                });
            return v;
          });
      rewriter.replaceOp(op, result);
      return success();
    }

    Value ptrs = ptrParts.front();
    int64_t accessSize = getElementByteSize(getMemoryType(element));
    auto loadAt = [&](OpBuilder &b, Location l, ValueRange ivs) {
      Value address = extractElement(b, l, ptrs, ivs);
      Value m = mask ? extractElement(b, l, mask, ivs) : Value();
      m = guardAccess(b, l, op, m, address, accessSize, /*isWrite=*/false,
                      options.boundsCheck);
      return buildGuarded(
          b, l, m, element,
          [&](OpBuilder &tb, Location tl) {
            return loadElement(tb, tl, address, element, isVolatile);
          },
          [&](OpBuilder &eb, Location el) -> Value {
            // Masked-off lanes take `other`, or zero when it is absent.
            return other ? extractElement(eb, el, other, ivs)
                         : createZero(eb, el, element);
          });
    };
    rewriter.replaceOp(op,
                       buildFromElements(rewriter, loc, resultType, loadAt));
    return success();
  }
};

struct StoreOpLowering : public CPUConversionPattern<tt::StoreOp> {
  using CPUConversionPattern::CPUConversionPattern;

  LogicalResult
  matchAndRewrite(tt::StoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange ptrParts = adaptor.getPtr();
    Value value = single(adaptor.getValue());
    Value mask = single(adaptor.getMask());
    auto valueType = dyn_cast<RankedTensorType>(value.getType());
    ArrayRef<int64_t> shape =
        valueType ? valueType.getShape() : ArrayRef<int64_t>();

    // Address of each element and whether it is stored: a block pointer
    // checks its boundaryCheck dimensions, a tensor of pointers its mask.
    std::function<std::pair<Value, Value>(OpBuilder &, Location, ValueRange)>
        locate;
    int64_t accessSize;
    auto ptrType = dyn_cast<tt::PointerType>(op.getPtr().getType());
    if (ptrType && isa<RankedTensorType>(ptrType.getPointeeType())) {
      auto parts = BlockPointerParts::fromValues(ptrParts, shape.size());
      accessSize = getElementByteSize(op.getValue().getType());
      locate = [&, parts](OpBuilder &b, Location l, ValueRange ivs) {
        return blockElement(b, l, parts, ivs, op.getBoundaryCheck(),
                            accessSize);
      };
    } else {
      Value ptrs = ptrParts.front();
      accessSize = getElementByteSize(
          getMemoryType(getElementTypeOrSelf(value.getType())));
      locate = [&, ptrs](OpBuilder &b, Location l, ValueRange ivs) {
        Value m = mask ? extractElement(b, l, mask, ivs) : Value();
        return std::make_pair(extractElement(b, l, ptrs, ivs), m);
      };
    }
    buildLoopNest(
        rewriter, loc, shape, {},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange) {
          auto [address, active] = locate(b, l, ivs);
          Value ok = guardAccess(b, l, op, active, address, accessSize,
                                 /*isWrite=*/true, options.boundsCheck);
          buildGuardedEffect(b, l, ok, [&](OpBuilder &tb, Location tl) {
            storeElement(tb, tl, address, extractElement(tb, tl, value, ivs));
          });
          return SmallVector<Value>();
        });
    rewriter.eraseOp(op);
    return success();
  }
};

struct AtomicRMWOpLowering : public CPUConversionPattern<tt::AtomicRMWOp> {
  using CPUConversionPattern::CPUConversionPattern;

  LogicalResult
  matchAndRewrite(tt::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type element = getElementTypeOrSelf(resultType);
    std::optional<LLVM::AtomicBinOp> kind =
        getLLVMAtomicBinOp(op.getAtomicRmwOp(), element);
    if (!kind)
      return op.emitError("no LLVM atomic for '")
             << tt::stringifyRMWOp(op.getAtomicRmwOp()) << "' on " << element;
    LLVM::AtomicOrdering order = getLLVMAtomicOrdering(op.getSem());
    Value ptrs = adaptor.getPtr(), vals = adaptor.getVal();
    Value mask = adaptor.getMask();
    int64_t accessSize = getElementByteSize(element);
    auto updateAt = [&](OpBuilder &b, Location l, ValueRange ivs) {
      Value m = mask ? extractElement(b, l, mask, ivs) : Value();
      Value address = extractElement(b, l, ptrs, ivs);
      m = guardAccess(b, l, op, m, address, accessSize, /*isWrite=*/true,
                      options.boundsCheck);
      return buildGuarded(
          b, l, m, element,
          [&](OpBuilder &tb, Location tl) {
            return atomicUpdate(tb, tl, *kind, address,
                                extractElement(tb, tl, vals, ivs), order);
          },
          [&](OpBuilder &eb, Location el) {
            return createZero(eb, el, element);
          });
    };
    rewriter.replaceOp(op,
                       buildFromElements(rewriter, loc, resultType, updateAt));
    return success();
  }
};

struct AtomicCASOpLowering : public CPUConversionPattern<tt::AtomicCASOp> {
  using CPUConversionPattern::CPUConversionPattern;

  LogicalResult
  matchAndRewrite(tt::AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type element = getElementTypeOrSelf(resultType);
    LLVM::AtomicOrdering success_ = getLLVMAtomicOrdering(op.getSem());
    // A failed exchange only reads: it cannot have release semantics.
    LLVM::AtomicOrdering failure =
        success_ == LLVM::AtomicOrdering::acq_rel
            ? LLVM::AtomicOrdering::acquire
            : (success_ == LLVM::AtomicOrdering::release
                   ? LLVM::AtomicOrdering::monotonic
                   : success_);
    // cmpxchg works on integers: floats travel as their bits.
    Type intType =
        element.isIntOrIndex()
            ? element
            : rewriter.getIntegerType(element.getIntOrFloatBitWidth());
    int64_t accessSize = getElementByteSize(element);
    auto casAt = [&](OpBuilder &b, Location l, ValueRange ivs) -> Value {
      Value address = extractElement(b, l, adaptor.getPtr(), ivs);
      Value ok = guardAccess(b, l, op, Value(), address, accessSize,
                             /*isWrite=*/true, options.boundsCheck);
      return buildGuarded(
          b, l, ok, element,
          [&](OpBuilder &tb, Location tl) -> Value {
            Value cmp = extractElement(tb, tl, adaptor.getCmp(), ivs);
            Value val = extractElement(tb, tl, adaptor.getVal(), ivs);
            if (intType != element) {
              cmp = arith::BitcastOp::create(tb, tl, intType, cmp);
              val = arith::BitcastOp::create(tb, tl, intType, val);
            }
            Value pair = LLVM::AtomicCmpXchgOp::create(
                tb, tl, toLLVMPointer(tb, tl, address), cmp, val, success_,
                failure);
            Value old = LLVM::ExtractValueOp::create(tb, tl, pair, 0);
            if (intType != element)
              old = arith::BitcastOp::create(tb, tl, element, old);
            return old;
          },
          [&](OpBuilder &eb, Location el) {
            return createZero(eb, el, element);
          });
    };
    rewriter.replaceOp(op, buildFromElements(rewriter, loc, resultType, casAt));
    return success();
  }
};

} // namespace

void tpx::cpu::populateMemoryPatterns(CPUTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      const CPULoweringOptions &options) {
  patterns.add<LoadOpLowering, StoreOpLowering, AtomicRMWOpLowering,
               AtomicCASOpLowering>(converter, patterns.getContext(), options);
}
