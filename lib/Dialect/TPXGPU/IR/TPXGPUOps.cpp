//===- TPXGPUOps.cpp - layout conversion and shared-memory ops ------------===//
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "TPXGPUOpUtils.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUSharedLayout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tpx::tpxgpu;
using namespace tpx::tpxgpu::detail;

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

std::string tpx::tpxgpu::detail::formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, "x");
  return text;
}

LogicalResult tpx::tpxgpu::detail::verifyDistributedTensor(Operation *op,
                                                           Type type,
                                                           StringRef what) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !isDistributedLayout(tensor.getEncoding()))
    return op->emitOpError()
           << what << " must be a tensor with a tpxgpu register layout "
           << "(blocked, slice, nvidia_mma, amd_mfma or dot_op), got " << type;
  return success();
}

LogicalResult tpx::tpxgpu::detail::verifyTensorMatchesBuffer(
    Operation *op, RankedTensorType tensor, MemDescType buffer,
    StringRef tensorWhat, StringRef bufferWhat) {
  if (tensor.getShape() != buffer.getShape())
    return op->emitOpError()
           << tensorWhat << " shape " << formatShape(tensor.getShape())
           << " differs from the " << bufferWhat << " shape "
           << formatShape(buffer.getShape());
  if (tensor.getElementType() != buffer.getElementType())
    return op->emitOpError()
           << tensorWhat << " element type " << tensor.getElementType()
           << " differs from the " << bufferWhat << " element type "
           << buffer.getElementType();
  return success();
}

LogicalResult tpx::tpxgpu::detail::verifyMutable(Operation *op,
                                                 MemDescType buffer,
                                                 StringRef what) {
  if (!buffer.getMutableMemory())
    return op->emitOpError()
           << "cannot write into an immutable buffer (" << what << " is "
           << Type(buffer) << "; allocate it `mutable`)";
  return success();
}

//===----------------------------------------------------------------------===//
// convert_layout
//===----------------------------------------------------------------------===//

LogicalResult ConvertLayoutOp::verify() {
  if (failed(verifyDistributedTensor(*this, getSrc().getType(), "source")) ||
      failed(verifyDistributedTensor(*this, getType(), "result")))
    return failure();
  auto src = getSrc().getType(), result = getType();
  if (src.getShape() != result.getShape())
    return emitOpError() << "changes the shape from "
                         << formatShape(src.getShape()) << " to "
                         << formatShape(result.getShape())
                         << "; only the layout may change";
  if (src.getElementType() != result.getElementType())
    return emitOpError() << "changes the element type from "
                         << src.getElementType() << " to "
                         << result.getElementType()
                         << "; only the layout may change";
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  // convert(convert(x)) converts x directly.
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    getSrcMutable().assign(inner.getSrc());
    if (getSrc().getType() == getType())
      return getSrc();
    return getResult();
  }
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

//===----------------------------------------------------------------------===//
// local_alloc / local_dealloc
//===----------------------------------------------------------------------===//

// `tpxgpu.local_alloc [%src] attr-dict : [tensor-type ->] memdesc-type`
ParseResult LocalAllocOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand src;
  OptionalParseResult hasSrc = parser.parseOptionalOperand(src);
  if (hasSrc.has_value() && failed(*hasSrc))
    return failure();
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  if (hasSrc.has_value()) {
    Type srcType;
    if (parser.parseType(srcType) || parser.parseArrow() ||
        parser.resolveOperand(src, srcType, result.operands))
      return failure();
  }
  Type memType;
  if (parser.parseType(memType))
    return failure();
  result.addTypes(memType);
  return success();
}

void LocalAllocOp::print(OpAsmPrinter &printer) {
  if (getSrc())
    printer << " " << getSrc();
  printer.printOptionalAttrDict((*this)->getAttrs());
  printer << " : ";
  if (getSrc())
    printer << getSrc().getType() << " -> ";
  printer << getType();
}

void LocalAllocOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  OpResult buffer = getOperation()->getOpResult(0);
  effects.emplace_back(MemoryEffects::Allocate::get(), buffer,
                       SharedMemory::get());
  if (getSrc())
    effects.emplace_back(MemoryEffects::Write::get(), buffer,
                         SharedMemory::get());
}

LogicalResult LocalAllocOp::verify() {
  MemDescType buffer = getType();
  if (buffer.getAllocShape() != buffer.getShape())
    return emitOpError() << "returns a whole allocation; its type cannot "
                            "carry an alloc_shape ("
                         << formatShape(buffer.getAllocShape())
                         << ") different from its shape";
  if (!getSrc()) {
    if (!buffer.getMutableMemory())
      return emitOpError() << "without an initial value must return a "
                              "mutable buffer (nothing could ever be written "
                              "to it)";
    return success();
  }
  if (failed(
          verifyDistributedTensor(*this, getSrc().getType(), "initial value")))
    return failure();
  return verifyTensorMatchesBuffer(*this, getSrc().getType(), buffer,
                                   "initial value", "buffer");
}

/// Only what local_alloc made can be freed; a view shares its allocation.
LogicalResult LocalDeallocOp::verify() {
  MemDescType buffer = getSrc().getType();
  Operation *def = getSrc().getDefiningOp();
  if (buffer.getAllocShape() != buffer.getShape() ||
      isa_and_nonnull<MemDescIndexOp, MemDescSubviewOp, MemDescTransOp>(def))
    return emitOpError() << "frees a whole allocation, but its operand is a "
                            "view of one ("
                         << Type(buffer) << "); free the local_alloc result";
  return success();
}

