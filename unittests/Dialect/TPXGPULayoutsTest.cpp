//===- TPXGPULayoutsTest.cpp - tpxgpu layout helpers ----------------------===//
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace tpx::tpxgpu;

namespace {

class TPXGPULayoutsTest : public ::testing::Test {
protected:
  TPXGPULayoutsTest() {
    context.loadDialect<TPXGPUDialect>();
    // Collect diagnostics instead of printing them, so tests can check them.
    context.getDiagEngine().registerHandler([this](Diagnostic &diag) {
      diagnostics.push_back(diag.str());
      return success();
    });
  }

  template <typename AttrT>
  AttrT parse(StringRef text) {
    return dyn_cast_or_null<AttrT>(parseAttribute(text, &context));
  }

  std::string print(Attribute attr) {
    std::string text;
    llvm::raw_string_ostream os(text);
    attr.print(os);
    return text;
  }

  /// verifyLayoutForShape's verdict; its message lands in `diagnostics`.
  bool fits(Attribute layout, ArrayRef<int64_t> shape) {
    return succeeded(verifyLayoutForShape(layout, shape, [this] {
      return emitError(UnknownLoc::get(&context));
    }));
  }

  MLIRContext context;
  std::vector<std::string> diagnostics;
};

constexpr const char *kBlocked =
    "#tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
    "warpsPerCTA = [4, 1], order = [1, 0]}>";

TEST_F(TPXGPULayoutsTest, BlockedParsesAndPrintsBack) {
  auto blocked = parse<BlockedEncodingAttr>(kBlocked);
  ASSERT_TRUE(blocked);
  EXPECT_EQ(blocked.getRank(), 2u);
  EXPECT_EQ(blocked.getSizePerThread(), ArrayRef<unsigned>({1, 8}));
  EXPECT_EQ(print(blocked), kBlocked);
  // Keys in another order give the same attribute.
  EXPECT_EQ(parse<BlockedEncodingAttr>(
                "#tpxgpu.blocked<{order = [1, 0], warpsPerCTA = [4, 1], "
                "threadsPerWarp = [4, 8], sizePerThread = [1, 8]}>"),
            blocked);
}

TEST_F(TPXGPULayoutsTest, ElemsPerThreadOfBlocked) {
  auto blocked = parse<BlockedEncodingAttr>(kBlocked);
  ASSERT_TRUE(blocked);
  // The CTA tile is 16x64: a 64x64 tensor wraps 4 times along dim 0.
  EXPECT_EQ(getElemsPerThread(blocked, {64, 64}),
            SmallVector<unsigned>({4, 8}));
  EXPECT_EQ(getTotalElemsPerThread(blocked, {64, 64}), 32u);
  // 128x256: 8 wraps along dim 0, 4 along dim 1.
  EXPECT_EQ(getElemsPerThread(blocked, {128, 256}),
            SmallVector<unsigned>({8, 32}));
  // Smaller than the tile: replicated, each thread keeps its block.
  EXPECT_EQ(getElemsPerThread(blocked, {8, 32}), SmallVector<unsigned>({1, 8}));
  // A shape of another rank has no answer.
  EXPECT_TRUE(getElemsPerThread(blocked, {64}).empty());
  EXPECT_EQ(getTotalElemsPerThread(blocked, {64}), 0u);
}

TEST_F(TPXGPULayoutsTest, SliceShapesAndElems) {
  auto blocked = parse<BlockedEncodingAttr>(kBlocked);
  auto slice = SliceEncodingAttr::get(&context, 1, blocked);
  EXPECT_EQ(slice.getRank(), 1u);
  EXPECT_EQ(getSliceParentShape({64}, 1), SmallVector<int64_t>({64, 1}));
  EXPECT_EQ(getSliceParentShape({64}, 0), SmallVector<int64_t>({1, 64}));
  EXPECT_EQ(getSliceParentShape({4, 8}, 1), SmallVector<int64_t>({4, 1, 8}));
  // Row sums of a 64x64 tensor: the 4 rows a thread owns.
  EXPECT_EQ(getElemsPerThread(slice, {64}), SmallVector<unsigned>({4}));
  auto columns = SliceEncodingAttr::get(&context, 0, blocked);
  EXPECT_EQ(getElemsPerThread(columns, {64}), SmallVector<unsigned>({8}));
  // The removed dimension's threads and warps are gone from the per-dim
  // view but still count for the warp size and warp count.
  EXPECT_EQ(getThreadsPerWarp(slice), SmallVector<unsigned>({4}));
  EXPECT_EQ(getWarpSize(slice), 32u);
  EXPECT_EQ(getNumWarps(slice), 4u);
}

TEST_F(TPXGPULayoutsTest, WarpShapeOfMmaLayouts) {
  auto mma = parse<NvidiaMmaEncodingAttr>(
      "#tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [8, 1], "
      "instrShape = [16, 64, 16]}>");
  ASSERT_TRUE(mma);
  EXPECT_EQ(getWarpSize(mma), 32u);
  EXPECT_EQ(getNumWarps(mma), 8u);
  auto mfma = parse<AmdMfmaEncodingAttr>(
      "#tpxgpu.amd_mfma<{version = 4, warpsPerCTA = [2, 2], "
      "instrShape = [16, 16, 32], isTransposed = true}>");
  ASSERT_TRUE(mfma);
  EXPECT_EQ(getWarpSize(mfma), 64u);
  EXPECT_EQ(getThreadsPerWarp(mfma), SmallVector<unsigned>({16, 4}));
  auto dot = DotOperandEncodingAttr::get(&context, 0, mfma, 8);
  EXPECT_EQ(getWarpSize(dot), 64u);
  EXPECT_EQ(getNumWarps(dot), 4u);
  EXPECT_EQ(getLayoutRank(dot), 2u);
}

TEST_F(TPXGPULayoutsTest, VerifyLayoutForShape) {
  auto blocked = parse<BlockedEncodingAttr>(kBlocked);
  EXPECT_TRUE(fits(blocked, {64, 64}));
  EXPECT_TRUE(fits(blocked, {1, 2}));
  EXPECT_TRUE(diagnostics.empty());

  EXPECT_FALSE(fits(blocked, {64}));
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics.back().find("tensor of rank 1 cannot have a layout "
                                    "of rank 2"),
            std::string::npos)
      << diagnostics.back();
  EXPECT_FALSE(fits(blocked, {48, 64}));
  EXPECT_NE(diagnostics.back().find("must be a power of two, got 48x64"),
            std::string::npos)
      << diagnostics.back();

