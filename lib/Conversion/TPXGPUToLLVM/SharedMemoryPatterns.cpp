//===- SharedMemoryPatterns.cpp - memdescs and their loads and stores -----===//
//
// The convention every lowering of a memdesc relies on (wgmma descriptors
// included): a `!tpxgpu.memdesc` value becomes an `!llvm.ptr<3>`, the
// address in the kernel's dynamic shared memory (`tpx_shared_memory`) of
// the first element of its buffer or view. Element c of the memdesc (view
// coordinates) lives at that address plus SharedLayout::getByteOffset of c
// in the allocation's address map (TPXGPUSharedLayout.h, with zeros for the
// buffer dimensions the view dropped). This is only right when the view is
// addressed by translation, which memdesc_index always is and
// memdesc_subview checks.
//
//  - local_alloc: the allocation's `tpxgpu.shared-offset` from
//    tpxgpu-allocate-shared-memory, plus its initial value stored;
//  - memdesc_index: + index * the distance between buffers;
//  - memdesc_subview: + the offset of its (static) first element;
//  - local_store / local_load: one access per run of registers holding
//    consecutive elements that are also consecutive in memory (up to 16
//    bytes), ldmatrix for mma.sync operands of 16-bit types, gfx950's
//    transposing reads for runs across the contiguous dimension
//    (AMDTransposedReads.cpp);
//  - local_dealloc: nothing (the allocation pass reuses the bytes).
//
// None of them synchronises: tpxgpu.barrier ops order the threads' accesses
// (tpxgpu-insert-barriers, or the author of the IR).
//
//===----------------------------------------------------------------------===//
#include "SharedView.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUSharedAccess.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUSharedLayout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

FailureOr<SharedView> gpu_lowering::getView(Operation *op, Value memdesc,
                                            Value pointer) {
  auto type = cast<MemDescType>(memdesc.getType());
  std::string why;
  std::optional<SharedLayout> layout = SharedLayout::get(type, &why);
  if (!layout)
    return op->emitOpError("cannot address ") << type << ": " << why;
  return SharedView{*layout, type, pointer};
}

std::optional<int64_t> SharedView::getConstantDistance(const LinearLayout &regs,
                                                       unsigned reg) const {
  unsigned dropped = layout.getAllocShape().size() - regs.getRank();
  auto offsetOf = [&](const Coordinate &coordinate) {
    SmallVector<int64_t> full(dropped, 0);
    full.append(coordinate.begin(), coordinate.end());
    return int64_t(layout.getByteOffset(full));
  };
  std::optional<int64_t> distance;
  for (unsigned warp = 0; warp < regs.getNumWarps(); ++warp)
    for (unsigned lane = 0; lane < regs.getNumLanes(); ++lane) {
      int64_t here = offsetOf(regs.apply(reg, lane, warp)) -
                     offsetOf(regs.apply(0, lane, warp));
      if (distance && *distance != here)
        return std::nullopt;
      distance = here;
    }
  return distance;
}

Value SharedView::registerAddress(OpBuilder &b, Location loc,
                                  const LinearLayout &regs, unsigned reg,
                                  ArrayRef<Value> thread, Value &first) const {
  std::optional<int64_t> distance = getConstantDistance(regs, reg);
  if (!distance)
    return address(b, loc, getElementCoordinate(b, loc, regs, reg, thread));
  if (!first)
    first = address(b, loc, thread);
  if (*distance == 0)
    return first;
  return LLVM::GEPOp::create(b, loc, first.getType(), b.getI8Type(), first,
                             ArrayRef<LLVM::GEPArg>{int32_t(*distance)});
}

unsigned gpu_lowering::getAccessWidth(const SharedView &view,
                                      const LinearLayout &regs,
                                      unsigned bytes) {
  return tpxgpu::getSharedRegisterRun(view.layout, view.type.getRank(), regs,
                                      bytes);
}

unsigned gpu_lowering::alignToRows(const SharedView &view, unsigned width,
                                   unsigned bytes) {
  return tpxgpu::alignSharedAccessToRows(view.layout, width, bytes);
}

static Type storageType(OpBuilder &b, Type element) {
  element = convertElementType(element); // fp8 travels as i8
  return element.isInteger(1) ? b.getI8Type() : element;
}

