//===- PipelineTextTest.cpp - Print/parse round trip ----------------------===//
#include "tpx/Pipeline/Pipeline.h"
#include "tpx/Pipeline/TargetPipelines.h"

#include "gtest/gtest.h"

using namespace tpx;

TEST(PipelineText, RoundTripsEveryTarget) {
  for (const char *target : {"cpu", "sm_90a", "gfx950"}) {
    Pipeline p = llvm::cantFail(getDefaultPipeline(target));
    llvm::cantFail(p.append(
        "ttir", llvm::cantFail(PassEntry::parse("tt-x{s=\"a b\" n=3}"))));
    std::string text = p.print();
    auto parsed = Pipeline::parse(text);
    ASSERT_TRUE(static_cast<bool>(parsed))
        << llvm::toString(parsed.takeError());
    EXPECT_TRUE(*parsed == p) << text << "\nvs\n" << parsed->print();
    EXPECT_EQ(parsed->print(), text);
  }
}

TEST(PipelineText, EmitKindsComeFromTheTarget) {
  auto p = llvm::cantFail(Pipeline::parse(
      "# tpx pipeline target=cpu\n\n# comment\nttir: builtin.module(cse)\n"
      "obj: builtin.module()\nextra: builtin.module()\n"));
  EXPECT_EQ(p.getTarget(), "cpu");
  EXPECT_EQ(p.getStage("obj")->kind, StageKind::Emit);
  EXPECT_EQ(p.getStage("ttir")->kind, StageKind::MLIR);
  EXPECT_EQ(p.getStage("extra")->kind, StageKind::MLIR);
}

TEST(PipelineText, ErrorsNameTheLine) {
  auto error = [](llvm::StringRef text) {
    auto p = Pipeline::parse(text);
    return p ? std::string("no error") : llvm::toString(p.takeError());
  };
  EXPECT_EQ(error(""), "pipeline text has no stages");
  EXPECT_EQ(error("ttir: cse\n"),
            "pipeline text line 1: stage 'ttir' needs 'anchor(passes)', got "
            "'cse'");
  EXPECT_EQ(error("a: builtin.module()\na: builtin.module()\n"),
            "pipeline text line 2: pipeline already has a stage 'a'");
  EXPECT_EQ(error("\nttir: builtin.module(a{)\n"),
            "pipeline text line 2: stage 'ttir' needs 'anchor(passes)', got "
            "'builtin.module(a{)'");
}
