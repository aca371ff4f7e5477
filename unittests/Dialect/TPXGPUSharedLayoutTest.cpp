//===- TPXGPUSharedLayoutTest.cpp - shared layouts as address maps --------===//
#include "tpx/Dialect/TPXGPU/IR/TPXGPUSharedLayout.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <set>

using namespace mlir;
using namespace tpx::tpxgpu;

namespace {

class TPXGPUSharedLayoutTest : public ::testing::Test {
protected:
  TPXGPUSharedLayoutTest() { context.loadDialect<TPXGPUDialect>(); }

  SharedLayout layout(StringRef encoding, ArrayRef<int64_t> shape,
                      unsigned bits = 16) {
    Attribute attr = parseAttribute(encoding, &context);
    EXPECT_TRUE(attr) << encoding.str();
    std::string error;
    std::optional<SharedLayout> result =
        SharedLayout::get(attr, shape, bits, &error);
    EXPECT_TRUE(result) << error;
    return *result;
  }

  std::string error(StringRef encoding, ArrayRef<int64_t> shape,
                    unsigned bits = 16) {
    std::string why;
    EXPECT_FALSE(SharedLayout::get(parseAttribute(encoding, &context), shape,
                                   bits, &why));
    return why;
  }

  /// Every element of the allocation gets its own, element-aligned bytes
  /// inside the allocation, and aligned runs of getMaxContiguousElements
  /// elements along the contiguous dimension are adjacent.
  void checkWholeAllocation(const SharedLayout &l) {
    ArrayRef<int64_t> shape = l.getAllocShape();
    unsigned rank = shape.size();
    std::set<uint64_t> seen;
    SmallVector<int64_t> c(rank, 0);
    unsigned contiguous = l.getContiguousDim();
    unsigned run = l.getMaxContiguousElements();
    while (true) {
      uint64_t offset = l.getByteOffset(c);
      EXPECT_LT(offset + l.getElementBytes(), l.getTotalBytes() + 1);
      EXPECT_EQ(offset % l.getElementBytes(), 0u);
      EXPECT_TRUE(seen.insert(offset).second) << "two elements at " << offset;
      if (c[contiguous] % run != 0) {
        SmallVector<int64_t> first(c);
        first[contiguous] -= c[contiguous] % run;
        EXPECT_EQ(offset, l.getByteOffset(first) +
                              (c[contiguous] % run) * l.getElementBytes());
      }
      int d = rank - 1;
      for (; d >= 0; --d) {
        if (++c[d] < shape[d])
          break;
        c[d] = 0;
      }
      if (d < 0)
        break;
    }
  }

