//===- StageEmitter.cpp - Registry of emitters for non-MLIR stages --------===//
#include "tpx/Pipeline/StageEmitter.h"
#include "tpx/Pipeline/TargetPipelines.h"

#include <map>
#include <mutex>

using namespace tpx;

StageEmitter::~StageEmitter() = default;

namespace {
struct EmitterState {
  std::mutex mutex;
  std::map<std::pair<std::string, std::string>, std::unique_ptr<StageEmitter>>
      emitters;
};
} // namespace

static EmitterState &getState() {
  static EmitterState state;
  return state;
}

void tpx::registerStageEmitter(llvm::StringRef family, llvm::StringRef stage,
                               std::unique_ptr<StageEmitter> emitter) {
  EmitterState &state = getState();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.emitters[{family.str(), stage.str()}] = std::move(emitter);
}

StageEmitter *tpx::lookupStageEmitter(llvm::StringRef target,
                                      llvm::StringRef stage) {
  auto family = getTargetFamily(target);
  if (!family) {
    llvm::consumeError(family.takeError());
    return nullptr;
  }
  EmitterState &state = getState();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto it = state.emitters.find({*family, stage.str()});
  return it == state.emitters.end() ? nullptr : it->second.get();
}
