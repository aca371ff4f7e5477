//===- TPXGPULinearLayoutTest.cpp - layouts as GF(2) maps -----------------===//
//
// The code generator trusts these maps for every index it computes, so the
// tests pin them to facts from outside tpx: every element is held by some
// thread, and the MMA fragments are the PTX ISA's m16n8k16 fragments
// (the MFMA ones the CDNA3/CDNA4 ISA's, i8 forms included).
//
//===----------------------------------------------------------------------===//
#include "tpx/Dialect/TPXGPU/IR/TPXGPULinearLayout.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/DenseSet.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace tpx::tpxgpu;

namespace {

class LinearLayoutTest : public ::testing::Test {
protected:
  LinearLayoutTest() { context.loadDialect<TPXGPUDialect>(); }

  LinearLayout layout(StringRef attr, ArrayRef<int64_t> shape) {
    Attribute parsed = parseAttribute(attr, &context);
    EXPECT_TRUE(parsed) << attr.str();
    std::string why;
    std::optional<LinearLayout> result = toLinearLayout(parsed, shape, &why);
    EXPECT_TRUE(result.has_value()) << why;
    return result.value_or(LinearLayout(shape));
  }

  /// How many (register, lane, warp) triples hold each element.
  static std::map<Coordinate, int> countHolders(const LinearLayout &l) {
    std::map<Coordinate, int> holders;
    for (unsigned w = 0; w < l.getNumWarps(); ++w)
      for (unsigned t = 0; t < l.getNumLanes(); ++t)
        for (unsigned r = 0; r < l.getNumRegisters(); ++r)
          ++holders[l.apply(r, t, w)];
    return holders;
  }

  static int64_t numElements(const LinearLayout &l) {
    int64_t n = 1;
    for (int64_t s : l.getShape())
      n *= s;
    return n;
  }

