//===- TPXGPUSharedAccessTest.cpp - access widths and bank conflicts ------===//
//
// The wavefront counts are checked against what the bank model gives by
// hand for layouts whose conflicts are known: a warp writing whole rows is
// conflict-free, an MMA fragment (8 rows x 16 bytes per instruction) is
// conflict-free in a 128-byte swizzle and 8-way conflicted without one.
//
//===----------------------------------------------------------------------===//
#include "tpx/Dialect/TPXGPU/IR/TPXGPUSharedAccess.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace tpx::tpxgpu;

namespace {

class SharedAccessTest : public ::testing::Test {
protected:
  SharedAccessTest() { context.loadDialect<TPXGPUDialect>(); }

  LinearLayout regs(StringRef attr, ArrayRef<int64_t> shape) {
    std::optional<LinearLayout> result =
        toLinearLayout(parseAttribute(attr, &context), shape);
    EXPECT_TRUE(result.has_value()) << attr.str();
    return result.value_or(LinearLayout(shape));
  }

  SharedLayout shared(StringRef attr, ArrayRef<int64_t> shape) {
    std::optional<SharedLayout> result =
        SharedLayout::get(parseAttribute(attr, &context), shape, 16);
    EXPECT_TRUE(result.has_value()) << attr.str();
    return *result;
  }

  MLIRContext context;
};

constexpr StringLiteral kWgmmaAcc =
    "#tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], "
    "instrShape = [16, 128, 16]}>";
constexpr StringLiteral kRows =
    "#tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], "
    "warpsPerCTA = [4, 1], order = [1, 0]}>";
constexpr StringLiteral kNvmma128 =
    "#tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
    "elementBitWidth = 16}>";
constexpr StringLiteral kUnswizzled =
    "#tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, "
    "order = [1, 0]}>";

TEST_F(SharedAccessTest, RowsOfSixteenBytesAreConflictFree) {
  // 16 lanes x 16 bytes fill a 256-byte row: 4 wavefronts per access, each
  // bank holding 4 words (one per quarter of the warp).
  LinearLayout r = regs(kRows, {64, 128});
  SharedLayout s = shared(kUnswizzled, {64, 128});
  unsigned width = getSharedAccessWidth(s, 2, r, 2);
  EXPECT_EQ(width, 8u);
  SharedAccessCost cost = getSharedAccessCost(s, r, width, 2);
  EXPECT_TRUE(cost.isConflictFree());
  // 4 warps x (64 registers / 8) accesses x 4 wavefronts.
  EXPECT_EQ(cost.ideal, 4u * 8 * 4);
}

TEST_F(SharedAccessTest, AccumulatorFragmentsNeedTheSwizzle) {
  // A wgmma accumulator: each access is 8 rows x 4 lanes x 4 bytes. Rows
  // 256 bytes apart share their banks without a swizzle (8 words per bank:
  // 8 wavefronts for 128 bytes); the 128-byte swizzle moves each row's 16
  // bytes to its own banks.
  LinearLayout r = regs(kWgmmaAcc, {64, 128});
  SharedLayout plain = shared(kUnswizzled, {64, 128});
  SharedLayout swizzled = shared(kNvmma128, {64, 128});
  EXPECT_EQ(getSharedAccessWidth(plain, 2, r, 2), 2u);
  EXPECT_EQ(getSharedAccessWidth(swizzled, 2, r, 2), 2u);
  SharedAccessCost conflicted = getSharedAccessCost(plain, r, 2, 2);
  EXPECT_EQ(conflicted.wavefronts, 8 * conflicted.ideal);
  EXPECT_TRUE(getSharedAccessCost(swizzled, r, 2, 2).isConflictFree());
}

TEST_F(SharedAccessTest, DroppedBufferDimensions) {
  // A view of one buffer of three: the buffer dimension is not the view's,
  // and the accesses are those of a lone buffer.
  LinearLayout r = regs(kWgmmaAcc, {64, 128});
  SharedLayout buffers = shared(kNvmma128, {3, 64, 128});
  EXPECT_EQ(getSharedAccessWidth(buffers, 2, r, 2), 2u);
  EXPECT_TRUE(getSharedAccessCost(buffers, r, 2, 2).isConflictFree());
}

} // namespace
