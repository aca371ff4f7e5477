//===- NVIDIATarget.cpp - the `ptx` and `cubin` stage emitters ------------===//
#include "tpx/Target/NVIDIA/NVIDIATarget.h"
#include "tpx/Pipeline/StageEmitter.h"

#include "mlir/IR/BuiltinOps.h"

#include <mutex>

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
    return assemblePTX(input.previousBytes, input.target);
  }
};
} // namespace

void tpx::registerNVIDIATarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerStageEmitter("nvidia", "ptx", std::make_unique<PTXStageEmitter>());
    registerStageEmitter("nvidia", "cubin",
                         std::make_unique<CubinStageEmitter>());
  });
}
