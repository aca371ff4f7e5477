//===- DotPatterns.cpp - tt.dot to mma.sync or per-thread FMAs ------------===//
//
// tt.dot (d = a x b + c) comes out of convert-tt-to-tpxgpu in one of three
// forms, each lowered without moving data between threads (the third,
// AMD's MFMA, is described at lowerMfmaDot):
//
//  * MMA: c and d in #tpxgpu.nvidia_mma (version 2, 16x8 fragments), a and b
//    in dot_op layouts of it with kWidth = 2 (f16 or bf16). The layouts are
//    defined (TPXGPULinearLayout.cpp) so that every warp holds whole
//    accumulator fragments of mma.sync.m16n8k16 plus the rows of A and the
//    columns of B they need, in the instruction's own register order; the
//    dot is then one mma.sync per (16x8 tile, 16-deep K step) of the warp.
//  * FMA: c and d blocked, a and b in dot_op layouts of that blocked layout:
//    every thread holds the whole K extent of the rows of A and the columns
//    of B its accumulator elements need, so each element is a chain of K
//    multiply-adds in registers. Batched (3-D) dots take this path, the
//    batch a leading coordinate A, B and C share.
//
// Both paths index registers by their *register coordinate*: the part of
// an element's coordinate the register index contributes
// (getContribution(Register, r)). The lane and warp add a thread part that
// is the same for every register of a tensor, so two registers of
// different tensors of one thread line up when their register coordinates
// do *and* the thread parts of the two layouts agree in the way each path
// needs; that agreement is checked before anything is emitted.
//
// Attributes: inputPrecision only ever permits less precise arithmetic
// (tf32 and friends for f32 inputs) and means nothing for 16-bit inputs;
// both paths compute at the full precision of the accumulator type (f16
// and bf16 products are exact in f32), which is at least as accurate, so it
// is ignored. (On gfx950 f32 dots, tf32 or ieee, are FMA dots: CDNA4 has
// no xf32 MFMA, CDNA3's v_mfma_f32_{32x32x4,16x16x8}_xf32 being gone; LLVM
// cannot select them for gfx950.) maxNumImpreciseAcc bounds how many fp8
// products an MMA may sum at reduced precision; mma.sync accumulates every
// product at the accumulator's precision and fp8 operands are rejected, so it
// is ignored as well.
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <array>
#include <string>

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;
using tpxgpu::AmdMfmaEncodingAttr;
using tpxgpu::BlockedEncodingAttr;
using tpxgpu::DotOperandEncodingAttr;
using tpxgpu::NvidiaMmaEncodingAttr;

/// A register coordinate of a 2-D tensor: (row, column).
using Coord2 = std::pair<int64_t, int64_t>;

static Coord2 getRegisterCoordinate(const LinearLayout &layout, unsigned reg) {
  Coordinate c = layout.getContribution(LinearLayout::Register, reg);
  return {c[0], c[1]};
}

/// The lowest register holding each register coordinate of a 2-D layout.
/// Registers that differ only in zero-basis bits hold the same element:
/// operands are read from the lowest, results are written to all of them.
static llvm::DenseMap<Coord2, unsigned>
indexRegisters(const LinearLayout &layout) {
  llvm::DenseMap<Coord2, unsigned> index;
  for (unsigned reg = 0, e = layout.getNumRegisters(); reg < e; ++reg)
    index.try_emplace(getRegisterCoordinate(layout, reg), reg);
  return index;
}

static std::optional<unsigned>
lookupRegister(const llvm::DenseMap<Coord2, unsigned> &index, Coord2 c) {
  auto it = index.find(c);
  if (it == index.end())
    return std::nullopt;
  return it->second;
}

static InFlightDiagnostic dotError(tt::DotOp op) {
  return op.emitError("cannot lower tt.dot: ");
}

//===----------------------------------------------------------------------===//
// MMA: mma.sync.m16n8k16
//===----------------------------------------------------------------------===//

/// An offset of `value` along a dimension of `size`, as the layout builder
/// places it: past the extent it wraps to zero (the fragment is larger than
/// the tensor, and the data replicates). For powers of two this is the
/// offset modulo `size`.
static int64_t wrap(int64_t value, int64_t size) {
  return value < size ? value : 0;
}

static bool hasBases(ArrayRef<Coordinate> bases, ArrayRef<Coord2> expected,
                     bool exactCount) {
  if (bases.size() < expected.size() ||
      (exactCount && bases.size() != expected.size()))
    return false;
  for (auto [basis, want] : llvm::zip(bases, expected))
    if (basis[0] != want.first || basis[1] != want.second)
      return false;
  return true;
}

/// Whether the bases of `in` from `first` on are whole tile steps (multiples
/// of `step0` along dimension 0 and `step1` along dimension 1).
static bool stepsByTiles(const LinearLayout &layout, LinearLayout::InDim in,
                         unsigned first, int64_t step0, int64_t step1) {
  ArrayRef<Coordinate> bases = layout.getBases(in);
  return llvm::all_of(bases.drop_front(std::min<size_t>(first, bases.size())),
                      [&](const Coordinate &c) {
                        return c[0] % step0 == 0 && c[1] % step1 == 0;
                      });
}

