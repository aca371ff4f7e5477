//===- Compiler.cpp - compile(module, target, options) -> Artifact --------===//
//
// Everything target-specific comes from the target's backend
// (tpx/Target/TargetBackend.h): its pipelines and how one is chosen, the
// pass options launch options reach, bounds checking, the entry point and
// the artifact fields.
//
//===----------------------------------------------------------------------===//
#include "tpx/Compiler/Compiler.h"
#include "tpx/Compiler/CompileCache.h"
#include "tpx/Compiler/TargetOpSupport.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Pipeline/PipelineExtension.h"
#include "tpx/Pipeline/PipelineRunner.h"
#include "tpx/Pipeline/TargetPipelines.h"
#include "tpx/Plugin/PluginCacheKey.h"
#include "tpx/Plugin/PluginLoader.h"
#include "tpx/Plugin/PluginRegistry.h"
#include "tpx/Support/DiagnosticText.h"
#include "tpx/Target/TargetBackend.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace tpx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error tpx::enableBoundsCheck(Pipeline &pipeline) {
  auto backend = getTargetBackend(pipeline.getTarget());
  if (!backend)
    return backend.takeError();
  if (!(*backend)->enableBoundsCheck)
    return makeError("target '" + pipeline.getTarget() +
                     "' has no bounds checking");
  return (*backend)->enableBoundsCheck(pipeline);
}

/// Sets `option=value` on the pass entry `pass` of every stage, unless the
/// pipeline text already sets that option.
static void setPassOption(Pipeline &pipeline, llvm::StringRef pass,
                          llvm::StringRef option, llvm::StringRef value) {
  for (Stage &stage : pipeline.getStages()) {
    int index = stage.find(pass);
    if (index < 0)
      continue;
    PassEntry &entry = stage.passes[index];
    if (entry.options.find(option.str()) == std::string::npos)
      entry.options +=
          (entry.options.empty() ? "" : " ") + option.str() + "=" + value.str();
  }
}

static void setPassOption(Pipeline &pipeline, llvm::StringRef pass,
                          llvm::StringRef option, unsigned value) {
  setPassOption(pipeline, pass, option, std::to_string(value));
}

