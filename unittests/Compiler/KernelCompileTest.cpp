//===- KernelCompileTest.cpp - compile and launch through the C API -------===//
#include "KernelTestSupport.h"

#include "tpx-c/Artifact.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

using namespace tpx::test;

namespace {

TpxKernelOptions cpuOptions() {
  TpxKernelOptions options = {};
  options.structSize = sizeof(options);
  options.target = "cpu";
  options.boundsCheck = 1;
  return options;
}

/// Compiles kVectorAdd; fails the test on error.
TpxArtifact *compileVectorAdd(const TpxKernelOptions &options) {
  TpxArtifact *artifact = nullptr;
  char *error = nullptr;
  if (tpxCompileKernel(kVectorAdd, &options, &artifact, &error) !=
      TPX_SUCCESS) {
    ADD_FAILURE() << error;
    tpxStringFree(error);
  }
  return artifact;
}

TEST(KernelCompile, CompilesAndRunsOverAGrid) {
  ScopedCacheDir cache;
  TpxArtifact *artifact = compileVectorAdd(cpuOptions());
  ASSERT_NE(artifact, nullptr);
  EXPECT_STREQ(tpxArtifactGetKernelName(artifact), "vadd");
  size_t size = 0;
  EXPECT_NE(tpxArtifactGetBinary(artifact, &size), nullptr);
  EXPECT_GT(size, 0u);

  const int n = 1000; // not a multiple of 64: the mask matters
  std::vector<float> x(n), y(n), z(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    x[i] = i * 0.5f;
    y[i] = 3.0f - i;
  }
  TpxLaunchArg args[4] = {
      {TPX_ARG_BUFFER, x.data(), x.size() * 4, 0, 0},
      {TPX_ARG_BUFFER, y.data(), y.size() * 4, 0, 0},
      {TPX_ARG_BUFFER, z.data(), z.size() * 4, 0, 0},
      {TPX_ARG_INT, nullptr, 0, n, 0}};
  uint32_t grid[3] = {(n + 63) / 64, 1, 1};
  char *error = nullptr;
  ASSERT_EQ(tpxLaunch(artifact, grid, args, 4, 0, &error), TPX_SUCCESS)
      << error;
  for (int i = 0; i < n; ++i)
    ASSERT_FLOAT_EQ(z[i], x[i] + y[i]) << "at " << i;
  tpxArtifactDestroy(artifact);
}

TEST(KernelCompile, WrongArgumentCountIsAnError) {
  ScopedCacheDir cache;
  TpxArtifact *artifact = compileVectorAdd(cpuOptions());
  ASSERT_NE(artifact, nullptr);
  float buffer[4];
  TpxLaunchArg args[2] = {{TPX_ARG_BUFFER, buffer, sizeof(buffer), 0, 0},
                          {TPX_ARG_BUFFER, buffer, sizeof(buffer), 0, 0}};
  uint32_t grid[3] = {1, 1, 1};
  char *error = nullptr;
  ASSERT_EQ(tpxLaunch(artifact, grid, args, 2, 0, &error), TPX_FAILURE);
  EXPECT_EQ(std::string(error), "kernel 'vadd' takes 4 arguments (x, y, z, n) "
                                "but 2 were given");
  tpxStringFree(error);
  tpxArtifactDestroy(artifact);
}

TEST(KernelCompile, ScalarWherePointerExpectedIsAnError) {
  ScopedCacheDir cache;
  TpxArtifact *artifact = compileVectorAdd(cpuOptions());
  ASSERT_NE(artifact, nullptr);
  float buffer[64];
  TpxLaunchArg args[4] = {{TPX_ARG_INT, nullptr, 0, 7, 0},
                          {TPX_ARG_BUFFER, buffer, sizeof(buffer), 0, 0},
                          {TPX_ARG_BUFFER, buffer, sizeof(buffer), 0, 0},
                          {TPX_ARG_INT, nullptr, 0, 64, 0}};
  uint32_t grid[3] = {1, 1, 1};
  char *error = nullptr;
  ASSERT_EQ(tpxLaunch(artifact, grid, args, 4, 0, &error), TPX_FAILURE);
  EXPECT_NE(std::string(error).find("argument 0 'x' of kernel 'vadd' is a "
                                    "pointer to f32 but a scalar was given"),
            std::string::npos)
      << error;
  tpxStringFree(error);
  tpxArtifactDestroy(artifact);
}

TEST(KernelCompile, TooSmallBufferIsReportedNotCrashed) {
  ScopedCacheDir cache;
  TpxArtifact *artifact = compileVectorAdd(cpuOptions());
  ASSERT_NE(artifact, nullptr);
  // The kernel is told n = 64 but z only holds 10 floats.
  std::vector<float> x(64, 1.0f), y(64, 2.0f), z(10, 0.0f);
  TpxLaunchArg args[4] = {{TPX_ARG_BUFFER, x.data(), 64 * 4, 0, 0},
                          {TPX_ARG_BUFFER, y.data(), 64 * 4, 0, 0},
                          {TPX_ARG_BUFFER, z.data(), 10 * 4, 0, 0},
                          {TPX_ARG_INT, nullptr, 0, 64, 0}};
  uint32_t grid[3] = {1, 1, 1};
  char *error = nullptr;
  ASSERT_EQ(tpxLaunch(artifact, grid, args, 4, 0, &error), TPX_FAILURE);
  std::string message(error);
  EXPECT_NE(message.find("out-of-bounds write of 4 bytes"), std::string::npos)
      << message;
  EXPECT_NE(message.find("buffer argument 'z', which holds 40 bytes"),
            std::string::npos)
      << message;
  // The in-bounds part was still written.
  EXPECT_FLOAT_EQ(z[9], 3.0f);
  tpxStringFree(error);
  tpxArtifactDestroy(artifact);
}

TEST(KernelCompile, SecondCompileHitsTheCache) {
  ScopedCacheDir cache;
  TpxKernelOptions options = cpuOptions();
  TpxArtifact *first = compileVectorAdd(options);
  ASSERT_NE(first, nullptr);
  EXPECT_FALSE(tpxArtifactWasCached(first));
  auto start = std::chrono::steady_clock::now();
  TpxArtifact *second = compileVectorAdd(options);
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  ASSERT_NE(second, nullptr);
  EXPECT_TRUE(tpxArtifactWasCached(second));
  // Reported for the record (closing note), never asserted on.
  std::printf("[ cache hit latency: %.2f ms ]\n", ms);
  size_t a = 0, b = 0;
  const void *binA = tpxArtifactGetBinary(first, &a);
  const void *binB = tpxArtifactGetBinary(second, &b);
  ASSERT_EQ(a, b);
  EXPECT_EQ(std::memcmp(binA, binB, a), 0);
  // Different options are a different entry.
  options.numWarps = 8;
  TpxArtifact *third = compileVectorAdd(options);
  ASSERT_NE(third, nullptr);
  EXPECT_FALSE(tpxArtifactWasCached(third));
  tpxArtifactDestroy(first);
  tpxArtifactDestroy(second);
  tpxArtifactDestroy(third);
}

TEST(KernelCompile, BadSourceIsAnError) {
  TpxKernelOptions options = cpuOptions();
  TpxArtifact *artifact = nullptr;
  char *error = nullptr;
  ASSERT_EQ(tpxCompileKernel("tt.func @f(", &options, &artifact, &error),
            TPX_FAILURE);
  EXPECT_NE(std::string(error).find("cannot parse the source"),
            std::string::npos);
  tpxStringFree(error);
  options.target = "tpu9";
  ASSERT_EQ(tpxCompileKernel(kVectorAdd, &options, &artifact, &error),
            TPX_FAILURE);
  EXPECT_NE(std::string(error).find("unknown target 'tpu9'"),
            std::string::npos)
      << error;
  tpxStringFree(error);
}

} // namespace
