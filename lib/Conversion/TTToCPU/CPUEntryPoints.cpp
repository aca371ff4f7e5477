//===- CPUEntryPoints.cpp - uniform launch entries for CPU kernels --------===//
#include "tpx/Conversion/TTToCPU/TTToCPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace tpx {
#define GEN_PASS_DEF_TPXCPUEMITENTRYPOINTS
#include "tpx/Conversion/TTToCPU/TTToCPUPasses.h.inc"
} // namespace tpx

using namespace mlir;

std::string tpx::getCPUEntryPointName(StringRef kernelName) {
  return (kernelName + ".tpx_entry").str();
}

namespace {
struct EmitEntryPointsPass
    : public tpx::impl::TPXCPUEmitEntryPointsBase<EmitEntryPointsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    SmallVector<LLVM::LLVMFuncOp> kernels;
    module.walk([&](LLVM::LLVMFuncOp fn) {
      if (fn->hasAttr("tpx.kernel") && !fn.isExternal())
        kernels.push_back(fn);
    });
    auto ptr = LLVM::LLVMPointerType::get(context);
    auto i32 = IntegerType::get(context, 32);
    auto voidType = LLVM::LLVMVoidType::get(context);
    for (LLVM::LLVMFuncOp kernel : kernels) {
      LLVM::LLVMFunctionType type = kernel.getFunctionType();
      unsigned numParams = type.getNumParams();
      if (numParams < tpx::kCPUGridArgCount) {
        kernel.emitError("kernel lacks the CPU grid arguments");
        return signalPassFailure();
      }
      SmallVector<Type> entryParams = {ptr};
      entryParams.append(tpx::kCPUGridArgCount, i32);
      OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
      Location loc = kernel.getLoc();
      auto entry = LLVM::LLVMFuncOp::create(
          b, loc, tpx::getCPUEntryPointName(kernel.getName()),
          LLVM::LLVMFunctionType::get(voidType, entryParams));
      Block *body = entry.addEntryBlock(b);
      b.setInsertionPointToStart(body);
      // args[i] points at the value of kernel argument i.
      SmallVector<Value> callArgs;
      unsigned numUser = numParams - tpx::kCPUGridArgCount;
      for (unsigned i = 0; i < numUser; ++i) {
        Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr,
                                         body->getArgument(0),
                                         ArrayRef<LLVM::GEPArg>{int32_t(i)});
        Value argPtr = LLVM::LoadOp::create(b, loc, ptr, slot);
        callArgs.push_back(
            LLVM::LoadOp::create(b, loc, type.getParamType(i), argPtr));
      }
      for (unsigned i = 0; i < tpx::kCPUGridArgCount; ++i)
        callArgs.push_back(body->getArgument(1 + i));
      LLVM::CallOp::create(b, loc, kernel, callArgs);
      LLVM::ReturnOp::create(b, loc, ValueRange());
    }
  }
};
} // namespace
