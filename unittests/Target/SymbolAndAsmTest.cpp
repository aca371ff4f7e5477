//===- SymbolAndAsmTest.cpp - PTX entry names, inline asm operands -------===//
#include "tpx/Support/InlineAsmOperands.h"
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "gtest/gtest.h"

using namespace tpx;

namespace {

TEST(PTXEntryNameTest, ValidIdentifiersStay) {
  EXPECT_EQ(getPTXEntryName("add_one"), "add_one");
  EXPECT_EQ(getPTXEntryName("_k$1"), "_k$1");
  EXPECT_EQ(getPTXEntryName("K9"), "K9");
}

TEST(PTXEntryNameTest, OthersAreEscapedInjectively) {
  EXPECT_EQ(getPTXEntryName("k-x"), "_tpx$k$2dx");
  EXPECT_EQ(getPTXEntryName("a b"), "_tpx$a$20b");
  EXPECT_EQ(getPTXEntryName("9lives"), "_tpx$9lives");
  EXPECT_EQ(getPTXEntryName("_"), "_tpx$_");
  EXPECT_EQ(getPTXEntryName(""), "_tpx$");
  // '$' is escaped inside escaped names, and names that look escaped are
  // escaped again, so that distinct names never meet.
  EXPECT_EQ(getPTXEntryName("_tpx$k"), "_tpx$_tpx$24k");
  EXPECT_NE(getPTXEntryName("k-x"), getPTXEntryName("_tpx$k$2dx"));
}

TEST(InlineAsmOperandsTest, FindsReferencesPastTheOperands) {
  EXPECT_EQ(findBadAsmOperandReference("mov $0, $1", 2), std::nullopt);
  EXPECT_EQ(findBadAsmOperandReference("mov $0, $2", 2), 2u);
  EXPECT_EQ(findBadAsmOperandReference("mov ${0:x}, ${3}", 2), 3u);
  EXPECT_EQ(findBadAsmOperandReference("mov $$5, $0", 1), std::nullopt);
  EXPECT_EQ(findBadAsmOperandReference("$(a$|b$) $0", 1), std::nullopt);
  EXPECT_EQ(findBadAsmOperandReference("add $99999999999, $0", 2), ~0u);
  EXPECT_EQ(findBadAsmOperandReference("trailing $", 0), std::nullopt);
}

} // namespace
