//===- PipelineExtension.cpp - Extension registry and selection -----------===//
#include "tpx/Pipeline/PipelineExtension.h"
#include "tpx/Pipeline/TargetPipelines.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <mutex>

using namespace tpx;
using llvm::Error;
using llvm::StringRef;

static Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

namespace {
/// Process-wide state. Extensions are registered while plugins load and
/// selections are pushed by front ends, possibly from several threads.
struct ExtensionState {
  std::mutex mutex;
  // std::map keeps pointers stable and names sorted.
  std::map<std::string, PipelineExtension, std::less<>> extensions;
  std::vector<std::vector<std::string>> selectionStack;
};
} // namespace

static ExtensionState &getState() {
  static ExtensionState state;
  return state;
}

Error tpx::registerPipelineExtension(PipelineExtension extension) {
  ExtensionState &state = getState();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto it = state.extensions.find(extension.name);
  if (it != state.extensions.end())
    return makeError("pipeline extension '" + extension.name +
                     "' is already provided by '" + it->second.provider + "'");
  std::string name = extension.name;
  state.extensions.emplace(std::move(name), std::move(extension));
  return Error::success();
}

const PipelineExtension *tpx::lookupPipelineExtension(StringRef name) {
  ExtensionState &state = getState();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto it = state.extensions.find(name);
  return it == state.extensions.end() ? nullptr : &it->second;
}

std::vector<std::string> tpx::getPipelineExtensionNames() {
  ExtensionState &state = getState();
  std::lock_guard<std::mutex> lock(state.mutex);
  std::vector<std::string> names;
  for (auto &it : state.extensions)
    names.push_back(it.first);
  return names;
}

static Error unknownExtension(StringRef name) {
  std::string known;
  for (const std::string &candidate : getPipelineExtensionNames())
    known += (known.empty() ? "" : ", ") + candidate;
  return makeError("unknown pipeline extension '" + name +
                   "' (known: " + (known.empty() ? "none" : known) + ")");
}

Error tpx::applyPipelineExtensions(Pipeline &pipeline,
                                   llvm::ArrayRef<std::string> names) {
  for (const std::string &name : names) {
    const PipelineExtension *extension = lookupPipelineExtension(name);
    if (!extension)
      return unknownExtension(name);
    // Edit a copy so a failing extension leaves no half-applied edits.
    Pipeline edited = pipeline;
    if (Error error = extension->apply(edited))
      return makeError("pipeline extension '" + name + "' (from '" +
                       extension->provider +
                       "') failed: " + llvm::toString(std::move(error)));
    pipeline = std::move(edited);
  }
  return Error::success();
}

Error tpx::pushPipelineSelection(llvm::ArrayRef<std::string> names) {
  for (const std::string &name : names)
    if (!lookupPipelineExtension(name))
      return unknownExtension(name);
  ExtensionState &state = getState();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.selectionStack.emplace_back(names.begin(), names.end());
  return Error::success();
}

Error tpx::popPipelineSelection() {
  ExtensionState &state = getState();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.selectionStack.empty())
    return makeError("no pipeline selection is active");
  state.selectionStack.pop_back();
  return Error::success();
}

static void appendUnique(std::vector<std::string> &names, StringRef name) {
  if (!llvm::is_contained(names, name))
    names.push_back(name.str());
}

std::vector<std::string> tpx::getScopedPipelineSelection() {
  ExtensionState &state = getState();
  std::lock_guard<std::mutex> lock(state.mutex);
  std::vector<std::string> names;
  for (const auto &scope : state.selectionStack)
    for (const std::string &name : scope)
      appendUnique(names, name);
  return names;
}

PipelineSelectionScope::PipelineSelectionScope(
    llvm::ArrayRef<std::string> names) {
  error = pushPipelineSelection(names);
  pushed = !error;
}

PipelineSelectionScope::~PipelineSelectionScope() {
  if (pushed)
    llvm::consumeError(popPipelineSelection());
  llvm::consumeError(std::move(error));
}

Error PipelineSelectionScope::takeError() { return std::move(error); }

/// "file:line:col: " for the op's location (the innermost file location of
/// a fused or named one), so that errors about a kernel's `tpx.pipeline`
/// point at the kernel; "" when it has none.
static std::string formatLocation(mlir::Operation *op) {
  auto file = op->getLoc()->findInstanceOf<mlir::FileLineColLoc>();
  if (!file)
    return "";
  return (file.getFilename().getValue() + ":" + llvm::Twine(file.getLine()) +
          ":" + llvm::Twine(file.getColumn()) + ": ")
      .str();
}

/// "tt.func @k" or "builtin.module".
static std::string describeOp(mlir::Operation *op) {
  std::string what = op->getName().getStringRef().str();
  if (auto symbol = op->getAttrOfType<mlir::StringAttr>("sym_name"))
    what += " @" + symbol.getValue().str();
  return what;
}

namespace {
/// A name selected by a `tpx.pipeline` attribute, and the op carrying it.
struct SelectedName {
  std::string name;
  mlir::Operation *op;
};
} // namespace

