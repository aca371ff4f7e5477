//===- StageRunner.h - One stage's passes in a PassManager ------*- C++ -*-===//
//
// Internal to lib/Pipeline. The PipelineRunner builds the PassManager of
// every stage before it runs any, so unknown passes and bad options (plugin
// passes check theirs while being built) are one error up front, naming the
// stage and the entry. A stage that runs a plugin pass runs with MLIR's
// local crash reproducer (docs/pipeline.md, "Crashes and reproducers").
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_PIPELINE_STAGERUNNER_H
#define TPX_LIB_PIPELINE_STAGERUNNER_H

#include "tpx/Pipeline/PipelineRunner.h"

#include "mlir/Pass/PassManager.h"

#include <memory>
#include <string>
#include <vector>

namespace tpx {

class StagePassManager {
public:
  /// Builds the passes of `stage`. An anchored pass given directly in the
  /// stage's list is nested under its anchor op, as on tpx-opt's command
  /// line (`tt-my-pass` means `tt.func(tt-my-pass)` for a tt.func pass).
  static llvm::Expected<StagePassManager> build(const Stage &stage,
                                                mlir::MLIRContext *context);

  /// Runs the passes on `module`. Errors carry the stage's diagnostics and,
  /// when a reproducer was written, the command that replays it.
  llvm::Error run(mlir::ModuleOp module, const RunOptions &options,
                  llvm::StringRef kernel);

private:
  StagePassManager() = default;

  std::string stageName;
  std::unique_ptr<mlir::PassManager> passManager;
  /// The canonical paths of the plugins whose passes the stage runs.
  std::vector<std::string> pluginFiles;
};

} // namespace tpx

#endif // TPX_LIB_PIPELINE_STAGERUNNER_H
