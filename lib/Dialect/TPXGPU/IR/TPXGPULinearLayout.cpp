//===- TPXGPULinearLayout.cpp - distributed layouts as GF(2) maps ---------===//
//
// The register/lane/warp bit assignments below are tpx's definition of each
// layout; the code generator only depends on them being consistent. The
// MMA and dot-operand ones follow the fragment layouts of PTX's
// mma.sync.m16n8k16 (the PTX ISA's "Matrix Fragments for mma.m16n8k16").
//
//===----------------------------------------------------------------------===//
#include "tpx/Dialect/TPXGPU/IR/TPXGPULinearLayout.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tpx::tpxgpu;

void LinearLayout::addBasis(InDim dim, Coordinate basis) {
  if (basis.empty())
    basis.assign(shape.size(), 0);
  assert(basis.size() == shape.size() && "basis rank differs from the shape");
  bases[dim].push_back(std::move(basis));
}

static void xorInto(Coordinate &into, ArrayRef<int64_t> value) {
  for (auto [a, b] : llvm::zip_equal(into, value))
    a ^= b;
}

Coordinate LinearLayout::getContribution(InDim dim, unsigned index) const {
  Coordinate result(shape.size(), 0);
  for (auto [bit, basis] : llvm::enumerate(bases[dim]))
    if (index & (1u << bit))
      xorInto(result, basis);
  return result;
}

Coordinate LinearLayout::apply(unsigned reg, unsigned lane,
                               unsigned warp) const {
  Coordinate result = getContribution(Register, reg);
  xorInto(result, getContribution(Lane, lane));
  xorInto(result, getContribution(Warp, warp));
  return result;
}

unsigned LinearLayout::getReplicationMask(InDim dim) const {
  unsigned mask = 0;
  for (auto [bit, basis] : llvm::enumerate(bases[dim]))
    if (llvm::all_of(basis, [](int64_t v) { return v == 0; }))
      mask |= 1u << bit;
  return mask;
}

unsigned LinearLayout::getRegisterRun(unsigned dim,
                                      unsigned maxElements) const {
  auto isUnit = [&](ArrayRef<int64_t> basis, int64_t step) {
    for (unsigned d = 0; d < getRank(); ++d)
      if (basis[d] != (d == dim ? step : 0))
        return false;
    return true;
  };
  ArrayRef<Coordinate> regs = getBases(LinearLayout::Register);
  unsigned bits = 0;
  while (bits < regs.size() && (2u << bits) <= maxElements &&
         isUnit(regs[bits], int64_t(1) << bits))
    ++bits;
  // Every other basis must leave those low bits alone, or the group would
  // start at an unaligned element.
  auto keepsLowBits = [&](ArrayRef<Coordinate> others) {
    return llvm::all_of(others, [&](const Coordinate &b) {
      return (b[dim] & ((int64_t(1) << bits) - 1)) == 0;
    });
  };
  while (bits > 0 && !(keepsLowBits(regs.drop_front(bits)) &&
                       keepsLowBits(getBases(LinearLayout::Lane)) &&
                       keepsLowBits(getBases(LinearLayout::Warp))))
    --bits;
  return 1u << bits;
}

std::optional<unsigned>
LinearLayout::findRegister(ArrayRef<int64_t> coordinate) const {
  for (unsigned reg = 0, e = getNumRegisters(); reg < e; ++reg)
    if (ArrayRef<int64_t>(getContribution(Register, reg)) == coordinate)
      return reg;
  return std::nullopt;
}

bool LinearLayout::sameThreadPart(
    const LinearLayout &other,
    function_ref<Coordinate(ArrayRef<int64_t>)> map) const {
  for (InDim dim : {Lane, Warp}) {
    unsigned bits = std::max(getNumBits(dim), other.getNumBits(dim));
    Coordinate zeroThis(getRank(), 0), zeroOther(other.getRank(), 0);
    for (unsigned i = 0; i < bits; ++i) {
      Coordinate mine =
          map(i < getNumBits(dim) ? ArrayRef<int64_t>(bases[dim][i])
                                  : ArrayRef<int64_t>(zeroThis));
      ArrayRef<int64_t> theirs = i < other.getNumBits(dim)
                                     ? ArrayRef<int64_t>(other.bases[dim][i])
                                     : ArrayRef<int64_t>(zeroOther);
      if (ArrayRef<int64_t>(mine) != theirs)
        return false;
    }
  }
  return true;
}