/// num_warps, num_stages and the target name reach the passes the backend
/// names as their options, and every plugin pass that declares an option
/// `num-warps` or `num-stages` (docs/plugins.md).
static void applyLaunchOptions(const TargetBackend &backend, Pipeline &pipeline,
                               const CompileOptions &options) {
  for (const LaunchOptionSlot &slot : backend.launchOptions) {
    switch (slot.value) {
    case LaunchOptionSlot::NumWarps:
      setPassOption(pipeline, slot.pass, slot.option, options.numWarps);
      break;
    case LaunchOptionSlot::NumStages:
      setPassOption(pipeline, slot.pass, slot.option, options.numStages);
      break;
    case LaunchOptionSlot::Target:
      setPassOption(pipeline, slot.pass, slot.option,
                    llvm::StringRef(options.target));
      break;
    }
  }
  llvm::StringSet<> pluginPasses;
  for (Stage &stage : pipeline.getStages())
    for (PassEntry &entry : stage.passes)
      pluginPasses.insert(entry.name);
  for (const auto &pass : pluginPasses) {
    if (pluginPassHasOption(pass.getKey(), "num-warps"))
      setPassOption(pipeline, pass.getKey(), "num-warps", options.numWarps);
    if (pluginPassHasOption(pass.getKey(), "num-stages"))
      setPassOption(pipeline, pass.getKey(), "num-stages", options.numStages);
  }
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

llvm::Expected<std::vector<Pipeline>>
tpx::getCompilePipelines(mlir::ModuleOp module, const CompileOptions &options) {
  auto backend = getTargetBackend(options.target);
  if (!backend)
    return backend.takeError();
  std::vector<Pipeline> candidates;
  if (options.pipelineOverride) {
    // An explicit pipeline runs as given (no selection on top of it).
    candidates.push_back(*options.pipelineOverride);
    const std::string &name = candidates.front().getName();
    if (!name.empty() && !(*backend)->findPipeline(name))
      return makeError("the pipeline text is for pipeline '" + name +
                       "', which target '" + options.target +
                       "' does not have (pipelines: " +
                       (*backend)->listPipelineNames() + ")");
  } else {
    auto effective = getEffectivePipelines(options.target, module);
    if (!effective)
      return effective.takeError();
    candidates = std::move(*effective);
    // The extensions the caller selected (tpx-run --pipeline-ext, the C
    // API), on top of the kernel's and the scope's.
    if (auto error =
            applyPipelineExtensions(candidates, options.pipelineSelection))
      return std::move(error);
    if (!options.pipelineName.empty()) {
      auto named = llvm::find_if(candidates, [&](const Pipeline &pipeline) {
        return pipeline.getName() == options.pipelineName;
      });
      if (named == candidates.end())
        return makeError("target '" + options.target + "' has no pipeline '" +
                         options.pipelineName + "' (pipelines: " +
                         (*backend)->listPipelineNames() + ")");
      Pipeline chosen = std::move(*named);
      candidates = {std::move(chosen)};
    }
  }
  for (Pipeline &pipeline : candidates) {
    applyLaunchOptions(**backend, pipeline, options);
    // Bounds checking is a facility of targets that have it (the CPU
    // runtime's); the others ignore it.
    if (options.boundsCheck && (*backend)->enableBoundsCheck)
      if (auto error = (*backend)->enableBoundsCheck(pipeline))
        return std::move(error);
  }
  return candidates;
}

/// Records the pipeline that runs as `tpxgpu.codegen` when the backend
/// gives it a codegen value.
static void recordCodegen(const TargetBackend &backend, mlir::ModuleOp module,
                          llvm::StringRef pipelineName) {
  const NamedPipelineSpec *spec = backend.findPipeline(pipelineName);
  if (!spec || spec->codegen.empty())
    return;
  module->setAttr(tpxgpu::TPXGPUDialect::kCodegenAttrName,
                  mlir::StringAttr::get(module.getContext(), spec->codegen));
}

/// The stages of `pipeline` up to and including `last`, or after it.
static Pipeline sliceStages(const Pipeline &pipeline, llvm::StringRef last,
                            bool upTo) {
  Pipeline part(pipeline.getTarget());
  part.setName(pipeline.getName());
  bool before = true;
  for (const Stage &stage : pipeline.getStages()) {
    if (before == upTo)
      part.getStages().push_back(stage);
    if (stage.name == last)
      before = false;
  }
  return part;
}

/// The candidates must agree on the stages before the choice: those run
/// once, for whichever pipeline is chosen.
static llvm::Error checkSharedStages(llvm::ArrayRef<Pipeline> candidates,
                                     llvm::StringRef last) {
  Pipeline first = sliceStages(candidates.front(), last, /*upTo=*/true);
  first.setName("");
  for (const Pipeline &other : candidates.drop_front()) {
    Pipeline shared = sliceStages(other, last, /*upTo=*/true);
    shared.setName("");
    if (!(shared == first))
      return makeError(
          "pipelines '" + candidates.front().getName() + "' and '" +
          other.getName() + "' of target '" + other.getTarget() +
          "' must run the same stages up to '" + last +
          "', after which the compiler picks one for the kernel; the "
          "selected pipeline extensions made them differ:\n" +
          first.print() + "versus\n" + shared.print());
  }
  return llvm::Error::success();
}

/// Why `module` cannot run on `pipelineName` by the backend's coverage
/// check (the op and the reason, with the op's location), when the backend
/// would pick a pipeline that runs only when named.
static std::string describeUncovered(const TargetBackend &backend,
                                     llvm::StringRef pipelineName,
                                     const PipelineChoice &choice) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printDiagnosticLocation(os, choice.reason->getLoc());
  os << "error: the " << pipelineName << " pipeline does not cover "
     << choice.why << " ('" << choice.reason->getName() << "')";
  if (backend.findPipeline(choice.name))
    os << "; the " << choice.name << " pipeline, which does, runs only when "
       << "asked for (--target-pipeline " << choice.name
       << "; TpxKernelOptions.targetPipeline; TPX_TARGET_PIPELINE="
       << choice.name << " for Python kernels)";
  return text;
}

/// Asks the backend which candidate runs for `module` (as the shared stages
/// left it). A fallback the backend may take on its own is reported as a
/// remark at the op that decided it; one to a pipeline that runs only when
/// named (NamedPipelineSpec::onlyWhenNamed), or to one that is not among
/// the candidates (the compile asked for another), is an error naming it.
static llvm::Expected<size_t>
choose(const TargetBackend &backend, llvm::ArrayRef<Pipeline> candidates,
       mlir::ModuleOp module, const CompileOptions &options, bool report) {
  PipelineChoiceInput input;
  input.numWarps = options.numWarps;
  input.numStages = options.numStages;
  PipelineChoice choice = backend.choosePipeline(module, input);
  const NamedPipelineSpec *spec = backend.findPipeline(choice.name);
  llvm::StringRef wanted = candidates.front().getName();
  if (choice.reason && spec && spec->onlyWhenNamed)
    return makeError(describeUncovered(backend, wanted, choice));
  for (auto [index, candidate] : llvm::enumerate(candidates)) {
    if (candidate.getName() != choice.name)
      continue;
    if (report && choice.reason)
      choice.reason->emitRemark("the ")
          << wanted << " pipeline does not cover " << choice.why << " ('"
          << choice.reason->getName() << "'); this kernel runs on the "
          << choice.name << " pipeline";
    return index;
  }
  if (choice.reason)
    return makeError(describeUncovered(backend, wanted, choice));
  return makeError("target backend '" + backend.family + "' chose pipeline '" +
                   choice.name + "', which is not among the candidates");
}

