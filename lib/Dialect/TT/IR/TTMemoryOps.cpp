//===- TTMemoryOps.cpp - pointers, loads, stores, atomics, descriptors ----===//
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace tpx::tt;

static bool isBlockPointer(Type type) {
  auto ptr = dyn_cast<PointerType>(type);
  return ptr && isa<RankedTensorType>(ptr.getPointeeType());
}

/// A mask must be i1 shaped like the pointers it guards.
static LogicalResult verifyMask(Operation *op, Value mask, Type ptrType) {
  if (!mask)
    return success();
  Type expected =
      withElementType(ptrType, IntegerType::get(op->getContext(), 1));
  if (mask.getType() != expected)
    return op->emitOpError("mask type ")
           << mask.getType() << " must be " << expected
           << " (i1 shaped like the pointers)";
  return success();
}

LogicalResult AddPtrOp::verify() {
  Type ptr = getPtr().getType(), offset = getOffset().getType();
  if (getType() != ptr)
    return emitOpError("result type ")
           << getType() << " must equal the pointer type " << ptr;
  if (isa<RankedTensorType>(ptr) != isa<RankedTensorType>(offset) ||
      getShapeOrEmpty(ptr) != getShapeOrEmpty(offset))
    return emitOpError("offset type ")
           << offset << " must have the shape of the pointers " << ptr;
  return success();
}

//===----------------------------------------------------------------------===//
// tt.load / tt.store
//===----------------------------------------------------------------------===//

void LoadOp::build(OpBuilder &builder, OperationState &state, Value ptr,
                   Value mask, Value other) {
  build(builder, state, getPointeeTypeOf(ptr.getType()), ptr, mask, other,
        /*boundaryCheck=*/ArrayRef<int32_t>{}, /*padding=*/nullptr);
}

/// Shared checks of block-pointer accesses: no mask, and boundary-check
/// dimensions within the block's rank.
static LogicalResult verifyBlockAccess(Operation *op, Type ptrType,
                                       ArrayRef<int32_t> boundaryCheck,
                                       bool hasMask) {
  if (!isBlockPointer(ptrType)) {
    if (!boundaryCheck.empty())
      return op->emitOpError(
          "boundaryCheck applies only to block pointers (!tt.ptr<tensor<..>>)");
    return success();
  }
  if (hasMask)
    return op->emitOpError("a block pointer access takes boundaryCheck, not a "
                           "mask");
  auto block =
      cast<RankedTensorType>(cast<PointerType>(ptrType).getPointeeType());
  for (int32_t dim : boundaryCheck)
    if (dim < 0 || dim >= block.getRank())
      return op->emitOpError("boundaryCheck dimension ")
             << dim << " is out of range for a rank-" << block.getRank()
             << " block";
  return success();
}

LogicalResult LoadOp::verify() {
  Type ptr = getPtr().getType();
  Type pointee = getPointeeTypeOf(ptr);
  if (getType() != pointee)
    return emitOpError("result type ") << getType() << " must be " << pointee
                                       << ", what " << ptr << " points to";
  if (failed(verifyBlockAccess(*this, ptr, getBoundaryCheck(),
                               getMask() || getOther())))
    return failure();
  if (getPadding() && !isBlockPointer(ptr))
    return emitOpError("padding applies only to block pointers");
  if (failed(verifyMask(*this, getMask(), ptr)))
    return failure();
  if (Value other = getOther()) {
    if (!getMask())
      return emitOpError("'other' needs a mask");
    if (other.getType() != getType())
      return emitOpError("'other' type ")
             << other.getType() << " must equal the result type " << getType();
  }
  return success();
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       GlobalMemory::get());
  // A volatile load must neither be removed nor reordered with stores.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

