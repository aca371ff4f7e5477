//===- TPXGPUAsyncOps.cpp - async copies, mbarriers, TMA, wgmma -----------===//
#include "TPXGPUOpUtils.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tpx::tpxgpu;
using namespace tpx::tpxgpu::detail;

//===----------------------------------------------------------------------===//
// async_copy_global_to_local
//===----------------------------------------------------------------------===//

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  if (failed(verifyDistributedTensor(*this, getSrc().getType(), "pointer")) ||
      failed(verifyMutable(*this, getDst().getType(), "the destination")))
    return failure();
  auto ptrs = getSrc().getType();
  MemDescType dst = getDst().getType();
  auto pointee = cast<RankedTensorType>(tpx::tt::getPointeeTypeOf(ptrs));
  if (failed(verifyTensorMatchesBuffer(*this, pointee, dst, "pointee tensor",
                                       "destination buffer")))
    return failure();
  if (getMask() && getMask().getType() != tpx::tt::getI1SameShape(ptrs))
    return emitOpError() << "mask must be " << tpx::tt::getI1SameShape(ptrs)
                         << " (shaped like the pointers), got "
                         << getMask().getType();
  if (getOther() && getOther().getType() != pointee)
    return emitOpError() << "other must be " << Type(pointee)
                         << " (shaped like the pointees), got "
                         << getOther().getType();
  if (getOther() && !getMask())
    return emitOpError() << "'other' needs a mask (it fills masked-off "
                            "elements)";
  return success();
}

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

/// An mbarrier is one 64-bit word of shared memory that is written.
static LogicalResult verifyBarrier(Operation *op, Value barrier) {
  auto type = cast<MemDescType>(barrier.getType());
  if (type.getShape() != ArrayRef<int64_t>{1} ||
      !type.getElementType().isInteger(64))
    return op->emitOpError() << "barrier must be a 1-element i64 buffer "
                                "(!tpxgpu.memdesc<1xi64, ...>), got "
                             << Type(type);
  return verifyMutable(op, type, "the barrier");
}