/// True when the one pipeline to run is the backend's default of several,
/// which the coverage check vets before anything after the shared stages
/// runs: a kernel it does not cover fails naming the op rather than deep
/// in a lowering.
static bool needsCoverageCheck(const TargetBackend &backend,
                               const Pipeline &pipeline) {
  return backend.choosePipeline && backend.pipelines.size() > 1 &&
         !backend.choiceAfterStage.empty() &&
         pipeline.getName() == backend.pipelines.front().name &&
         pipeline.getStage(backend.choiceAfterStage);
}

llvm::Expected<KernelRunResult>
tpx::runKernelPipelines(llvm::ArrayRef<Pipeline> candidates,
                        mlir::OwningOpRef<mlir::ModuleOp> &module,
                        const CompileOptions &options, RunOptions run) {
  auto backend = getTargetBackend(options.target);
  if (!backend)
    return backend.takeError();
  if (candidates.empty())
    return makeError("no pipeline to run");
  if (auto error = prepareKernelRun(*module, options.target, run))
    return std::move(error);
  KernelRunResult result;
  if (candidates.size() == 1 &&
      !needsCoverageCheck(**backend, candidates.front())) {
    recordCodegen(**backend, *module, candidates.front().getName());
    auto output = runPipeline(candidates.front(), module, run);
    if (!output)
      return output.takeError();
    result.run = std::move(*output);
    result.pipeline = candidates.front();
    return result;
  }

  llvm::StringRef fork = (*backend)->choiceAfterStage;
  if (auto error = checkSharedStages(candidates, fork))
    return std::move(error);
  // Every candidate builds before anything runs: a bad pass option in the
  // pipeline the kernel ends up on costs no compile time either.
  for (const Pipeline &candidate : candidates)
    if (auto error =
            checkPipelineBuilds(candidate, module->getContext(), run.stopAfter))
      return std::move(error);
  Pipeline shared = sliceStages(candidates.front(), fork, /*upTo=*/true);
  bool stopsBeforeChoice =
      !run.stopAfter.empty() && shared.getStage(run.stopAfter);
  RunOptions first = run;
  first.stopAfter = stopsBeforeChoice ? run.stopAfter : fork.str();
  auto prefix = runPipeline(shared, module, first);
  if (!prefix)
    return prefix.takeError();
  if (stopsBeforeChoice) {
    result.run = std::move(*prefix);
    result.pipeline = candidates.front();
    return result;
  }
  auto index = choose(**backend, candidates, *module, options, true);
  if (!index)
    return index.takeError();
  const Pipeline &chosen = candidates[*index];
  recordCodegen(**backend, *module, chosen.getName());
  Pipeline rest = sliceStages(chosen, fork, /*upTo=*/false);
  if (!run.stopAfter.empty() && !rest.getStage(run.stopAfter))
    return makeError("--stop-after: pipeline of target '" + chosen.getTarget() +
                     "' has no stage '" + run.stopAfter + "'");
  auto output = runPipeline(rest, module, run);
  if (!output)
    return output.takeError();
  result.run = std::move(*output);
  result.run.stageTexts.insert(result.run.stageTexts.begin(),
                               prefix->stageTexts.begin(),
                               prefix->stageTexts.end());
  result.pipeline = chosen;
  return result;
}

llvm::Expected<Pipeline>
tpx::getCompilePipeline(mlir::ModuleOp module, const CompileOptions &options) {
  auto candidates = getCompilePipelines(module, options);
  if (!candidates)
    return candidates.takeError();
  if (candidates->size() == 1)
    return std::move(candidates->front());
  auto backend = getTargetBackend(options.target);
  if (!backend)
    return backend.takeError();
  llvm::StringRef fork = (*backend)->choiceAfterStage;
  if (auto error = checkSharedStages(*candidates, fork))
    return std::move(error);
  // The choice looks at the kernel as the shared stages leave it; they run
  // on a copy, quietly (the compile itself reports the remark).
  mlir::OwningOpRef<mlir::ModuleOp> copy(module.clone());
  RunOptions run;
  if (auto error = prepareKernelRun(*copy, options.target, run))
    return std::move(error);
  run.stopAfter = fork.str();
  auto prefix =
      runPipeline(sliceStages(candidates->front(), fork, true), copy, run);
  if (!prefix)
    return prefix.takeError();
  auto index = choose(**backend, *candidates, *copy, options, false);
  if (!index)
    return index.takeError();
  return std::move((*candidates)[*index]);
}

