//===- TTOpsTest.cpp - tt ops built, verified and printed from C++ --------===//
//
// What the lit tests cannot reach: custom builders (type inference done in
// C++), verifier results on IR built programmatically, and the enum helpers
// that lowerings call.
//
//===----------------------------------------------------------------------===//
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace tpx::tt;

namespace {

class TTOpsTest : public ::testing::Test {
protected:
  TTOpsTest() : builder(&context), loc(UnknownLoc::get(&context)) {
    context.loadDialect<TTDialect, arith::ArithDialect>();
    module = ModuleOp::create(loc);
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// A kernel `@name(argTypes...)` with an entry block ending in tt.return;
  /// the builder is left before the return.
  FuncOp makeKernel(StringRef name, ArrayRef<Type> argTypes) {
    auto fn = FuncOp::create(builder, loc, name,
                             builder.getFunctionType(argTypes, {}));
    Block *entry = &fn.getBody().emplaceBlock();
    for (Type type : argTypes)
      entry->addArgument(type, loc);
    builder.setInsertionPointToEnd(entry);
    auto ret = ReturnOp::create(builder, loc);
    builder.setInsertionPoint(ret);
    return fn;
  }

  /// Verifies the module, collecting every diagnostic's text.
  LogicalResult verifyModule(std::string &diagnostics) {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      diagnostics += diag.str() + "\n";
      return success();
    });
    return verify(*module);
  }

  static std::string print(Operation *op) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op->print(os);
    return text;
  }

  MLIRContext context;
  OpBuilder builder;
  Location loc;
  OwningOpRef<ModuleOp> module;
};

TEST_F(TTOpsTest, LoadBuilderInfersResultFromPointers) {
  auto ptr = PointerType::get(builder.getF16Type());
  auto ptrs = RankedTensorType::get({64}, ptr);
  auto mask = RankedTensorType::get({64}, builder.getI1Type());
  auto other = RankedTensorType::get({64}, builder.getF16Type());
  FuncOp fn = makeKernel("k", {ptrs, mask, other});
  Block &entry = fn.getBody().front();
  auto load = LoadOp::create(builder, loc, entry.getArgument(0),
                             entry.getArgument(1), entry.getArgument(2));
  EXPECT_EQ(load.getType(), other);
  EXPECT_EQ(load.getCache(), CacheModifier::NONE);
  EXPECT_EQ(load.getEvict(), EvictionPolicy::NORMAL);
  EXPECT_FALSE(load.getIsVolatile());

  std::string diagnostics;
  EXPECT_TRUE(succeeded(verifyModule(diagnostics))) << diagnostics;
  // Defaults are not printed; the form is the one Triton prints.
  EXPECT_NE(print(load).find("tt.load %arg0, %arg1, %arg2 : "
                             "tensor<64x!tt.ptr<f16>>"),
            std::string::npos)
      << print(load);
}

TEST_F(TTOpsTest, LoadBuilderOnScalarAndBlockPointers) {
  auto scalarPtr = PointerType::get(builder.getI64Type());
  auto block = RankedTensorType::get({8, 16}, builder.getBF16Type());
  auto blockPtr = PointerType::get(block);
  FuncOp fn = makeKernel("k", {scalarPtr, blockPtr});
  Block &entry = fn.getBody().front();
  auto scalar =
      LoadOp::create(builder, loc, entry.getArgument(0), Value(), Value());
  auto tile =
      LoadOp::create(builder, loc, entry.getArgument(1), Value(), Value());
  EXPECT_EQ(scalar.getType(), builder.getI64Type());
  EXPECT_EQ(tile.getType(), block);
  std::string diagnostics;
  EXPECT_TRUE(succeeded(verifyModule(diagnostics))) << diagnostics;
}

