//===- TPXGPUSharedLayout.h - shared layouts as address maps ----*- C++ -*-===//
//
// A shared-memory layout (swizzled_shared, padded_shared, nvmma_shared) on an
// allocation of a given shape is a map from element coordinates to byte
// offsets from the start of the allocation. This file is that map and the
// facts a lowering needs from it: the bytes of one buffer, the distance
// between buffers, the base alignment, and the longest run of consecutive
// elements that is contiguous in memory (the widest vector access).
//
// The offset function is written once, as a template over the arithmetic
// (`emitByteOffset`), so that the compile-time evaluation (`getByteOffset`,
// used by tests and analyses) and the IR a lowering emits for a run-time
// coordinate are the same function.
//
// Coordinates are over the allocation's dimensions: leading dimensions beyond
// the layout's rank are buffer dimensions (buffer b of a multi-buffered
// allocation starts at b * getBufferStride()); the trailing ones are the tile.
//
// nvmma_shared (the layout wgmma and TMA use): a 2-D tile [D0, D1] whose
// contiguous dimension is 1 (0 when `transposed`); `inner` is its extent,
// `outer` the other's, `eb` the element bytes and S the swizzle width. The
// inner dimension is cut into column blocks of w = S / eb elements:
//   off = (i / w) * (outer * S) + o * S + (i % w) * eb
//   off ^= ((off >> 7) & (S / 16 - 1)) << 4
// S = 0 is plain row-major (w = inner, no XOR). Buffers are 1024-byte
// aligned because the hardware swizzles absolute addresses.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_DIALECT_TPXGPU_IR_TPXGPUSHAREDLAYOUT_H
#define TPX_DIALECT_TPXGPU_IR_TPXGPUSHAREDLAYOUT_H

#include "mlir/IR/Attributes.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tpx::tpxgpu {

class MemDescType;

class SharedLayout {
public:
  enum class Kind { Padded, Swizzled, Nvmma };

  /// The address map of `encoding` on an allocation of `allocShape` holding
  /// elements of `elementBits` bits. None (with the reason in `error`) when
  /// the encoding is not a shared layout or the shape does not fit it
  /// (swizzled and nvmma tiles need power-of-two extents; nvmma rows must
  /// hold whole swizzle blocks).
  static std::optional<SharedLayout> get(mlir::Attribute encoding,
                                         llvm::ArrayRef<int64_t> allocShape,
                                         unsigned elementBits,
                                         std::string *error = nullptr);
  /// The same for a memdesc (its encoding, alloc_shape and element type).
  static std::optional<SharedLayout> get(MemDescType type,
                                         std::string *error = nullptr);

  Kind getKind() const { return kind; }
  llvm::ArrayRef<int64_t> getAllocShape() const { return allocShape; }
  unsigned getNumBufferDims() const { return numBufferDims; }
  unsigned getElementBytes() const { return elementBytes; }
  /// Index (into the allocation's dimensions) of the dimension whose
  /// consecutive elements are adjacent in memory.
  unsigned getContiguousDim() const { return numBufferDims + order[0]; }

  /// Bytes one tile occupies (padding included).
  uint64_t getBufferBytes() const { return bufferBytes; }
  /// Bytes from one buffer to the next: getBufferBytes rounded up to the
  /// alignment.
  uint64_t getBufferStride() const {
    return llvm::alignTo(bufferBytes, alignment);
  }
  /// Number of buffers (product of the buffer dimensions; 1 without them).
  uint64_t getNumBuffers() const;
  /// Bytes of the whole allocation.
  uint64_t getTotalBytes() const { return getNumBuffers() * getBufferStride(); }
  /// The alignment the allocation's base needs: 1024 for nvmma_shared, 16
  /// (the widest vector access) otherwise.
  uint64_t getAlignment() const { return alignment; }
  /// The largest n such that every aligned group of n consecutive elements
  /// along the contiguous dimension (starting at a multiple of n) occupies
  /// n * elementBytes adjacent bytes in the same order. A power of two.
  unsigned getMaxContiguousElements() const { return maxContiguous; }

  /// Byte offset of `coordinate` (one entry per allocation dimension) from
  /// the allocation's start.
  uint64_t getByteOffset(llvm::ArrayRef<int64_t> coordinate) const;

  /// True when a window of `windowShape` at `offsets` (both over the
  /// allocation's dimensions) is addressed by translation: the offset of
  /// offsets + c is the offset of `offsets` plus the offset of c, for every
  /// c in the window. A view lowered to the address of its first element
  /// is correct exactly then.
  bool isTranslationInvariant(llvm::ArrayRef<int64_t> offsets,
                              llvm::ArrayRef<int64_t> windowShape) const;