  // wgmma: 64 rows per warp group, N per instruction.
  auto mma = parse<NvidiaMmaEncodingAttr>(
      "#tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], "
      "instrShape = [16, 64, 16]}>");
  EXPECT_TRUE(fits(mma, {64, 64}));
  EXPECT_TRUE(fits(mma, {128, 256}));
  EXPECT_FALSE(fits(mma, {32, 64}));
  EXPECT_FALSE(fits(mma, {64, 32}));
  // Operand A is [M, K]: K in steps of 16.
  auto dotA = DotOperandEncodingAttr::get(&context, 0, mma, 2);
  EXPECT_TRUE(fits(dotA, {64, 16}));
  EXPECT_FALSE(fits(dotA, {64, 8}));
  EXPECT_NE(diagnostics.back().find("not made of whole 64x16 MMA tiles "
                                    "(operand A"),
            std::string::npos)
      << diagnostics.back();

  // Shared layouts never encode tensors.
  auto shared = parse<SwizzledSharedEncodingAttr>(
      "#tpxgpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
      "order = [1, 0]}>");
  ASSERT_TRUE(shared);
  EXPECT_FALSE(fits(shared, {64, 64}));
  EXPECT_NE(diagnostics.back().find("is a shared-memory layout"),
            std::string::npos);
}

TEST_F(TPXGPULayoutsTest, InvalidLayoutsAreDiagnosedNotBuilt) {
  EXPECT_FALSE(parse<BlockedEncodingAttr>(
      "#tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [16], "
      "warpsPerCTA = [4], order = [0]}>"));
  ASSERT_FALSE(diagnostics.empty());
  EXPECT_NE(diagnostics.back().find("multiply to a warp size"),
            std::string::npos)
      << diagnostics.back();
  EXPECT_FALSE(parse<DotOperandEncodingAttr>(
      "#tpxgpu.dot_op<{opIdx = 1, parent = #tpxgpu.nvidia_mma<{version = 3, "
      "warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>, kWidth = 2}>"));
  EXPECT_NE(diagnostics.back().find("wgmma reads operand B only from shared"),
            std::string::npos)
      << diagnostics.back();
}

TEST_F(TPXGPULayoutsTest, MemDescViewsKeepTheAllocation) {
  auto shared = parse<SwizzledSharedEncodingAttr>(
      "#tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, "
      "order = [1, 0]}>");
  Builder b(&context);
  auto whole = MemDescType::get({3, 64, 64}, b.getF16Type(), shared);
  EXPECT_EQ(whole.getAllocShape(), whole.getShape());
  EXPECT_TRUE(whole.getMutableMemory());
  auto view = MemDescType::get({64, 64}, b.getF16Type(), shared, true,
                               whole.getAllocShape());
  std::string text;
  llvm::raw_string_ostream os(text);
  Type(view).print(os);
  EXPECT_NE(text.find("mutable, alloc_shape = 3x64x64>"), std::string::npos)
      << text;
  EXPECT_EQ(parseType(text, &context), Type(view));
}

} // namespace
