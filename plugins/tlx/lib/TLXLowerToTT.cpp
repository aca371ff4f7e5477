//===- TLXLowerToTT.cpp - tlx-lower-to-tt: TLX as plain TTIR --------------===//
//
// The CPU runs a program (thread block) as one thread, so TLX's semantics
// there are those of a program that waits for every async operation at
// once: an async copy is a load followed by a store into the buffer, a
// commit or wait group does nothing, an async dot is a tt.dot whose result
// is ready at once. That is exactly TLX's contract (a buffer is read only
// after the wait that completes its copy, a dot's result only after its
// wait), so every correct TLX program computes the same values.
//
// Buffers become memory on the program's stack (an llvm.alloca in the
// function's entry block) addressed through `!tt.ptr<T, 3>`; the CPU target's
// tt lowering does the rest. A buffer value carries its element strides:
// local_trans permutes them, local_slice offsets the pointer. The strides
// are compile-time facts recovered from the chain of views; a transposed or
// sliced view may therefore not be carried through control flow (it would
// lose them), which is diagnosed.
//
//===----------------------------------------------------------------------===//
#include "TLXLowerToTT.h"

#include "TLX/TLXDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::tlx;

namespace {
/// Buffers are shared memory (address space 3, as in Triton's TTIR): the CPU
/// target's bounds checks cover global memory only.
constexpr int kSharedAddressSpace = 3;

using Strides = SmallVector<int64_t, 4>;

Strides getRowMajorStrides(ArrayRef<int64_t> shape) {
  Strides strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// Element strides of every buffer value of the module, from the chain of
/// views that made it. Values that are not made by a view op (block
/// arguments) are row-major.
class BufferStrides {
public:
  LogicalResult compute(Operation *root) {
    WalkResult result = root->walk([&](Operation *op) {
      for (Value value : op->getResults())
        if (auto type = dyn_cast<BufferType>(value.getType()))
          if (failed(add(value, type)))
            return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  ArrayRef<int64_t> get(Value buffer) {
    auto it = strides.find(buffer);
    if (it != strides.end())
      return it->second;
    auto type = cast<BufferType>(buffer.getType());
    return strides.try_emplace(buffer, getRowMajorStrides(type.getShape()))
        .first->second;
  }

private:
  LogicalResult add(Value value, BufferType type) {
    Operation *op = value.getDefiningOp();
    Strides result;
    if (auto view = dyn_cast<LocalViewOp>(op)) {
      result.assign(get(view.getBuffers()).drop_front());
    } else if (auto trans = dyn_cast<LocalTransOp>(op)) {
      ArrayRef<int64_t> source = get(trans.getSrc());
      for (int32_t dim : trans.getOrder())
        result.push_back(source[dim]);
    } else if (auto slice = dyn_cast<LocalSliceOp>(op)) {
      result.assign(get(slice.getSrc()));
    } else if (auto reinterpret = dyn_cast<LocalReinterpretOp>(op)) {
      auto source = cast<BufferType>(reinterpret.getSrc().getType());
      if (get(reinterpret.getSrc()) !=
          ArrayRef<int64_t>(getRowMajorStrides(source.getShape())))
        return op->emitOpError("of a transposed or sliced view is not "
                               "supported; reinterpret the whole buffer");
      result = getRowMajorStrides(type.getShape());
    } else {
      result = getRowMajorStrides(type.getShape());
    }
    if (result != ArrayRef<int64_t>(getRowMajorStrides(type.getShape())))
      for (Operation *user : value.getUsers())
        if (!isa<TLXDialect>(user->getDialect()))
          return user->emitOpError("takes a transposed or sliced TLX view, "
                                   "which cannot be carried through control "
                                   "flow or calls on this target; take the "
                                   "view where it is used");
    strides[value] = std::move(result);
    return success();
  }

  DenseMap<Value, Strides> strides;
};

Value getI32Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
}

Value getZeros(OpBuilder &b, Location loc, RankedTensorType type) {
  return arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
}

/// The tensor of pointers to every element of a buffer at `base` with
/// `strides`: base + sum over d of range(shape[d]) * strides[d].
Value getElementPointers(OpBuilder &b, Location loc, Value base,
                         ArrayRef<int64_t> shape, ArrayRef<int64_t> strides) {
  unsigned rank = shape.size();
  Type i32 = b.getI32Type();
  auto full = RankedTensorType::get(shape, i32);
  Value offsets;
  for (unsigned d = 0; d < rank; ++d) {
    if (shape[d] == 1)
      continue;
    Value line =
        tt::MakeRangeOp::create(b, loc, RankedTensorType::get({shape[d]}, i32),
                                0, static_cast<uint32_t>(shape[d]));
    SmallVector<int64_t> current = {shape[d]};
    for (unsigned a = 0; a < rank; ++a) {
      if (a == d)
        continue;
      current.insert(current.begin() + a, 1);
      line =
          tt::ExpandDimsOp::create(b, loc, RankedTensorType::get(current, i32),
                                   line, b.getI32IntegerAttr(a));
    }
    if (rank > 1)
      line = tt::BroadcastOp::create(b, loc, full, line);
    if (strides[d] != 1)
      line = arith::MulIOp::create(
          b, loc, line,
          arith::ConstantOp::create(
              b, loc,
              DenseElementsAttr::get(full, b.getI32IntegerAttr(strides[d]))));
    offsets = offsets ? arith::AddIOp::create(b, loc, offsets, line) : line;
  }
  if (!offsets)
    offsets = getZeros(b, loc, full);
  auto pointers = RankedTensorType::get(shape, base.getType());
  return tt::AddPtrOp::create(
      b, loc, pointers, tt::SplatOp::create(b, loc, pointers, base), offsets);
}

/// What the patterns share: the buffers' strides.
template <typename Op> class TLXPattern : public OpConversionPattern<Op> {
public:
  TLXPattern(const TypeConverter &converter, MLIRContext *context,
             BufferStrides &strides)
      : OpConversionPattern<Op>(converter, context), strides(strides) {}

protected:
  /// Pointers to the elements of `buffer` (the original value; `base` is
  /// its converted pointer).
  Value getPointers(OpBuilder &b, Location loc, Value buffer,
                    Value base) const {
    auto type = cast<BufferType>(buffer.getType());
    return getElementPointers(b, loc, base, type.getShape(),
                              strides.get(buffer));
  }

  Value load(OpBuilder &b, Location loc, Value buffer, Value base) const {
    return tt::LoadOp::create(b, loc, getPointers(b, loc, buffer, base),
                              Value(), Value());
  }

  BufferStrides &strides;
};

struct LocalAllocLowering : TLXPattern<LocalAllocOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type pointer = getTypeConverter()->convertType(op.getType());
    Location loc = op.getLoc();
    if (Value reuse = adaptor.getReuse()) {
      rewriter.replaceOpWithNewOp<tt::BitcastOp>(op, pointer, reuse);
      return success();
    }
    auto function = op->getParentOfType<FunctionOpInterface>();
    if (!function || function.getFunctionBody().empty())
      return rewriter.notifyMatchFailure(op, "not inside a function");
    // In the entry block, so that an allocation inside a loop does not grow
    // the stack every iteration; the size is static.
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&function.getFunctionBody().front());
    Value bytes = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI64Type(),
        rewriter.getI64IntegerAttr(op.getType().getSizeInBytes()));
    auto llvmPointer = LLVM::LLVMPointerType::get(rewriter.getContext());
    Value memory = LLVM::AllocaOp::create(rewriter, loc, llvmPointer,
                                          rewriter.getI8Type(), bytes,
                                          /*alignment=*/64);
    Value address =
        LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), memory);
    Value base = tt::IntToPtrOp::create(rewriter, loc, pointer, address);
    rewriter.replaceOp(op, base);
    return success();
  }
};