/// Everything that decides the binary: the compiler build itself, the IR
/// with its locations, the target and what its backend adds (the host CPU
/// code is built for), options, the loaded plugins' content hashes and the
/// candidate pipelines (which one runs is a function of the rest).
/// Locations are part of the key because passes put them into code (a
/// plugin's guard reporting "stored a NaN at kernels.py:12:5", assert
/// messages) and into the per-stage IR an artifact keeps; a kernel moved to
/// another line compiles again.
static std::string computeCacheKey(mlir::ModuleOp module,
                                   const CompileOptions &options,
                                   const TargetBackend &backend,
                                   llvm::ArrayRef<Pipeline> candidates) {
  std::string material;
  llvm::raw_string_ostream os(material);
  os << "compiler=" << getCompilerIdentity() << "\n";
  os << "cache_format=" << CompileCache::kFormatVersion << "\n";
  os << "target=" << options.target << "\n";
  if (backend.getCacheKeyMaterial)
    os << backend.getCacheKeyMaterial() << "\n";
  os << "num_warps=" << options.numWarps << " num_stages=" << options.numStages
     << " bounds_check=" << options.boundsCheck << "\n";
  for (const Pipeline &pipeline : candidates)
    os << getCacheKeyMaterial(pipeline) << "\n";
  module->print(os, mlir::OpPrintingFlags().enableDebugInfo(true));
  return sha256Hex(material);
}

llvm::Expected<CompileResult>
tpx::compileModule(mlir::OwningOpRef<mlir::ModuleOp> module,
                   const CompileOptions &options) {
  auto backend = getTargetBackend(options.target);
  if (!backend)
    return backend.takeError();
  if (!(*backend)->fillArtifact || !(*backend)->checkEntryPoint ||
      !(*backend)->getModuleEntryName)
    return makeError("target '" + options.target +
                     "' cannot make launchable artifacts yet (its backend "
                     "has no code generation)");
  {
    // The kernel is checked before the cache is consulted, so a kernel the
    // target rejects is rejected on a warm cache too.
    RunOptions check;
    if (auto error = prepareKernelRun(*module, options.target, check))
      return std::move(error);
  }
  auto signature = getKernelSignature(*module);
  if (!signature)
    return signature.takeError();
  auto candidates = getCompilePipelines(*module, options);
  if (!candidates)
    return candidates.takeError();

  CompileResult result;
  std::string key = computeCacheKey(*module, options, **backend, *candidates);
  CompileCache cache;
  // Dumps and overrides need the stages to run, so they bypass the cache.
  bool cacheable = options.useCache && options.dumpDir.empty() &&
                   options.overrideDir.empty();
  if (cacheable) {
    if (std::optional<Artifact> hit = cache.lookup(key)) {
      result.artifact = std::move(*hit);
      result.cacheHit = true;
      result.pipelineText = candidates->front().print();
      for (const Pipeline &candidate : *candidates)
        if (candidate.getName() == result.artifact.pipeline)
          result.pipelineText = candidate.print();
      return result;
    }
  }

  RunOptions run;
  run.dumpDir = options.dumpDir;
  run.overrideDir = options.overrideDir;
  run.keepStageTexts = true;
  auto output = runKernelPipelines(*candidates, module, options, run);
  if (!output)
    return output.takeError();
  result.pipelineText = output->pipeline.print();
  if (!output->run.isBinary)
    return makeError("the pipeline ended with stage '" + output->run.lastStage +
                     "', which produces IR, not a binary to launch");

  // The entry point as a symbol of the module.
  std::string entryPoint =
      (*backend)->getModuleEntryName(signature->kernelName);
  if (auto error = (*backend)->checkEntryPoint(*module, signature->kernelName,
                                               entryPoint))
    return std::move(error);

  Artifact &artifact = result.artifact;
  artifact.target = options.target;
  artifact.signature = std::move(*signature);
  artifact.numWarps = options.numWarps;
  artifact.numStages = options.numStages;
  artifact.pipeline = output->pipeline.getName();
  artifact.binary = std::move(output->run.output);
  artifact.stages = std::move(output->run.stageTexts);
  if (auto error = (*backend)->fillArtifact(*module, output->run.entryResources,
                                            artifact))
    return std::move(error);
  if (cacheable) {
    artifact.cacheKey = key;
    // A cache that cannot be written only costs the next compile time.
    if (auto error = cache.store(key, artifact))
      llvm::errs() << "tpx: warning: could not write the compile cache: "
                   << llvm::toString(std::move(error)) << "\n";
  }
  return result;
}
