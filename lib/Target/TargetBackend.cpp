//===- TargetBackend.cpp - The registry of target backends ----------------===//
#include "tpx/Target/TargetBackend.h"
#include "tpx/Target/AMD/AMDTarget.h"
#include "tpx/Target/CPU/CPUTarget.h"
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "llvm/ADT/STLExtras.h"

#include <memory>
#include <mutex>

using namespace tpx;
using llvm::StringRef;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

namespace {
struct BackendState {
  std::mutex mutex;
  // unique_ptr: lookups hand out pointers that registrations must not move.
  std::vector<std::unique_ptr<TargetBackend>> backends;
};
} // namespace

static BackendState &getState() {
  static BackendState state;
  return state;
}

const NamedPipelineSpec *TargetBackend::findPipeline(StringRef name) const {
  for (const NamedPipelineSpec &spec : pipelines)
    if (spec.name == name)
      return &spec;
  return nullptr;
}

std::string TargetBackend::listPipelineNames() const {
  std::string names;
  for (const NamedPipelineSpec &spec : pipelines)
    names += (names.empty() ? "" : ", ") + spec.name;
  return names;
}

llvm::Expected<Pipeline> TargetBackend::buildPipeline(StringRef target,
                                                      StringRef name) const {
  const NamedPipelineSpec *spec = findPipeline(name);
  if (!spec)
    return makeError("target '" + target + "' has no pipeline '" + name +
                     "' (pipelines: " + listPipelineNames() + ")");
  Pipeline pipeline(target.str());
  pipeline.setName(spec->name);
  for (auto [decl, passes] : llvm::zip(stages, spec->stagePasses)) {
    Stage stage;
    stage.name = decl.name;
    stage.kind = decl.kind;
    auto entries = PassEntry::parseList(passes);
    if (!entries)
      return makeError("pipeline '" + name + "' of target '" + target +
                       "', stage '" + decl.name +
                       "': " + llvm::toString(entries.takeError()));
    stage.passes = std::move(*entries);
    if (auto error = pipeline.addStage(std::move(stage)))
      return std::move(error);
  }
  return pipeline;
}

llvm::Error tpx::registerTargetBackend(TargetBackend backend) {
  if (backend.family.empty() || !backend.matchesTarget ||
      backend.stages.empty() || backend.pipelines.empty())
    return makeError("target backend '" + backend.family +
                     "' needs a family name, a target matcher, stages and "
                     "at least one pipeline");
  for (const NamedPipelineSpec &spec : backend.pipelines)
    if (spec.stagePasses.size() != backend.stages.size())
      return makeError(
          "pipeline '" + spec.name + "' of target backend '" + backend.family +
          "' lists passes for " + llvm::Twine(spec.stagePasses.size()) +
          " stages; the backend has " + llvm::Twine(backend.stages.size()));
  if (backend.pipelines.size() > 1 &&
      (!backend.choosePipeline ||
       llvm::none_of(backend.stages, [&](const StageDecl &stage) {
         return stage.name == backend.choiceAfterStage;
       })))
    return makeError("target backend '" + backend.family +
                     "' has several pipelines but no choosePipeline or no "
                     "stage named by choiceAfterStage");
  // Emitters first: they live in their own registry (StageEmitter.h).
  for (auto &[stage, make] : backend.emitters)
    registerStageEmitter(backend.family, stage, make());
  BackendState &state = getState();
  std::lock_guard<std::mutex> lock(state.mutex);
  for (const auto &known : state.backends)
    if (known->family == backend.family)
      return makeError("target backend '" + backend.family +
                       "' is already registered");
  state.backends.push_back(std::make_unique<TargetBackend>(std::move(backend)));
  return llvm::Error::success();
}

void tpx::registerBuiltinTargetBackends() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::cantFail(registerTargetBackend(getCPUBackend()));
    llvm::cantFail(registerTargetBackend(getNVIDIABackend()));
    llvm::cantFail(registerTargetBackend(getAMDBackend()));
  });
}

std::vector<const TargetBackend *> tpx::getTargetBackends() {
  registerBuiltinTargetBackends();
  BackendState &state = getState();
  std::lock_guard<std::mutex> lock(state.mutex);
  std::vector<const TargetBackend *> result;
  for (const auto &backend : state.backends)
    result.push_back(backend.get());
  return result;
}

llvm::Expected<const TargetBackend *> tpx::getTargetBackend(StringRef target) {
  std::vector<const TargetBackend *> backends = getTargetBackends();
  std::string patterns;
  for (auto [i, backend] : llvm::enumerate(backends)) {
    if (backend->matchesTarget(target))
      return backend;
    patterns += (i == 0                     ? ""
                 : i + 1 == backends.size() ? " or "
                                            : ", ") +
                backend->targetPattern;
  }
  return makeError("unknown target '" + target + "' (expected " + patterns +
                   ")");
}