/// Checks that the layouts of an MMA dot hand every warp exactly the
/// registers mma.sync.m16n8k16 reads and writes; returns why not otherwise.
///
/// In a warp, with g = lane / 4 and t = lane % 4, the instruction computes
///   D[g + 8h][2t + j]            (register c_{2h+j}, h, j in {0, 1})
/// from A[g + 8h][2t + j + 8q]    (a_{4q+2h+j}, q in {0, 1})
/// and  B[2t + j + 8q][g]         (b_{2q+j}).
/// This lowering hands it, for an accumulator tile whose c0 has register
/// coordinate (m0, n0) and a K step k0, the registers with register
/// coordinates C (m0 + 8h, n0 + j), A (m0 + 8h, k0 + j + 8q) and
/// B (k0 + j + 8q, n0). That is right when
///  - lanes contribute C (g, 2t), A (g, 2t), B (2t, g);
///  - the lowest register bits are the fragment indices (c: n+1, m+8;
///    a: k+1, m+8, k+8; b: k+1, k+8) and every other register bit moves by
///    whole tiles (M by 16, N by 8, K by 16), so a register coordinate splits
///    uniquely into a tile base and a fragment offset;
///  - the warp adds the same row offset to A as to C and the same column
///    offset to B as to C (A replicates over C's N warps, B over its M
///    warps), in whole tiles.
/// Offsets past a dimension's extent wrap to zero in all three layouts
/// alike (`wrap`), which keeps small tiles consistent: a wrapped row of A
/// and the accumulator row it feeds are the same element.
static std::optional<std::string> checkMmaFragments(const LinearLayout &c,
                                                    const LinearLayout &a,
                                                    const LinearLayout &b) {
  int64_t m = c.getShape()[0], n = c.getShape()[1];
  if (!hasBases(c.getBases(LinearLayout::Register),
                {{0, wrap(1, n)}, {wrap(8, m), 0}}, false) ||
      !hasBases(c.getBases(LinearLayout::Lane),
                {{0, wrap(2, n)},
                 {0, wrap(4, n)},
                 {wrap(1, m), 0},
                 {wrap(2, m), 0},
                 {wrap(4, m), 0}},
                true) ||
      !stepsByTiles(c, LinearLayout::Register, 2, 16, 8) ||
      !stepsByTiles(c, LinearLayout::Warp, 0, 16, 8))
    return std::string("the accumulator layout is not made of whole "
                       "mma.sync m16n8 fragments");
  // K is a multiple of 16 (checked by the caller), so A's and B's K offsets
  // never wrap.
  if (!hasBases(a.getBases(LinearLayout::Register),
                {{0, 1}, {wrap(8, m), 0}, {0, 8}}, false) ||
      !hasBases(
          a.getBases(LinearLayout::Lane),
          {{0, 2}, {0, 4}, {wrap(1, m), 0}, {wrap(2, m), 0}, {wrap(4, m), 0}},
          true) ||
      !stepsByTiles(a, LinearLayout::Register, 3, 16, 16))
    return std::string("operand A's layout is not the mma.sync.m16n8k16 A "
                       "fragment");
  if (!hasBases(b.getBases(LinearLayout::Register), {{1, 0}, {8, 0}}, false) ||
      !hasBases(
          b.getBases(LinearLayout::Lane),
          {{2, 0}, {4, 0}, {0, wrap(1, n)}, {0, wrap(2, n)}, {0, wrap(4, n)}},
          true) ||
      !stepsByTiles(b, LinearLayout::Register, 2, 16, 8))
    return std::string("operand B's layout is not the mma.sync.m16n8k16 B "
                       "fragment");
  ArrayRef<Coordinate> cWarps = c.getBases(LinearLayout::Warp);
  ArrayRef<Coordinate> aWarps = a.getBases(LinearLayout::Warp);
  ArrayRef<Coordinate> bWarps = b.getBases(LinearLayout::Warp);
  if (aWarps.size() != cWarps.size() || bWarps.size() != cWarps.size())
    return std::string("the operands are spread over a different number of "
                       "warps than the accumulator");
  for (auto [cw, aw, bw] : llvm::zip_equal(cWarps, aWarps, bWarps))
    if (aw[0] != cw[0] || aw[1] != 0 || bw[0] != 0 || bw[1] != cw[1])
      return std::string("the warps do not hold the rows of A and the "
                         "columns of B of their accumulator tiles");
  return std::nullopt;
}

static std::pair<Value, Value> unpackHalves(OpBuilder &b, Location loc,
                                            Value word, Type halfType) {
  Value pair =
      LLVM::BitcastOp::create(b, loc, VectorType::get({2}, halfType), word);
  return {LLVM::ExtractElementOp::create(b, loc, pair, i32Constant(b, loc, 0)),
          LLVM::ExtractElementOp::create(b, loc, pair, i32Constant(b, loc, 1))};
}

namespace {
/// The mma.sync variant a dot uses.
struct MmaKind {
  bool bf16Inputs;     // .bf16 inputs, else .f16
  bool f16Accumulator; // .f16 accumulator (f16 inputs only), else .f32
};

/// One accumulator tile a thread computes: its c0 register coordinate and
/// the registers of the whole chain of K steps (all looked up up front, so
/// nothing is emitted for a dot that cannot be lowered).
struct MmaTile {
  int64_t m0, n0;
  std::array<unsigned, 4> acc;               // C registers of c0..c3
  SmallVector<std::array<unsigned, 8>, 4> a; // per K step: a0..a7
  SmallVector<std::array<unsigned, 4>, 4> b; // per K step: b0..b3
};
} // namespace