  /// The offset function over any arithmetic. `Ops` provides a `Value`
  /// type and `constant(int64_t)`, `add(a, b)`, `mul(a, int64_t)`,
  /// `shr(a, unsigned)`, `shl(a, unsigned)`, `mask(a, int64_t)` (bitwise
  /// and) and `bitXor(a, b)`. Coordinates are non-negative and inside the
  /// allocation; divisions are by powers of two, so shifts and masks do.
  template <typename Ops>
  typename Ops::Value
  emitByteOffset(Ops &ops,
                 llvm::ArrayRef<typename Ops::Value> coordinate) const;

private:
  SharedLayout() = default;

  Kind kind = Kind::Padded;
  llvm::SmallVector<int64_t, 4> allocShape;
  /// The tile's dimension order, fastest first (relative to the tile).
  llvm::SmallVector<unsigned, 4> order;
  unsigned numBufferDims = 0;
  unsigned elementBytes = 1;
  uint64_t bufferBytes = 0;
  uint64_t alignment = 16;
  unsigned maxContiguous = 1;
  // padded: elements after every row.
  int64_t padding = 0;
  // swizzled: vector width, rows per phase, phases.
  unsigned vec = 1, perPhase = 1, maxPhase = 1;
  // nvmma: swizzle bytes (0: none).
  unsigned swizzleBytes = 0;
};

template <typename Ops>
typename Ops::Value SharedLayout::emitByteOffset(
    Ops &ops, llvm::ArrayRef<typename Ops::Value> coordinate) const {
  using Value = typename Ops::Value;
  // Buffer dimensions: row-major over the buffers, one stride each.
  Value buffer = ops.constant(0);
  int64_t stride = getBufferStride();
  for (int d = static_cast<int>(numBufferDims) - 1; d >= 0; --d) {
    buffer = ops.add(buffer, ops.mul(coordinate[d], stride));
    stride *= allocShape[d];
  }
  auto tile = coordinate.drop_front(numBufferDims);
  auto extent = [&](unsigned tileDim) {
    return allocShape[numBufferDims + tileDim];
  };
  // The inner (contiguous) index and the row index: row-major over the
  // other tile dimensions, by order.
  Value inner = tile[order[0]];
  Value row = ops.constant(0);
  int64_t rowStride = 1;
  for (unsigned k = 1; k < order.size(); ++k) {
    row = ops.add(row, ops.mul(tile[order[k]], rowStride));
    rowStride *= extent(order[k]);
  }
  int64_t innerSize = extent(order[0]);
  unsigned eb = elementBytes;
  Value offset;
  switch (kind) {
  case Kind::Padded:
    offset =
        ops.add(ops.mul(row, (innerSize + padding) * eb), ops.mul(inner, eb));
    break;
  case Kind::Swizzled: {
    // Vector index within the row XOR the row's phase, kept inside the row
    // (both are powers of two, so the XOR is a permutation of the vectors).
    unsigned v = std::min<int64_t>(vec, innerSize);
    int64_t vectors = innerSize / v;
    Value phase = ops.mask(ops.shr(row, llvm::Log2_64(perPhase)), maxPhase - 1);
    Value vector = ops.mask(ops.bitXor(ops.shr(inner, llvm::Log2_64(v)), phase),
                            vectors - 1);
    Value element =
        ops.add(ops.add(ops.mul(row, innerSize), ops.mul(vector, v)),
                ops.mask(inner, v - 1));
    offset = ops.mul(element, eb);
    break;
  }
  case Kind::Nvmma: {
    int64_t outerSize = rowStride;
    int64_t s = swizzleBytes ? swizzleBytes : innerSize * eb;
    int64_t w = s / eb;
    unsigned logW = llvm::Log2_64(w);
    offset = ops.add(
        ops.add(ops.mul(ops.shr(inner, logW), outerSize * s), ops.mul(row, s)),
        ops.mul(ops.mask(inner, w - 1), eb));
    if (swizzleBytes)
      offset = ops.bitXor(
          offset,
          ops.shl(ops.mask(ops.shr(offset, 7), swizzleBytes / 16 - 1), 4));
    break;
  }
  }
  return ops.add(buffer, offset);
}

} // namespace tpx::tpxgpu

#endif // TPX_DIALECT_TPXGPU_IR_TPXGPUSHAREDLAYOUT_H
