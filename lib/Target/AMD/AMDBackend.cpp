//===- AMDBackend.cpp - the `amd` target backend (stages only) ------------===//
#include "tpx/Target/AMD/AMDTarget.h"

#include "llvm/ADT/StringExtras.h"

using namespace tpx;

/// `gfx<digits and letters>` starting with a digit (gfx950, gfx90a).
static bool isAMDTarget(llvm::StringRef name) {
  if (!name.consume_front("gfx") || name.empty())
    return false;
  name.consume_back("a");
  return !name.empty() &&
         llvm::all_of(name, [](char c) { return llvm::isAlnum(c); }) &&
         llvm::isDigit(name.front());
}

TargetBackend tpx::getAMDBackend() {
  TargetBackend backend;
  backend.family = "amd";
  backend.targetPattern = "gfx<N>";
  backend.matchesTarget = isAMDTarget;
  backend.knownTargets = {"gfx950"};
  backend.stages = {{"ttir", StageKind::MLIR},
                    {"ttgir", StageKind::MLIR},
                    {"llir", StageKind::MLIR},
                    {"amdgcn", StageKind::Emit},
                    {"hsaco", StageKind::Emit}};
  backend.pipelines = {{"default", {kCommonTTIRPasses, "", "", "", ""}, ""}};
  backend.accepts = {{"ttir", StageAcceptance::Kernel, {}},
                     {"ttgir", StageAcceptance::Kernel, {"tpxgpu"}},
                     {"llir", StageAcceptance::Lowered, {"rocdl"}}};
  // No code generation yet: entry and artifact hooks come with it.
  return backend;
}
