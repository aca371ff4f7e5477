//===- TTTypesTest.cpp - tt types built and printed from C++ --------------===//
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/AsmParser/AsmParser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace tpx::tt;

namespace {

class TTTypesTest : public ::testing::Test {
protected:
  TTTypesTest() { context.loadDialect<TTDialect>(); }
  std::string print(Type type) {
    std::string text;
    llvm::raw_string_ostream os(text);
    type.print(os);
    return text;
  }
  MLIRContext context;
};

TEST_F(TTTypesTest, PointerPrintsAddressSpaceOnlyWhenNotGlobal) {
  Builder b(&context);
  EXPECT_EQ(print(PointerType::get(b.getF32Type())), "!tt.ptr<f32>");
  EXPECT_EQ(print(PointerType::get(b.getF16Type(), 3)), "!tt.ptr<f16, 3>");
}

TEST_F(TTTypesTest, PointeeOfTensorOfPointersKeepsShape) {
  Builder b(&context);
  auto ptr = PointerType::get(b.getI32Type());
  auto ptrs = RankedTensorType::get({4, 8}, ptr);
  EXPECT_EQ(getPointeeTypeOf(ptrs), RankedTensorType::get({4, 8}, b.getI32Type()));
  EXPECT_EQ(getPointeeTypeOf(ptr), b.getI32Type());
  EXPECT_FALSE(getPointeeTypeOf(b.getI32Type()));
}

TEST_F(TTTypesTest, BlockPointerPointeeIsTheBlock) {
  Builder b(&context);
  auto block = RankedTensorType::get({16, 32}, b.getF16Type());
  EXPECT_EQ(getPointeeTypeOf(PointerType::get(block)), block);
}

TEST_F(TTTypesTest, ParsesBothTensorDescriptorSpellings) {
  Type longForm = parseType("!tt.tensordesc<tensor<64x32xbf16>>", &context);
  Type shortForm = parseType("!tt.tensordesc<64x32xbf16>", &context);
  ASSERT_TRUE(longForm);
  EXPECT_EQ(longForm, shortForm);
  EXPECT_EQ(print(shortForm), "!tt.tensordesc<tensor<64x32xbf16>>");
}

TEST_F(TTTypesTest, RejectsBadPointee) {
  // A diagnostic is emitted and a null type returned; nothing aborts.
  context.getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
  EXPECT_FALSE(parseType("!tt.ptr<none>", &context));
  EXPECT_FALSE(parseType("!tt.ptr<f32, -1>", &context));
}

} // namespace
