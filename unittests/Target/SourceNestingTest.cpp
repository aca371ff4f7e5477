//===- SourceNestingTest.cpp - the bracket-depth bound on parsed text ----===//
#include "tpx/Support/SourceNesting.h"

#include "gtest/gtest.h"

using namespace tpx;

namespace {

TEST(SourceNestingTest, RejectsDeepBracketsWithTheirPlace) {
  std::string deep(300, '[');
  auto message = findExcessiveNesting("module\n  " + deep);
  ASSERT_TRUE(message.has_value());
  EXPECT_EQ(*message, "brackets nest deeper than 256 levels at line 2, column "
                      "259 (tpx does not parse such input)");
  EXPECT_TRUE(findExcessiveNesting("!tt.ptr<!tt.ptr<!tt.ptr<f32>>>", 2));
}

TEST(SourceNestingTest, IgnoresStringsCommentsAndArrows) {
  std::string deep(300, '(');
  EXPECT_FALSE(findExcessiveNesting("// " + deep + "\nmodule {}"));
  EXPECT_FALSE(findExcessiveNesting("{a = \"" + deep + "\\\"" + deep + "\"}"));
  // `->` closes nothing: f(i32) -> (i32) stays at depth 1 inside {}.
  EXPECT_FALSE(findExcessiveNesting("{ f : (i32) -> (i32) -> (i32) }", 2));
  EXPECT_FALSE(findExcessiveNesting("{ { } } { { } }", 2));
  EXPECT_TRUE(findExcessiveNesting("{ { { } } }", 2));
}

} // namespace
