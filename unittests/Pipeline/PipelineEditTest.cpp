//===- PipelineEditTest.cpp - Pipeline edit operations --------------------===//
#include "tpx/Pipeline/Pipeline.h"
#include "tpx/Pipeline/TargetPipelines.h"

#include "gtest/gtest.h"

using namespace tpx;

namespace {
Pipeline cpu() { return llvm::cantFail(getDefaultPipeline("cpu")); }
PassEntry entry(llvm::StringRef text) {
  return llvm::cantFail(PassEntry::parse(text));
}
std::string ttir(const Pipeline &p) {
  return p.getStage("ttir")->pipelineString();
}
std::string errorOf(llvm::Error e) { return llvm::toString(std::move(e)); }
} // namespace

TEST(PipelineEdit, DefaultStagesPerTarget) {
  auto names = [](llvm::StringRef target) {
    std::string all;
    Pipeline pipeline = llvm::cantFail(getDefaultPipeline(target));
    for (const Stage &s : pipeline.getStages())
      all += s.name + (s.kind == StageKind::Emit ? "*" : "") + " ";
    return all;
  };
  EXPECT_EQ(names("cpu"), "ttir llir obj* ");
  EXPECT_EQ(names("sm_90a"), "ttir ttgir llir ptx* cubin* ");
  EXPECT_EQ(names("gfx950"), "ttir ttgir llir amdgcn* hsaco* ");
  EXPECT_EQ(errorOf(getDefaultPipeline("sm_").takeError()),
            "unknown target 'sm_' (expected cpu, sm_<N>[a] or gfx<N>)");
}

TEST(PipelineEdit, InsertReplaceRemoveAppend) {
  Pipeline p = cpu();
  ASSERT_FALSE(p.insertBefore("ttir", "cse", entry("a")));
  ASSERT_FALSE(p.insertAfter("ttir", "cse", entry("b{x=1}")));
  EXPECT_EQ(ttir(p),
            "builtin.module(inline,tt-replace-poison,canonicalize,a,cse,b{x=1},"
            "symbol-dce)");
  ASSERT_FALSE(p.replace("ttir", "canonicalize", entry("c")));
  ASSERT_FALSE(p.remove("ttir", "symbol-dce"));
  ASSERT_FALSE(p.append("ttir", entry("tt.func(d)")));
  EXPECT_EQ(
      ttir(p),
      "builtin.module(inline,tt-replace-poison,c,a,cse,b{x=1},tt.func(d))");
  ASSERT_FALSE(
      p.replaceStage("llir", llvm::cantFail(PassEntry::parseList("x,y"))));
  EXPECT_EQ(p.getStage("llir")->pipelineString(), "builtin.module(x,y)");
}

TEST(PipelineEdit, ErrorsNameStageAndAnchorAndLeaveThePipeline) {
  Pipeline p = cpu();
  Pipeline before = p;
  EXPECT_EQ(errorOf(p.insertBefore("ttgir", "cse", entry("a"))),
            "pipeline of target 'cpu' has no stage 'ttgir' (stages: ttir, "
            "llir, obj)");
  EXPECT_EQ(
      errorOf(p.remove("ttir", "nope")),
      "stage 'ttir' has no pass 'nope' (passes: "
      "builtin.module(inline,tt-replace-poison,canonicalize,cse,symbol-dce))");
  EXPECT_TRUE(p == before);
}

TEST(PipelineEdit, PassEntryParsing) {
  PassEntry e = entry(" tt-x{a=1 b={c,d} s=\"q,)\"} ");
  EXPECT_EQ(e.name, "tt-x");
  EXPECT_EQ(e.options, "a=1 b={c,d} s=\"q,)\"");
  auto list =
      llvm::cantFail(PassEntry::parseList("a{x=1,y=2},tt.func(cse,b),c"));
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[1].str(), "tt.func(cse,b)");
  EXPECT_TRUE(list[1].isNested);
  EXPECT_EQ(errorOf(PassEntry::parse("a{x=1").takeError()),
            "unbalanced '{' in pass entry 'a{x=1'");
  EXPECT_EQ(errorOf(PassEntry::parse("a b").takeError()),
            "unexpected 'b' after pass entry 'a'");
  EXPECT_TRUE(errorOf(PassEntry::parseList("a,,b").takeError())
                  .find("expected a pass name") != std::string::npos);
  EXPECT_EQ(errorOf(PassEntry::parseList("a,").takeError()),
            "empty pass entry in 'a,'");
}