//===----------------------------------------------------------------------===//
// memdesc_index / memdesc_subview
//===----------------------------------------------------------------------===//

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType();
  unsigned layoutRank = getLayoutRank(src.getEncoding());
  if (src.getRank() <= layoutRank)
    return emitOpError() << "needs a source with a leading buffer dimension "
                            "(rank above its layout's "
                         << layoutRank << "), got " << Type(src);
  auto expected = MemDescType::get(src.getShape().drop_front(),
                                   src.getElementType(), src.getEncoding(),
                                   src.getMutableMemory(), src.getAllocShape());
  if (getType() != expected)
    return emitOpError() << "result type must be " << Type(expected)
                         << " (the source without its leading dimension), "
                            "got "
                         << Type(getType());
  return success();
}

/// `shape` with its last two dimensions swapped.
static SmallVector<int64_t> swapLastTwo(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> swapped(shape);
  std::swap(swapped[swapped.size() - 2], swapped.back());
  return swapped;
}

LogicalResult MemDescTransOp::verify() {
  MemDescType src = getSrc().getType();
  Attribute layout = src.getRank() == 2
                         ? getTransposedSharedLayout(src.getEncoding())
                         : Attribute();
  if (!layout)
    return emitOpError() << "transposes a 2-D view of an nvmma_shared or "
                            "2-D padded_shared buffer, got "
                         << Type(src);
  auto expected = MemDescType::get(
      swapLastTwo(src.getShape()), src.getElementType(), layout,
      src.getMutableMemory(), swapLastTwo(src.getAllocShape()));
  if (getType() != expected)
    return emitOpError() << "result type must be " << Type(expected)
                         << " (the source's last two dimensions swapped and "
                            "its layout transposed), got "
                         << Type(getType());
  return success();
}

LogicalResult MemDescReinterpretOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  if (result.getAllocShape() != result.getShape())
    return emitOpError() << "result must be a whole view (alloc_shape = "
                            "shape), got "
                         << Type(result);
  std::string why;
  std::optional<SharedLayout> from = SharedLayout::get(src, &why);
  if (!from)
    return emitOpError() << "source cannot be placed in shared memory: " << why;
  std::optional<SharedLayout> to = SharedLayout::get(result, &why);
  if (!to)
    return emitOpError() << "result cannot be placed in shared memory: " << why;
  // The source view's share of its allocation's bytes.
  int64_t viewElements = 1, allocElements = 1;
  for (int64_t d : src.getShape())
    viewElements *= d;
  for (int64_t d : src.getAllocShape())
    allocElements *= d;
  uint64_t available = from->getTotalBytes() * viewElements / allocElements;
  if (to->getTotalBytes() > available)
    return emitOpError() << "result needs " << to->getTotalBytes()
                         << " bytes, more than the source's " << available;
  return success();
}

LogicalResult MemDescSubviewOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  ArrayRef<int64_t> offsets = getStaticOffsets();
  if (offsets.size() != src.getRank())
    return emitOpError() << "expects " << src.getRank()
                         << " offsets (one per source dimension), got "
                         << offsets.size();
  if (failed(verifyListOfOperandsOrIntegers(*this, "offset", src.getRank(),
                                            offsets, getOffsets())))
    return failure();
  if (result.getRank() != src.getRank())
    return emitOpError() << "keeps the rank: result rank " << result.getRank()
                         << " differs from source rank " << src.getRank();
  if (result.getElementType() != src.getElementType() ||
      result.getEncoding() != src.getEncoding() ||
      result.getMutableMemory() != src.getMutableMemory())
    return emitOpError() << "result must have the source's element type, "
                            "layout and mutability";
  if (result.getAllocShape() != src.getAllocShape())
    return emitOpError() << "result alloc_shape must be the source's ("
                         << formatShape(src.getAllocShape()) << "), got "
                         << formatShape(result.getAllocShape());
  for (unsigned dim = 0; dim < src.getRank(); ++dim) {
    int64_t offset = ShapedType::isDynamic(offsets[dim]) ? 0 : offsets[dim];
    if (offset < 0)
      return emitOpError() << "offset " << offset << " along dimension " << dim
                           << " is negative";
    if (offset + result.getShape()[dim] > src.getShape()[dim])
      return emitOpError() << "window [" << offset << ", "
                           << offset + result.getShape()[dim]
                           << ") along dimension " << dim
                           << " exceeds the source's size "
                           << src.getShape()[dim];
  }
  return success();
}

//===----------------------------------------------------------------------===//
// local_load / local_store
//===----------------------------------------------------------------------===//

LogicalResult LocalLoadOp::verify() {
  if (failed(verifyDistributedTensor(*this, getType(), "result")))
    return failure();
  return verifyTensorMatchesBuffer(*this, getType(), getSrc().getType(),
                                   "result", "buffer");
}

LogicalResult LocalStoreOp::verify() {
  if (failed(verifyDistributedTensor(*this, getSrc().getType(), "value")) ||
      failed(verifyMutable(*this, getDst().getType(), "the destination")))
    return failure();
  return verifyTensorMatchesBuffer(*this, getSrc().getType(),
                                   getDst().getType(), "value", "buffer");
}

#define GET_OP_CLASSES
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.cpp.inc"
