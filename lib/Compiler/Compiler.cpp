//===- Compiler.cpp - compile(module, target, options) -> Artifact --------===//
#include "tpx/Compiler/Compiler.h"
#include "tpx/Compiler/CompileCache.h"
#include "tpx/Compiler/TargetOpSupport.h"
#include "tpx/Conversion/TPXGPUToNVVM/TPXGPUToNVVM.h"
#include "tpx/Conversion/TTToCPU/TTToCPU.h"
#include "tpx/Pipeline/PipelineExtension.h"
#include "tpx/Pipeline/PipelineRunner.h"
#include "tpx/Pipeline/TargetPipelines.h"
#include "tpx/Plugin/PluginCacheKey.h"
#include "tpx/Plugin/PluginLoader.h"
#include "tpx/Target/CPU/CPUTarget.h"
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

using namespace tpx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error tpx::enableBoundsCheck(Pipeline &pipeline) {
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

/// Sets `option=value` on the pass entry `pass` of every stage, unless the
/// pipeline text already sets that option.
static void setPassOption(Pipeline &pipeline, llvm::StringRef pass,
                          llvm::StringRef option, unsigned value) {
  for (Stage &stage : pipeline.getStages()) {
    int index = stage.find(pass);
    if (index < 0)
      continue;
    PassEntry &entry = stage.passes[index];
    if (entry.options.find(option.str()) == std::string::npos)
      entry.options += (entry.options.empty() ? "" : " ") + option.str() + "=" +
                       std::to_string(value);
  }
}

/// num_warps and num_stages reach the GPU passes as their options.
static void applyLaunchOptions(Pipeline &pipeline,
                               const CompileOptions &options) {
  setPassOption(pipeline, "tpx-nvidia-select-codegen", "num-warps",
                options.numWarps);
  setPassOption(pipeline, "convert-tt-to-tpxgpu", "num-warps",
                options.numWarps);
  setPassOption(pipeline, "tpxgpu-prefetch-loads", "num-stages",
                options.numStages);
}

llvm::Error tpx::prepareKernelRun(mlir::ModuleOp module, llvm::StringRef target,
                                  RunOptions &run) {
  // What the target cannot compile fails here, naming the op, rather than
  // deep in a lowering or inside LLVM.
  if (auto error = checkTargetOpSupport(module, target, "ttir"))
    return error;
  run.checkOverride = [target = target.str()](llvm::StringRef stage,
                                              mlir::ModuleOp replacement) {
    return checkTargetOpSupport(replacement, target, stage);
  };
  return llvm::Error::success();
}

llvm::Expected<Pipeline>
tpx::getCompilePipeline(mlir::ModuleOp module, const CompileOptions &options) {
  // An explicit pipeline runs as given (no selection on top of it); bounds
  // checking still applies to it.
  llvm::Expected<Pipeline> pipeline =
      options.pipelineOverride ? *options.pipelineOverride
                               : getEffectivePipeline(options.target, module);
  if (!pipeline)
    return pipeline.takeError();
  if (!options.pipelineOverride)
    if (auto error =
            applyPipelineExtensions(*pipeline, options.pipelineSelection))
      return error;
  applyLaunchOptions(*pipeline, options);
  // Bounds checking is a CPU runtime facility; GPU targets ignore it.
  if (options.boundsCheck && options.target == "cpu")
    if (auto error = enableBoundsCheck(*pipeline))
      return error;
  return pipeline;
}

/// Everything that decides the binary: the compiler build itself, the IR
/// with its locations, the target and the host CPU it is built for,
/// options, the loaded plugins' content hashes and the pipeline. Locations
/// are part of the key because passes put them into code (a plugin's
/// guard reporting "stored a NaN at kernels.py:12:5", assert messages) and
/// into the per-stage IR an artifact keeps; a kernel moved to another line
/// compiles again.
static std::string computeCacheKey(mlir::ModuleOp module,
                                   const CompileOptions &options,
                                   const Pipeline &pipeline) {
  std::string material;
  llvm::raw_string_ostream os(material);
  os << "compiler=" << getCompilerIdentity() << "\n";
  os << "cache_format=" << CompileCache::kFormatVersion << "\n";
  os << "target=" << options.target << "\n";
  if (options.target == "cpu")
    os << "cpu=" << getCPUTargetDescription() << "\n";
  os << "num_warps=" << options.numWarps << " num_stages=" << options.numStages
     << " bounds_check=" << options.boundsCheck << "\n";
  os << getCacheKeyMaterial(pipeline) << "\n";
  module->print(os, mlir::OpPrintingFlags().enableDebugInfo(true));
  return sha256Hex(material);
}

/// The launchers call an entry point that the pipeline's last MLIR stage
/// adds (tpx-cpu-emit-entry-points, tpx-nvidia-emit-kernel). A pipeline
/// text or an override without it still emits a binary, which could not be
/// launched; this is where that is caught.
static llvm::Error checkEntryPoint(mlir::ModuleOp module,
                                   llvm::StringRef family,
                                   llvm::StringRef kernel,
                                   llvm::StringRef entryPoint) {
  auto entry = module.lookupSymbol<mlir::LLVM::LLVMFuncOp>(entryPoint);
  if (family == "cpu" && (!entry || entry.isExternal()))
    return makeError("the compiled module has no entry point '" + entryPoint +
                     "' for kernel '" + kernel +
                     "': the pipeline must run tpx-cpu-emit-entry-points "
                     "(at the end of stage 'llir')");
  if (family == "nvidia" &&
      (!entry || entry.isExternal() ||
       !entry->hasAttr(mlir::NVVM::NVVMDialect::getKernelFuncAttrName())))
    return makeError("the compiled module has no nvvm.kernel function '" +
                     entryPoint +
                     "': the pipeline must run tpx-nvidia-emit-kernel (in "
                     "stage 'llir')");
  return llvm::Error::success();
}

llvm::Expected<CompileResult>
tpx::compileModule(mlir::OwningOpRef<mlir::ModuleOp> module,
                   const CompileOptions &options) {
  registerCPUTarget();
  registerNVIDIATarget();
  auto family = getTargetFamily(options.target);
  if (!family)
    return family.takeError();
  RunOptions run;
  if (auto error = prepareKernelRun(*module, options.target, run))
    return std::move(error);
  auto signature = getKernelSignature(*module);
  if (!signature)
    return signature.takeError();
  auto pipeline = getCompilePipeline(*module, options);
  if (!pipeline)
    return pipeline.takeError();

  CompileResult result;
  result.pipelineText = pipeline->print();
  std::string key = computeCacheKey(*module, options, *pipeline);
  CompileCache cache;
  // Dumps and overrides need the stages to run, so they bypass the cache.
  bool cacheable = options.useCache && options.dumpDir.empty() &&
                   options.overrideDir.empty();
  if (cacheable) {
    if (std::optional<Artifact> hit = cache.lookup(key)) {
      result.artifact = std::move(*hit);
      result.cacheHit = true;
      return result;
    }
  }

  run.dumpDir = options.dumpDir;
  run.overrideDir = options.overrideDir;
  run.keepStageTexts = true;
  auto output = runPipeline(*pipeline, module, run);
  if (!output)
    return output.takeError();
  if (!output->isBinary)
    return makeError("the pipeline ended with stage '" + output->lastStage +
                     "', which produces IR, not a binary to launch");

  // The entry point as a symbol of the module.
  std::string entryPoint = *family == "cpu"
                               ? getCPUEntryPointName(signature->kernelName)
                               : signature->kernelName;
  if (auto error =
          checkEntryPoint(*module, *family, signature->kernelName, entryPoint))
    return error;

  Artifact &artifact = result.artifact;
  artifact.target = options.target;
  artifact.signature = std::move(*signature);
  artifact.numWarps = options.numWarps;
  artifact.numStages = options.numStages;
  // The GPU lowering records the launch shape it generated code for.
  if (auto threads =
          (*module)->getAttrOfType<mlir::IntegerAttr>(kBlockThreadsAttr))
    artifact.blockThreads = static_cast<unsigned>(threads.getInt());
  if (auto shared =
          (*module)->getAttrOfType<mlir::IntegerAttr>(kSharedBytesAttr))
    artifact.sharedMemory = static_cast<unsigned>(shared.getInt());
  artifact.binary = std::move(output->output);
  artifact.stages = std::move(output->stageTexts);
  // The NVIDIA entry is the kernel function under its PTX-safe name.
  artifact.entryPoint = *family == "cpu"
                            ? entryPoint
                            : getPTXEntryName(artifact.signature.kernelName);
  if (cacheable) {
    artifact.cacheKey = key;
    // A cache that cannot be written only costs the next compile time.
    if (auto error = cache.store(key, artifact))
      llvm::errs() << "tpx: warning: could not write the compile cache: "
                   << llvm::toString(std::move(error)) << "\n";
  }
  return result;
}
