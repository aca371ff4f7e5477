//===- PtxasResourceUsageTest.cpp - registers and spills from ptxas -v ----===//
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "gtest/gtest.h"

using namespace tpx;

namespace {

TEST(PtxasResourceUsage, ReadsRegistersAndSpillStoresOfEachEntry) {
  // CUDA 13's ptxas -v for a kernel that spills, and one that calls a
  // device function (whose properties are not an entry's).
  const char *log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'matmul' for 'sm_90a'\n"
      "ptxas info    : Function properties for matmul\n"
      "    408 bytes stack frame, 502 bytes spill stores, 488 bytes spill "
      "loads\n"
      "ptxas info    : Used 255 registers, used 1 barriers, 408 bytes "
      "cumulative stack size\n"
      "ptxas info    : Compile time = 151.206 ms\n"
      "ptxas info    : Function properties for helper\n"
      "    16 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
      "ptxas info    : Compiling entry function '_tpx$k$2dx' for 'sm_90a'\n"
      "ptxas info    : Function properties for _tpx$k$2dx\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 8 registers, used 0 barriers\n";
  EntryResourceMap entries = parsePtxasResourceUsage(log);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries["matmul"].registers, 255u);
  EXPECT_EQ(entries["matmul"].spillStoreBytes, 502u);
  EXPECT_EQ(entries["_tpx$k$2dx"].registers, 8u);
  EXPECT_EQ(entries["_tpx$k$2dx"].spillStoreBytes, 0u);
}

TEST(PtxasResourceUsage, ReadsTheOlderFormat) {
  // CUDA 12.0-12.3: no barrier count, constant-bank sizes instead.
  const char *log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'vadd' for 'sm_90a'\n"
      "ptxas info    : Function properties for vadd\n"
      "    0 bytes stack frame, 12 bytes spill stores, 12 bytes spill loads\n"
      "ptxas info    : Used 40 registers, 384 bytes cmem[0]\n";
  EntryResourceMap entries = parsePtxasResourceUsage(log);
  ASSERT_EQ(entries.count("vadd"), 1u);
  EXPECT_EQ(entries["vadd"].registers, 40u);
  EXPECT_EQ(entries["vadd"].spillStoreBytes, 12u);
}

TEST(PtxasResourceUsage, NothingFromOtherText) {
  EXPECT_TRUE(parsePtxasResourceUsage("").empty());
  EXPECT_TRUE(parsePtxasResourceUsage("ptxas warning : Used 12 registers\n"
                                      "    4 bytes spill stores\n")
                  .empty());
}

} // namespace