std::optional<SmallVector<unsigned>> LinearLayout::getRegisterMapFrom(
    const LinearLayout &other,
    function_ref<Coordinate(ArrayRef<int64_t>)> toThis) const {
  if (!other.sameThreadPart(*this, toThis))
    return std::nullopt;
  // Index this layout's registers by the element they hold.
  llvm::DenseMap<int64_t, unsigned> byElement;
  auto key = [&](ArrayRef<int64_t> c) {
    int64_t flat = 0;
    for (auto [v, size] : llvm::zip_equal(c, shape))
      flat = flat * size + v;
    return flat;
  };
  for (unsigned reg = getNumRegisters(); reg-- > 0;)
    byElement[key(getContribution(Register, reg))] = reg;
  SmallVector<unsigned> map;
  for (unsigned reg = 0, e = other.getNumRegisters(); reg < e; ++reg) {
    Coordinate wanted = toThis(other.getContribution(Register, reg));
    auto it = byElement.find(key(wanted));
    if (it == byElement.end())
      return std::nullopt;
    map.push_back(it->second);
  }
  return map;
}

bool tpx::tpxgpu::conversionNeedsSharedMemory(const LinearLayout &from,
                                              const LinearLayout &to) {
  if (from == to)
    return false;
  auto identity = [](ArrayRef<int64_t> c) { return Coordinate(c); };
  return !from.getRegisterMapFrom(to, identity).has_value();
}

Coordinate tpx::tpxgpu::getRowMajorCoordinate(ArrayRef<int64_t> coordinate,
                                              ArrayRef<int64_t> from,
                                              ArrayRef<int64_t> to) {
  int64_t flat = 0;
  for (auto [c, size] : llvm::zip_equal(coordinate, from))
    flat = flat * size + c;
  Coordinate result(to.size());
  for (int64_t d = int64_t(to.size()) - 1; d >= 0; --d) {
    result[d] = flat % to[d];
    flat /= to[d];
  }
  return result;
}

std::string LinearLayout::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  static const char *names[] = {"register", "lane", "warp"};
  os << "shape [";
  llvm::interleaveComma(shape, os);
  os << "]";
  for (unsigned dim = 0; dim < kNumInDims; ++dim) {
    os << "; " << names[dim] << ":";
    for (const Coordinate &basis : bases[dim]) {
      os << " (";
      llvm::interleaveComma(basis, os);
      os << ")";
    }
  }
  return text;
}

//===----------------------------------------------------------------------===//
// Layout attributes to linear layouts
//===----------------------------------------------------------------------===//

namespace {
/// Builds bases for one layout: a basis past the tensor's extent wraps to
/// zero (the tile is larger than the tensor, so the data replicates).
struct LayoutBuilder {
  LinearLayout layout;
  explicit LayoutBuilder(ArrayRef<int64_t> shape) : layout(shape) {}

  Coordinate unit(unsigned dim, int64_t value) const {
    Coordinate c(layout.getRank(), 0);
    if (value < layout.getShape()[dim])
      c[dim] = value;
    return c;
  }
  /// Adds log2(count) bases along `dim`, starting at `start`.
  void add(LinearLayout::InDim in, unsigned dim, int64_t start,
           unsigned count) {
    for (int64_t v = start; v < start * count; v *= 2)
      layout.addBasis(in, unit(dim, v));
  }
  /// Register bases repeating a tile of `tile` elements until `dim` is
  /// covered.
  void repeat(unsigned dim, int64_t tile) {
    for (int64_t v = tile; v < layout.getShape()[dim]; v *= 2)
      layout.addBasis(LinearLayout::Register, unit(dim, v));
  }
};
} // namespace