  MLIRContext context;
};

constexpr const char *kNvmma128 = "#tpxgpu.nvmma_shared<{swizzlingByteWidth = "
                                  "128, transposed = false, "
                                  "elementBitWidth = 16}>";
constexpr const char *kNvmma128T = "#tpxgpu.nvmma_shared<{swizzlingByteWidth "
                                   "= 128, transposed = true, "
                                   "elementBitWidth = 16}>";
constexpr const char *kNvmma64 = "#tpxgpu.nvmma_shared<{swizzlingByteWidth = "
                                 "64, transposed = false, "
                                 "elementBitWidth = 16}>";
constexpr const char *kNvmma32 = "#tpxgpu.nvmma_shared<{swizzlingByteWidth = "
                                 "32, transposed = false, "
                                 "elementBitWidth = 16}>";
constexpr const char *kNvmma0 = "#tpxgpu.nvmma_shared<{swizzlingByteWidth = "
                                "0, transposed = false, "
                                "elementBitWidth = 16}>";
constexpr const char *kSwizzled =
    "#tpxgpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
    "order = [1, 0]}>";
constexpr const char *kPadded =
    "#tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>";

TEST_F(TPXGPUSharedLayoutTest, Nvmma128HandComputed) {
  SharedLayout l = layout(kNvmma128, {64, 64});
  EXPECT_EQ(l.getKind(), SharedLayout::Kind::Nvmma);
  EXPECT_EQ(l.getAlignment(), 1024u);
  EXPECT_EQ(l.getBufferBytes(), 8192u);
  EXPECT_EQ(l.getContiguousDim(), 1u);
  EXPECT_EQ(l.getMaxContiguousElements(), 8u); // one 16-byte chunk
  EXPECT_EQ(l.getByteOffset({0, 0}), 0u);
  EXPECT_EQ(l.getByteOffset({1, 0}), 128u ^ (1u << 4)); // 144
  EXPECT_EQ(l.getByteOffset({0, 8}), 16u);
  EXPECT_EQ(l.getByteOffset({1, 8}), 128u);
  EXPECT_EQ(l.getByteOffset({9, 0}), 1152u ^ (1u << 4));
  EXPECT_EQ(l.getByteOffset({7, 0}), 896u ^ (7u << 4));
  EXPECT_EQ(l.getByteOffset({0, 1}), 2u);
  checkWholeAllocation(l);
}

TEST_F(TPXGPUSharedLayoutTest, Nvmma128ColumnBlocks) {
  // 128 f16 columns are two 64-element blocks; block 1 follows all rows of
  // block 0.
  SharedLayout l = layout(kNvmma128, {64, 128});
  EXPECT_EQ(l.getByteOffset({0, 64}), 64u * 128u);
  EXPECT_EQ(l.getByteOffset({1, 64}), (64u * 128u + 128u) ^ 16u);
  checkWholeAllocation(l);
}

TEST_F(TPXGPUSharedLayoutTest, NvmmaTransposedSwapsDimensions) {
  SharedLayout l = layout(kNvmma128T, {64, 64});
  EXPECT_EQ(l.getContiguousDim(), 0u);
  EXPECT_EQ(l.getByteOffset({0, 1}), 144u);
  EXPECT_EQ(l.getByteOffset({1, 0}), 2u);
  checkWholeAllocation(l);
}

TEST_F(TPXGPUSharedLayoutTest, Nvmma64And32AndNone) {
  SharedLayout l64 = layout(kNvmma64, {64, 32});
  EXPECT_EQ(l64.getByteOffset({1, 0}), 64u);        // bits 7-8 are 0
  EXPECT_EQ(l64.getByteOffset({2, 0}), 128u ^ 16u); // bit 7 -> bit 4
  EXPECT_EQ(l64.getByteOffset({6, 0}), 384u ^ 48u); // bits 7-8 = 3
  checkWholeAllocation(l64);
  SharedLayout l32 = layout(kNvmma32, {64, 16});
  EXPECT_EQ(l32.getByteOffset({4, 0}), 128u ^ 16u);
  EXPECT_EQ(l32.getByteOffset({8, 0}), 256u); // bit 8 is not swizzled
  checkWholeAllocation(l32);
  SharedLayout l0 = layout(kNvmma0, {64, 64});
  EXPECT_EQ(l0.getByteOffset({1, 0}), 128u);
  EXPECT_EQ(l0.getByteOffset({0, 5}), 10u);
  EXPECT_EQ(l0.getMaxContiguousElements(), 64u);
  checkWholeAllocation(l0);
}

TEST_F(TPXGPUSharedLayoutTest, NvmmaBuffersAreAlignedTo1024) {
  SharedLayout l = layout(kNvmma0, {3, 8, 8});
  EXPECT_EQ(l.getNumBufferDims(), 1u);
  EXPECT_EQ(l.getBufferBytes(), 128u);
  EXPECT_EQ(l.getBufferStride(), 1024u);
  EXPECT_EQ(l.getTotalBytes(), 3072u);
  EXPECT_EQ(l.getByteOffset({2, 1, 3}), 2048u + 16u + 6u);
  SharedLayout big = layout(kNvmma128, {2, 3, 64, 64});
  EXPECT_EQ(big.getNumBuffers(), 6u);
  EXPECT_EQ(big.getByteOffset({1, 2, 1, 0}), 5u * 8192u + 144u);
  checkWholeAllocation(big);
}

TEST_F(TPXGPUSharedLayoutTest, NvmmaRejectsPartialSwizzleBlocks) {
  EXPECT_EQ(error(kNvmma128, {64, 32}),
            "an nvmma_shared tile with a 128-byte swizzle needs its contiguous "
            "dimension to be a multiple of 64 elements, got 32");
  EXPECT_EQ(error(kNvmma128, {64, 96}),
            "an nvmma_shared tile must have a power-of-two contiguous "
            "dimension, got 96");
}

TEST_F(TPXGPUSharedLayoutTest, SwizzledFollowsItsDefinition) {
  SharedLayout l = layout(kSwizzled, {64, 64});
  EXPECT_EQ(l.getAlignment(), 16u);
  EXPECT_EQ(l.getMaxContiguousElements(), 8u);
  // Row 1 XORs its vector index with 1.
  EXPECT_EQ(l.getByteOffset({1, 0}), (64u + 8u) * 2u);
  EXPECT_EQ(l.getByteOffset({1, 8}), 64u * 2u);
  EXPECT_EQ(l.getByteOffset({3, 17}), (3u * 64u + (2u ^ 3u) * 8u + 1u) * 2u);
  // Row 8 is back to phase 0.
  EXPECT_EQ(l.getByteOffset({8, 9}), (8u * 64u + 9u) * 2u);
  checkWholeAllocation(l);
  // Rows narrower than maxPhase vectors keep the XOR inside the row.
  checkWholeAllocation(layout(kSwizzled, {16, 16}));
  // Three dimensions: rows are the row-major index of the other two.
  SharedLayout l3 = layout("#tpxgpu.swizzled_shared<{vec = 4, perPhase = 2, "
                           "maxPhase = 4, order = [2, 1, 0]}>",
                           {2, 4, 16}, 32);
  EXPECT_EQ(l3.getByteOffset({1, 1, 0}), (5u * 16u + 2u * 4u) * 4u);
  checkWholeAllocation(l3);
  // vec = perPhase = maxPhase = 1 is row-major.
  SharedLayout plain = layout("#tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, "
                              "maxPhase = 1, order = [0, 1]}>",
                              {8, 4}, 32);
  EXPECT_EQ(plain.getByteOffset({3, 2}), (2u * 8u + 3u) * 4u);
  EXPECT_EQ(plain.getMaxContiguousElements(), 8u);
  EXPECT_EQ(plain.getContiguousDim(), 0u);
}

TEST_F(TPXGPUSharedLayoutTest, PaddedRows) {
  SharedLayout l = layout(kPadded, {64, 64});
  EXPECT_EQ(l.getBufferBytes(), 64u * 72u * 2u);
  EXPECT_EQ(l.getByteOffset({1, 0}), 144u);
  EXPECT_EQ(l.getByteOffset({2, 3}), (144u + 3u) * 2u);
  EXPECT_EQ(l.getMaxContiguousElements(), 64u);
  checkWholeAllocation(l);
  SharedLayout oneD =
      layout("#tpxgpu.padded_shared<{padding = 0, order = [0]}>", {256}, 8);
  EXPECT_EQ(oneD.getByteOffset({7}), 7u);
  EXPECT_EQ(oneD.getTotalBytes(), 256u);
}

TEST_F(TPXGPUSharedLayoutTest, TranslationInvariantWindows) {
  SharedLayout l = layout(kNvmma128, {64, 128});
  // Whole swizzle atoms (8 rows, 64 columns) move by translation.
  EXPECT_TRUE(l.isTranslationInvariant({8, 0}, {8, 64}));
  EXPECT_TRUE(l.isTranslationInvariant({0, 64}, {64, 64}));
  // One row down changes the XOR pattern.
  EXPECT_FALSE(l.isTranslationInvariant({1, 0}, {8, 64}));
  // Out of the allocation.
  EXPECT_FALSE(l.isTranslationInvariant({60, 0}, {8, 64}));
  SharedLayout buffers = layout(kNvmma128, {3, 64, 64});
  EXPECT_TRUE(buffers.isTranslationInvariant({2, 0, 0}, {1, 64, 64}));
  EXPECT_TRUE(layout(kPadded, {64, 64}).isTranslationInvariant({3, 5}, {4, 4}));
}

TEST_F(TPXGPUSharedLayoutTest, RejectsNonSharedLayouts) {
  EXPECT_EQ(error("#tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = "
                  "[32], warpsPerCTA = [4], order = [0]}>",
                  {128}),
            "not a shared-memory layout");
  EXPECT_EQ(error(kSwizzled, {64, 48}),
            "a swizzled_shared row must have a power-of-two number of "
            "elements, got 48");
}

} // namespace