TEST_F(TTOpsTest, VerifierRejectsMaskOnBlockPointer) {
  auto block = RankedTensorType::get({8}, builder.getF32Type());
  FuncOp fn = makeKernel("k", {PointerType::get(block), builder.getI1Type()});
  Block &entry = fn.getBody().front();
  LoadOp::create(builder, loc, entry.getArgument(0), entry.getArgument(1),
                 Value());
  std::string diagnostics;
  EXPECT_TRUE(failed(verifyModule(diagnostics)));
  EXPECT_NE(diagnostics.find("a block pointer access takes boundaryCheck, "
                             "not a mask"),
            std::string::npos)
      << diagnostics;
}

TEST_F(TTOpsTest, VerifierNamesMismatchedElementwiseOperand) {
  auto ptrs =
      RankedTensorType::get({8}, PointerType::get(builder.getF32Type()));
  auto offsets = RankedTensorType::get({4}, builder.getI32Type());
  FuncOp fn = makeKernel("k", {ptrs, offsets});
  Block &entry = fn.getBody().front();
  AddPtrOp::create(builder, loc, ptrs, entry.getArgument(0),
                   entry.getArgument(1));
  std::string diagnostics;
  EXPECT_TRUE(failed(verifyModule(diagnostics)));
  EXPECT_NE(diagnostics.find("operand #1 ('tensor<4xi32>') and result #0 "
                             "('tensor<8x!tt.ptr<f32>>') must have the same "
                             "shape"),
            std::string::npos)
      << diagnostics;
}

TEST_F(TTOpsTest, MakeRangeVerifier) {
  makeKernel("k", {});
  auto good = MakeRangeOp::create(
      builder, loc, RankedTensorType::get({16}, builder.getI32Type()),
      /*start=*/16, /*end=*/32);
  std::string diagnostics;
  EXPECT_TRUE(succeeded(verifyModule(diagnostics))) << diagnostics;
  EXPECT_EQ(good.getStartAttr().getInt(), 16);

  MakeRangeOp::create(builder, loc,
                      RankedTensorType::get({16}, builder.getI32Type()),
                      /*start=*/0, /*end=*/8);
  diagnostics.clear();
  EXPECT_TRUE(failed(verifyModule(diagnostics)));
  EXPECT_NE(diagnostics.find("result has 16 elements but the range [0, 8) "
                             "has 8"),
            std::string::npos)
      << diagnostics;
}

TEST_F(TTOpsTest, CallVerifiesAgainstCallee) {
  auto f32 = builder.getF32Type();
  auto helper = FuncOp::create(builder, loc, "helper",
                               builder.getFunctionType({f32}, {f32}));
  helper.setPrivate();
  Block *body = &helper.getBody().emplaceBlock();
  body->addArgument(f32, loc);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(body);
    ReturnOp::create(builder, loc, ValueRange{body->getArgument(0)});
  }
  builder.setInsertionPointToEnd(module->getBody());
  FuncOp fn = makeKernel("k", {f32, builder.getI32Type()});
  Block &entry = fn.getBody().front();
  CallOp::create(builder, loc, TypeRange{f32},
                 FlatSymbolRefAttr::get(&context, "helper"),
                 ValueRange{entry.getArgument(0)}, nullptr, nullptr);
  std::string diagnostics;
  EXPECT_TRUE(succeeded(verifyModule(diagnostics))) << diagnostics;

  // Passing the i32 argument is caught by the symbol-use verifier.
  CallOp::create(builder, loc, TypeRange{f32},
                 FlatSymbolRefAttr::get(&context, "helper"),
                 ValueRange{entry.getArgument(1)}, nullptr, nullptr);
  diagnostics.clear();
  EXPECT_TRUE(failed(verifyModule(diagnostics)));
  EXPECT_NE(diagnostics.find("operand 0 has type 'i32' but 'helper' expects "
                             "'f32'"),
            std::string::npos)
      << diagnostics;
}