static std::optional<LinearLayout> fail(std::string *error,
                                        const llvm::Twine &message) {
  if (error)
    *error = message.str();
  return std::nullopt;
}

static LinearLayout blockedToLinear(BlockedEncodingAttr blocked,
                                    ArrayRef<int64_t> shape) {
  LayoutBuilder b(shape);
  ArrayRef<unsigned> spt = blocked.getSizePerThread(),
                     tpw = blocked.getThreadsPerWarp(),
                     wpc = blocked.getWarpsPerCTA(), order = blocked.getOrder();
  for (unsigned d : order)
    b.add(LinearLayout::Register, d, 1, spt[d]);
  for (unsigned d : order)
    b.add(LinearLayout::Lane, d, spt[d], tpw[d]);
  for (unsigned d : order)
    b.add(LinearLayout::Warp, d, int64_t(spt[d]) * tpw[d], wpc[d]);
  for (unsigned d : order)
    b.repeat(d, int64_t(spt[d]) * tpw[d] * wpc[d]);
  return b.layout;
}

/// mma.sync accumulator fragments (16x8 per warp): c0,c1 at (g, 2t+{0,1}),
/// c2,c3 at (g+8, ...), lane = 4g + t. Warps step along N first, then M.
static LinearLayout mmaV2ToLinear(NvidiaMmaEncodingAttr mma,
                                  ArrayRef<int64_t> shape) {
  LayoutBuilder b(shape);
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  b.layout.addBasis(LinearLayout::Register, b.unit(1, 1));
  b.layout.addBasis(LinearLayout::Register, b.unit(0, 8));
  b.add(LinearLayout::Lane, 1, 2, 4);
  b.add(LinearLayout::Lane, 0, 1, 8);
  b.add(LinearLayout::Warp, 1, 8, wn);
  b.add(LinearLayout::Warp, 0, 16, wm);
  b.repeat(1, 8 * wn);
  b.repeat(0, 16 * wm);
  return b.layout;
}

/// wgmma accumulator fragments: an m64nN instruction gives warp w of the
/// warp group rows 16w..16w+15 of its 64 and, per 8 columns j, the
/// registers d[4j..4j+3] at (g, 8j + 2t + {0,1}) and (g + 8, ...), lane =
/// 4g + t (PTX ISA, "wgmma .m64nNk16 register fragment D"). The four warps
/// of a group are consecutive; further warp groups step along M, then N.
static LinearLayout mmaV3ToLinear(NvidiaMmaEncodingAttr mma,
                                  ArrayRef<int64_t> shape) {
  LayoutBuilder b(shape);
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  unsigned instrN = mma.getInstrShape()[1];
  b.layout.addBasis(LinearLayout::Register, b.unit(1, 1));
  b.layout.addBasis(LinearLayout::Register, b.unit(0, 8));
  b.add(LinearLayout::Register, 1, 8, instrN / 8);
  b.add(LinearLayout::Lane, 1, 2, 4);
  b.add(LinearLayout::Lane, 0, 1, 8);
  b.add(LinearLayout::Warp, 0, 16, wm);
  b.add(LinearLayout::Warp, 1, instrN, wn);
  b.repeat(1, int64_t(instrN) * wn);
  b.repeat(0, 16 * wm);
  return b.layout;
}

/// wgmma's A operand in registers: per warp the A fragment of the
/// m16n8kK mma.sync of the element size, for the warp's 16 rows of each
/// K step of 8 * kWidth (32 bytes). Each 32-bit register packs kWidth
/// K-consecutive elements (1 for tf32, 2 for f16/bf16, 4 for 8-bit types);
/// lane 4g + t holds rows g and g + 8 at K kWidth * t and, a second
/// register pair, 4 * kWidth further (PTX ISA, "wgmma register fragment
/// A"; for f16 a0..a7 = (g + 8*bit1, 2t + bit0 + 8*bit2)). Warps as in the
/// accumulator (four along M per group), replicated across those along N.
static LinearLayout mmaV3OperandAToLinear(NvidiaMmaEncodingAttr mma,
                                          ArrayRef<int64_t> shape,
                                          unsigned kWidth) {
  LayoutBuilder b(shape);
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  b.add(LinearLayout::Register, 1, 1, kWidth);
  b.layout.addBasis(LinearLayout::Register, b.unit(0, 8));
  b.layout.addBasis(LinearLayout::Register, b.unit(1, 4 * int64_t(kWidth)));
  b.add(LinearLayout::Lane, 1, kWidth, 4);
  b.add(LinearLayout::Lane, 0, 1, 8);
  b.add(LinearLayout::Warp, 0, 16, wm);
  for (unsigned i = 1; i < wn; i *= 2)
    b.layout.addBasis(LinearLayout::Warp, Coordinate());
  b.repeat(1, 8 * int64_t(kWidth));
  b.repeat(0, 16 * wm);
  return b.layout;
}

