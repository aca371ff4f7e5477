//===- PipelineSelectionTest.cpp - Extensions and selection scoping -------===//
#include "tpx/Pipeline/PipelineExtension.h"
#include "tpx/Pipeline/TargetPipelines.h"
#include "tpx/Registration/TpxRegistration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace tpx;

namespace {
/// Registers two test extensions once per process.
void registerTestExtensions() {
  static bool once = [] {
    llvm::cantFail(registerPipelineExtension(
        {"test-append-x", "", "test", [](Pipeline &p) {
           return p.append("ttir", llvm::cantFail(PassEntry::parse("x")));
         }}));
    llvm::cantFail(registerPipelineExtension(
        {"test-bad-anchor", "", "test", [](Pipeline &p) {
           llvm::cantFail(
               p.append("ttir", llvm::cantFail(PassEntry::parse("y"))));
           return p.remove("ttir", "nope");
         }}));
    return true;
  }();
  (void)once;
}

std::string ttirOf(llvm::Expected<Pipeline> p) {
  if (!p)
    return "error: " + llvm::toString(p.takeError());
  return p->getStage("ttir")->pipelineString();
}
} // namespace

TEST(PipelineSelection, DuplicateExtensionNamesAreRejected) {
  registerTestExtensions();
  auto error = registerPipelineExtension({"test-append-x", "", "other", {}});
  EXPECT_EQ(llvm::toString(std::move(error)),
            "pipeline extension 'test-append-x' is already provided by 'test'");
}

TEST(PipelineSelection, ScopesApplyUntilPopped) {
  registerTestExtensions();
  const std::string base =
      "builtin.module(inline,tt-replace-poison,canonicalize,cse,symbol-dce)";
  const std::string withX =
      "builtin.module(inline,tt-replace-poison,canonicalize,cse,symbol-dce,x)";
  EXPECT_EQ(ttirOf(getEffectivePipeline("cpu")), base);
  {
    PipelineSelectionScope scope({"test-append-x"});
    ASSERT_FALSE(scope.takeError());
    EXPECT_EQ(ttirOf(getEffectivePipeline("cpu")), withX);
    {
      // Nested scopes do not apply an extension twice.
      PipelineSelectionScope inner({"test-append-x"});
      EXPECT_EQ(ttirOf(getEffectivePipeline("cpu")), withX);
    }
    EXPECT_EQ(ttirOf(getEffectivePipeline("cpu")), withX);
  }
  EXPECT_EQ(ttirOf(getEffectivePipeline("cpu")), base);
  EXPECT_EQ(llvm::toString(popPipelineSelection()),
            "no pipeline selection is active");
}

TEST(PipelineSelection, UnknownAndFailingExtensions) {
  registerTestExtensions();
  PipelineSelectionScope unknown({"no-such-extension"});
  std::string message = llvm::toString(unknown.takeError());
  EXPECT_NE(message.find("unknown pipeline extension 'no-such-extension'"),
            std::string::npos);
  EXPECT_EQ(getScopedPipelineSelection().size(), 0u);

  Pipeline p = llvm::cantFail(getDefaultPipeline("cpu"));
  Pipeline before = p;
  std::string error =
      llvm::toString(applyPipelineExtensions(p, {"test-bad-anchor"}));
  EXPECT_EQ(error.rfind("pipeline extension 'test-bad-anchor' (from 'test') "
                        "failed: stage 'ttir' has no pass 'nope'",
                        0),
            0u);
  // A failing extension leaves no half-applied edit behind.
  EXPECT_TRUE(p == before);
}

TEST(PipelineSelection, ModuleAndKernelAttributes) {
  registerTestExtensions();
  mlir::DialectRegistry registry;
  registerTpxDialects(registry);
  mlir::MLIRContext context(registry);
  auto selected = mlir::parseSourceString<mlir::ModuleOp>(
      "tt.func public @k() attributes {tpx.pipeline = [\"test-append-x\"]} "
      "{ tt.return }",
      &context);
  auto plain = mlir::parseSourceString<mlir::ModuleOp>(
      "tt.func public @k() { tt.return }", &context);
  auto bad = mlir::parseSourceString<mlir::ModuleOp>(
      "module attributes {tpx.pipeline = 3 : i32} {}", &context);
  ASSERT_TRUE(selected && plain && bad);
  EXPECT_EQ(
      ttirOf(getEffectivePipeline("cpu", *selected)),
      "builtin.module(inline,tt-replace-poison,canonicalize,cse,symbol-dce,x)");
  EXPECT_EQ(
      ttirOf(getEffectivePipeline("cpu", *plain)),
      "builtin.module(inline,tt-replace-poison,canonicalize,cse,symbol-dce)");
  // Errors point at the op that carries the attribute.
  EXPECT_EQ(ttirOf(getEffectivePipeline("cpu", *bad)),
            "error: -:1:1: 'tpx.pipeline' on builtin.module must be a "
            "string or an array of strings");
  auto unknown = mlir::parseSourceString<mlir::ModuleOp>(
      "tt.func public @k() attributes {tpx.pipeline = [\"nope\"]} "
      "{ tt.return }",
      &context, "k.ttir");
  ASSERT_TRUE(unknown);
  std::string message = ttirOf(getEffectivePipeline("cpu", *unknown));
  EXPECT_EQ(message.rfind("error: k.ttir:1:1: unknown pipeline extension "
                          "'nope' (known: ",
                          0),
            0u)
      << message;
  EXPECT_NE(message.find("selected by 'tpx.pipeline' on tt.func @k"),
            std::string::npos)
      << message;
}
