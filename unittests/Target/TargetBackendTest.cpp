//===- TargetBackendTest.cpp - Backends, named pipelines, extensions ------===//
#include "tpx/Target/TargetBackend.h"
#include "tpx/Pipeline/PipelineExtension.h"
#include "tpx/Pipeline/TargetPipelines.h"
#include "tpx/Target/CPU/CPUTarget.h"

#include "gtest/gtest.h"

using namespace tpx;

namespace {
/// Extensions anchored in one NVIDIA pipeline, in both, and in neither.
void registerForkExtensions() {
  static bool once = [] {
    llvm::cantFail(registerPipelineExtension(
        {"test-after-layouts", "", "test", [](Pipeline &p) {
           return p.insertAfter("ttgir", "convert-tt-to-tpxgpu",
                                llvm::cantFail(PassEntry::parse("simt-only")));
         }}));
    llvm::cantFail(registerPipelineExtension(
        {"test-before-emit-kernel", "", "test", [](Pipeline &p) {
           return p.insertBefore(
               "llir", "tpx-nvidia-emit-kernel",
               llvm::cantFail(PassEntry::parse("one-thread-only")));
         }}));
    llvm::cantFail(registerPipelineExtension(
        {"test-after-inline", "", "test", [](Pipeline &p) {
           return p.insertAfter("ttir", "inline",
                                llvm::cantFail(PassEntry::parse("both")));
         }}));
    llvm::cantFail(registerPipelineExtension(
        {"test-missing-anchor", "", "test", [](Pipeline &p) {
           return p.insertAfter("llir", "no-such-pass",
                                llvm::cantFail(PassEntry::parse("never")));
         }}));
    return true;
  }();
  (void)once;
}

std::string names(const std::vector<Pipeline> &pipelines) {
  std::string text;
  for (const Pipeline &p : pipelines)
    text += p.getName() + " ";
  return text;
}

bool runs(const Pipeline &p, llvm::StringRef stage, llvm::StringRef pass) {
  return p.getStage(stage)->find(pass) >= 0;
}
} // namespace

TEST(TargetBackend, OneRegistrationPerFamily) {
  std::string families;
  for (const TargetBackend *backend : getTargetBackends())
    families += backend->family + " ";
  EXPECT_EQ(families, "cpu nvidia amd ");
  EXPECT_EQ(llvm::cantFail(getTargetFamily("sm_90a")), "nvidia");
  EXPECT_EQ(llvm::cantFail(getTargetFamily("gfx950")), "amd");
  auto duplicate = registerTargetBackend(getCPUBackend());
  EXPECT_EQ(llvm::toString(std::move(duplicate)),
            "target backend 'cpu' is already registered");
}

TEST(TargetBackend, NamedPipelines) {
  auto nvidia = llvm::cantFail(getTargetPipelines("sm_90a"));
  EXPECT_EQ(names(nvidia), "simt one-thread ");
  EXPECT_EQ(names(llvm::cantFail(getTargetPipelines("cpu"))), "default ");
  // Each NVIDIA pipeline holds only its own code generator.
  EXPECT_TRUE(runs(nvidia[0], "llir", "convert-tpxgpu-to-nvvm"));
  EXPECT_FALSE(runs(nvidia[0], "llir", "convert-tt-to-cpu"));
  EXPECT_FALSE(runs(nvidia[0], "llir", "tpx-nvidia-emit-kernel"));
  EXPECT_FALSE(runs(nvidia[1], "llir", "convert-tpxgpu-to-nvvm"));
  EXPECT_FALSE(runs(nvidia[1], "ttgir", "convert-tt-to-tpxgpu"));
  EXPECT_TRUE(runs(nvidia[1], "llir", "tpx-nvidia-emit-kernel"));
  // The lowerings that change coverage run before the choice, in the
  // stage both share.
  EXPECT_TRUE(runs(nvidia[0], "ttir", "tpxgpu-lower-block-pointers"));
  EXPECT_EQ(nvidia[0].getStage("ttir")->pipelineString(),
            nvidia[1].getStage("ttir")->pipelineString());
  auto unknown = getTargetPipeline("sm_90a", "scalar");
  EXPECT_EQ(llvm::toString(unknown.takeError()),
            "target 'sm_90a' has no pipeline 'scalar' (pipelines: simt, "
            "one-thread)");
}

TEST(TargetBackend, ExtensionsLandOnlyWhereTheirAnchorIs) {
  registerForkExtensions();
  auto simtOnly = getTargetPipelines("sm_90a");
  ASSERT_TRUE(bool(simtOnly));
  {
    PipelineSelectionScope scope({"test-after-layouts"});
    auto pipelines = llvm::cantFail(getEffectivePipelines("sm_90a"));
    EXPECT_TRUE(runs(pipelines[0], "ttgir", "simt-only"));
    EXPECT_FALSE(runs(pipelines[1], "ttgir", "simt-only"));
  }
  {
    PipelineSelectionScope scope({"test-before-emit-kernel"});
    auto pipelines = llvm::cantFail(getEffectivePipelines("sm_90a"));
    EXPECT_FALSE(runs(pipelines[0], "llir", "one-thread-only"));
    EXPECT_TRUE(runs(pipelines[1], "llir", "one-thread-only"));
  }
  {
    PipelineSelectionScope scope({"test-after-inline"});
    auto pipelines = llvm::cantFail(getEffectivePipelines("sm_90a"));
    EXPECT_TRUE(runs(pipelines[0], "ttir", "both"));
    EXPECT_TRUE(runs(pipelines[1], "ttir", "both"));
  }
  {
    PipelineSelectionScope scope({"test-missing-anchor"});
    auto pipelines = getEffectivePipelines("sm_90a");
    std::string message = llvm::toString(pipelines.takeError());
    EXPECT_NE(message.find("pipeline extension 'test-missing-anchor' (from "
                           "'test') failed on every pipeline of target "
                           "'sm_90a':\n  pipeline 'simt': stage 'llir' has no "
                           "pass 'no-such-pass'"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("\n  pipeline 'one-thread': stage 'llir' has no "
                           "pass 'no-such-pass'"),
              std::string::npos)
        << message;
    // One pipeline: the error is the single-pipeline one, as before.
    auto cpu = getEffectivePipelines("cpu");
    EXPECT_EQ(
        llvm::toString(cpu.takeError())
            .find("pipeline extension 'test-missing-anchor' (from 'test') "
                  "failed: stage 'llir' has no pass 'no-such-pass'"),
        0u);
  }
}