/// Operand fragments of mma.sync.m16n8k16 for 16-bit types. A (16x16):
/// a0..a7 = (g + 8*bit1, 2t + bit0 + 8*bit2). B (16x8): b0..b3 =
/// (2t + bit0 + 8*bit1, g). A replicates across the warps along N, B across
/// those along M.
static LinearLayout mmaOperandToLinear(unsigned opIdx,
                                       NvidiaMmaEncodingAttr mma,
                                       ArrayRef<int64_t> shape) {
  LayoutBuilder b(shape);
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  unsigned kDim = opIdx == 0 ? 1 : 0, otherDim = opIdx == 0 ? 0 : 1;
  if (opIdx == 0) {
    b.layout.addBasis(LinearLayout::Register, b.unit(kDim, 1));
    b.layout.addBasis(LinearLayout::Register, b.unit(otherDim, 8));
    b.layout.addBasis(LinearLayout::Register, b.unit(kDim, 8));
  } else {
    b.layout.addBasis(LinearLayout::Register, b.unit(kDim, 1));
    b.layout.addBasis(LinearLayout::Register, b.unit(kDim, 8));
  }
  b.add(LinearLayout::Lane, kDim, 2, 4);
  b.add(LinearLayout::Lane, otherDim, 1, 8);
  // Warp bits in the accumulator's order: along N, then along M.
  for (unsigned i = 1; i < wn; i *= 2)
    b.layout.addBasis(LinearLayout::Warp,
                      opIdx == 1 ? b.unit(1, 8 * i) : Coordinate());
  for (unsigned i = 1; i < wm; i *= 2)
    b.layout.addBasis(LinearLayout::Warp,
                      opIdx == 0 ? b.unit(0, 16 * i) : Coordinate());
  b.repeat(kDim, 16);
  b.repeat(otherDim, opIdx == 0 ? 16 * wm : 8 * wn);
  return b.layout;
}

/// CDNA matrix-core (MFMA) accumulator blocks, not transposed (CDNA3/CDNA4
/// ISA, "dense matrix layouts" of the MFMA output): lane l holds column
/// l % N of its block; in a 32x32 block register i holds row
/// 8 * (i / 4) + 4 * (l / 32) + i % 4 (16 registers), in a 16x16 block row
/// 4 * (l / 16) + i (4 registers). Waves step along N first, then M, as
/// the NVIDIA accumulators'.
static LinearLayout mfmaToLinear(AmdMfmaEncodingAttr mfma,
                                 ArrayRef<int64_t> shape) {
  LayoutBuilder b(shape);
  unsigned wm = mfma.getWarpsPerCTA()[0], wn = mfma.getWarpsPerCTA()[1];
  unsigned block = mfma.getInstrShape()[0];
  b.add(LinearLayout::Register, 0, 1, 4);
  if (block == 32)
    b.add(LinearLayout::Register, 0, 8, 4);
  b.add(LinearLayout::Lane, 1, 1, block);
  b.add(LinearLayout::Lane, 0, 4, 64 / block);
  b.add(LinearLayout::Warp, 1, block, wn);
  b.add(LinearLayout::Warp, 0, block, wm);
  b.repeat(1, int64_t(block) * wn);
  b.repeat(0, int64_t(block) * wm);
  return b.layout;
}

