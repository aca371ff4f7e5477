//===- PipelineExtension.h - Named pipeline edits and selection -*- C++ -*-===//
//
// A pipeline extension is a named function that edits a Pipeline (insert a
// pass, replace a stage...). Plugins contribute them; users select them by
// name, per kernel (a `tpx.pipeline` attribute on the kernel or its module)
// or for a scope of compiles (PipelineSelectionScope, or the C API's
// tpxPush/PopPipelineSelection). The effective pipeline of a compile is the
// target's default with the selected extensions applied in order.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_PIPELINE_PIPELINEEXTENSION_H
#define TPX_PIPELINE_PIPELINEEXTENSION_H

#include "tpx/Pipeline/Pipeline.h"

#include "llvm/ADT/ArrayRef.h"

#include <functional>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tpx {

/// The attribute that selects extensions on a kernel function or a module:
/// an array of strings, or one string with comma-separated names.
inline constexpr llvm::StringLiteral kPipelineAttrName = "tpx.pipeline";

struct PipelineExtension {
  std::string name;
  std::string summary;
  /// Who provides it: a plugin name, or "tpx".
  std::string provider;
  std::function<llvm::Error(Pipeline &)> apply;
};

/// Registers an extension; an error if the name is taken.
llvm::Error registerPipelineExtension(PipelineExtension extension);
/// The extension named `name`, or null.
const PipelineExtension *lookupPipelineExtension(llvm::StringRef name);
std::vector<std::string> getPipelineExtensionNames();

/// Applies the named extensions in order; the first failure is returned,
/// prefixed with the extension's name.
llvm::Error applyPipelineExtensions(Pipeline &pipeline,
                                    llvm::ArrayRef<std::string> names);

/// Applies the named extensions in order to every candidate pipeline of a
/// target (its named pipelines: `simt` and `one-thread` on NVIDIA). An
/// extension whose edits fail on some candidates (an anchor pass only one
/// pipeline has) applies to the others only; one that fails on every
/// candidate is an error, which for a single candidate is exactly the one
/// above and otherwise names each pipeline's failure. Candidates are left
/// unchanged on error.
llvm::Error applyPipelineExtensions(std::vector<Pipeline> &candidates,
                                    llvm::ArrayRef<std::string> names);

/// Selection scopes (process-wide, nestable). push validates the names.
llvm::Error pushPipelineSelection(llvm::ArrayRef<std::string> names);
llvm::Error popPipelineSelection();
/// Every name selected by the active scopes, outermost first, no repeats.
std::vector<std::string> getScopedPipelineSelection();

/// RAII form of push/pop for C++ callers.
class PipelineSelectionScope {
public:
  explicit PipelineSelectionScope(llvm::ArrayRef<std::string> names);
  ~PipelineSelectionScope();
  /// The push's error, if any (then nothing is popped at destruction).
  llvm::Error takeError();

private:
  llvm::Error error = llvm::Error::success();
  bool pushed = false;
};

/// The names selected by `tpx.pipeline` on the module and on each of its
/// functions (a module is compiled with one pipeline, so the selections of
/// its kernels are merged in order). Malformed attributes are errors.
llvm::Expected<std::vector<std::string>>
getModulePipelineSelection(mlir::ModuleOp module);

/// Every named pipeline of `target` (default first) + scoped selection +
/// module selection: the candidates the driver picks one of per kernel.
llvm::Expected<std::vector<Pipeline>>
getEffectivePipelines(llvm::StringRef target, mlir::ModuleOp module);
/// Same without a module: the pipelines + scoped selection.
llvm::Expected<std::vector<Pipeline>>
getEffectivePipelines(llvm::StringRef target);

/// The default (first) of getEffectivePipelines: on a single-pipeline
/// target (cpu) the pipeline that runs; on NVIDIA the `simt` one, which
/// runs unless the kernel needs `one-thread` (Compiler.h decides).
llvm::Expected<Pipeline> getEffectivePipeline(llvm::StringRef target,
                                              mlir::ModuleOp module);
llvm::Expected<Pipeline> getEffectivePipeline(llvm::StringRef target);

} // namespace tpx

#endif // TPX_PIPELINE_PIPELINEEXTENSION_H