/// Stores the registers of `values` (a tensor in layout `from`) into the
/// view.
static LogicalResult storeToView(OpBuilder &b, Location loc, Operation *op,
                                 const SharedView &view, ValueRange values,
                                 const LinearLayout &from, Type element) {
  Type storage = storageType(b, element);
  unsigned bytes = getSharedElementBytes(storage);
  unsigned width = alignToRows(view, getAccessWidth(view, from, bytes), bytes);
  auto vector = VectorType::get({width}, storage);
  ThreadIds ids = getThreadIds(b, loc);
  SmallVector<Value> thread = getThreadCoordinate(b, loc, from, ids);
  Value first;
  for (unsigned reg = 0, e = from.getNumRegisters(); reg < e; reg += width) {
    if (!isCanonicalRegister(from, reg))
      continue;
    Value address = view.registerAddress(b, loc, from, reg, thread, first);
    auto toStorage = [&](Value v) -> Value {
      return v.getType() == storage ? v
                                    : LLVM::ZExtOp::create(b, loc, storage, v);
    };
    Value data;
    if (width == 1) {
      data = toStorage(values[reg]);
    } else {
      data = LLVM::UndefOp::create(b, loc, vector);
      for (unsigned i = 0; i < width; ++i)
        data = LLVM::InsertElementOp::create(
            b, loc, data, toStorage(values[reg + i]), i32Constant(b, loc, i));
    }
    LLVM::StoreOp::create(b, loc, data, address, width * bytes);
  }
  return success();
}

/// Reads the registers of layout `to` from the view.
static SmallVector<Value> loadFromView(OpBuilder &b, Location loc,
                                       const SharedView &view,
                                       const LinearLayout &to, Type element) {
  Type storage = storageType(b, element);
  unsigned bytes = getSharedElementBytes(storage);
  unsigned width = alignToRows(view, getAccessWidth(view, to, bytes), bytes);
  auto vector = VectorType::get({width}, storage);
  ThreadIds ids = getThreadIds(b, loc);
  SmallVector<Value> thread = getThreadCoordinate(b, loc, to, ids);
  SmallVector<Value> result;
  auto fromStorage = [&](Value v) -> Value {
    return v.getType() == element ? v
                                  : LLVM::TruncOp::create(b, loc, element, v);
  };
  Value first;
  for (unsigned reg = 0, e = to.getNumRegisters(); reg < e; reg += width) {
    Value address = view.registerAddress(b, loc, to, reg, thread, first);
    if (width == 1) {
      result.push_back(
          fromStorage(LLVM::LoadOp::create(b, loc, storage, address, bytes)));
      continue;
    }
    Value data = LLVM::LoadOp::create(b, loc, vector, address, width * bytes);
    for (unsigned i = 0; i < width; ++i)
      result.push_back(fromStorage(LLVM::ExtractElementOp::create(
          b, loc, data, i32Constant(b, loc, i))));
  }
  return result;
}

/// True when ldmatrix can read the view: 2-D, rows along the last
/// dimension with 8 consecutive 16-bit elements in 16 aligned bytes.
static bool canUseLdmatrix(const SharedView &view) {
  if (view.type.getRank() != 2 || view.contiguousDim() != 1u ||
      view.layout.getElementBytes() != 2 ||
      view.layout.getMaxContiguousElements() < 8)
    return false;
  return alignToRows(view, 8, 2) == 8;
}

namespace {

/// The element type whose bits the registers of `type` hold: fp8 values
/// are bytes (convertElementType), everything else as it is.
static Type getMovedElementType(RankedTensorType type) {
  Type element = type.getElementType();
  if (isa<Float8E4M3FNType, Float8E5M2Type>(element))
    return convertElementType(element);
  return element;
}

struct LocalAllocLowering : public OpConversionPattern<tpxgpu::LocalAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!op->hasAttr(tpxgpu::TPXGPUDialect::kSharedOffsetAttrName))
      return op.emitOpError("has no ")
             << tpxgpu::TPXGPUDialect::kSharedOffsetAttrName
             << ": run tpxgpu-allocate-shared-memory before "
                "convert-tpxgpu-to-nvvm";
    FailureOr<SharedView> view = getView(op, op.getResult(), Value());
    if (failed(view))
      return failure();
    view->pointer =
        getSharedMemoryBase(rewriter, loc, op, view->layout.getTotalBytes());
    if (Value src = op.getSrc()) {
      auto srcType = cast<RankedTensorType>(src.getType());
      std::optional<LinearLayout> layout = getLayout(op, srcType);
      if (!layout)
        return failure();
      if (failed(storeToView(rewriter, loc, op, *view,
                             unpack(rewriter, loc, adaptor.getSrc()), *layout,
                             getMovedElementType(srcType))))
        return failure();
    }
    rewriter.replaceOp(op, view->pointer);
    return success();
  }
};

