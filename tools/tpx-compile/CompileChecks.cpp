//===- CompileChecks.cpp - tpx-compile's checks of its inputs -------------===//
#include "CompileChecks.h"

#include "tpx/Pipeline/PipelineRunner.h"
#include "tpx/Pipeline/TargetPipelines.h"
#include "tpx/Support/SourceNesting.h"
#include "tpx/Target/TargetBackend.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace tpx;
using llvm::StringRef;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::vector<std::string> tools::getKnownTargets() {
  std::vector<std::string> targets;
  for (const TargetBackend *backend : getTargetBackends())
    targets.insert(targets.end(), backend->knownTargets.begin(),
                   backend->knownTargets.end());
  return targets;
}

llvm::Error tools::checkTarget(StringRef target) {
  std::vector<std::string> known = getKnownTargets();
  if (llvm::is_contained(known, target))
    return llvm::Error::success();
  return makeError("--target: unknown target '" + target +
                   "' (known targets: " + llvm::join(known, ", ") + ")");
}

llvm::Error tools::checkExistingDirectory(StringRef option, StringRef path) {
  if (path.empty())
    return makeError("--" + option + ": needs a directory");
  if (!llvm::sys::fs::exists(path))
    return makeError("--" + option + ": '" + path + "' does not exist");
  if (!llvm::sys::fs::is_directory(path))
    return makeError("--" + option + ": '" + path + "' is not a directory");
  return llvm::Error::success();
}

llvm::Error tools::checkDirectoryIfExists(StringRef option, StringRef path) {
  if (path.empty())
    return makeError("--" + option + ": needs a directory");
  if (llvm::sys::fs::exists(path) && !llvm::sys::fs::is_directory(path))
    return makeError("--" + option + ": '" + path + "' is not a directory");
  return llvm::Error::success();
}

/// An MLIR override must parse and hold the kernel: an empty file parses
/// as an empty module, which would compile to an artifact without code.
static llvm::Error checkMLIROverride(StringRef path, const Stage &stage,
                                     StringRef kernel,
                                     mlir::MLIRContext *context) {
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, context, os);
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError(path + ": cannot read: " + buffer.getError().message());
  if (auto deep = findExcessiveNesting((*buffer)->getBuffer()))
    return makeError(path + ": cannot use as override of stage '" + stage.name +
                     "': " + *deep);
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  auto module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, context);
  if (!module)
    return makeError(path + ": cannot use as override of stage '" + stage.name +
                     "':\n" + StringRef(diagnostics).rtrim());
  if (!module->lookupSymbol(kernel))
    return makeError(path + ": cannot use as override of stage '" + stage.name +
                     "': it defines no symbol '" + kernel + "' (the kernel)");
  return llvm::Error::success();
}

/// Emit stages produce bytes; the checks are the formats' signatures.
static llvm::Error checkBinaryOverride(StringRef path, const Stage &stage,
                                       StringRef contents) {
  bool isObject =
      stage.name == "obj" || stage.name == "cubin" || stage.name == "hsaco";
  if (isObject && !contents.starts_with("\x7f"
                                        "ELF"))
    return makeError(path + ": cannot use as override of stage '" + stage.name +
                     "': not an ELF file");
  if (stage.name == "ptx" &&
      (!contents.contains(".version") || !contents.contains(".entry")))
    return makeError(path + ": cannot use as override of stage '" + stage.name +
                     "': not PTX (no .version directive or .entry)");
  return llvm::Error::success();
}

llvm::Error tools::checkOverrides(StringRef overrideDir,
                                  const Pipeline &pipeline,
                                  mlir::ModuleOp module, StringRef stopAfter) {
  std::string kernel = getKernelName(module);
  std::vector<std::string> looked;
  bool found = false;
  for (const Stage &stage : pipeline.getStages()) {
    std::string fileName = kernel + "." + stage.name +
                           (stage.kind == StageKind::MLIR ? ".mlir" : "");
    looked.push_back(fileName);
    llvm::SmallString<256> path(overrideDir);
    llvm::sys::path::append(path, fileName);
    if (llvm::sys::fs::exists(path)) {
      found = true;
      if (!llvm::sys::fs::is_regular_file(path))
        return makeError(path + ": cannot use as override of stage '" +
                         stage.name + "': not a regular file");
      auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                                /*RequiresNull=*/false);
      if (!buffer)
        return makeError(
            path + ": cannot read override: " + buffer.getError().message());
      StringRef contents = (*buffer)->getBuffer();
      if (contents.trim().empty())
        return makeError(path + ": cannot use as override of stage '" +
                         stage.name + "': the file is empty");
      if (llvm::Error error =
              stage.kind == StageKind::MLIR
                  ? checkMLIROverride(path, stage, kernel, module.getContext())
                  : checkBinaryOverride(path, stage, contents))
        return error;
    }
    if (stage.name == stopAfter)
      break;
  }
  if (!found)
    llvm::errs() << "warning: --override-dir: '" << overrideDir
                 << "' has no override for kernel '" << kernel
                 << "' (looked for " << llvm::join(looked, ", ") << ")\n";
  return llvm::Error::success();
}

llvm::Error tools::checkFullCompilePipeline(const Pipeline &pipeline,
                                            StringRef pipelineFile) {
  const std::vector<Stage> &stages = pipeline.getStages();
  if (!stages.empty() && stages.back().kind == StageKind::Emit)
    return llvm::Error::success();
  std::string emitStages;
  if (auto defaults = getDefaultPipeline(pipeline.getTarget())) {
    for (const Stage &stage : defaults->getStages())
      if (stage.kind == StageKind::Emit)
        emitStages += (emitStages.empty() ? "" : ", ") + stage.name;
  } else {
    llvm::consumeError(defaults.takeError());
  }
  std::string last = stages.empty() ? "" : stages.back().name;
  std::string where =
      pipelineFile.empty() ? std::string("the pipeline") : pipelineFile.str();
  return makeError(
      where +
      ": a full compile needs the pipeline to end with an emit stage "
      "of target '" +
      pipeline.getTarget() + "' (" + emitStages + "), but it " +
      (stages.empty() ? std::string("has no stages")
                      : "ends with MLIR stage '" + last + "'") +
      "; add the emit stages, or pass --stop-after " +
      (last.empty() ? std::string("STAGE") : last) + " to get that IR");
}