/// Reads one `tpx.pipeline` attribute: ["a", "b"] or "a,b".
static Error readSelection(mlir::Operation *op,
                           std::vector<SelectedName> &names) {
  mlir::Attribute attr = op->getAttr(kPipelineAttrName);
  if (!attr)
    return Error::success();
  auto add = [&](StringRef name) {
    if (llvm::none_of(names, [&](const SelectedName &selected) {
          return selected.name == name;
        }))
      names.push_back({name.str(), op});
  };
  if (auto string = mlir::dyn_cast<mlir::StringAttr>(attr)) {
    llvm::SmallVector<StringRef> parts;
    string.getValue().split(parts, ',', -1, /*KeepEmpty=*/false);
    for (StringRef part : parts)
      add(part.trim());
    return Error::success();
  }
  if (auto array = mlir::dyn_cast<mlir::ArrayAttr>(attr)) {
    for (mlir::Attribute element : array) {
      auto string = mlir::dyn_cast<mlir::StringAttr>(element);
      if (!string)
        return makeError(formatLocation(op) + "'" + kPipelineAttrName +
                         "' on " + describeOp(op) + " must hold strings");
      add(string.getValue());
    }
    return Error::success();
  }
  return makeError(formatLocation(op) + "'" + kPipelineAttrName + "' on " +
                   describeOp(op) + " must be a string or an array of strings");
}

/// The selections of the module and its functions, in order.
static llvm::Expected<std::vector<SelectedName>>
readModuleSelection(mlir::ModuleOp module) {
  std::vector<SelectedName> names;
  if (Error error = readSelection(module, names))
    return std::move(error);
  for (mlir::Operation &op : module.getBody()->getOperations())
    if (mlir::isa<mlir::FunctionOpInterface>(op))
      if (Error error = readSelection(&op, names))
        return std::move(error);
  return names;
}

llvm::Expected<std::vector<std::string>>
tpx::getModulePipelineSelection(mlir::ModuleOp module) {
  auto selected = readModuleSelection(module);
  if (!selected)
    return selected.takeError();
  std::vector<std::string> names;
  for (SelectedName &name : *selected)
    names.push_back(std::move(name.name));
  return names;
}

/// Every extension name a compile with `module` (if any) selects: the
/// scoped ones, then the module's, checked where the op is known.
static llvm::Expected<std::vector<std::string>>
getSelectedNames(mlir::ModuleOp module) {
  std::vector<std::string> names = getScopedPipelineSelection();
  if (!module)
    return names;
  auto moduleNames = readModuleSelection(module);
  if (!moduleNames)
    return moduleNames.takeError();
  for (const SelectedName &selected : *moduleNames) {
    // Checked here, where the op is known: the error points at the kernel.
    if (!lookupPipelineExtension(selected.name))
      return makeError(formatLocation(selected.op) +
                       llvm::toString(unknownExtension(selected.name)) +
                       ", selected by '" + kPipelineAttrName + "' on " +
                       describeOp(selected.op));
    appendUnique(names, selected.name);
  }
  return names;
}

Error tpx::applyPipelineExtensions(std::vector<Pipeline> &candidates,
                                   llvm::ArrayRef<std::string> names) {
  if (candidates.size() == 1)
    return applyPipelineExtensions(candidates.front(), names);
  std::vector<Pipeline> result = candidates;
  for (const std::string &name : names) {
    const PipelineExtension *extension = lookupPipelineExtension(name);
    if (!extension)
      return unknownExtension(name);
    std::string failures;
    bool appliedSomewhere = false;
    std::vector<Pipeline> edited = result;
    for (Pipeline &pipeline : edited) {
      Pipeline copy = pipeline;
      if (Error error = extension->apply(copy)) {
        // Lands only where its anchors are: never silently in the other
        // path, and an error when it fits none.
        failures += "\n  pipeline '" + pipeline.getName() +
                    "': " + llvm::toString(std::move(error));
        continue;
      }
      pipeline = std::move(copy);
      appliedSomewhere = true;
    }
    if (!appliedSomewhere)
      return makeError("pipeline extension '" + name + "' (from '" +
                       extension->provider +
                       "') failed on every pipeline of target '" +
                       result.front().getTarget() + "':" + failures);
    result = std::move(edited);
  }
  candidates = std::move(result);
  return Error::success();
}

llvm::Expected<std::vector<Pipeline>>
tpx::getEffectivePipelines(StringRef target, mlir::ModuleOp module) {
  auto names = getSelectedNames(module);
  if (!names)
    return names.takeError();
  auto pipelines = getTargetPipelines(target);
  if (!pipelines)
    return pipelines.takeError();
  if (Error error = applyPipelineExtensions(*pipelines, *names))
    return std::move(error);
  return pipelines;
}

llvm::Expected<std::vector<Pipeline>>
tpx::getEffectivePipelines(StringRef target) {
  return getEffectivePipelines(target, mlir::ModuleOp());
}

llvm::Expected<Pipeline> tpx::getEffectivePipeline(StringRef target) {
  auto pipelines = getEffectivePipelines(target);
  if (!pipelines)
    return pipelines.takeError();
  return std::move(pipelines->front());
}

llvm::Expected<Pipeline> tpx::getEffectivePipeline(StringRef target,
                                                   mlir::ModuleOp module) {
  auto pipelines = getEffectivePipelines(target, module);
  if (!pipelines)
    return pipelines.takeError();
  return std::move(pipelines->front());
}
