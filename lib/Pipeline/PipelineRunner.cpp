//===- PipelineRunner.cpp - Run stages with dumps and overrides -----------===//
#include "tpx/Pipeline/PipelineRunner.h"
#include "tpx/Pipeline/StageEmitter.h"
#include "tpx/Support/SourceNesting.h"

#include "DiagnosticCollector.h"
#include "StageRunner.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace tpx;
using llvm::Error;
using llvm::StringRef;

static Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string tpx::getKernelName(mlir::ModuleOp module) {
  for (mlir::Operation &op : module.getBody()->getOperations())
    if (auto function = mlir::dyn_cast<mlir::FunctionOpInterface>(op))
      if (function.isPublic())
        return function.getName().str();
  if (auto name = module.getSymName())
    return name->str();
  return "module";
}

static std::string printModule(mlir::ModuleOp module, bool debugInfo) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, mlir::OpPrintingFlags().enableDebugInfo(
                        debugInfo, /*prettyForm=*/false));
  return text;
}

static Error writeFile(StringRef path, StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return makeError(path + ": cannot write: " + ec.message());
  os << contents;
  os.close();
  if (os.has_error()) {
    ec = os.error();
    os.clear_error(); // or the stream's destructor would end the process
    return makeError(path + ": cannot write: " + ec.message());
  }
  return Error::success();
}

static Error dumpStage(const RunOptions &options, StringRef fileName,
                       StringRef contents) {
  if (options.dumpDir.empty())
    return Error::success();
  if (std::error_code ec = llvm::sys::fs::create_directories(options.dumpDir))
    return makeError(options.dumpDir +
                     ": cannot create dump directory: " + ec.message());
  llvm::SmallString<256> path(options.dumpDir);
  llvm::sys::path::append(path, fileName);
  return writeFile(path, contents);
}

/// The override file for a stage, if the override directory has one.
static std::optional<std::string> findOverride(const RunOptions &options,
                                               StringRef fileName) {
  if (options.overrideDir.empty())
    return std::nullopt;
  llvm::SmallString<256> path(options.overrideDir);
  llvm::sys::path::append(path, fileName);
  if (!llvm::sys::fs::exists(path))
    return std::nullopt;
  return std::string(path);
}

Error tpx::checkPipelineBuilds(const Pipeline &pipeline,
                               mlir::MLIRContext *context,
                               StringRef stopAfter) {
  for (const Stage &stage : pipeline.getStages()) {
    if (stage.kind == StageKind::MLIR || !stage.passes.empty())
      if (auto built = StagePassManager::build(stage, context); !built)
        return built.takeError();
    if (stage.name == stopAfter)
      break;
  }
  return Error::success();
}

llvm::Expected<RunResult>
tpx::runPipeline(const Pipeline &pipeline,
                 mlir::OwningOpRef<mlir::ModuleOp> &module,
                 const RunOptions &options) {
  if (!options.stopAfter.empty() && !pipeline.getStage(options.stopAfter))
    return makeError("--stop-after: pipeline of target '" +
                     pipeline.getTarget() + "' has no stage '" +
                     options.stopAfter + "'");
  const std::string kernel = getKernelName(*module);
  // Every stage's passes are built (and their options checked) before the
  // first one runs: a mistake in a late stage costs no compile time.
  // (Stages after --stop-after do not run and are not built.)
  std::vector<std::optional<StagePassManager>> passManagers;
  for (const Stage &stage : pipeline.getStages()) {
    passManagers.emplace_back();
    if (stage.kind == StageKind::MLIR || !stage.passes.empty()) {
      auto built = StagePassManager::build(stage, module->getContext());
      if (!built)
        return built.takeError();
      passManagers.back() = std::move(*built);
    }
    if (stage.name == options.stopAfter)
      break;
  }
  RunResult result;
  bool haveBytes = false;
  for (auto [stage, passManager] :
       llvm::zip(pipeline.getStages(), passManagers)) {
    if (stage.kind == StageKind::MLIR) {
      if (haveBytes)
        return makeError("stage '" + stage.name +
                         "' runs passes on MLIR, but an earlier stage already "
                         "emitted bytes");
      if (Error error = passManager->run(*module, options, kernel))
        return std::move(error);
      std::string fileName = kernel + "." + stage.name + ".mlir";
      if (auto path = findOverride(options, fileName)) {
        llvm::SourceMgr sourceMgr;
        DiagnosticCollector diagnostics(module->getContext());
        auto text = llvm::MemoryBuffer::getFile(*path);
        if (!text)
          return makeError(
              *path + ": cannot read override: " + text.getError().message());
        if (auto deep = findExcessiveNesting((*text)->getBuffer()))
          return makeError(*path + ": cannot use as override of stage '" +
                           stage.name + "': " + *deep);
        sourceMgr.AddNewSourceBuffer(std::move(*text), llvm::SMLoc());
        auto replacement = mlir::parseSourceFile<mlir::ModuleOp>(
            sourceMgr, module->getContext());
        if (!replacement)
          return makeError(*path + ": cannot use as override of stage '" +
                           stage.name + "':\n" + diagnostics.str());
        if (options.checkOverride)
          if (Error error = options.checkOverride(stage.name, *replacement))
            return makeError(*path + ": cannot use as override of stage '" +
                             stage.name +
                             "': " + llvm::toString(std::move(error)));
        module = std::move(replacement);
      }
      result.output = printModule(*module, options.printDebugInfo);
      result.isBinary = false;
      if (options.keepStageTexts)
        result.stageTexts.push_back({stage.name, result.output});
      if (Error error = dumpStage(options, fileName, result.output))
        return std::move(error);
    } else {
      if (passManager)
        if (Error error = passManager->run(*module, options, kernel))
          return std::move(error);
      StageEmitter *emitter =
          lookupStageEmitter(pipeline.getTarget(), stage.name);
      if (!emitter)
        return makeError("stage '" + stage.name + "' of target '" +
                         pipeline.getTarget() + "' has no emitter yet");
      mlir::ModuleOp current = *module;
      EntryResourceMap resources;
      EmitterInput input{pipeline.getTarget(), current,
                         haveBytes ? StringRef(result.output) : StringRef(),
                         &resources};
      auto bytes = emitter->emit(input);
      if (!bytes)
        return makeError("stage '" + stage.name +
                         "': " + llvm::toString(bytes.takeError()));
      std::string fileName = kernel + "." + stage.name;
      if (auto path = findOverride(options, fileName)) {
        auto buffer = llvm::MemoryBuffer::getFile(*path);
        if (!buffer)
          return makeError(
              *path + ": cannot read override: " + buffer.getError().message());
        *bytes = (*buffer)->getBuffer().str();
        resources.clear();
      }
      result.output = std::move(*bytes);
      result.entryResources = std::move(resources);
      result.isBinary = true;
      haveBytes = true;
      if (options.keepStageTexts && emitter->producesText())
        result.stageTexts.push_back({stage.name, result.output});
      if (Error error = dumpStage(options, fileName, result.output))
        return std::move(error);
    }
    result.lastStage = stage.name;
    if (stage.name == options.stopAfter)
      break;
  }
  return result;
}
