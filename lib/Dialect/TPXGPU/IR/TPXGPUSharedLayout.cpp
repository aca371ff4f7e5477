//===- TPXGPUSharedLayout.cpp - shared layouts as address maps ------------===//
#include "tpx/Dialect/TPXGPU/IR/TPXGPUSharedLayout.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tpx::tpxgpu;

namespace {
/// Compile-time arithmetic for SharedLayout::emitByteOffset.
struct IntOps {
  using Value = int64_t;
  Value constant(int64_t v) { return v; }
  Value add(Value a, Value b) { return a + b; }
  Value mul(Value a, int64_t c) { return a * c; }
  Value shr(Value a, unsigned s) { return a >> s; }
  Value shl(Value a, unsigned s) { return a << s; }
  Value mask(Value a, int64_t m) { return a & m; }
  Value bitXor(Value a, Value b) { return a ^ b; }
};
} // namespace

static std::optional<SharedLayout> fail(std::string *error, const Twine &why) {
  if (error)
    *error = why.str();
  return std::nullopt;
}

std::optional<SharedLayout> SharedLayout::get(Attribute encoding,
                                              ArrayRef<int64_t> allocShape,
                                              unsigned elementBits,
                                              std::string *error) {
  if (!isSharedLayout(encoding))
    return fail(error, "not a shared-memory layout");
  unsigned rank = getLayoutRank(encoding);
  if (allocShape.size() < rank)
    return fail(error, "the allocation has fewer dimensions than its layout");
  for (int64_t size : allocShape)
    if (size <= 0)
      return fail(error, "allocation dimensions must be positive");

  SharedLayout layout;
  layout.allocShape.assign(allocShape.begin(), allocShape.end());
  layout.numBufferDims = allocShape.size() - rank;
  layout.elementBytes = std::max(1u, (elementBits + 7) / 8);
  ArrayRef<int64_t> tile = allocShape.drop_front(layout.numBufferDims);
  uint64_t tileElements = 1;
  for (int64_t size : tile)
    tileElements *= size;
  unsigned eb = layout.elementBytes;

  if (auto padded = dyn_cast<PaddedSharedEncodingAttr>(encoding)) {
    layout.kind = Kind::Padded;
    layout.order.assign(padded.getOrder().begin(), padded.getOrder().end());
    layout.padding = padded.getPadding();
    int64_t inner = tile[layout.order[0]];
    layout.bufferBytes = tileElements / inner * (inner + layout.padding) * eb;
    // A whole row is adjacent; runs start at multiples of a power of two.
    layout.maxContiguous = llvm::PowerOf2Ceil(inner + 1) / 2;
    while (inner % layout.maxContiguous)
      layout.maxContiguous /= 2;
    return layout;
  }

  if (auto swizzled = dyn_cast<SwizzledSharedEncodingAttr>(encoding)) {
    layout.kind = Kind::Swizzled;
    layout.order.assign(swizzled.getOrder().begin(), swizzled.getOrder().end());
    layout.vec = swizzled.getVec();
    layout.perPhase = swizzled.getPerPhase();
    layout.maxPhase = swizzled.getMaxPhase();
    int64_t inner = tile[layout.order[0]];
    if (!llvm::isPowerOf2_64(inner))
      return fail(error, "a swizzled_shared row must have a power-of-two "
                         "number of elements, got " +
                             Twine(inner));
    layout.bufferBytes = tileElements * eb;
    // Without a phase the whole row is in order, else one vector is.
    layout.maxContiguous =
        layout.maxPhase == 1 ? inner : std::min<int64_t>(layout.vec, inner);
    return layout;
  }

  auto nvmma = cast<NvmmaSharedEncodingAttr>(encoding);
  layout.kind = Kind::Nvmma;
  layout.alignment = 1024;
  layout.swizzleBytes = nvmma.getSwizzlingByteWidth();
  if (nvmma.getTransposed())
    layout.order = {0, 1};
  else
    layout.order = {1, 0};
  int64_t inner = tile[layout.order[0]];
  if (!llvm::isPowerOf2_64(inner))
    return fail(error, "an nvmma_shared tile must have a power-of-two "
                       "contiguous dimension, got " +
                           Twine(inner));
  if (layout.swizzleBytes) {
    unsigned w = layout.swizzleBytes / eb;
    if (inner % w)
      return fail(error, "an nvmma_shared tile with a " +
                             Twine(layout.swizzleBytes) +
                             "-byte swizzle needs its contiguous dimension to "
                             "be a multiple of " +
                             Twine(w) + " elements, got " + Twine(inner));
    // The XOR permutes 16-byte chunks: runs stay within one chunk.
    layout.maxContiguous = std::max(1u, 16 / eb);
  } else {
    layout.maxContiguous = inner;
  }
  layout.bufferBytes = tileElements * eb;
  return layout;
}

std::optional<SharedLayout> SharedLayout::get(MemDescType type,
                                              std::string *error) {
  return get(type.getEncoding(), type.getAllocShape(),
             type.getElementType().getIntOrFloatBitWidth(), error);
}

uint64_t SharedLayout::getNumBuffers() const {
  uint64_t buffers = 1;
  for (unsigned d = 0; d < numBufferDims; ++d)
    buffers *= allocShape[d];
  return buffers;
}

uint64_t SharedLayout::getByteOffset(ArrayRef<int64_t> coordinate) const {
  IntOps ops;
  return emitByteOffset(ops, coordinate);
}

bool SharedLayout::isTranslationInvariant(ArrayRef<int64_t> offsets,
                                          ArrayRef<int64_t> windowShape) const {
  unsigned rank = allocShape.size();
  if (offsets.size() != rank || windowShape.size() != rank)
    return false;
  for (unsigned d = 0; d < rank; ++d)
    if (offsets[d] < 0 || offsets[d] + windowShape[d] > allocShape[d])
      return false;
  // Padded rows and buffer dimensions are affine maps: always invariant.
  if (kind == Kind::Padded)
    return true;
  int64_t start = getByteOffset(offsets);
  // Check every element of the window; windows are tiles of at most a few
  // thousand elements, and this runs once per view at compile time.
  SmallVector<int64_t> c(rank, 0), shifted(rank);
  while (true) {
    for (unsigned d = 0; d < rank; ++d)
      shifted[d] = offsets[d] + c[d];
    if (static_cast<int64_t>(getByteOffset(shifted)) !=
        start + static_cast<int64_t>(getByteOffset(c)))
      return false;
    int d = rank - 1;
    for (; d >= 0; --d) {
      if (++c[d] < windowShape[d])
        break;
      c[d] = 0;
    }
    if (d < 0)
      return true;
  }
}