LogicalResult StoreOp::verify() {
  Type ptr = getPtr().getType();
  Type pointee = getPointeeTypeOf(ptr);
  if (getValue().getType() != pointee)
    return emitOpError("value type ")
           << getValue().getType() << " must be " << pointee << ", what " << ptr
           << " points to";
  if (failed(verifyBlockAccess(*this, ptr, getBoundaryCheck(),
                               static_cast<bool>(getMask()))))
    return failure();
  return verifyMask(*this, getMask(), ptr);
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

LogicalResult AtomicRMWOp::verify() {
  Type ptr = getPtr().getType();
  Type pointee = getPointeeTypeOf(ptr);
  if (getVal().getType() != pointee)
    return emitOpError("value type ")
           << getVal().getType() << " must be " << pointee << ", what " << ptr
           << " points to";
  if (getType() != getVal().getType())
    return emitOpError("result type must equal the value type");
  if (failed(verifyMask(*this, getMask(), ptr)))
    return failure();
  Type elem = getElementTypeOrSelf(pointee);
  switch (getAtomicRmwOp()) {
  case RMWOp::FADD:
    if (!isa<FloatType>(elem))
      return emitOpError("fadd needs floating-point values, got ") << elem;
    break;
  case RMWOp::AND:
  case RMWOp::OR:
  case RMWOp::XOR:
  case RMWOp::ADD:
  case RMWOp::UMAX:
  case RMWOp::UMIN:
    if (!isa<IntegerType>(elem))
      return emitOpError() << stringifyRMWOp(getAtomicRmwOp())
                           << " needs integer values, got " << elem;
    break;
  case RMWOp::MAX:
  case RMWOp::MIN:
  case RMWOp::XCHG:
    break;
  }
  return success();
}

LogicalResult AtomicCASOp::verify() {
  Type ptr = getPtr().getType();
  Type pointee = getPointeeTypeOf(ptr);
  if (getCmp().getType() != pointee || getVal().getType() != pointee)
    return emitOpError("cmp and val must both be ")
           << pointee << ", what " << ptr << " points to";
  if (getType() != pointee)
    return emitOpError("result type must equal the value type");
  return success();
}

//===----------------------------------------------------------------------===//
// Block pointers
//===----------------------------------------------------------------------===//

LogicalResult MakeTensorPtrOp::verify() {
  auto block = cast<RankedTensorType>(getType().getPointeeType());
  auto base = cast<PointerType>(getBase().getType());
  if (base.getPointeeType() != block.getElementType())
    return emitOpError("base points to ")
           << base.getPointeeType() << " but the block holds "
           << block.getElementType();
  size_t rank = block.getRank();
  if (getShape().size() != rank)
    return emitOpError("needs ")
           << rank << " shape, stride and offset values for a rank-" << rank
           << " block, got " << getShape().size();
  ArrayRef<int32_t> order = getOrder();
  if (order.size() != rank)
    return emitOpError("order has ")
           << order.size() << " entries for a rank-" << rank << " block";
  SmallVector<bool> seen(rank, false);
  for (int32_t dim : order) {
    if (dim < 0 || static_cast<size_t>(dim) >= rank || seen[dim])
      return emitOpError("order must be a permutation of [0, ") << rank << ")";
    seen[dim] = true;
  }
  return success();
}

LogicalResult AdvanceOp::verify() {
  auto block = cast<RankedTensorType>(
      cast<PointerType>(getPtr().getType()).getPointeeType());
  if (static_cast<int64_t>(getOffsets().size()) != block.getRank())
    return emitOpError("needs ")
           << block.getRank() << " offsets for a rank-" << block.getRank()
           << " block, got " << getOffsets().size();
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

static RankedTensorType blockOf(Value desc) {
  return cast<TensorDescType>(desc.getType()).getBlockType();
}

/// A tensor moved through a descriptor holds the block's elements, possibly
/// with size-1 dimensions dropped.
static LogicalResult verifyDescriptorTensor(Operation *op, Value desc,
                                            Type tensorType, size_t numIndices,
                                            StringRef what) {
  RankedTensorType block = blockOf(desc);
  if (numIndices != static_cast<size_t>(block.getRank()))
    return op->emitOpError("needs ")
           << block.getRank() << " indices for a rank-" << block.getRank()
           << " descriptor, got " << numIndices;
  auto tensor = cast<RankedTensorType>(tensorType);
  if (tensor.getElementType() != block.getElementType() ||
      tensor.getNumElements() != block.getNumElements())
    return op->emitOpError()
           << what << " type " << tensor << " does not match the descriptor "
           << "block " << block;
  return success();
}

LogicalResult MakeTensorDescOp::verify() {
  RankedTensorType block = cast<TensorDescType>(getType()).getBlockType();
  auto base = cast<PointerType>(getBase().getType());
  if (base.getPointeeType() != block.getElementType())
    return emitOpError("base points to ")
           << base.getPointeeType() << " but the block holds "
           << block.getElementType();
  if (static_cast<int64_t>(getShape().size()) != block.getRank())
    return emitOpError("needs ")
           << block.getRank() << " shape and stride values for a rank-"
           << block.getRank() << " block, got " << getShape().size();
  if (block.getRank() > 5)
    return emitOpError("descriptor rank must be at most 5, got ")
           << block.getRank();
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  return verifyDescriptorTensor(*this, getDesc(), getType(),
                                getIndices().size(), "result");
}

LogicalResult DescriptorStoreOp::verify() {
  return verifyDescriptorTensor(*this, getDesc(), getSrc().getType(),
                                getIndices().size(), "source");
}

LogicalResult DescriptorReduceOp::verify() {
  return verifyDescriptorTensor(*this, getDesc(), getSrc().getType(),
                                getIndices().size(), "source");
}

/// Gather/scatter move whole rows: the block is 1 x N and the tensor is
/// (number of row offsets) x N.
static LogicalResult verifyRowTransfer(Operation *op, Value desc,
                                       Value xOffsets, Type tensorType) {
  RankedTensorType block = blockOf(desc);
  if (block.getRank() != 2 || block.getDimSize(0) != 1)
    return op->emitOpError("descriptor block must be 1xN, got ") << block;
  auto offsets = cast<RankedTensorType>(xOffsets.getType());
  if (offsets.getRank() != 1)
    return op->emitOpError("x_offsets must be 1-D, got ") << offsets;
  auto tensor = cast<RankedTensorType>(tensorType);
  auto expected = RankedTensorType::get(
      {offsets.getDimSize(0), block.getDimSize(1)}, block.getElementType());
  if (tensor.getShape() != expected.getShape() ||
      tensor.getElementType() != expected.getElementType())
    return op->emitOpError("tensor ") << tensor << " must be " << expected
                                      << " (one row of the block per x offset)";
  return success();
}

LogicalResult DescriptorGatherOp::verify() {
  return verifyRowTransfer(*this, getDesc(), getXOffsets(), getType());
}

LogicalResult DescriptorScatterOp::verify() {
  return verifyRowTransfer(*this, getDesc(), getXOffsets(), getSrc().getType());
}