/// One mma.sync.m16n8k16: `a` 4 and `b` 2 packed 32-bit registers, `acc`
/// the four accumulator values c0..c3; returns d0..d3.
static SmallVector<Value> emitMma(OpBuilder &b, Location loc, MmaKind kind,
                                  ArrayRef<Value> a, ArrayRef<Value> bRegs,
                                  ArrayRef<Value> acc) {
  SmallVector<Value> operands(a);
  llvm::append_range(operands, bRegs);
  StringRef input = kind.bf16Inputs ? "bf16" : "f16";
  if (!kind.f16Accumulator) {
    llvm::append_range(operands, acc);
    Type f32 = b.getF32Type();
    auto resultType =
        LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
    // PTX operand order: d, a, b, c.
    std::string text =
        ("mma.sync.aligned.m16n8k16.row.col.f32." + input + "." + input +
         ".f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, "
         "{$10, $11, $12, $13};")
            .str();
    Value d = inlinePtx(b, loc, resultType, operands, text,
                        "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f",
                        /*sideEffects=*/false);
    return unpack(b, loc, d);
  }
  // f16 accumulators travel as two .f16x2 registers: {c0, c1}, {c2, c3}.
  Type f16 = b.getF16Type(), i32 = b.getI32Type();
  operands.push_back(packHalves(b, loc, acc[0], acc[1]));
  operands.push_back(packHalves(b, loc, acc[2], acc[3]));
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {i32, i32});
  Value d = inlinePtx(b, loc, resultType, operands,
                      "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
                      "{$0, $1}, {$2, $3, $4, $5}, {$6, $7}, {$8, $9};",
                      "=r,=r,r,r,r,r,r,r,r,r", /*sideEffects=*/false);
  SmallVector<Value> words = unpack(b, loc, d);
  auto [d0, d1] = unpackHalves(b, loc, words[0], f16);
  auto [d2, d3] = unpackHalves(b, loc, words[1], f16);
  return {d0, d1, d2, d3};
}