struct LocalViewLowering : TLXPattern<LocalViewOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(LocalViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t stride = strides.get(op.getBuffers()).front();
    Value offset = arith::MulIOp::create(rewriter, loc, adaptor.getIndex(),
                                         getI32Constant(rewriter, loc, stride));
    rewriter.replaceOpWithNewOp<tt::AddPtrOp>(
        op, adaptor.getBuffers().getType(), adaptor.getBuffers(), offset);
    return success();
  }
};

struct LocalTransLowering : TLXPattern<LocalTransOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(LocalTransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The same first element; only the strides (known statically) change.
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct LocalSliceLowering : TLXPattern<LocalSliceOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(LocalSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int64_t> source = strides.get(op.getSrc());
    int64_t offset = 0;
    for (auto [dim, start] : llvm::enumerate(op.getOffsets()))
      offset += start * source[dim];
    rewriter.replaceOpWithNewOp<tt::AddPtrOp>(
        op, adaptor.getSrc().getType(), adaptor.getSrc(),
        getI32Constant(rewriter, op.getLoc(), offset));
    return success();
  }
};

struct LocalReinterpretLowering : TLXPattern<LocalReinterpretOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(LocalReinterpretOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type pointer = getTypeConverter()->convertType(op.getType());
    if (pointer == adaptor.getSrc().getType())
      rewriter.replaceOp(op, adaptor.getSrc());
    else
      rewriter.replaceOpWithNewOp<tt::BitcastOp>(op, pointer, adaptor.getSrc());
    return success();
  }
};

