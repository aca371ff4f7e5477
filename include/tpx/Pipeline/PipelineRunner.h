//===- PipelineRunner.h - Run a pipeline on a module -----------*- C++ -*-===//
//
// Runs the stages of a Pipeline in order on one module: MLIR stages through
// an mlir::PassManager built from the stage's pass entries (all stages are
// built, and their options checked, before the first one runs), Emit stages
// through their StageEmitter. After each stage the output can be dumped to a
// directory and replaced by a file from an override directory (the
// TRITON_KERNEL_DUMP / TRITON_KERNEL_OVERRIDE workflow).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_PIPELINE_PIPELINERUNNER_H
#define TPX_PIPELINE_PIPELINERUNNER_H

#include "tpx/Pipeline/Pipeline.h"
#include "tpx/Pipeline/StageEmitter.h"
#include "tpx/Pipeline/StageText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <functional>
#include <vector>

namespace tpx {

struct RunOptions {
  /// Stop after this stage (empty: run all).
  std::string stopAfter;
  /// Write `<kernel>.<stage>.mlir` (MLIR stages) or `<kernel>.<stage>`
  /// (Emit stages) here after each stage; created if missing.
  std::string dumpDir;
  /// After each stage, if `<kernel>.<stage>.mlir` (or `<kernel>.<stage>`)
  /// exists here, it replaces that stage's output.
  std::string overrideDir;
  /// Print locations in MLIR outputs and dumps.
  bool printDebugInfo = false;
  /// A stage that runs a plugin pass and fails (the pass reports failure or
  /// crashes) writes a local MLIR reproducer of the failing pass,
  /// `<kernel>.<stage>.reproducer-XXXXXX.mlir`, into this directory; if it
  /// is empty, into $TPX_REPRODUCER_DIR, else the system temporary
  /// directory. Such a stage runs without threads (MLIR's local reproducers
  /// need that); the context's setting is restored after it.
  std::string reproducerDir;
  /// False: no reproducers, and plugin stages keep the context's threading.
  bool crashReproducers = true;
  /// Keep the text output of every stage that produces text (MLIR stages,
  /// and Emit stages such as `ptx`) in RunResult::stageTexts. The MLIR text
  /// is printed after every stage anyway; keeping it costs one copy.
  bool keepStageTexts = false;
  /// Checks an MLIR override of stage `stage` before it replaces that
  /// stage's output (the driver checks it against what the target accepts).
  std::function<llvm::Error(llvm::StringRef stage, mlir::ModuleOp)>
      checkOverride;
};

struct RunResult {
  /// The last stage that ran.
  std::string lastStage;
  /// Its output: the printed module for an MLIR stage, bytes otherwise.
  std::string output;
  bool isBinary = false;
  /// With RunOptions::keepStageTexts: each text stage's output, in order
  /// (after any override). Binary stages (cubin, obj) are not included.
  std::vector<StageText> stageTexts;
  /// The resources of the entries of the last binary an emitter produced,
  /// as far as it reported them (StageEmitter.h); empty when an override
  /// replaced that binary, since they describe the emitter's code.
  EntryResourceMap entryResources;
};

/// The name used for dump and override files: the first public function
/// of the module (the kernel), else the module's name, else "module".
std::string getKernelName(mlir::ModuleOp module);

/// Builds the pass managers of every stage of `pipeline` (up to
/// `stopAfter`, all when empty) without running them: the error runPipeline
/// would give up front for an unknown pass or a bad option.
llvm::Error checkPipelineBuilds(const Pipeline &pipeline,
                                mlir::MLIRContext *context,
                                llvm::StringRef stopAfter = "");

/// Runs `pipeline` on `module` (which may be replaced by an override).
/// Errors name the stage (and the entry, for one that does not build); pass
/// failures carry the MLIR diagnostics (collected, not reported through the
/// context's other handlers) and, for a stage with a plugin pass, the
/// `tpx-opt ... --run-reproducer FILE` command that replays the failure.
llvm::Expected<RunResult> runPipeline(const Pipeline &pipeline,
                                      mlir::OwningOpRef<mlir::ModuleOp> &module,
                                      const RunOptions &options);

} // namespace tpx

#endif // TPX_PIPELINE_PIPELINERUNNER_H