  MLIRContext context;
};

constexpr const char *kBlocked1D =
    "#tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], "
    "warpsPerCTA = [4], order = [0]}>";
constexpr const char *kMma =
    "#tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], "
    "instrShape = [16, 8]}>";

TEST_F(LinearLayoutTest, BlockedCoversEveryElementOnce) {
  LinearLayout l = layout(kBlocked1D, {1024});
  EXPECT_EQ(l.getNumRegisters(), 8u); // two repeats of the 512-element tile
  std::map<Coordinate, int> holders = countHolders(l);
  EXPECT_EQ(static_cast<int64_t>(holders.size()), 1024);
  for (auto &[element, count] : holders)
    EXPECT_EQ(count, 1);
  // Lane 1 of warp 0 starts at element 4; register 4 is the second tile.
  EXPECT_EQ(l.apply(0, 1, 0), Coordinate({4}));
  EXPECT_EQ(l.apply(4, 0, 1), Coordinate({512 + 128}));
}

TEST_F(LinearLayoutTest, SmallTensorsReplicate) {
  // 64 elements for a 512-element tile: lanes 16.. and warps repeat data.
  LinearLayout l = layout(kBlocked1D, {64});
  std::map<Coordinate, int> holders = countHolders(l);
  EXPECT_EQ(static_cast<int64_t>(holders.size()), 64);
  for (auto &[element, count] : holders)
    EXPECT_EQ(count, 8);
  EXPECT_EQ(l.getReplicationMask(LinearLayout::Lane), 0b10000u);
  EXPECT_EQ(l.getReplicationMask(LinearLayout::Warp), 0b11u);
}

TEST_F(LinearLayoutTest, SliceDropsTheDimension) {
  const char *parent = "#tpxgpu.blocked<{sizePerThread = [1, 4], "
                       "threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
                       "order = [1, 0]}>";
  LinearLayout full = layout(parent, {16, 32});
  LinearLayout rows = layout(
      (std::string("#tpxgpu.slice<{dim = 1, parent = ") + parent + "}>"), {16});
  // A thread holds row i of the slice exactly when it holds row i of the
  // parent: the thread parts agree after dropping dimension 1.
  auto dropColumn = [](ArrayRef<int64_t> c) { return Coordinate({c[0]}); };
  EXPECT_TRUE(full.sameThreadPart(rows, dropColumn));
  EXPECT_EQ(rows.getNumRegisters(), 1u);
  EXPECT_EQ(countHolders(rows).size(), 16u);
}

// PTX ISA, mma.m16n8k16 with .f16/.bf16: groupID = lane / 4,
// threadID_in_group = lane % 4. Accumulator c0,c1 at (g, 2t + {0,1}) and
// c2,c3 at (g + 8, 2t + {0,1}).
TEST_F(LinearLayoutTest, MmaAccumulatorIsThePtxFragment) {
  LinearLayout l = layout(kMma, {32, 16});
  for (unsigned lane = 0; lane < 32; ++lane) {
    int64_t g = lane / 4, t = lane % 4;
    EXPECT_EQ(l.apply(0, lane, 0), Coordinate({g, 2 * t}));
    EXPECT_EQ(l.apply(1, lane, 0), Coordinate({g, 2 * t + 1}));
    EXPECT_EQ(l.apply(2, lane, 0), Coordinate({g + 8, 2 * t}));
    EXPECT_EQ(l.apply(3, lane, 0), Coordinate({g + 8, 2 * t + 1}));
  }
  // Warp 1 takes the next 8 columns, warp 2 the next 16 rows.
  EXPECT_EQ(l.apply(0, 0, 1), Coordinate({0, 8}));
  EXPECT_EQ(l.apply(0, 0, 2), Coordinate({16, 0}));
  for (auto &[element, count] : countHolders(l))
    EXPECT_EQ(count, 1);
}

// A (16x16): a0,a1 (g, 2t+{0,1}); a2,a3 (g+8, ..); a4,a5 (g, 2t+8+{0,1});
// a6,a7 (g+8, 2t+8+..). B (16x8): b0,b1 (2t+{0,1}, g); b2,b3 (2t+8+.., g).
TEST_F(LinearLayoutTest, MmaOperandsAreThePtxFragments) {
  std::string mma = kMma;
  LinearLayout a =
      layout("#tpxgpu.dot_op<{opIdx = 0, parent = " + mma + ", kWidth = 2}>",
             {32, 16});
  LinearLayout b =
      layout("#tpxgpu.dot_op<{opIdx = 1, parent = " + mma + ", kWidth = 2}>",
             {16, 16});
  for (unsigned lane = 0; lane < 32; ++lane) {
    int64_t g = lane / 4, t = lane % 4;
    for (unsigned r = 0; r < 8; ++r) {
      int64_t row = g + ((r & 2) ? 8 : 0);
      int64_t col = 2 * t + (r & 1) + ((r & 4) ? 8 : 0);
      EXPECT_EQ(a.apply(r, lane, 0), Coordinate({row, col})) << r;
    }
    for (unsigned r = 0; r < 4; ++r) {
      int64_t k = 2 * t + (r & 1) + ((r & 2) ? 8 : 0);
      EXPECT_EQ(b.apply(r, lane, 0), Coordinate({k, g})) << r;
    }
  }
  // A is shared by the warps along N (warp 1), B by those along M (warp 2).
  EXPECT_EQ(a.apply(0, 0, 1), a.apply(0, 0, 0));
  EXPECT_EQ(a.apply(0, 0, 2), Coordinate({16, 0}));
  EXPECT_EQ(b.apply(0, 0, 1), Coordinate({0, 8}));
  EXPECT_EQ(b.apply(0, 0, 2), b.apply(0, 0, 0));
}

TEST_F(LinearLayoutTest, RegisterMapsNeedMatchingThreads) {
  const char *rowMajor = "#tpxgpu.blocked<{sizePerThread = [1, 4], "
                         "threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
                         "order = [1, 0]}>";
  const char *colMajor = "#tpxgpu.blocked<{sizePerThread = [4, 1], "
                         "threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], "
                         "order = [0, 1]}>";
  LinearLayout a = layout(rowMajor, {32, 32});
  LinearLayout b = layout(colMajor, {32, 32});
  auto identity = [](ArrayRef<int64_t> c) { return Coordinate(c); };
  EXPECT_TRUE(a.getRegisterMapFrom(a, identity).has_value());
  EXPECT_FALSE(a.getRegisterMapFrom(b, identity).has_value());
  // A transpose swaps them: thread parts agree through the permutation.
  auto swap = [](ArrayRef<int64_t> c) { return Coordinate({c[1], c[0]}); };
  std::optional<SmallVector<unsigned>> map = a.getRegisterMapFrom(b, swap);
  ASSERT_TRUE(map.has_value());
  for (unsigned r = 0; r < b.getNumRegisters(); ++r)
    EXPECT_EQ(swap(b.apply(r, 3, 1)), a.apply((*map)[r], 3, 1));
}

// PTX ISA, wgmma .m64nNk16 fragment D (f32): warp w of the group holds rows
// 16w..16w+15; for each 8 columns j, d[4j + {0,1}] at (g, 8j + 2t + {0,1})
// and d[4j + {2,3}] at (g + 8, ...).
TEST_F(LinearLayoutTest, WgmmaAccumulatorIsThePtxFragment) {
  LinearLayout l = layout("#tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = "
                          "[8, 1], instrShape = [16, 64, 16]}>",
                          {128, 64});
  EXPECT_EQ(l.getNumRegisters(), 32u);
  for (unsigned warp = 0; warp < 8; ++warp)
    for (unsigned lane = 0; lane < 32; ++lane) {
      int64_t g = lane / 4, t = lane % 4;
      for (unsigned r = 0; r < 32; ++r) {
        int64_t row = 16 * warp + g + ((r & 2) ? 8 : 0);
        int64_t col = 8 * (r / 4) + 2 * t + (r & 1);
        EXPECT_EQ(l.apply(r, lane, warp), Coordinate({row, col})) << r;
      }
    }
  for (auto &[element, count] : countHolders(l))
    EXPECT_EQ(count, 1);
  // Warp groups along N take the next instrN columns; a tile taller than
  // the warps repeats in registers after the instruction's own.
  LinearLayout wide = layout("#tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = "
                             "[4, 2], instrShape = [16, 32, 16]}>",
                             {128, 64});
  EXPECT_EQ(wide.apply(0, 0, 4), Coordinate({0, 32}));
  EXPECT_EQ(wide.apply(16, 0, 0), Coordinate({64, 0}));
  for (auto &[element, count] : countHolders(wide))
    EXPECT_EQ(count, 1);
}

// wgmma's A from registers: per warp the mma.sync m16n8k16 A fragment of
// its 16 rows; replicated across warp groups along N.
TEST_F(LinearLayoutTest, WgmmaRegisterOperandIsThePtxFragment) {
  LinearLayout a = layout(
      "#tpxgpu.dot_op<{opIdx = 0, parent = #tpxgpu.nvidia_mma<{version = 3, "
      "warpsPerCTA = [4, 2], instrShape = [16, 64, 16]}>, kWidth = 2}>",
      {64, 32});
  for (unsigned warp = 0; warp < 4; ++warp)
    for (unsigned lane = 0; lane < 32; ++lane) {
      int64_t g = lane / 4, t = lane % 4;
      for (unsigned r = 0; r < 16; ++r) {
        int64_t row = 16 * warp + g + ((r & 2) ? 8 : 0);
        int64_t col = 16 * (r / 8) + 2 * t + (r & 1) + ((r & 4) ? 8 : 0);
        EXPECT_EQ(a.apply(r, lane, warp), Coordinate({row, col})) << r;
        EXPECT_EQ(a.apply(r, lane, warp + 4), a.apply(r, lane, warp));
      }
    }
}

// CDNA3/CDNA4 ISA, MFMA dense output layout (f32, not transposed): lane l
// holds column l % 32 of a 32x32 block, register i row
// 8 * (i / 4) + 4 * (l / 32) + i % 4; of a 16x16 block column l % 16 and
// row 4 * (l / 16) + i.
TEST_F(LinearLayoutTest, MfmaAccumulatorIsTheCdnaLayout) {
  LinearLayout big = layout("#tpxgpu.amd_mfma<{version = 4, warpsPerCTA = "
                            "[2, 2], instrShape = [32, 32, 16]}>",
                            {64, 64});
  ASSERT_EQ(big.getNumLanes(), 64u);
  ASSERT_EQ(big.getNumRegisters(), 16u);
  for (unsigned lane = 0; lane < 64; ++lane)
    for (unsigned i = 0; i < 16; ++i)
      EXPECT_EQ(big.apply(i, lane, 0),
                Coordinate({8 * (i / 4) + 4 * (lane / 32) + i % 4, lane % 32}))
          << "lane " << lane << " register " << i;
  // Wave 1 takes the next 32 columns, wave 2 the next 32 rows.
  EXPECT_EQ(big.apply(0, 0, 1), Coordinate({0, 32}));
  EXPECT_EQ(big.apply(0, 0, 2), Coordinate({32, 0}));
  for (auto &[element, count] : countHolders(big))
    EXPECT_EQ(count, 1);

  LinearLayout small = layout("#tpxgpu.amd_mfma<{version = 4, warpsPerCTA = "
                              "[1, 1], instrShape = [16, 16, 32]}>",
                              {16, 16});
  ASSERT_EQ(small.getNumRegisters(), 4u);
  for (unsigned lane = 0; lane < 64; ++lane)
    for (unsigned i = 0; i < 4; ++i)
      EXPECT_EQ(small.apply(i, lane, 0),
                Coordinate({4 * (lane / 16) + i, lane % 16}));
}

// CDNA4 ISA, v_mfma_f32_32x32x16_{f16,bf16}: A (32x16) lane l holds row
// l % 32, K elements 8 * (l / 32) + j (j < 8, one 128-bit register
// group); B (16x32) is its transpose: column l % 32, the same K.
// v_mfma_f32_16x16x32_*: row/column l % 16, K 8 * (l / 16) + j.
TEST_F(LinearLayoutTest, MfmaOperandsAreTheCdna4Layout) {
  std::string big = "#tpxgpu.amd_mfma<{version = 4, warpsPerCTA = [2, 2], "
                    "instrShape = [32, 32, 16]}>";
  LinearLayout a =
      layout("#tpxgpu.dot_op<{opIdx = 0, parent = " + big + ", kWidth = 8}>",
             {64, 32});
  LinearLayout b =
      layout("#tpxgpu.dot_op<{opIdx = 1, parent = " + big + ", kWidth = 8}>",
             {32, 64});
  for (unsigned lane = 0; lane < 64; ++lane)
    for (unsigned j = 0; j < 8; ++j) {
      int64_t k = 8 * (lane / 32) + j;
      EXPECT_EQ(a.apply(j, lane, 0), Coordinate({lane % 32, k}));
      EXPECT_EQ(b.apply(j, lane, 0), Coordinate({k, lane % 32}));
      // The next K step (16 deep) is the next 8 registers.
      EXPECT_EQ(a.apply(8 + j, lane, 0), Coordinate({lane % 32, 16 + k}));
    }
  // A is shared by the waves along N (wave 1), B by those along M (wave 2).
  EXPECT_EQ(a.apply(0, 0, 1), a.apply(0, 0, 0));
  EXPECT_EQ(a.apply(0, 0, 2), Coordinate({32, 0}));
  EXPECT_EQ(b.apply(0, 0, 1), Coordinate({0, 32}));
  EXPECT_EQ(b.apply(0, 0, 2), b.apply(0, 0, 0));

  std::string small = "#tpxgpu.amd_mfma<{version = 4, warpsPerCTA = [1, 1], "
                      "instrShape = [16, 16, 32]}>";
  LinearLayout a16 =
      layout("#tpxgpu.dot_op<{opIdx = 0, parent = " + small + ", kWidth = 8}>",
             {16, 32});
  for (unsigned lane = 0; lane < 64; ++lane)
    for (unsigned j = 0; j < 8; ++j)
      EXPECT_EQ(a16.apply(j, lane, 0),
                Coordinate({lane % 16, 8 * (lane / 16) + j}));
}

// CDNA4 ISA, v_mfma_i32_32x32x32_i8 and v_mfma_i32_16x16x64_i8 (gfx950's
// double-rate integer forms; llvm.amdgcn.mfma.i32.32x32x32.i8 takes A and
// B as <4 x i32>): each lane's 128-bit operand holds 16 consecutive K
// bytes. A (32x32) lane l holds row l % 32 and K 16 * (l / 32) + j in byte
// j (j < 16); B (32x32) column l % 32, the same K. In the 16x16x64 form
// row/column l % 16 and K 16 * (l / 16) + j. The i32 accumulator is laid
// out as the f32 one: a 32x32 block's register i row
// 8 * (i / 4) + 4 * (l / 32) + i % 4, column l % 32; a 16x16 block's row
// 4 * (l / 16) + i, column l % 16.
TEST_F(LinearLayoutTest, MfmaInt8IsTheCdna4Layout) {
  std::string big = "#tpxgpu.amd_mfma<{version = 4, warpsPerCTA = [2, 2], "
                    "instrShape = [32, 32, 32]}>";
  LinearLayout acc = layout(big, {64, 64});
  ASSERT_EQ(acc.getNumRegisters(), 16u);
  for (unsigned lane = 0; lane < 64; ++lane)
    for (unsigned i = 0; i < 16; ++i)
      EXPECT_EQ(acc.apply(i, lane, 0),
                Coordinate({8 * (i / 4) + 4 * (lane / 32) + i % 4, lane % 32}))
          << "lane " << lane << " register " << i;
  EXPECT_EQ(acc.apply(0, 0, 1), Coordinate({0, 32}));
  EXPECT_EQ(acc.apply(0, 0, 2), Coordinate({32, 0}));
  for (auto &[element, count] : countHolders(acc))
    EXPECT_EQ(count, 1);

  LinearLayout a =
      layout("#tpxgpu.dot_op<{opIdx = 0, parent = " + big + ", kWidth = 16}>",
             {64, 128});
  LinearLayout b =
      layout("#tpxgpu.dot_op<{opIdx = 1, parent = " + big + ", kWidth = 16}>",
             {128, 64});
  // Per 32x32 block and 32-deep K step: 16 registers (one per byte).
  ASSERT_EQ(a.getNumRegisters(), 16u * (128 / 32));
  for (unsigned lane = 0; lane < 64; ++lane)
    for (unsigned j = 0; j < 16; ++j) {
      int64_t k = 16 * (lane / 32) + j;
      EXPECT_EQ(a.apply(j, lane, 0), Coordinate({lane % 32, k}))
          << "lane " << lane << " byte " << j;
      EXPECT_EQ(b.apply(j, lane, 0), Coordinate({k, lane % 32}))
          << "lane " << lane << " byte " << j;
      // The next K step (32 deep) is the next 16 registers.
      EXPECT_EQ(a.apply(16 + j, lane, 0), Coordinate({lane % 32, 32 + k}));
      EXPECT_EQ(b.apply(16 + j, lane, 0), Coordinate({32 + k, lane % 32}));
    }
  // A is shared by the waves along N (wave 1), B by those along M (wave 2).
  EXPECT_EQ(a.apply(0, 0, 1), a.apply(0, 0, 0));
  EXPECT_EQ(a.apply(0, 0, 2), Coordinate({32, 0}));
  EXPECT_EQ(b.apply(0, 0, 1), Coordinate({0, 32}));
  EXPECT_EQ(b.apply(0, 0, 2), b.apply(0, 0, 0));
  // Every element of A is held by the two waves along N, each once.
  for (auto &[element, count] : countHolders(a))
    EXPECT_EQ(count, 2);

  std::string small = "#tpxgpu.amd_mfma<{version = 4, warpsPerCTA = [1, 1], "
                      "instrShape = [16, 16, 64]}>";
  LinearLayout acc16 = layout(small, {16, 16});
  ASSERT_EQ(acc16.getNumRegisters(), 4u);
  LinearLayout a16 =
      layout("#tpxgpu.dot_op<{opIdx = 0, parent = " + small + ", kWidth = 16}>",
             {16, 64});
  LinearLayout b16 =
      layout("#tpxgpu.dot_op<{opIdx = 1, parent = " + small + ", kWidth = 16}>",
             {64, 16});
  ASSERT_EQ(a16.getNumRegisters(), 16u);
  for (unsigned lane = 0; lane < 64; ++lane) {
    for (unsigned i = 0; i < 4; ++i)
      EXPECT_EQ(acc16.apply(i, lane, 0),
                Coordinate({4 * (lane / 16) + i, lane % 16}));
    for (unsigned j = 0; j < 16; ++j) {
      int64_t k = 16 * (lane / 16) + j;
      EXPECT_EQ(a16.apply(j, lane, 0), Coordinate({lane % 16, k}));
      EXPECT_EQ(b16.apply(j, lane, 0), Coordinate({k, lane % 16}));
    }
  }
  for (auto &[element, count] : countHolders(a16))
    EXPECT_EQ(count, 1);

  // kWidth and the block's K must agree: 8 bytes a lane is the 32x32x16
  // form, not the i8 32x32x32 one.
  std::string why;
  Attribute mismatched = parseAttribute(
      "#tpxgpu.dot_op<{opIdx = 0, parent = " + big + ", kWidth = 8}>",
      &context);
  ASSERT_TRUE(mismatched);
  EXPECT_FALSE(toLinearLayout(mismatched, {64, 64}, &why).has_value());
  EXPECT_NE(why.find("kWidth 8 for 32x32x32"), std::string::npos) << why;
}

TEST_F(LinearLayoutTest, UnsupportedLayoutsSayWhy) {
  std::string why;
  Attribute mfma = parseAttribute(
      "#tpxgpu.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, "
      "32, 16], isTransposed = true}>",
      &context);
  ASSERT_TRUE(mfma);
  EXPECT_FALSE(toLinearLayout(mfma, {64, 64}, &why).has_value());
  EXPECT_NE(why.find("transposed MFMA"), std::string::npos) << why;
  Attribute blocked = parseAttribute(kBlocked1D, &context);
  EXPECT_FALSE(toLinearLayout(blocked, {100}, &why).has_value());
  EXPECT_NE(why.find("powers of two"), std::string::npos) << why;
}

} // namespace

