//===- PluginCAPITest.cpp - The host C API with the example plugins -------===//
#include "tpx-c/Tpx.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <chrono>
#include <string>

namespace {
/// Loads an example plugin, failing the test with the C API's message.
void load(const char *file) {
  char *error = nullptr;
  std::string path = std::string(TPX_EXAMPLE_PLUGIN_DIR "/") + file;
  ASSERT_EQ(tpxLoadPlugin(path.c_str(), &error), TPX_SUCCESS) << error;
}

std::string takeString(char *text) {
  std::string copy = text ? text : "";
  tpxStringFree(text);
  return copy;
}

TpxKeywordArg floatArg(const char *name, double value) {
  TpxKeywordArg arg = {};
  arg.name = name;
  arg.value.kind = TPX_KIND_FLOAT;
  arg.value.floatValue = value;
  return arg;
}

const char *kKernel = R"(
  tt.func public @%s(%%src: !tt.ptr<f32>, %%dst: !tt.ptr<f32>) {
    %%v = tt.load %%src : !tt.ptr<f32>
    tt.store %%dst, %%v : !tt.ptr<f32>
    tt.return
  })";

std::string compile(const char *name, char **error) {
  char source[512];
  snprintf(source, sizeof(source), kKernel, name);
  TpxCompileOptions options = {};
  options.structSize = sizeof(options);
  options.target = "cpu";
  options.stopAfter = "ttir";
  char *output = nullptr;
  size_t size = 0;
  if (tpxCompileString(source, &options, &output, &size, error) != TPX_SUCCESS)
    return "";
  return takeString(output);
}
} // namespace

TEST(PluginCAPI, LoadTimeOfAnExamplePlugin) {
  auto start = std::chrono::steady_clock::now();
  load("TpxExampleTpxexDialect.so");
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  std::printf("tpx: loaded TpxExampleTpxexDialect.so in %.2f ms\n", ms);
  RecordProperty("load_ms", std::to_string(ms));
  EXPECT_LT(ms, 2000.0);
}

TEST(PluginCAPI, TwoKernelsInSequenceWithAScopedSelection) {
  load("TpxExampleEvictionPolicy.so");
  const char *names[] = {"example-evict-last"};
  char *error = nullptr;
  ASSERT_EQ(tpxPushPipelineSelection(names, 1, &error), TPX_SUCCESS) << error;
  std::string first = compile("first", &error);
  ASSERT_EQ(tpxPopPipelineSelection(&error), TPX_SUCCESS) << error;
  std::string second = compile("second", &error);
  ASSERT_FALSE(first.empty() || second.empty()) << takeString(error);
  EXPECT_NE(first.find("evictionPolicy = evict_last"), std::string::npos)
      << first;
  EXPECT_EQ(second.find("evictionPolicy"), std::string::npos) << second;

  EXPECT_EQ(tpxPopPipelineSelection(&error), TPX_FAILURE);
  EXPECT_EQ(takeString(error), "no pipeline selection is active");
  const char *unknown[] = {"nope"};
  EXPECT_EQ(tpxPushPipelineSelection(unknown, 1, &error), TPX_FAILURE);
  EXPECT_NE(takeString(error).find("unknown pipeline extension 'nope'"),
            std::string::npos);
}

TEST(PluginCAPI, CacheKeyMaterialHasHashesAndPipeline) {
  load("TpxExampleEvictionPolicy.so");
  char *material = nullptr, *error = nullptr;
  ASSERT_EQ(tpxGetCacheKeyMaterial("cpu", &material, &error), TPX_SUCCESS);
  std::string text = takeString(material);
  EXPECT_NE(text.find("plugin example-eviction-policy 1.0 sha256="),
            std::string::npos);
  EXPECT_EQ(text.find(TPX_EXAMPLE_PLUGIN_DIR), std::string::npos);
  EXPECT_NE(text.find("ttir: builtin.module("), std::string::npos);
}

TEST(PluginCAPI, BuildsTheScaledAddDslOp) {
  load("TpxExampleScaledAdd.so");
  const TpxDslOpInfo *info = tpxLookupDslOp("scaled_add");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->numOperands, 2);
  ASSERT_EQ(info->numKeywords, 1u);
  EXPECT_STREQ(info->keywords[0].name, "alpha");

  MlirContext context = tpxContextCreate();
  {
    auto module = mlir::parseSourceString<mlir::ModuleOp>(
        "tt.func public @k(%x: tensor<8xf32>, %y: tensor<8xf32>) "
        "-> tensor<8xf32> { tt.return %x : tensor<8xf32> }",
        unwrap(context));
    ASSERT_TRUE(module);
    auto func =
        mlir::cast<mlir::FunctionOpInterface>(module->getBody()->front());
    mlir::Block &body = func.getFunctionBody().front();
    mlir::Operation *ret = body.getTerminator();
    TpxBuildContext where = {context, wrap(mlir::Location(func.getLoc())),
                             wrap(&body), wrap(ret)};
    MlirValue operands[] = {wrap(body.getArgument(0)),
                            wrap(body.getArgument(1))};
    // alpha given as an int: widened to the declared float.
    TpxKeywordArg alpha = {};
    alpha.name = "alpha";
    alpha.value.kind = TPX_KIND_INT;
    alpha.value.intValue = 3;
    MlirValue results[2];
    size_t numResults = 0;
    char *error = nullptr;
    ASSERT_EQ(tpxBuildDslOp("scaled_add", &where, operands, 2, &alpha, 1,
                            results, 2, &numResults, &error),
              TPX_SUCCESS)
        << error;
    ASSERT_EQ(numResults, 1u);
    mlir::Value result = unwrap(results[0]);
    EXPECT_EQ(result.getType(), body.getArgument(0).getType());
    ret->setOperand(0, result);
    EXPECT_TRUE(mlir::succeeded(mlir::verify(*module)));
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    EXPECT_NE(text.find("dense<3.000000e+00> : tensor<8xf32>"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("arith.mulf"), std::string::npos);

    // Caller errors are reported with the op's name, not built.
    TpxKeywordArg wrong = floatArg("beta", 1.0);
    EXPECT_EQ(tpxBuildDslOp("scaled_add", &where, operands, 2, &wrong, 1,
                            results, 2, &numResults, &error),
              TPX_FAILURE);
    EXPECT_EQ(takeString(error), "DSL op 'scaled_add' has no keyword 'beta'");
    TpxKeywordArg text1 = {};
    text1.name = "alpha";
    text1.value.kind = TPX_KIND_STRING;
    text1.value.stringValue = "big";
    EXPECT_EQ(tpxBuildDslOp("scaled_add", &where, operands, 2, &text1, 1,
                            results, 2, &numResults, &error),
              TPX_FAILURE);
    EXPECT_EQ(takeString(error),
              "DSL op 'scaled_add': keyword 'alpha' must be float, got string");
    EXPECT_EQ(tpxBuildDslOp("scaled_add", &where, operands, 1, nullptr, 0,
                            results, 2, &numResults, &error),
              TPX_FAILURE);
    EXPECT_EQ(takeString(error), "DSL op 'scaled_add' takes 2 operands, got 1");
    EXPECT_EQ(tpxBuildDslOp("nope", &where, operands, 2, nullptr, 0, results, 2,
                            &numResults, &error),
              TPX_FAILURE);
    EXPECT_EQ(takeString(error), "unknown DSL op 'nope'");
  }
  tpxContextDestroy(context);
}
