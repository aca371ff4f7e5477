//===- Compiler.h - compile(module, target, options) -> Artifact -*- C++
//-*-===//
#ifndef TPX_COMPILER_COMPILER_H
#define TPX_COMPILER_COMPILER_H

#include "tpx/Compiler/Artifact.h"
#include "tpx/Pipeline/Pipeline.h"
#include "tpx/Pipeline/PipelineRunner.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <optional>

namespace tpx {

struct CompileOptions {
  std::string target = "cpu";
  unsigned numWarps = 4;
  unsigned numStages = 3;
  /// Extra pipeline extensions selected for this compile (added to the
  /// scoped selection and the module's `tpx.pipeline`).
  std::vector<std::string> pipelineSelection;
  /// Run exactly this pipeline instead of choosing one of the target's
  /// (no extension is applied on top; launch options and bounds checking
  /// still are). Its name, if it has one, is recorded as the pipeline that
  /// ran (and on NVIDIA as `tpxgpu.codegen`); the coverage check is not
  /// consulted.
  std::optional<Pipeline> pipelineOverride;
  /// Run this named pipeline of the target (`simt`, `one-thread`) instead
  /// of the one the coverage check picks; empty: the driver chooses.
  std::string pipelineName;
  /// Per-stage IR dumps / overrides (see PipelineRunner).
  std::string dumpDir;
  std::string overrideDir;
  /// CPU only: check every memory access against the launch's buffers.
  bool boundsCheck = false;
  /// Use the on-disk cache.
  bool useCache = true;
};

struct CompileResult {
  Artifact artifact;
  /// Whether the artifact came from the cache.
  bool cacheHit = false;
  /// The pipeline that ran (or ran when the cached artifact was built), as
  /// text.
  std::string pipelineText;
};

/// Compiles the kernel in `module` (TTIR) for `options.target`. The module
/// is consumed (the pipeline rewrites it). Errors carry the diagnostics.
llvm::Expected<CompileResult>
compileModule(mlir::OwningOpRef<mlir::ModuleOp> module,
              const CompileOptions &options);

/// Identifies this build of the compiler (the content hash of libtpx.so and
/// the LLVM version); part of every cache key.
std::string getCompilerIdentity();

/// Turns on bounds checking in the CPU lowering entry of `pipeline`
/// (idempotent); an error if the pipeline does not run convert-tt-to-cpu.
llvm::Error enableBoundsCheck(Pipeline &pipeline);

/// What every run of a pipeline on a kernel does first: checks `module`
/// against what `target` accepts (TargetOpSupport.h) and makes `run` check
/// MLIR overrides the same way. runKernelPipelines calls it; so must any
/// other caller of runPipeline on user input.
llvm::Error prepareKernelRun(mlir::ModuleOp module, llvm::StringRef target,
                             RunOptions &run);

/// The pipelines a compile with `options` may run on `module`: the
/// override, or the named one (CompileOptions::pipelineName), or every named
/// pipeline of the target (TargetBackend.h); with the selected extensions,
/// the num-warps / num-stages pass options and bounds checking applied.
llvm::Expected<std::vector<Pipeline>>
getCompilePipelines(mlir::ModuleOp module, const CompileOptions &options);

struct KernelRunResult {
  RunResult run;
  /// The candidate that ran (the first one, when `stopAfter` stopped before
  /// the choice).
  Pipeline pipeline;
};

/// Runs one of `candidates` (getCompilePipelines) on `module`: checks the
/// kernel (prepareKernelRun), checks that every candidate builds, runs the
/// stages they share, lets the target's backend choose one by looking at
/// the kernel after those stages (reporting a remark at the op that decided
/// a fallback), records the choice as `tpxgpu.codegen` where the pipeline
/// has a codegen value, and runs the rest of it.
llvm::Expected<KernelRunResult>
runKernelPipelines(llvm::ArrayRef<Pipeline> candidates,
                   mlir::OwningOpRef<mlir::ModuleOp> &module,
                   const CompileOptions &options, RunOptions run);

/// The pipeline that runs for `module` with `options` (what
/// --dump-pipeline prints): with several candidates, their shared stages
/// run on a copy of the module to decide.
llvm::Expected<Pipeline> getCompilePipeline(mlir::ModuleOp module,
                                            const CompileOptions &options);

} // namespace tpx

#endif // TPX_COMPILER_COMPILER_H