LogicalResult InitBarrierOp::verify() {
  return verifyBarrier(*this, getBarrier());
}
LogicalResult BarrierExpectOp::verify() {
  return verifyBarrier(*this, getBarrier());
}
LogicalResult ArriveBarrierOp::verify() {
  return verifyBarrier(*this, getBarrier());
}
LogicalResult BarrierCompleteTxOp::verify() {
  return verifyBarrier(*this, getBarrier());
}
LogicalResult WaitBarrierOp::verify() {
  return verifyBarrier(*this, getBarrier());
}
LogicalResult InvalBarrierOp::verify() {
  return verifyBarrier(*this, getBarrier());
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

/// The coordinates address a block of the descriptor, the buffer holds one
/// block, and it is in the swizzle TMA produces.
static LogicalResult verifyTMA(Operation *op, tpx::tt::TensorDescType desc,
                               ValueRange coords, MemDescType buffer) {
  RankedTensorType block = desc.getBlockType();
  if (coords.size() != static_cast<size_t>(block.getRank()))
    return op->emitOpError()
           << "expects " << block.getRank()
           << " coordinates (the descriptor's block rank), got "
           << coords.size();
  if (!isa<NvmmaSharedEncodingAttr>(buffer.getEncoding()))
    return op->emitOpError() << "TMA moves shared memory in the nvmma_shared "
                                "layout, got "
                             << buffer.getEncoding();
  if (buffer.getShape() != block.getShape() ||
      buffer.getElementType() != block.getElementType())
    return op->emitOpError()
           << "buffer " << Type(buffer) << " does not hold one block "
           << Type(block) << " of the descriptor";
  return success();
}

LogicalResult AsyncTMACopyGlobalToLocalOp::verify() {
  if (failed(verifyBarrier(*this, getBarrier())) ||
      failed(verifyMutable(*this, getDst().getType(), "the destination")))
    return failure();
  return verifyTMA(*this, getDesc().getType(), getCoord(), getDst().getType());
}

LogicalResult AsyncTMACopyLocalToGlobalOp::verify() {
  return verifyTMA(*this, getDesc().getType(), getCoord(), getSrc().getType());
}

//===----------------------------------------------------------------------===//
// warp_group_dot / warp_group_dot_wait
//===----------------------------------------------------------------------===//

static bool isFp8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

LogicalResult WarpGroupDotOp::verify() {
  auto acc = cast<RankedTensorType>(getC().getType());
  auto mma = dyn_cast_or_null<NvidiaMmaEncodingAttr>(acc.getEncoding());
  if (!mma || !mma.isHopper())
    return emitOpError() << "accumulator must have an nvidia_mma version 3 "
                            "(wgmma) layout, got "
                         << Type(acc);
  Type accElement = acc.getElementType();
  if (!accElement.isF32() && !accElement.isF16() &&
      !accElement.isSignlessInteger(32))
    return emitOpError() << "accumulator element must be f32, f16 or i32, "
                            "got "
                         << accElement;

  // A: shared buffer or register tensor in C's operand-A layout.
  ArrayRef<int64_t> aShape;
  Type aElement;
  if (auto aTensor = dyn_cast<RankedTensorType>(getA().getType())) {
    auto dot = dyn_cast_or_null<DotOperandEncodingAttr>(aTensor.getEncoding());
    if (!dot || dot.getOpIdx() != 0 || dot.getParent() != mma)
      return emitOpError() << "register operand A must have a #tpxgpu.dot_op "
                              "layout with opIdx = 0 and the accumulator's "
                              "layout as parent, got "
                           << Type(aTensor);
    aShape = aTensor.getShape();
    aElement = aTensor.getElementType();
  } else {
    auto aBuffer = cast<MemDescType>(getA().getType());
    if (!isa<NvmmaSharedEncodingAttr>(aBuffer.getEncoding()))
      return emitOpError() << "wgmma reads shared operand A in the "
                              "nvmma_shared layout, got "
                           << aBuffer.getEncoding();
    aShape = aBuffer.getShape();
    aElement = aBuffer.getElementType();
  }
  MemDescType b = getB().getType();
  if (!isa<NvmmaSharedEncodingAttr>(b.getEncoding()))
    return emitOpError() << "wgmma reads operand B in the nvmma_shared "
                            "layout, got "
                         << b.getEncoding();
  if (aShape.size() != 2 || b.getRank() != 2)
    return emitOpError() << "operands must be 2-D, got A "
                         << formatShape(aShape) << " and B "
                         << formatShape(b.getShape());
  ArrayRef<int64_t> bShape = b.getShape(), cShape = acc.getShape();
  if (aShape[1] != bShape[0])
    return emitOpError() << "K of A (" << formatShape(aShape)
                         << ") differs from K of B (" << formatShape(bShape)
                         << ")";
  if (cShape[0] != aShape[0] || cShape[1] != bShape[1])
    return emitOpError() << "accumulator " << formatShape(cShape)
                         << " is not M x N = " << aShape[0] << "x" << bShape[1];
  // wgmma mixes the two fp8 formats; otherwise A and B agree.
  Type bElement = b.getElementType();
  if (aElement != bElement && !(isFp8(aElement) && isFp8(bElement)))
    return emitOpError() << "operands A (" << aElement << ") and B ("
                         << bElement << ") must have the same element type";
  if (getMaxNumImpreciseAcc() < 0)
    return emitOpError() << "maxNumImpreciseAcc must be non-negative";
  return success();
}

void WarpGroupDotOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : getOperation()->getOpOperands())
    if (isa<MemDescType>(operand.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SharedMemory::get());
}

LogicalResult WarpGroupDotWaitOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands, DictionaryAttr,
    OpaqueProperties, RegionRange, SmallVectorImpl<Type> &inferredReturnTypes) {
  llvm::append_range(inferredReturnTypes, operands.getTypes());
  return success();
}
