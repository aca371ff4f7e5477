//===- LLVMBackendGuardTest.cpp - LLVM fatal errors become errors --------===//
#include "tpx/Target/Common/LLVMBackendGuard.h"

#include "llvm/Support/ErrorHandling.h"

#include "gtest/gtest.h"

using namespace tpx;

namespace {

TEST(LLVMBackendGuardTest, FatalErrorBecomesAnError) {
  llvm::Error error = runLLVMGuarded("emitting", [] {
    llvm::report_fatal_error("Cannot select: intrinsic %llvm.boom");
    return llvm::Error::success();
  });
  ASSERT_TRUE(bool(error));
  EXPECT_EQ(llvm::toString(std::move(error)),
            "emitting: LLVM failed: Cannot select: intrinsic %llvm.boom");
  // The process is intact: guarding again works.
  EXPECT_FALSE(
      bool(runLLVMGuarded("again", [] { return llvm::Error::success(); })));
}

TEST(LLVMBackendGuardTest, CrashBecomesAnError) {
  llvm::Error error = runLLVMGuarded("emitting", [] {
    volatile int *null = nullptr;
    *null = 1;
    return llvm::Error::success();
  });
  ASSERT_TRUE(bool(error));
  EXPECT_NE(
      llvm::toString(std::move(error)).find("emitting: LLVM failed: crashed"),
      std::string::npos);
}

TEST(LLVMBackendGuardTest, ErrorsOfTheWorkPassThrough) {
  llvm::Error error = runLLVMGuarded("emitting", [] {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "plain");
  });
  EXPECT_EQ(llvm::toString(std::move(error)), "plain");
}

} // namespace