// gfx950's ds_read_b64_tr_b16 as lib/Conversion/TPXGPUToLLVM/
// AMDTransposedReads.cpp uses it for 16-bit MFMA operands read from a
// buffer contiguous along M (A) or N (B): within a group of 16 lanes, lane
// s reads four elements from (r0 + s / 4, c0 + 4 (s % 4)) along the read
// (K) dimension r and the contiguous one c, where (r0, c0) is what the
// group's first lane holds in the register; the hardware gives lane t, as
// element k, element t % 4 of lane 4 k + t / 4's read. Simulated here on
// the CDNA4 operand layouts, it must give every lane its own registers.
TEST_F(LinearLayoutTest, TransposedLdsReadsGiveMfmaOperands) {
  for (const char *instr : {"[32, 32, 16]", "[16, 16, 32]"})
    for (unsigned opIdx : {0u, 1u}) {
      std::string mfma = std::string("#tpxgpu.amd_mfma<{version = 4, "
                                     "warpsPerCTA = [2, 2], instrShape = ") +
                         instr + "}>";
      LinearLayout to =
          layout("#tpxgpu.dot_op<{opIdx = " + std::to_string(opIdx) +
                     ", parent = " + mfma + ", kWidth = 8}>",
                 {64, 64});
      unsigned r = opIdx == 0 ? 1 : 0, c = 1 - r;
      auto read = [&](unsigned reg, unsigned lane, unsigned warp,
                      unsigned element) {
        unsigned s = lane % 16;
        Coordinate at = to.apply(reg, lane - s, warp);
        at[r] += s / 4;
        at[c] += 4 * (s % 4) + element;
        return at;
      };
      for (unsigned warp = 0; warp < 4; ++warp)
        for (unsigned lane = 0; lane < 64; ++lane)
          for (unsigned reg = 0; reg < to.getNumRegisters(); reg += 4)
            for (unsigned k = 0; k < 4; ++k) {
              unsigned t = lane % 16;
              unsigned source = lane - t + 4 * k + t / 4;
              EXPECT_EQ(read(reg, source, warp, t % 4),
                        to.apply(reg + k, lane, warp))
                  << instr << " opIdx " << opIdx << " warp " << warp << " lane "
                  << lane << " register " << reg + k;
            }
    }
}
