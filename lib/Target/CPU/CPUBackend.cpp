//===- CPUBackend.cpp - the `cpu` target backend --------------------------===//
#include "tpx/Compiler/Artifact.h"
#include "tpx/Conversion/TTToCPU/TTToCPU.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Target/CPU/CPUTarget.h"
#include "tpx/Target/TargetBackend.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace tpx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

// tt -> tensors/linalg/loops (convert-tt-to-cpu), divisions that cannot
// trap the host (tpx-cpu-guard-integer-division), bufferize with
// ownership-based deallocation, lower everything to the LLVM dialect and add
// the uniform launch entry; the obj emitter optimizes at -O3.
static constexpr const char *kCpuLLIRPasses =
    "convert-tt-to-cpu,tpx-cpu-guard-integer-division,canonicalize,convert-"
    "elementwise-to-linalg,"
    "eliminate-empty-tensors,empty-tensor-to-alloc-tensor,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "allow-return-allocs-from-loops},"
    "buffer-deallocation-pipeline,convert-bufferization-to-memref,"
    "convert-linalg-to-loops,lower-affine,"
    "convert-scf-to-cf,expand-strided-metadata,finalize-memref-to-llvm,"
    "convert-math-to-llvm,convert-math-to-libm,convert-arith-to-llvm,"
    "convert-index-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,"
    "reconcile-unrealized-casts,tpx-cpu-emit-entry-points";

namespace {
struct CPUObjectStage : public StageEmitter {
  llvm::Expected<std::string> emit(const EmitterInput &input) override {
    return emitCPUObject(input.module);
  }
};
} // namespace

/// Sets bounds-check=true on convert-tt-to-cpu (idempotent).
static llvm::Error enableCPUBoundsCheck(Pipeline &pipeline) {
  for (Stage &stage : pipeline.getStages()) {
    int index = stage.find("convert-tt-to-cpu");
    if (index < 0)
      continue;
    PassEntry &entry = stage.passes[index];
    if (entry.options.find("bounds-check") == std::string::npos)
      entry.options +=
          (entry.options.empty() ? "" : " ") + std::string("bounds-check=true");
    return llvm::Error::success();
  }
  return makeError("bounds checking needs the convert-tt-to-cpu pass, which "
                   "this pipeline does not run");
}

TargetBackend tpx::getCPUBackend() {
  TargetBackend backend;
  backend.family = "cpu";
  backend.targetPattern = "cpu";
  backend.matchesTarget = [](llvm::StringRef target) {
    return target == "cpu";
  };
  backend.knownTargets = {"cpu"};
  backend.stages = {{"ttir", StageKind::MLIR},
                    {"llir", StageKind::MLIR},
                    {"obj", StageKind::Emit}};
  backend.pipelines = {
      {"default", {kCommonTTIRPasses, kCpuLLIRPasses, ""}, ""}};
  backend.accepts = {{"ttir", StageAcceptance::Kernel, {}},
                     {"llir", StageAcceptance::Lowered, {}}};
  backend.emitters.emplace_back(
      "obj", [] { return std::make_unique<CPUObjectStage>(); });
  backend.getModuleEntryName = [](llvm::StringRef kernel) {
    return getCPUEntryPointName(kernel);
  };
  backend.checkEntryPoint = [](mlir::ModuleOp module, llvm::StringRef kernel,
                               llvm::StringRef entryPoint) -> llvm::Error {
    auto entry = module.lookupSymbol<mlir::LLVM::LLVMFuncOp>(entryPoint);
    if (!entry || entry.isExternal())
      return makeError("the compiled module has no entry point '" + entryPoint +
                       "' for kernel '" + kernel +
                       "': the pipeline must run tpx-cpu-emit-entry-points "
                       "(at the end of stage 'llir')");
    return llvm::Error::success();
  };
  backend.fillArtifact = [](mlir::ModuleOp module, const EntryResourceMap &,
                            Artifact &artifact) {
    artifact.entryPoint = getCPUEntryPointName(artifact.signature.kernelName);
    artifact.numRegs = artifact.numSpills = 0;
    // A cluster's programs run at once on the CPU (runClusterPrograms).
    std::array<int32_t, 3> dims = tpx::tpxgpu::getModuleClusterDims(module);
    for (unsigned i = 0; i < 3; ++i)
      artifact.clusterDims[i] = static_cast<unsigned>(dims[i]);
    return llvm::Error::success();
  };
  // TLX's cluster ops run on the CPU too (docs/tlx.md).
  backend.launchesClusters = true;
  backend.getCacheKeyMaterial = [] {
    return "cpu=" + getCPUTargetDescription();
  };
  backend.enableBoundsCheck = enableCPUBoundsCheck;
  return backend;
}