static FailureOr<SmallVector<Value>>
lowerMmaDot(tt::DotOp op, NvidiaMmaEncodingAttr mma, Value loweredA,
            Value loweredB, Value loweredC, const LinearLayout &aLayout,
            const LinearLayout &bLayout, const LinearLayout &cLayout,
            ConversionPatternRewriter &rewriter) {
  RankedTensorType aType = op.getA().getType(), bType = op.getB().getType(),
                   cType = op.getC().getType();
  // --- Checks (nothing is emitted until every register is found). ---
  if (mma.getVersion() != 2 || mma.getInstrShape().size() != 2 ||
      mma.getInstrShape()[0] != 16 || mma.getInstrShape()[1] != 8)
    return dotError(op) << "only version-2 MMA layouts with 16x8 fragments "
                           "(mma.sync) are supported, got "
                        << mma;
  auto operandIs = [&](RankedTensorType type, unsigned opIdx) {
    auto operand = dyn_cast<DotOperandEncodingAttr>(type.getEncoding());
    return operand && operand.getOpIdx() == opIdx &&
           operand.getParent() == mma && operand.getKWidth() == 2;
  };
  if (!operandIs(aType, 0) || !operandIs(bType, 1))
    return dotError(op) << "with the MMA accumulator layout " << mma
                        << ", A and B must be in #tpxgpu.dot_op layouts "
                           "(opIdx 0 and 1, kWidth 2) of it";
  Type aElem = aType.getElementType(), bElem = bType.getElementType(),
       cElem = cType.getElementType();
  bool f16 = aElem.isF16() && bElem.isF16();
  bool bf16 = aElem.isBF16() && bElem.isBF16();
  if (!f16 && !bf16)
    return dotError(op) << "mma.sync operands must both be f16 or both bf16, "
                           "got "
                        << aElem << " and " << bElem;
  if (!cElem.isF32() && !(f16 && cElem.isF16()))
    return dotError(op) << "mma.sync accumulates " << aElem
                        << " products in f32" << (f16 ? " or f16" : "")
                        << ", got an " << cElem << " accumulator";
  int64_t m = cType.getShape()[0], n = cType.getShape()[1],
          k = aType.getShape()[1];
  if (k % 16 != 0)
    return dotError(op) << "K = " << k
                        << " is not a multiple of 16 (the K of one "
                           "mma.sync.m16n8k16)";
  if (std::optional<std::string> why =
          checkMmaFragments(cLayout, aLayout, bLayout))
    return dotError(op) << *why << " (A: " << aLayout.str()
                        << "; B: " << bLayout.str() << "; C: " << cLayout.str()
                        << ")";

  // --- Plan: which registers feed which instruction. ---
  llvm::DenseMap<Coord2, unsigned> aIndex = indexRegisters(aLayout),
                                   bIndex = indexRegisters(bLayout),
                                   cIndex = indexRegisters(cLayout);
  // The register coordinate of c_i / a_i / b_i of a tile; see
  // checkMmaFragments for why these are the instruction's fragments. Row
  // and column offsets within a fragment wrap like the layout's bases.
  auto cCoord = [&](int64_t m0, int64_t n0, unsigned i) -> Coord2 {
    return {m0 + wrap(8 * (i >> 1), m), n0 + wrap(i & 1, n)};
  };
  auto aCoord = [&](int64_t m0, int64_t k0, unsigned i) -> Coord2 {
    return {m0 + wrap(8 * ((i >> 1) & 1), m), k0 + (i & 1) + 8 * (i >> 2)};
  };
  auto bCoord = [&](int64_t k0, int64_t n0, unsigned i) -> Coord2 {
    return {k0 + (i & 1) + 8 * (i >> 1), n0};
  };
  auto missing = [&](StringRef operand, Coord2 c) {
    return dotError(op) << "operand " << operand
                        << " has no register at register coordinate ("
                        << c.first << ", " << c.second << ")";
  };

  // Tiles in the order of their first accumulator register. Every register
  // coordinate is tile base + fragment offset with the base a multiple of
  // (16, 8) and the offset below it, so masking off the low bits gives the
  // base.
  SmallVector<MmaTile> tiles;
  llvm::DenseSet<Coord2> seenTiles;
  for (unsigned reg = 0, e = cLayout.getNumRegisters(); reg < e; ++reg) {
    auto [cm, cn] = getRegisterCoordinate(cLayout, reg);
    int64_t m0 = cm & ~int64_t(15), n0 = cn & ~int64_t(7);
    if (!seenTiles.insert({m0, n0}).second)
      continue;
    MmaTile tile;
    tile.m0 = m0;
    tile.n0 = n0;
    for (unsigned i = 0; i < 4; ++i) {
      std::optional<unsigned> r = lookupRegister(cIndex, cCoord(m0, n0, i));
      if (!r)
        return missing("C", cCoord(m0, n0, i));
      tile.acc[i] = *r;
    }
    for (int64_t k0 = 0; k0 < k; k0 += 16) {
      std::array<unsigned, 8> aRegs;
      std::array<unsigned, 4> bRegs;
      for (unsigned i = 0; i < 8; ++i) {
        std::optional<unsigned> r = lookupRegister(aIndex, aCoord(m0, k0, i));
        if (!r)
          return missing("A", aCoord(m0, k0, i));
        aRegs[i] = *r;
      }
      for (unsigned i = 0; i < 4; ++i) {
        std::optional<unsigned> r = lookupRegister(bIndex, bCoord(k0, n0, i));
        if (!r)
          return missing("B", bCoord(k0, n0, i));
        bRegs[i] = *r;
      }
      tile.a.push_back(aRegs);
      tile.b.push_back(bRegs);
    }
    tiles.push_back(std::move(tile));
  }

  // --- Emit. ---
  Location loc = op.getLoc();
  MmaKind kind{bf16, cElem.isF16()};
  SmallVector<Value> a = unpack(rewriter, loc, loweredA);
  SmallVector<Value> b = unpack(rewriter, loc, loweredB);
  SmallVector<Value> c = unpack(rewriter, loc, loweredC);
  // Packed operands are shared by all tiles of one M (A) or N (B) base.
  llvm::DenseMap<Coord2, std::array<Value, 4>> packedA;
  llvm::DenseMap<Coord2, std::array<Value, 2>> packedB;
  llvm::DenseMap<Coord2, Value> byCoordinate;
  for (const MmaTile &tile : tiles) {
    SmallVector<Value> acc;
    for (unsigned reg : tile.acc)
      acc.push_back(c[reg]);
    // K innermost: one accumulator fragment chains through all K steps.
    for (auto [step, aRegs, bRegs] : llvm::enumerate(tile.a, tile.b)) {
      int64_t k0 = 16 * static_cast<int64_t>(step);
      auto aIt = packedA.try_emplace({tile.m0, k0});
      if (aIt.second)
        for (unsigned j = 0; j < 4; ++j) // {a0,a1}, {a2,a3}, ...
          aIt.first->second[j] =
              packHalves(rewriter, loc, a[aRegs[2 * j]], a[aRegs[2 * j + 1]]);
      auto bIt = packedB.try_emplace({k0, tile.n0});
      if (bIt.second)
        for (unsigned j = 0; j < 2; ++j) // {b0,b1}, {b2,b3}
          bIt.first->second[j] =
              packHalves(rewriter, loc, b[bRegs[2 * j]], b[bRegs[2 * j + 1]]);
      acc = emitMma(rewriter, loc, kind, aIt.first->second, bIt.first->second,
                    acc);
    }
    // Fragment positions that wrap onto one element compute the same value
    // (their operands are the same registers); keep the first.
    for (unsigned i = 0; i < 4; ++i)
      byCoordinate.try_emplace(cCoord(tile.m0, tile.n0, i), acc[i]);
  }
  // Every register, replicas included, gets the value of its element.
  SmallVector<Value> result;
  for (unsigned reg = 0, e = cLayout.getNumRegisters(); reg < e; ++reg) {
    auto it = byCoordinate.find(getRegisterCoordinate(cLayout, reg));
    assert(it != byCoordinate.end() && "every tile of C was computed");
    result.push_back(it->second);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// MFMA: AMD CDNA4 matrix cores
//===----------------------------------------------------------------------===//

/// The operand types of an MFMA: both f16, both bf16, 8-bit floats (e4m3
/// "fp8", e5m2 "bf8" in the ISA's names) in any pairing, or both i8 (into
/// an i32 accumulator).
struct MfmaKind {
  enum Input { F16, BF16, FP8, BF8, I8 };
  Input a, b;
  bool isFloat8() const { return a == FP8 || a == BF8; }
  bool isInt8() const { return a == I8; }
  /// K elements of A and B one lane holds: the operand's 128 bits (16 i8
  /// or 8 16-bit floats), or the 8-bit float forms' 64.
  unsigned getKWidth() const { return isInt8() ? 16 : 8; }
};

static std::optional<MfmaKind::Input> getMfmaInput(Type type) {
  if (type.isF16())
    return MfmaKind::F16;
  if (type.isBF16())
    return MfmaKind::BF16;
  if (isa<Float8E4M3FNType>(type))
    return MfmaKind::FP8;
  if (isa<Float8E5M2Type>(type))
    return MfmaKind::BF8;
  if (type.isInteger(8))
    return MfmaKind::I8;
  return std::nullopt;
}

/// Whether A and B of these types make an MFMA: the same 16-bit float,
/// two 8-bit floats, or two i8.
static bool isMfmaPair(MfmaKind::Input a, MfmaKind::Input b) {
  auto isFloat8 = [](MfmaKind::Input x) {
    return x == MfmaKind::FP8 || x == MfmaKind::BF8;
  };
  return isFloat8(a) ? isFloat8(b) : a == b;
}

/// The MFMA of `kind` on `block`x`block` tiles: K 16 (32x32) or 32 (16x16)
/// for the float forms, 32 or 64 for the i8 ones (CDNA4's
/// v_mfma_i32_32x32x32_i8 and v_mfma_i32_16x16x64_i8).
static Value createMfma(OpBuilder &b, Location loc, unsigned block,
                        MfmaKind kind, Type type, ValueRange args) {
  using K = MfmaKind;
  auto make = [&](auto tag) -> Value {
    using Op = decltype(tag);
    return Op::create(b, loc, type, args).getResult();
  };
  if (block == 32) {
    if (kind.a == K::I8)
      return make(ROCDL::mfma_i32_32x32x32_i8());
    if (kind.a == K::F16)
      return make(ROCDL::mfma_f32_32x32x16_f16());
    if (kind.a == K::BF16)
      return make(ROCDL::mfma_f32_32x32x16_bf16());
    if (kind.a == K::FP8)
      return kind.b == K::FP8 ? make(ROCDL::mfma_f32_32x32x16_fp8_fp8())
                              : make(ROCDL::mfma_f32_32x32x16_fp8_bf8());
    return kind.b == K::FP8 ? make(ROCDL::mfma_f32_32x32x16_bf8_fp8())
                            : make(ROCDL::mfma_f32_32x32x16_bf8_bf8());
  }
  if (kind.a == K::I8)
    return make(ROCDL::mfma_i32_16x16x64_i8());
  if (kind.a == K::F16)
    return make(ROCDL::mfma_f32_16x16x32_f16());
  if (kind.a == K::BF16)
    return make(ROCDL::mfma_f32_16x16x32_bf16());
  if (kind.a == K::FP8)
    return kind.b == K::FP8 ? make(ROCDL::mfma_f32_16x16x32_fp8_fp8())
                            : make(ROCDL::mfma_f32_16x16x32_fp8_bf8());
  return kind.b == K::FP8 ? make(ROCDL::mfma_f32_16x16x32_bf8_fp8())
                          : make(ROCDL::mfma_f32_16x16x32_bf8_bf8());
}

/// One MFMA: `a` and `b` kind.getKWidth() elements each, `acc` 16 or 4
/// accumulator values (f32, or i32 for i8); returns the new accumulator
/// registers. The intrinsics take A and B as <8 x half> / <8 x bfloat>,
/// an i64 of 8 bytes (the 8-bit float forms), or <4 x i32> of 16 bytes
/// (llvm.amdgcn.mfma.i32.{32x32x32,16x16x64}.i8, IntrinsicsAMDGPU.td):
/// byte j of the vector is element j, as in the ISA's packing of K.
static SmallVector<Value> emitMfma(OpBuilder &b, Location loc, unsigned block,
                                   MfmaKind kind, ArrayRef<Value> aRegs,
                                   ArrayRef<Value> bRegs, ArrayRef<Value> acc) {
  auto vector = [&](ArrayRef<Value> values) {
    auto type =
        VectorType::get({int64_t(values.size())}, values.front().getType());
    Value result = LLVM::UndefOp::create(b, loc, type);
    for (auto [i, value] : llvm::enumerate(values))
      result = LLVM::InsertElementOp::create(b, loc, result, value,
                                             i32Constant(b, loc, i));
    return result;
  };
  Value a = vector(aRegs), bv = vector(bRegs), c = vector(acc);
  if (kind.isFloat8()) {
    a = LLVM::BitcastOp::create(b, loc, b.getI64Type(), a);
    bv = LLVM::BitcastOp::create(b, loc, b.getI64Type(), bv);
  } else if (kind.isInt8()) {
    auto words = VectorType::get({4}, b.getI32Type());
    a = LLVM::BitcastOp::create(b, loc, words, a);
    bv = LLVM::BitcastOp::create(b, loc, words, bv);
  }
  // cbsz, abid, blgp: no broadcast between blocks or lanes.
  Value zero = i32Constant(b, loc, 0);
  SmallVector<Value> args = {a, bv, c, zero, zero, zero};
  Value d = createMfma(b, loc, block, kind, c.getType(), args);
  SmallVector<Value> result;
  for (unsigned i = 0; i < acc.size(); ++i)
    result.push_back(
        LLVM::ExtractElementOp::create(b, loc, d, i32Constant(b, loc, i)));
  return result;
}

/// The layouts (TPXGPULinearLayout.cpp, mfmaToLinear and
/// mfmaOperandToLinear) give every wave whole MFMA blocks in the
/// instruction's register order: accumulator register i of a block at
/// register coordinate (m0 + row(i), n0), row(i) = i % 4 + 8 * (i / 4) for
/// 32x32 blocks and i for 16x16 ones (the i32 accumulator of the i8 forms
/// is laid out as the f32 one); A's kWidth registers of a K step at
/// (m0, k0 + j), B's at (k0 + j, n0), kWidth 8 (16-bit and 8-bit floats)
/// or 16 (i8); the lanes add the same thread part to all three as the
/// instruction expects. So the dot is one MFMA per (block, K step) of the
/// wave, without moving data between lanes.
static FailureOr<SmallVector<Value>>
lowerMfmaDot(tt::DotOp op, AmdMfmaEncodingAttr mfma, Value loweredA,
             Value loweredB, Value loweredC, const LinearLayout &aLayout,
             const LinearLayout &bLayout, const LinearLayout &cLayout,
             ConversionPatternRewriter &rewriter) {
  RankedTensorType aType = op.getA().getType(), bType = op.getB().getType(),
                   cType = op.getC().getType();
  Type aElem = aType.getElementType(), bElem = bType.getElementType(),
       cElem = cType.getElementType();
  std::optional<MfmaKind::Input> aInput = getMfmaInput(aElem),
                                 bInput = getMfmaInput(bElem);
  bool paired = aInput && bInput && isMfmaPair(*aInput, *bInput);
  bool int8 = paired && *aInput == MfmaKind::I8;
  if (!paired || !(int8 ? cElem.isInteger(32) : cElem.isF32()))
    return dotError(op) << "MFMA operands must both be f16, both bf16 or "
                           "both 8-bit floats, with an f32 accumulator, or "
                           "both i8 with an i32 accumulator, got "
                        << aElem << " x " << bElem << " -> " << cElem;
  MfmaKind kind{*aInput, *bInput};
  unsigned kWidth = kind.getKWidth();
  unsigned block = mfma.getInstrShape()[0];
  int64_t instrK = mfma.getInstrShape()[2];
  if (mfma.getVersion() != 4 || mfma.getIsTransposed() ||
      instrK != int64_t(kWidth) * (64 / block))
    return dotError(op) << "only CDNA4 (version 4), not transposed MFMA "
                           "layouts of "
                        << (int8 ? "32x32x32 / 16x16x64 (i8)"
                                 : "32x32x16 / 16x16x32")
                        << " blocks are supported for " << aElem << " x "
                        << bElem << ", got " << mfma;
  auto operandIs = [&](RankedTensorType type, unsigned opIdx) {
    auto operand = dyn_cast<DotOperandEncodingAttr>(type.getEncoding());
    return operand && operand.getOpIdx() == opIdx &&
           operand.getParent() == mfma && operand.getKWidth() == kWidth;
  };
  if (!operandIs(aType, 0) || !operandIs(bType, 1))
    return dotError(op) << "with the MFMA accumulator layout " << mfma
                        << ", A and B must be in #tpxgpu.dot_op layouts "
                           "(opIdx 0 and 1, kWidth "
                        << kWidth << ") of it";
  int64_t k = aType.getShape()[1];
  unsigned accRegs = block * block / 64;
  auto rowOf = [&](unsigned i) -> int64_t {
    return block == 32 ? i % 4 + 8 * (i / 4) : i;
  };
  llvm::DenseMap<Coord2, unsigned> aIndex = indexRegisters(aLayout),
                                   bIndex = indexRegisters(bLayout),
                                   cIndex = indexRegisters(cLayout);
  SmallVector<Value> a = unpack(rewriter, op.getLoc(), loweredA);
  SmallVector<Value> b = unpack(rewriter, op.getLoc(), loweredB);
  SmallVector<Value> c = unpack(rewriter, op.getLoc(), loweredC);
  llvm::DenseMap<Coord2, Value> byCoordinate;
  llvm::DenseSet<Coord2> seenTiles;
  Location loc = op.getLoc();
  for (unsigned reg = 0, e = cLayout.getNumRegisters(); reg < e; ++reg) {
    auto [cm, cn] = getRegisterCoordinate(cLayout, reg);
    int64_t m0 = cm & ~int64_t(block - 1), n0 = cn & ~int64_t(block - 1);
    if (!seenTiles.insert({m0, n0}).second)
      continue;
    SmallVector<Value> acc;
    for (unsigned i = 0; i < accRegs; ++i) {
      std::optional<unsigned> r = lookupRegister(cIndex, {m0 + rowOf(i), n0});
      if (!r)
        return dotError(op) << "the accumulator has no register at register "
                               "coordinate ("
                            << m0 + rowOf(i) << ", " << n0 << ")";
      acc.push_back(c[*r]);
    }
    for (int64_t k0 = 0; k0 < k; k0 += instrK) {
      SmallVector<Value> aRegs, bRegs;
      for (unsigned j = 0; j < kWidth; ++j) {
        std::optional<unsigned> ra = lookupRegister(aIndex, {m0, k0 + j});
        std::optional<unsigned> rb = lookupRegister(bIndex, {k0 + j, n0});
        if (!ra || !rb)
          return dotError(op) << "operand " << (ra ? "B" : "A")
                              << " has no register for the MFMA block at ("
                              << m0 << ", " << n0 << "), K " << k0 + j;
        aRegs.push_back(a[*ra]);
        bRegs.push_back(b[*rb]);
      }
      acc = emitMfma(rewriter, loc, block, kind, aRegs, bRegs, acc);
    }
    for (unsigned i = 0; i < accRegs; ++i)
      byCoordinate.try_emplace({m0 + rowOf(i), n0}, acc[i]);
  }
  SmallVector<Value> result;
  for (unsigned reg = 0, e = cLayout.getNumRegisters(); reg < e; ++reg) {
    auto it = byCoordinate.find(getRegisterCoordinate(cLayout, reg));
    if (it == byCoordinate.end())
      return dotError(op) << "accumulator register " << reg
                          << " lies in no MFMA block";
    result.push_back(it->second);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// FMA: K multiply-adds per element in registers
//===----------------------------------------------------------------------===//

static bool isFmaFloat(Type type) {
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type);
}

/// `value` (an operand element) in the accumulator's type: floats are
/// extended or rounded (f16 <-> bf16 through f32, which is exact), integers
/// sign-extended or truncated, as a matmul promotes its operands.
static Value castToAccumulator(OpBuilder &b, Location loc, Value value,
                               Type accType) {
  Type type = value.getType();
  if (type == accType)
    return value;
  if (auto accInt = dyn_cast<IntegerType>(accType)) {
    if (type.getIntOrFloatBitWidth() < accInt.getWidth())
      return LLVM::SExtOp::create(b, loc, accType, value);
    return LLVM::TruncOp::create(b, loc, accType, value);
  }
  unsigned width = type.getIntOrFloatBitWidth(),
           accWidth = accType.getIntOrFloatBitWidth();
  if (width == accWidth) { // f16 <-> bf16
    value = LLVM::FPExtOp::create(b, loc, b.getF32Type(), value);
    width = 32;
  }
  if (width < accWidth)
    return LLVM::FPExtOp::create(b, loc, accType, value);
  return LLVM::FPTruncOp::create(b, loc, accType, value);
}

static FailureOr<SmallVector<Value>>
lowerFmaDot(tt::DotOp op, BlockedEncodingAttr blocked, Value loweredA,
            Value loweredB, Value loweredC, const LinearLayout &aLayout,
            const LinearLayout &bLayout, const LinearLayout &cLayout,
            ConversionPatternRewriter &rewriter) {
  RankedTensorType aType = op.getA().getType(), bType = op.getB().getType(),
                   cType = op.getC().getType();
  // --- Checks (nothing is emitted until every register is found). ---
  auto operandIs = [&](RankedTensorType type, unsigned opIdx) {
    auto operand = dyn_cast<DotOperandEncodingAttr>(type.getEncoding());
    return operand && operand.getOpIdx() == opIdx &&
           operand.getParent() == blocked;
  };
  if (!operandIs(aType, 0) || !operandIs(bType, 1))
    return dotError(op) << "with the blocked accumulator layout " << blocked
                        << ", A and B must be in #tpxgpu.dot_op layouts "
                           "(opIdx 0 and 1) of it";
  Type aElem = aType.getElementType(), bElem = bType.getElementType(),
       cElem = cType.getElementType();
  bool floats = isFmaFloat(aElem) && isFmaFloat(bElem) && isFmaFloat(cElem);
  bool ints = isa<IntegerType>(aElem) && isa<IntegerType>(bElem) &&
              isa<IntegerType>(cElem);
  if (!floats && !ints)
    return dotError(op) << "FMA dots take f16, bf16, f32 or f64 (or integer) "
                           "operands and accumulators, got "
                        << aElem << " x " << bElem << " -> " << cElem;
  // A thread's element of C at register coordinate (m, n) has full
  // coordinate (m ^ tm, n ^ tn) with (tm, tn) its thread part. A's register
  // at (m, k) then holds A[m ^ tm'][k] and B's at (k, n) holds B[k][n ^ tn']:
  // the right ones exactly when A's thread part is (tm, 0) and B's (0, tn)
  // for every lane and warp, which dot_op of a blocked parent guarantees.
  // A batched (3-D) dot has a leading batch coordinate that A, B and C
  // share, thread part included.
  unsigned rank = cType.getRank();
  bool batched = rank == 3;
  auto rowsOfC = [&](ArrayRef<int64_t> x) {
    Coordinate c(x);
    c[rank - 1] = 0;
    return c;
  };
  auto columnsOfC = [&](ArrayRef<int64_t> x) {
    Coordinate c(x);
    c[rank - 2] = 0;
    return c;
  };
  if (!cLayout.sameThreadPart(aLayout, rowsOfC) ||
      !cLayout.sameThreadPart(bLayout, columnsOfC))
    return dotError(op) << "the threads do not hold the rows of A and the "
                           "columns of B of their accumulator elements (A: "
                        << aLayout.str() << "; B: " << bLayout.str()
                        << "; C: " << cLayout.str() << ")";

  // --- Plan. ---
  // Register coordinates as (batch, row, column); batch 0 for 2-D dots.
  using Coord3 = std::tuple<int64_t, int64_t, int64_t>;
  auto coordinateOf = [&](const LinearLayout &layout, unsigned reg) {
    Coordinate c = layout.getContribution(LinearLayout::Register, reg);
    return batched ? Coord3{c[0], c[1], c[2]} : Coord3{0, c[0], c[1]};
  };
  auto indexOf = [&](const LinearLayout &layout) {
    llvm::DenseMap<Coord3, unsigned> index;
    for (unsigned reg = 0, e = layout.getNumRegisters(); reg < e; ++reg)
      index.try_emplace(coordinateOf(layout, reg), reg);
    return index;
  };
  int64_t k = aType.getShape().back();
  llvm::DenseMap<Coord3, unsigned> aIndex = indexOf(aLayout),
                                   bIndex = indexOf(bLayout),
                                   cIndex = indexOf(cLayout);
  // For each register of C holding its element first: the A and B
  // registers of k = 0 .. K-1.
  struct Chain {
    unsigned reg;
    SmallVector<unsigned> a, b;
  };
  SmallVector<Chain> chains;
  for (unsigned reg = 0, e = cLayout.getNumRegisters(); reg < e; ++reg) {
    auto [cb, cm, cn] = coordinateOf(cLayout, reg);
    if (cIndex.lookup({cb, cm, cn}) != reg)
      continue;
    Chain chain{reg, {}, {}};
    for (int64_t kk = 0; kk < k; ++kk) {
      auto ra = aIndex.find({cb, cm, kk});
      auto rb = bIndex.find({cb, kk, cn});
      if (ra == aIndex.end() || rb == bIndex.end())
        return dotError(op) << "operand " << (ra != aIndex.end() ? "B" : "A")
                            << " has no register for batch " << cb << ", row "
                            << (ra != aIndex.end() ? kk : cm) << ", column "
                            << (ra != aIndex.end() ? cn : kk);
      chain.a.push_back(ra->second);
      chain.b.push_back(rb->second);
    }
    chains.push_back(std::move(chain));
  }

  // --- Emit. ---
  Location loc = op.getLoc();
  Type accType = convertElementType(cElem);
  SmallVector<Value> a = unpack(rewriter, loc, loweredA);
  SmallVector<Value> b = unpack(rewriter, loc, loweredB);
  SmallVector<Value> c = unpack(rewriter, loc, loweredC);
  // Operands in the accumulator type, each cast once however often used.
  SmallVector<Value> aCast(a.size()), bCast(b.size());
  auto cast = [&](SmallVector<Value> &cache, ArrayRef<Value> regs,
                  unsigned reg) {
    if (!cache[reg])
      cache[reg] = castToAccumulator(rewriter, loc, regs[reg], accType);
    return cache[reg];
  };
  llvm::DenseMap<Coord3, Value> byCoordinate;
  for (const Chain &chain : chains) {
    Value acc = c[chain.reg];
    for (auto [ra, rb] : llvm::zip_equal(chain.a, chain.b)) {
      Value x = cast(aCast, a, ra), y = cast(bCast, b, rb);
      if (floats)
        acc = LLVM::FMAOp::create(rewriter, loc, x, y, acc);
      else
        acc = LLVM::AddOp::create(
            rewriter, loc, LLVM::MulOp::create(rewriter, loc, x, y), acc);
    }
    byCoordinate[coordinateOf(cLayout, chain.reg)] = acc;
  }
  SmallVector<Value> result;
  for (unsigned reg = 0, e = cLayout.getNumRegisters(); reg < e; ++reg)
    result.push_back(byCoordinate.lookup(coordinateOf(cLayout, reg)));
  return result;
}

//===----------------------------------------------------------------------===//
// The pattern
//===----------------------------------------------------------------------===//

namespace {
struct DotOpLowering : public OpConversionPattern<tt::DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType aType = op.getA().getType(), bType = op.getB().getType(),
                     cType = op.getC().getType();
    if (cType.getRank() != 2 && cType.getRank() != 3)
      return dotError(op) << "only 2-D and batched (3-D) dots are supported";
    std::optional<LinearLayout> a = getLayout(op, aType);
    if (!a)
      return failure();
    std::optional<LinearLayout> b = getLayout(op, bType);
    if (!b)
      return failure();
    std::optional<LinearLayout> c = getLayout(op, cType);
    if (!c)
      return failure();
    Type structType = getTypeConverter()->convertType(op.getType());
    if (!structType)
      return dotError(op) << "no register form for " << op.getType();

    FailureOr<SmallVector<Value>> result = failure();
    Attribute encoding = cType.getEncoding();
    auto mma = dyn_cast<NvidiaMmaEncodingAttr>(encoding);
    if (mma && cType.getRank() != 2)
      return dotError(op) << "batched (3-D) dots run on FMAs, with a blocked "
                             "accumulator";
    auto mfma = dyn_cast<AmdMfmaEncodingAttr>(encoding);
    if (mfma && cType.getRank() != 2)
      return dotError(op) << "batched (3-D) dots run on FMAs, with a blocked "
                             "accumulator";
    if (mma)
      result = lowerMmaDot(op, mma, adaptor.getA(), adaptor.getB(),
                           adaptor.getC(), *a, *b, *c, rewriter);
    else if (mfma)
      result = lowerMfmaDot(op, mfma, adaptor.getA(), adaptor.getB(),
                            adaptor.getC(), *a, *b, *c, rewriter);
    else if (auto blocked = dyn_cast<BlockedEncodingAttr>(encoding))
      result = lowerFmaDot(op, blocked, adaptor.getA(), adaptor.getB(),
                           adaptor.getC(), *a, *b, *c, rewriter);
    else
      return dotError(op) << "the accumulator must be in an nvidia_mma "
                             "(version 2), amd_mfma or blocked layout, got "
                          << encoding;
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, pack(rewriter, op.getLoc(), structType, *result));
    return success();
  }
};
} // namespace

void tpx::gpu_lowering::populateDotPatterns(TensorTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<DotOpLowering>(converter, patterns.getContext());
}
