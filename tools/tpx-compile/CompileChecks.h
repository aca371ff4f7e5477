//===- CompileChecks.h - tpx-compile's checks of its inputs -----*- C++ -*-===//
//
// Everything tpx-compile can check before a compile starts: the target
// name, the dump and override directories, the override files of the
// stages that will run, and that a full compile's pipeline ends in an emit
// stage. Each error names the option or file at fault.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_TOOLS_TPXCOMPILE_COMPILECHECKS_H
#define TPX_TOOLS_TPXCOMPILE_COMPILECHECKS_H

#include "tpx/Pipeline/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/Error.h"

namespace tpx::tools {

/// The targets tpx has pipelines for, as their backends list them: `cpu`,
/// `sm_90a`, `gfx950`.
std::vector<std::string> getKnownTargets();

/// An error unless `target` is one of getKnownTargets().
llvm::Error checkTarget(llvm::StringRef target);

/// An error unless `path` names an existing directory (`option` is the
/// flag's name, for the message).
llvm::Error checkExistingDirectory(llvm::StringRef option,
                                   llvm::StringRef path);

/// An error if `path` exists and is not a directory.
llvm::Error checkDirectoryIfExists(llvm::StringRef option,
                                   llvm::StringRef path);

/// Checks the files of `overrideDir` that would replace the output of a
/// stage of `pipeline` that runs (up to `stopAfter`, all when empty) for
/// `module`'s kernel: each must be a non-empty regular file; an MLIR one
/// must parse and define the kernel's symbol, an object file (obj, cubin,
/// hsaco) must be ELF and a PTX one must have a `.version` and an `.entry`.
/// Prints a warning when no file applies (a misnamed one would be
/// ignored).
llvm::Error checkOverrides(llvm::StringRef overrideDir,
                           const Pipeline &pipeline, mlir::ModuleOp module,
                           llvm::StringRef stopAfter);

/// A full compile (no --stop-after) must end with an emit stage, whose
/// bytes become the artifact; a pipeline (file) that ends in an MLIR stage
/// would otherwise print IR where an artifact was asked for.
llvm::Error checkFullCompilePipeline(const Pipeline &pipeline,
                                     llvm::StringRef pipelineFile);

} // namespace tpx::tools

#endif // TPX_TOOLS_TPXCOMPILE_COMPILECHECKS_H
