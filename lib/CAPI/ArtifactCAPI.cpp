//===- ArtifactCAPI.cpp - tpx-c/Artifact.h --------------------------------===//
#include "tpx-c/Artifact.h"

#include "CAPIUtils.h"

#include "tpx/Compiler/Compiler.h"
#include "tpx/Runtime/CPULauncher.h"
#include "tpx/Runtime/HIPLauncher.h"

#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstddef>

using namespace tpx;
using namespace tpx::capi;

struct TpxArtifact {
  Artifact artifact;
  bool cached = false;
};

TpxStatus tpxCompileKernel(const char *source, const TpxKernelOptions *options,
                           TpxArtifact **artifact, char **error) {
  if (!source || !options || !artifact)
    return fail("tpxCompileKernel: null argument", error);
  // Fields added later (targetPipeline) are read only when the caller's
  // struct has them.
  constexpr size_t kFirstSize = offsetof(TpxKernelOptions, targetPipeline);
  if (options->structSize < kFirstSize)
    return fail("tpxCompileKernel: TpxKernelOptions.structSize is too small",
                error);
  bool hasTargetPipeline =
      options->structSize >= offsetof(TpxKernelOptions, targetPipeline) +
                                 sizeof(options->targetPipeline);
  std::unique_ptr<mlir::MLIRContext> context(createContext());
  auto module = parseSource(context.get(), source);
  if (!module)
    return fail(module.takeError(), error);

  CompileOptions compile;
  compile.target = options->target ? options->target : "cpu";
  if (options->numWarps)
    compile.numWarps = options->numWarps;
  if (options->numStages)
    compile.numStages = options->numStages;
  if (options->dumpDir)
    compile.dumpDir = options->dumpDir;
  compile.boundsCheck = options->boundsCheck != 0;
  compile.useCache = options->noCache == 0;
  if (hasTargetPipeline && options->targetPipeline) {
    if (options->pipelineText)
      return fail("tpxCompileKernel: targetPipeline cannot apply with "
                  "pipelineText, which runs as given",
                  error);
    compile.pipelineName = options->targetPipeline;
  }
  if (options->pipelineText) {
    auto pipeline = Pipeline::parse(options->pipelineText);
    if (!pipeline)
      return fail(pipeline.takeError(), error);
    pipeline->setTarget(compile.target);
    compile.pipelineOverride = std::move(*pipeline);
  }
  auto result = compileModule(std::move(*module), compile);
  if (!result)
    return fail(result.takeError(), error);
  *artifact = new TpxArtifact{std::move(result->artifact), result->cacheHit};
  return TPX_SUCCESS;
}

void tpxArtifactDestroy(TpxArtifact *artifact) { delete artifact; }

char *tpxArtifactGetMetadata(const TpxArtifact *artifact) {
  if (!artifact)
    return nullptr;
  return copyString(
      llvm::formatv("{0:2}", artifact->artifact.metadataToJSON()).str());
}

const char *tpxArtifactGetKernelName(const TpxArtifact *artifact) {
  return artifact ? artifact->artifact.signature.kernelName.c_str() : nullptr;
}

const void *tpxArtifactGetBinary(const TpxArtifact *artifact, size_t *size) {
  if (!artifact)
    return nullptr;
  if (size)
    *size = artifact->artifact.binary.size();
  return artifact->artifact.binary.data();
}

const char *tpxArtifactGetStage(const TpxArtifact *artifact, const char *stage,
                                size_t *size) {
  if (!artifact || !stage)
    return nullptr;
  const StageText *found = artifact->artifact.findStage(stage);
  if (!found)
    return nullptr;
  if (size)
    *size = found->text.size();
  return found->text.c_str();
}

char *tpxArtifactGetStageNames(const TpxArtifact *artifact) {
  if (!artifact)
    return nullptr;
  std::string names;
  for (const StageText &stage : artifact->artifact.stages)
    names += (names.empty() ? "" : ",") + stage.stage;
  return copyString(names);
}

int tpxArtifactWasCached(const TpxArtifact *artifact) {
  return artifact && artifact->cached;
}

TpxStatus tpxLaunch(const TpxArtifact *artifact, const uint32_t grid[3],
                    const TpxLaunchArg *args, size_t numArgs,
                    uint32_t numThreads, char **error) {
  if (!artifact || !grid || (numArgs && !args))
    return fail("tpxLaunch: null argument", error);
  std::vector<LaunchArgument> launchArgs;
  for (size_t i = 0; i < numArgs; ++i) {
    const TpxLaunchArg &arg = args[i];
    switch (arg.kind) {
    case TPX_ARG_BUFFER:
      launchArgs.push_back(LaunchArgument::buffer(arg.data, arg.bytes));
      break;
    case TPX_ARG_INT:
      launchArgs.push_back(LaunchArgument::integer(arg.intValue));
      break;
    case TPX_ARG_FLOAT:
      launchArgs.push_back(LaunchArgument::floating(arg.floatValue));
      break;
    default:
      return fail(llvm::formatv("tpxLaunch: argument {0} has unknown kind {1}",
                                i, static_cast<int>(arg.kind)),
                  error);
    }
  }
  // Host buffers on an AMD GPU: the HIP launcher copies them in and out.
  if (llvm::StringRef(artifact->artifact.target).starts_with("gfx"))
    return done(launchOnHIP(artifact->artifact, {grid[0], grid[1], grid[2]},
                            launchArgs),
                error);
  if (artifact->artifact.target != "cpu")
    return fail("tpxLaunch: target '" + artifact->artifact.target +
                    "' has no launcher in this build",
                error);
  CPULaunchOptions options;
  options.numThreads = numThreads;
  return done(launchOnCPU(artifact->artifact, {grid[0], grid[1], grid[2]},
                          launchArgs, options),
              error);
}