/// MFMA operands (CDNA4 ISA, v_mfma_f32_{32x32x16,16x16x32}_{f16,bf16} and
/// the 8-bit float forms with kWidth 8; v_mfma_i32_{32x32x32,16x16x64}_i8
/// with kWidth 16, the 16 bytes of a lane's 128-bit operand): lane l holds
/// row (A) or column (B) l % block and the kWidth consecutive K elements
/// from kWidth * (l / block), so a 32x32 block's K step is 2 * kWidth deep
/// and a 16x16 block's 4 * kWidth (instrShape[2], checked by the caller).
/// A replicates across the waves along N, B across those along M (in the
/// accumulator's wave order).
static LinearLayout mfmaOperandToLinear(unsigned opIdx,
                                        AmdMfmaEncodingAttr mfma,
                                        ArrayRef<int64_t> shape,
                                        unsigned kWidth) {
  LayoutBuilder b(shape);
  unsigned wm = mfma.getWarpsPerCTA()[0], wn = mfma.getWarpsPerCTA()[1];
  unsigned block = mfma.getInstrShape()[0];
  unsigned kDim = opIdx == 0 ? 1 : 0, otherDim = opIdx == 0 ? 0 : 1;
  b.add(LinearLayout::Register, kDim, 1, kWidth);
  b.add(LinearLayout::Lane, otherDim, 1, block);
  b.add(LinearLayout::Lane, kDim, kWidth, 64 / block);
  for (unsigned i = 1; i < wn; i *= 2)
    b.layout.addBasis(LinearLayout::Warp, opIdx == 1
                                              ? b.unit(1, int64_t(block) * i)
                                              : Coordinate());
  for (unsigned i = 1; i < wm; i *= 2)
    b.layout.addBasis(LinearLayout::Warp, opIdx == 0
                                              ? b.unit(0, int64_t(block) * i)
                                              : Coordinate());
  b.repeat(kDim, int64_t(kWidth) * (64 / block));
  b.repeat(otherDim, int64_t(block) * (opIdx == 0 ? wm : wn));
  return b.layout;
}

/// An FMA dot's operand: the blocked accumulator's rows (A) or columns (B),
/// with the whole K extent in each thread's registers. `acc` is the
/// accumulator's layout over the operand's shape with K set to 1; a
/// batched (3-D) dot's leading batch dimension is shared as it is.
static LinearLayout fmaOperandToLinear(unsigned opIdx, const LinearLayout &acc,
                                       ArrayRef<int64_t> shape) {
  unsigned rank = shape.size();
  unsigned kDim = opIdx == 0 ? rank - 1 : rank - 2;
  LinearLayout result(shape);
  for (int64_t v = 1; v < shape[kDim]; v *= 2) {
    Coordinate c(rank, 0);
    c[kDim] = v;
    result.addBasis(LinearLayout::Register, c);
  }
  for (auto in :
       {LinearLayout::Register, LinearLayout::Lane, LinearLayout::Warp})
    for (const Coordinate &basis : acc.getBases(in)) {
      Coordinate c(basis);
      c[kDim] = 0;
      result.addBasis(in, c);
    }
  return result;
}

