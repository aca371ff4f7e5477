//===- AMDBackend.cpp - the `amd` target backend --------------------------===//
#include "tpx/Compiler/Artifact.h"
#include "tpx/Target/AMD/AMDTarget.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/StringExtras.h"

using namespace tpx;

// The ttir stage is NVIDIA's: block pointers and tensor descriptors become
// pointer tensors (no TMA on AMD), scaled dots are decomposed.
static constexpr const char *kAMDTTIRPasses =
    "inline,tt-replace-poison,canonicalize,cse,symbol-dce,tt-combine-dot-add,"
    "tpxgpu-lower-tensor-descriptors,tpxgpu-lower-block-pointers,"
    "tpxgpu-decompose-scaled-dots";

// Layouts over wave64, then what the NVIDIA simt ttgir stage does without
// Hopper's machinery (wgmma, cp.async, TMA): layout-conversion removal,
// vector widths, register prefetching, conversions through LDS, and the
// LDS allocation. Buffer ops come last among the memory-op rewrites: the
// prefetcher and the layout passes match tt.load/tt.store, and the buffer
// ops inherit the final tpxgpu.contiguity of the access they replace.
static constexpr const char *kAMDTTGIRPasses =
    "convert-tt-to-tpxgpu{threads-per-warp=64},canonicalize,"
    "tpxgpu-remove-layout-conversions,canonicalize,loop-invariant-code-motion,"
    "cse,tpxgpu-annotate-contiguity,tpxgpu-prefetch-loads,canonicalize,cse,"
    "tpxgpu-lower-layout-conversions,tpxgpu-annotate-contiguity,"
    "tpxgpu-convert-to-buffer-ops,tpxgpu-allocate-shared-memory";

// convert-tpxgpu-to-rocdl leaves scalar arith/math/scf/cf; math becomes
// ROCm device-library calls (__ocml_*) where AMDGPU has no instruction.
static constexpr const char *kAMDLLIRPasses =
    "convert-tpxgpu-to-rocdl,canonicalize,convert-scf-to-cf,"
    "convert-math-to-rocdl,convert-math-to-llvm,"
    "convert-arith-to-llvm{index-bitwidth=64},"
    "convert-index-to-llvm{index-bitwidth=64},"
    "convert-func-to-llvm{index-bitwidth=64},"
    "convert-cf-to-llvm{index-bitwidth=64},reconcile-unrealized-casts,"
    "canonicalize,cse";

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
  backend.pipelines = {
      {"simt",
       {kAMDTTIRPasses, kAMDTTGIRPasses, kAMDLLIRPasses, "", ""},
       "simt"}};
  backend.launchOptions = {
      {"convert-tt-to-tpxgpu", "num-warps", LaunchOptionSlot::NumWarps},
      {"convert-tt-to-tpxgpu", "target", LaunchOptionSlot::Target},
      {"convert-tpxgpu-to-rocdl", "chip", LaunchOptionSlot::Target},
      {"convert-math-to-rocdl", "chipset", LaunchOptionSlot::Target},
      {"tpxgpu-prefetch-loads", "num-stages", LaunchOptionSlot::NumStages}};
  backend.accepts = {{"ttir", StageAcceptance::Kernel, {}},
                     {"ttgir", StageAcceptance::Kernel, {"tpxgpu"}},
                     {"llir", StageAcceptance::Lowered, {"rocdl"}}};
  backend.emitters.emplace_back("amdgcn", amd::createAMDGCNStageEmitter);
  backend.emitters.emplace_back("hsaco", amd::createHsacoStageEmitter);
  backend.getModuleEntryName = amd::getAMDGPUEntryName;
  backend.checkEntryPoint = amd::checkEntryPoint;
  backend.fillArtifact = amd::fillArtifact;
  return backend;
}