struct LocalStoreLowering : public OpConversionPattern<tpxgpu::LocalStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<SharedView> view = getView(op, op.getDst(), adaptor.getDst());
    if (failed(view))
      return failure();
    auto srcType = op.getSrc().getType();
    std::optional<LinearLayout> layout = getLayout(op, srcType);
    if (!layout || failed(storeToView(rewriter, loc, op, *view,
                                      unpack(rewriter, loc, adaptor.getSrc()),
                                      *layout, getMovedElementType(srcType))))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct LocalLoadLowering : public OpConversionPattern<tpxgpu::LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<SharedView> view = getView(op, op.getSrc(), adaptor.getSrc());
    if (failed(view))
      return failure();
    RankedTensorType type = op.getType();
    std::optional<LinearLayout> layout = getLayout(op, type);
    if (!layout)
      return failure();
    Type element = getMovedElementType(type);
    SmallVector<Value> registers;
    std::optional<unsigned> operand = getLdmatrixOperand(type);
    if (operand && canUseLdmatrix(*view)) {
      registers = loadMmaOperandWithLdmatrix(
          rewriter, loc, *layout, element, *operand,
          getThreadIds(rewriter, loc), [&](Value row, Value col) {
            return view->address(rewriter, loc, {row, col});
          });
    } else if (std::optional<unsigned> readDim =
                   getTransposedReadDim(op, *view, *layout, element)) {
      registers = loadWithTransposedReads(
          rewriter, loc, *view, *layout, storageType(rewriter, element),
          *readDim, getThreadIds(rewriter, loc));
    } else {
      registers = loadFromView(rewriter, loc, *view, *layout, element);
    }
    Type structType = getTypeConverter()->convertType(type);
    if (!structType)
      return op.emitOpError("cannot lower the result type ") << type;
    rewriter.replaceOp(op, pack(rewriter, loc, structType, registers));
    return success();
  }
};

struct MemDescIndexLowering
    : public OpConversionPattern<tpxgpu::MemDescIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::MemDescIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<SharedView> view = getView(op, op.getSrc(), adaptor.getSrc());
    if (failed(view))
      return failure();
    // The indexed dimension is the source's first; its stride in bytes is
    // the address of index 1 there.
    ArrayRef<int64_t> allocShape = view->layout.getAllocShape();
    unsigned dim = allocShape.size() - view->type.getRank();
    SmallVector<int64_t> step(allocShape.size(), 0);
    step[dim] = 1;
    int64_t stride = view->layout.getByteOffset(step);
    Value offset = LLVM::MulOp::create(rewriter, loc, adaptor.getIndex(),
                                       i32Constant(rewriter, loc, stride));
    rewriter.replaceOp(
        op, LLVM::GEPOp::create(rewriter, loc, view->pointer.getType(),
                                rewriter.getI8Type(), view->pointer,
                                ArrayRef<LLVM::GEPArg>{offset}));
    return success();
  }
};

/// Views at the same address: the result's type already describes the
/// bytes its own way (memdesc_trans: with the dimensions swapped;
/// memdesc_reinterpret: another shape, type or layout).
template <typename ViewOp>
struct SameAddressViewLowering : public OpConversionPattern<ViewOp> {
  using OpConversionPattern<ViewOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ViewOp op, typename ViewOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct MemDescSubviewLowering
    : public OpConversionPattern<tpxgpu::MemDescSubviewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::MemDescSubviewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!op.getOffsets().empty())
      return op.emitOpError("with dynamic offsets is not supported by the "
                            "NVVM lowering yet (use static offsets)");
    FailureOr<SharedView> view = getView(op, op.getSrc(), adaptor.getSrc());
    if (failed(view))
      return failure();
    auto srcType = cast<MemDescType>(op.getSrc().getType());
    ArrayRef<int64_t> allocShape = view->layout.getAllocShape();
    unsigned dropped = allocShape.size() - srcType.getRank();
    // The source must be a whole buffer (an allocation or one of its
    // buffers): a window's own position in the allocation is not known here.
    unsigned tileRank = allocShape.size() - view->layout.getNumBufferDims();
    if (srcType.getRank() < tileRank ||
        srcType.getShape().take_back(tileRank) !=
            allocShape.take_back(tileRank))
      return op.emitOpError("of a window (a view that is not a whole "
                            "buffer) is not supported by the NVVM lowering "
                            "yet");
    SmallVector<int64_t> offsets(dropped, 0), window(dropped, 1);
    llvm::append_range(offsets, op.getStaticOffsets());
    llvm::append_range(window, op.getType().getShape());
    if (!view->layout.isTranslationInvariant(offsets, window))
      return op.emitOpError("at offsets [")
             << op.getStaticOffsets()
             << "] is not addressed by translation in its "
                "layout (the swizzle pattern of the window differs from the "
                "allocation's); choose offsets on whole swizzle blocks";
    int64_t start = view->layout.getByteOffset(offsets);
    if (start % 16)
      return op.emitOpError("starts ")
             << start
             << " bytes into its buffer, which is not 16-byte aligned; "
                "vector accesses need 16";
    rewriter.replaceOp(
        op, LLVM::GEPOp::create(
                rewriter, loc, view->pointer.getType(), rewriter.getI8Type(),
                view->pointer,
                ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(start)}));
    return success();
  }
};

struct LocalDeallocLowering
    : public OpConversionPattern<tpxgpu::LocalDeallocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::LocalDeallocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void gpu_lowering::populateSharedMemoryPatterns(TensorTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<LocalAllocLowering, LocalStoreLowering, LocalLoadLowering,
               MemDescIndexLowering,
               SameAddressViewLowering<tpxgpu::MemDescTransOp>,
               SameAddressViewLowering<tpxgpu::MemDescReinterpretOp>,
               MemDescSubviewLowering, LocalDeallocLowering>(
      converter, patterns.getContext());
}