TEST_F(TTOpsTest, DotDefaultsAndPrecisionKeyword) {
  auto a = RankedTensorType::get({16, 8}, builder.getF32Type());
  auto b = RankedTensorType::get({8, 32}, builder.getF32Type());
  auto c = RankedTensorType::get({16, 32}, builder.getF32Type());
  FuncOp fn = makeKernel("k", {a, b, c});
  Block &entry = fn.getBody().front();
  auto dot = DotOp::create(builder, loc, c, entry.getArgument(0),
                           entry.getArgument(1), entry.getArgument(2),
                           InputPrecision::TF32x3, /*maxNumImpreciseAcc=*/0);
  std::string diagnostics;
  EXPECT_TRUE(succeeded(verifyModule(diagnostics))) << diagnostics;
  EXPECT_NE(print(dot).find(", inputPrecision = tf32x3 : tensor<16x8xf32> * "
                            "tensor<8x32xf32> -> tensor<16x32xf32>"),
            std::string::npos)
      << print(dot);
}

// The integer values are part of the TTIR contract: inside an attribute
// dictionary Triton writes enums as these integers.
TEST(TTEnumsTest, IntegerValuesMatchTriton) {
  EXPECT_EQ(static_cast<int>(CacheModifier::NONE), 1);
  EXPECT_EQ(static_cast<int>(CacheModifier::CV), 7);
  EXPECT_EQ(static_cast<int>(EvictionPolicy::EVICT_LAST), 3);
  EXPECT_EQ(static_cast<int>(PaddingOption::PAD_NAN), 2);
  EXPECT_EQ(static_cast<int>(MemSemantic::ACQUIRE_RELEASE), 4);
  EXPECT_EQ(static_cast<int>(MemSyncScope::SYSTEM), 3);
  EXPECT_EQ(static_cast<int>(RMWOp::XCHG), 10);
  EXPECT_EQ(static_cast<int>(DescriptorReduceKind::XOR), 8);
  EXPECT_EQ(static_cast<int>(RoundingMode::RTNE), 1);
  EXPECT_EQ(static_cast<int>(PropagateNan::ALL), 0xFFFF);
  EXPECT_EQ(static_cast<int>(InputPrecision::BF16x6), 4);
  EXPECT_EQ(static_cast<int>(ScaleDotElemType::FP16), 6);
}

TEST(TTEnumsTest, KeywordsRoundTrip) {
  EXPECT_EQ(stringifyRMWOp(RMWOp::XCHG), "exch");
  EXPECT_EQ(symbolizeRMWOp("umin"), RMWOp::UMIN);
  EXPECT_EQ(stringifyMemSemantic(MemSemantic::ACQUIRE_RELEASE), "acq_rel");
  EXPECT_EQ(symbolizeMemSyncScope("sys"), MemSyncScope::SYSTEM);
  EXPECT_EQ(stringifyEvictionPolicy(EvictionPolicy::NORMAL), "evict_normal");
  EXPECT_EQ(symbolizeCacheModifier("wt"), CacheModifier::WT);
  EXPECT_EQ(symbolizeInputPrecision("bf16x3"), InputPrecision::BF16x3);
  EXPECT_EQ(symbolizeScaleDotElemType("e2m1"), ScaleDotElemType::E2M1);
  EXPECT_EQ(symbolizeDescriptorReduceKind("dec"), DescriptorReduceKind::DEC);
  EXPECT_FALSE(symbolizeRMWOp("sub").has_value());
  EXPECT_FALSE(symbolizeCacheModifier("lu").has_value());
}

TEST_F(TTOpsTest, TypeHelpers) {
  auto block = RankedTensorType::get({4, 4}, builder.getF16Type());
  EXPECT_EQ(getBlockBaseType(PointerType::get(block, 3)),
            PointerType::get(builder.getF16Type(), 3));
  auto ptrs =
      RankedTensorType::get({4}, PointerType::get(builder.getF32Type()));
  EXPECT_EQ(getI1SameShape(ptrs),
            RankedTensorType::get({4}, builder.getI1Type()));
  EXPECT_EQ(getI1SameShape(builder.getF32Type()), builder.getI1Type());
}

} // namespace
