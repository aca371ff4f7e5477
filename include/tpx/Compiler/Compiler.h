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
  /// Run exactly this pipeline instead of the effective default one.
  std::optional<Pipeline> pipelineOverride;
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
  /// The pipeline that ran (or would have run, on a cache hit), as text.
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
/// MLIR overrides the same way. compileModule calls it; so must any other
/// caller of runPipeline on user input (`--stop-after`, the C API).
llvm::Error prepareKernelRun(mlir::ModuleOp module, llvm::StringRef target,
                             RunOptions &run);

/// The pipeline a compile with `options` runs on `module`.
llvm::Expected<Pipeline> getCompilePipeline(mlir::ModuleOp module,
                                            const CompileOptions &options);

} // namespace tpx

#endif // TPX_COMPILER_COMPILER_H
