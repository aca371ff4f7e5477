//===- TPXGPUBufferOps.cpp - AMD buffer loads and stores ------------------===//
//
// buffer_load / buffer_store address a tensor as one scalar base pointer
// plus per-element i32 offsets (CDNA's buffer resource and 32-bit VGPR
// offsets). The checks here are what the lowering relies on: the offsets
// line up with the data element for element (same shape and layout), and
// the base is a plain global pointer to the data's element type.
//
//===----------------------------------------------------------------------===//
#include "TPXGPUOpUtils.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tpx::tpxgpu;
using namespace tpx::tpxgpu::detail;

/// The checks both ops share: `data` (the loaded or stored tensor, named
/// `what`) has a distributed layout, `base` points to its element type in
/// global memory, and the offsets and the mask are shaped and laid out
/// like it.
static LogicalResult verifyBufferAccess(Operation *op, StringRef what,
                                        RankedTensorType data, Value base,
                                        Value offsets, Value mask) {
  if (failed(verifyDistributedTensor(op, data, what)))
    return failure();
  auto pointer = cast<tpx::tt::PointerType>(base.getType());
  // TT_ScalarPtr has already refused block pointers.
  Type pointee = pointer.getPointeeType();
  if (pointer.getAddressSpace() != 1)
    return op->emitOpError()
           << "base must be a global pointer (address space 1), got "
           << base.getType();
  if (pointee != data.getElementType())
    return op->emitOpError()
           << what << " elements must be " << pointee << ", what "
           << base.getType() << " points to, got " << data.getElementType();
  auto expectedOffsets = RankedTensorType::get(
      data.getShape(), IntegerType::get(op->getContext(), 32),
      data.getEncoding());
  if (offsets.getType() != expectedOffsets)
    return op->emitOpError()
           << "offsets must be " << Type(expectedOffsets) << " (the " << what
           << "'s shape and layout, i32 elements), got " << offsets.getType();
  Type expectedMask = tpx::tt::getI1SameShape(data);
  if (mask && mask.getType() != expectedMask)
    return op->emitOpError()
           << "mask must be " << expectedMask << " (shaped like the " << what
           << "), got " << mask.getType();
  return success();
}

/// Cache modifiers that mean something for the direction of the access
/// (PTX's: ca/cg/cs/cv for loads, wb/cg/cs/wt for stores).
static LogicalResult
verifyCacheModifier(Operation *op, tpx::tt::CacheModifier cache, bool isLoad) {
  using tpx::tt::CacheModifier;
  bool ok = cache == CacheModifier::NONE || cache == CacheModifier::CG ||
            cache == CacheModifier::CS ||
            (isLoad ? cache == CacheModifier::CA || cache == CacheModifier::CV
                    : cache == CacheModifier::WB || cache == CacheModifier::WT);
  if (!ok)
    return op->emitOpError()
           << "cache modifier '" << stringifyCacheModifier(cache)
           << "' does not apply to a " << (isLoad ? "load" : "store")
           << "; expected one of "
           << (isLoad ? "'ca', 'cg', 'cs', 'cv'" : "'wb', 'cg', 'cs', 'wt'");
  return success();
}

//===----------------------------------------------------------------------===//
// buffer_load
//===----------------------------------------------------------------------===//

LogicalResult BufferLoadOp::verify() {
  RankedTensorType result = getResult().getType();
  if (failed(verifyBufferAccess(*this, "result", result, getBase(),
                                getOffsets(), getMask())) ||
      failed(verifyCacheModifier(*this, getCache(), /*isLoad=*/true)))
    return failure();
  if (getOther() && getOther().getType() != result)
    return emitOpError() << "other must be " << Type(result)
                         << " (the result's type), got "
                         << getOther().getType();
  if (getOther() && !getMask())
    return emitOpError() << "'other' needs a mask (it fills masked-off "
                            "elements)";
  return success();
}

void BufferLoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getBaseMutable(),
                       tpx::tt::GlobalMemory::get());
  // As tt.load: a volatile load is neither removed nor reordered with
  // stores.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(),
                         tpx::tt::GlobalMemory::get());
}

//===----------------------------------------------------------------------===//
// buffer_store
//===----------------------------------------------------------------------===//

LogicalResult BufferStoreOp::verify() {
  return failure(
      failed(verifyBufferAccess(*this, "value", getValue().getType(), getBase(),
                                getOffsets(), getMask())) ||
      failed(verifyCacheModifier(*this, getCache(), /*isLoad=*/false)));
}