struct LocalLoadLowering : TLXPattern<LocalLoadOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, load(rewriter, op.getLoc(), op.getBuffer(), adaptor.getBuffer()));
    return success();
  }
};

struct LocalStoreLowering : TLXPattern<LocalStoreOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tt::StoreOp::create(
        rewriter, loc,
        getPointers(rewriter, loc, op.getBuffer(), adaptor.getBuffer()),
        adaptor.getValue(), Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncLoadLowering : TLXPattern<AsyncLoadOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(AsyncLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value mask = adaptor.getMask(), other = adaptor.getOther();
    // Masked-off elements of an async copy are zero-filled (cp.async with
    // a source size of 0), unlike a plain load's undefined ones.
    if (mask && !other)
      other = getZeros(
          rewriter, loc,
          RankedTensorType::get(op.getBuffer().getType().getShape(),
                                op.getBuffer().getType().getElementType()));
    Value value = tt::LoadOp::create(
        rewriter, loc, adaptor.getPtrs(), mask, other, ArrayRef<int32_t>{},
        /*padding=*/nullptr, op.getCache(), op.getEvict(), op.getIsVolatile());
    tt::StoreOp::create(
        rewriter, loc,
        getPointers(rewriter, loc, op.getBuffer(), adaptor.getBuffer()), value,
        Value());
    rewriter.replaceOp(op, getI32Constant(rewriter, loc, 0));
    return success();
  }
};

/// Commit and wait groups: every copy has completed when it was issued.
template <typename Op> struct TokenLowering : TLXPattern<Op> {
  using TLXPattern<Op>::TLXPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, getI32Constant(rewriter, op.getLoc(), 0));
    return success();
  }
};

struct AsyncDotLowering : TLXPattern<AsyncDotOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(AsyncDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto operand = [&](Value original, Value converted) {
      return isa<BufferType>(original.getType())
                 ? load(rewriter, loc, original, converted)
                 : converted;
    };
    Value a = operand(op.getA(), adaptor.getA());
    Value b = operand(op.getB(), adaptor.getB());
    Value c = adaptor.getC();
    if (Value useAcc = adaptor.getUseAcc())
      c = arith::SelectOp::create(
          rewriter, loc, useAcc, c,
          getZeros(rewriter, loc, cast<RankedTensorType>(c.getType())));
    rewriter.replaceOpWithNewOp<tt::DotOp>(op, c.getType(), a, b, c,
                                           op.getInputPrecision(),
                                           op.getMaxNumImpreciseAcc());
    return success();
  }
};

struct AsyncDotWaitLowering : TLXPattern<AsyncDotWaitOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(AsyncDotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInputs());
    return success();
  }
};
} // namespace

LogicalResult tpx::tlx::lowerToTT(Operation *root) {
  MLIRContext *context = root->getContext();
  BufferStrides strides;
  if (failed(strides.compute(root)))
    return failure();

  TypeConverter converter;
  converter.addConversion([](Type type) { return type; });
  converter.addConversion([](BufferType type) -> Type {
    return tt::PointerType::get(type.getElementType(), kSharedAddressSpace);
  });
  converter.addConversion([](AsyncTokenType type) -> Type {
    return IntegerType::get(type.getContext(), 32);
  });

  ConversionTarget target(*context);
  target.addIllegalDialect<TLXDialect>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  RewritePatternSet patterns(context);
  patterns
      .add<LocalAllocLowering, LocalViewLowering, LocalTransLowering,
           LocalSliceLowering, LocalReinterpretLowering, LocalLoadLowering,
           LocalStoreLowering, AsyncLoadLowering,
           TokenLowering<AsyncCommitGroupOp>, TokenLowering<AsyncWaitGroupOp>,
           AsyncDotLowering, AsyncDotWaitLowering>(converter, context, strides);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  return applyPartialConversion(root, target, std::move(patterns));
}
