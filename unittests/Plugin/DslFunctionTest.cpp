//===- DslFunctionTest.cpp - a DSL op as function text, end to end --------===//
//
// What the Python front end does with tpxBuildDslOpFunction: paste the
// function into its kernel, call it with tt.call, compile and launch.
//
//===----------------------------------------------------------------------===//
#include "tpx-c/Artifact.h"

#include "llvm/ADT/StringRef.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace {

std::string takeString(char *text) {
  std::string copy = text ? text : "";
  tpxStringFree(text);
  return copy;
}

/// z[i] = scaled_add(x[i], y[i], alpha=2) for 64 elements, through @FN.
std::string makeKernel(const std::string &function) {
  return "module {\n" + function + R"mlir(
  tt.func public @k(%x: !tt.ptr<f32> loc("x"), %y: !tt.ptr<f32> loc("y"), %z: !tt.ptr<f32> loc("z")) {
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32> loc("k.py":3:12)
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>> loc("k.py":4:8)
    %xa = tt.addptr %xp, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32> loc("k.py":4:8)
    %xv = tt.load %xa : tensor<64x!tt.ptr<f32>> loc("k.py":4:8)
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>> loc("k.py":5:8)
    %ya = tt.addptr %yp, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32> loc("k.py":5:8)
    %yv = tt.load %ya : tensor<64x!tt.ptr<f32>> loc("k.py":5:8)
    %s = tt.call @scaled_add_0(%xv, %yv) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> loc("k.py":6:8)
    %zp = tt.splat %z : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>> loc("k.py":7:4)
    %za = tt.addptr %zp, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32> loc("k.py":7:4)
    tt.store %za, %s : tensor<64x!tt.ptr<f32>> loc("k.py":7:4)
    tt.return loc("k.py":8:4)
  } loc("k.py":1:1)
}
)mlir";
}

/// scaled_add over tensor<64xf32> with alpha=2, as function text.
std::string buildScaledAddFunction() {
  char *error = nullptr;
  std::string path = TPX_EXAMPLE_PLUGIN_DIR "/TpxExampleScaledAdd.so";
  EXPECT_EQ(tpxLoadPlugin(path.c_str(), &error), TPX_SUCCESS) << error;
  const char *types[] = {"tensor<64xf32>", "tensor<64xf32>"};
  TpxKeywordArg alpha = {};
  alpha.name = "alpha";
  alpha.value.kind = TPX_KIND_INT; // widened to the declared float
  alpha.value.intValue = 2;
  char *text = nullptr;
  EXPECT_EQ(tpxBuildDslOpFunction("scaled_add", types, 2, &alpha, 1,
                                  "scaled_add_0", "loc(\"k.py\":6:8)", &text,
                                  &error),
            TPX_SUCCESS)
      << takeString(error);
  return takeString(text);
}

TEST(DslFunction, PrintsAPrivateFunctionWithTheOpAndItsLocation) {
  std::string function = buildScaledAddFunction();
  EXPECT_TRUE(llvm::StringRef(function).starts_with(
      "tt.func private @scaled_add_0(%a0: tensor<64xf32> "))
      << function;
  EXPECT_NE(function.find("-> tensor<64xf32> {"), std::string::npos);
  EXPECT_NE(function.find("arith.constant dense<2.000000e+00> : "
                          "tensor<64xf32> loc(\"k.py\":6:8)"),
            std::string::npos)
      << function;
  EXPECT_NE(function.find("tt.return %"), std::string::npos);
}

TEST(DslFunction, InlinedIntoAKernelThatRunsOnTheCPU) {
  std::string source = makeKernel(buildScaledAddFunction());

  // After ttir (which starts with `inline`) the call and the function are
  // gone; the op's IR is in the kernel.
  TpxCompileOptions stop = {};
  stop.structSize = sizeof(stop);
  stop.target = "cpu";
  stop.stopAfter = "ttir";
  char *output = nullptr, *error = nullptr;
  ASSERT_EQ(tpxCompileString(source.c_str(), &stop, &output, nullptr, &error),
            TPX_SUCCESS)
      << takeString(error);
  std::string ttir = takeString(output);
  EXPECT_EQ(ttir.find("tt.call"), std::string::npos) << ttir;
  EXPECT_EQ(ttir.find("scaled_add_0"), std::string::npos) << ttir;
  EXPECT_NE(ttir.find("arith.mulf"), std::string::npos) << ttir;

  TpxKernelOptions options = {};
  options.structSize = sizeof(options);
  options.target = "cpu";
  options.noCache = 1;
  TpxArtifact *artifact = nullptr;
  ASSERT_EQ(tpxCompileKernel(source.c_str(), &options, &artifact, &error),
            TPX_SUCCESS)
      << takeString(error);
  std::vector<float> x(64), y(64), z(64, -1.0f);
  for (int i = 0; i < 64; ++i) {
    x[i] = 0.25f * i;
    y[i] = 10.0f - i;
  }
  TpxLaunchArg args[3] = {{TPX_ARG_BUFFER, x.data(), 64 * 4, 0, 0},
                          {TPX_ARG_BUFFER, y.data(), 64 * 4, 0, 0},
                          {TPX_ARG_BUFFER, z.data(), 64 * 4, 0, 0}};
  uint32_t grid[3] = {1, 1, 1};
  ASSERT_EQ(tpxLaunch(artifact, grid, args, 3, 1, &error), TPX_SUCCESS)
      << takeString(error);
  for (int i = 0; i < 64; ++i)
    ASSERT_FLOAT_EQ(z[i], x[i] + 2.0f * y[i]) << "at " << i;
  tpxArtifactDestroy(artifact);
}

TEST(DslFunction, ErrorsNameTheOp) {
  buildScaledAddFunction(); // loads the plugin
  char *text = nullptr, *error = nullptr;
  auto build = [&](const char *op, std::vector<const char *> types,
                   const char *location = nullptr) {
    TpxStatus status =
        tpxBuildDslOpFunction(op, types.data(), types.size(), nullptr, 0, "f",
                              location, &text, &error);
    EXPECT_EQ(status, TPX_FAILURE);
    EXPECT_EQ(text, nullptr);
    return takeString(error);
  };
  EXPECT_EQ(build("nope", {"f32"}), "unknown DSL op 'nope'");
  EXPECT_EQ(build("scaled_add", {"f32"}),
            "DSL op 'scaled_add' takes 2 operands, got 1");
  EXPECT_EQ(build("scaled_add", {"f32", "tensor<4xf3"}),
            "DSL op 'scaled_add': operand #1 type 'tensor<4xf3' is not a "
            "type: expected non-function type (at column 10)");
  EXPECT_EQ(build("scaled_add", {"f32", nullptr}),
            "DSL op 'scaled_add': operand #1 type is null");
  EXPECT_EQ(build("scaled_add", {"f32", "f32"}, "f32"),
            "DSL op 'scaled_add': location 'f32' is not an MLIR location "
            "such as loc(\"k.py\":12:8)");
  EXPECT_EQ(build("scaled_add", {"i32", "i32"}),
            "DSL op 'scaled_add' of plugin 'example-scaled-add' failed: x and "
            "y must be floats or tensors of floats");
  EXPECT_EQ(tpxBuildDslOpFunction("scaled_add", nullptr, 2, nullptr, 0, "f",
                                  nullptr, &text, &error),
            TPX_FAILURE);
  EXPECT_EQ(takeString(error), "tpxBuildDslOpFunction: null argument");
}

} // namespace
