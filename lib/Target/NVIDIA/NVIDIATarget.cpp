//===- NVIDIATarget.cpp - the `ptx` and `cubin` stage emitters ------------===//
#include "tpx/Target/NVIDIA/NVIDIATarget.h"
#include "tpx/Pipeline/StageEmitter.h"

#include "mlir/IR/BuiltinOps.h"

using namespace tpx;

namespace {
/// The module after the llir stage -> PTX text.
struct PTXStageEmitter : public StageEmitter {
  llvm::Expected<std::string> emit(const EmitterInput &input) override {
    return emitPTX(input.module, input.target);
  }
  bool producesText() const override { return true; }
};

/// The ptx stage's text -> cubin.
struct CubinStageEmitter : public StageEmitter {
  llvm::Expected<std::string> emit(const EmitterInput &input) override {
    if (input.previousBytes.empty())
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "the cubin stage needs PTX from the ptx stage, which produced none");
    return assemblePTX(input.previousBytes, input.target, input.resources);
  }
};
} // namespace

void tpx::registerNVIDIATarget() { registerBuiltinTargetBackends(); }

std::unique_ptr<StageEmitter> tpx::nvidia::createPTXStageEmitter() {
  return std::make_unique<PTXStageEmitter>();
}

std::unique_ptr<StageEmitter> tpx::nvidia::createCubinStageEmitter() {
  return std::make_unique<CubinStageEmitter>();
}