std::optional<LinearLayout> tpx::tpxgpu::toLinearLayout(Attribute layout,
                                                        ArrayRef<int64_t> shape,
                                                        std::string *error) {
  for (int64_t size : shape)
    if (size <= 0 || !llvm::isPowerOf2_64(size))
      return fail(error, "tensor dimensions must be powers of two");
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout)) {
    if (blocked.getOrder().size() != shape.size())
      return fail(error, "layout rank differs from the tensor's");
    return blockedToLinear(blocked, shape);
  }
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout)) {
    unsigned dim = slice.getDim();
    std::optional<LinearLayout> parent = toLinearLayout(
        slice.getParent(), getSliceParentShape(shape, dim), error);
    if (!parent)
      return std::nullopt;
    LinearLayout result(shape);
    for (auto in :
         {LinearLayout::Register, LinearLayout::Lane, LinearLayout::Warp})
      for (const Coordinate &basis : parent->getBases(in)) {
        Coordinate c(basis);
        c.erase(c.begin() + dim);
        // Registers that only stepped along the sliced dimension now hold
        // the same element; drop them rather than keep duplicates.
        if (in == LinearLayout::Register &&
            llvm::all_of(c, [](int64_t v) { return v == 0; }))
          continue;
        result.addBasis(in, c);
      }
    return result;
  }
  if (auto mma = dyn_cast<NvidiaMmaEncodingAttr>(layout)) {
    if (shape.size() != 2)
      return fail(error, "only 2-D MMA layouts are supported by the code "
                         "generator");
    return mma.isHopper() ? mmaV3ToLinear(mma, shape)
                          : mmaV2ToLinear(mma, shape);
  }
  if (auto mfma = dyn_cast<AmdMfmaEncodingAttr>(layout)) {
    if (shape.size() != 2)
      return fail(error, "only 2-D MFMA layouts are supported by the code "
                         "generator");
    if (mfma.getIsTransposed())
      return fail(error, "transposed MFMA layouts are not supported by the "
                         "code generator");
    return mfmaToLinear(mfma, shape);
  }
  if (auto operand = dyn_cast<DotOperandEncodingAttr>(layout)) {
    bool batched =
        shape.size() == 3 && isa<BlockedEncodingAttr>(operand.getParent());
    if (shape.size() != 2 && !batched)
      return fail(error, "dot operands must be 2-D (or 3-D, of FMA dots) for "
                         "the code generator");
    unsigned opIdx = operand.getOpIdx();
    if (auto mma = dyn_cast<NvidiaMmaEncodingAttr>(operand.getParent())) {
      unsigned kWidth = operand.getKWidth();
      // A version-3 B operand is rejected by the attribute's verifier.
      if (mma.isHopper()) {
        if (kWidth != 1 && kWidth != 2 && kWidth != 4)
          return fail(error, "wgmma's register A packs 1, 2 or 4 elements "
                             "per 32-bit register (kWidth 1, 2 or 4)");
        return mmaV3OperandAToLinear(mma, shape, kWidth);
      }
      if (kWidth != 2)
        return fail(error, "only 16-bit operands of MMA layouts (kWidth = 2) "
                           "are supported by the code generator");
      return mmaOperandToLinear(opIdx, mma, shape);
    }
    if (auto mfma = dyn_cast<AmdMfmaEncodingAttr>(operand.getParent())) {
      unsigned kWidth = operand.getKWidth();
      if (mfma.getIsTransposed())
        return fail(error, "transposed MFMA layouts are not supported by "
                           "the code generator");
      if (kWidth == 0 || !llvm::isPowerOf2_32(kWidth) || kWidth > 16)
        return fail(error, "MFMA operands hold 1 to 16 consecutive K "
                           "elements per lane (kWidth a power of two)");
      unsigned block = mfma.getInstrShape()[0];
      if (int64_t(kWidth) * (64 / block) != mfma.getInstrShape()[2])
        return fail(error, "an MFMA block's K (instrShape[2]) is its "
                           "operands' kWidth times the 64 / block lane "
                           "groups sharing a row; got kWidth " +
                               llvm::Twine(kWidth) + " for " +
                               llvm::Twine(block) + "x" + llvm::Twine(block) +
                               "x" + llvm::Twine(mfma.getInstrShape()[2]));
      return mfmaOperandToLinear(opIdx, mfma, shape, kWidth);
    }
    if (isa<BlockedEncodingAttr>(operand.getParent())) {
      // The accumulator's extent of this operand: K (the last dimension of
      // A, the next to last of B) collapsed to 1.
      SmallVector<int64_t> accShape(shape);
      accShape[opIdx == 0 ? shape.size() - 1 : shape.size() - 2] = 1;
      std::optional<LinearLayout> acc =
          toLinearLayout(operand.getParent(), accShape, error);
      if (!acc)
        return std::nullopt;
      return fmaOperandToLinear(opIdx, *acc, shape);
    }
    return fail(error, "dot operand of an unsupported parent layout");
  }
  return fail(error, "layout has no register form for the code generator");
}
