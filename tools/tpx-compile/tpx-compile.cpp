//===- tpx-compile.cpp - TTIR file -> any stage of any target -------------===//
//
//   tpx-compile kernel.ttir --target cpu|sm_90a|gfx950 -o OUT
//       [--num-warps N] [--num-stages N] [--no-cache] [--bounds-check]
//       [--load-plugin P] [--pipeline-ext NAME]... [--stop-after STAGE]
//       [--dump-pipeline] [--pipeline-file F] [--target-pipeline NAME]
//       [--dump-dir D]
//       [--override-dir D] [--print-cache-key]
//
// A full compile (no --stop-after) goes through the compiler driver and its
// cache and writes the binary to OUT and the artifact metadata (kernel name,
// argument ABI, warps, shared memory, entry point) to OUT.json.
//
// Everything target-specific lives behind the target backends
// (tpx/Target/TargetBackend.h) and the compiler driver; this tool only wires
// options to them.
// docs/pipeline.md describes each flag.
//
//===----------------------------------------------------------------------===//
#include "CompileChecks.h"

#include "../common/ToolOptions.h"

#include "tpx/Compiler/Compiler.h"
#include "tpx/Pipeline/PipelineExtension.h"
#include "tpx/Pipeline/PipelineRunner.h"
#include "tpx/Plugin/PluginCacheKey.h"
#include "tpx/Plugin/PluginCommandLine.h"
#include "tpx/Plugin/PluginRegistry.h"
#include "tpx/Registration/TpxRegistration.h"
#include "tpx/Support/DiagnosticText.h"
#include "tpx/Support/SourceInput.h"
#include "tpx/Target/Common/LLVMBackendGuard.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

static cl::OptionCategory category("tpx-compile options");

namespace {
/// The tool's options, created in main() only after libLLVM's codegen flag
/// `--stop-after` (registered by TargetPassConfig) has been removed: ours
/// names a tpx stage, not a machine pass.
struct Options {
  cl::opt<std::string> inputFile{cl::Positional, cl::desc("<input TTIR file>"),
                                 cl::init(""), cl::cat(category)};
  cl::opt<std::string> target{"target", cl::desc("cpu, sm_90a or gfx950"),
                              cl::value_desc("target"), cl::Required,
                              cl::cat(category)};
  cl::opt<std::string> outputFile{"o", cl::desc("Output file"),
                                  cl::value_desc("file"), cl::init("-"),
                                  cl::cat(category)};
  cl::opt<std::string> stopAfter{"stop-after", cl::desc("Last stage to run"),
                                 cl::value_desc("stage"), cl::cat(category)};
  cl::opt<bool> dumpPipeline{
      "dump-pipeline", cl::desc("Print the effective pipeline text and exit"),
      cl::cat(category)};
  cl::opt<std::string> pipelineFile{
      "pipeline-file",
      cl::desc("Run this pipeline text instead of the effective "
               "one (e.g. an edited --dump-pipeline)"),
      cl::value_desc("file"), cl::cat(category)};
  cl::opt<std::string> targetPipeline{
      "target-pipeline",
      cl::desc("Run (or print) this named pipeline of the target (sm_90a: "
               "simt, one-thread) instead of the one the compiler picks"),
      cl::value_desc("name"), cl::cat(category)};
  cl::opt<std::string> dumpDir{"dump-dir",
                               cl::desc("Write each stage's output here"),
                               cl::value_desc("dir"), cl::cat(category)};
  cl::opt<std::string> overrideDir{
      "override-dir",
      cl::desc("Replace a stage's output by <kernel>.<stage>[.mlir] "
               "from here when present"),
      cl::value_desc("dir"), cl::cat(category)};
  cl::list<std::string> pipelineExt{
      "pipeline-ext", cl::desc("Select a pipeline extension for this compile"),
      cl::value_desc("name"), cl::cat(category)};
  cl::opt<bool> printCacheKey{
      "print-cache-key",
      cl::desc("Print the cache-key material (plugin hashes and the effective "
               "pipeline) and exit"),
      cl::cat(category)};
  cl::opt<unsigned> numWarps{
      "num-warps", cl::desc("Warps per program: 1, 2, 4, 8, 16 or 32"),
      cl::init(4), cl::cat(category)};
  cl::opt<unsigned> numStages{"num-stages",
                              cl::desc("Software pipelining depth, 1 to 16"),
                              cl::init(3), cl::cat(category)};
  cl::opt<bool> noCache{"no-cache", cl::desc("Bypass the compile cache"),
                        cl::cat(category)};
  cl::opt<bool> boundsCheck{
      "bounds-check",
      cl::desc("CPU: check every memory access against the launch's buffers"),
      cl::cat(category)};
  cl::opt<bool> printDebugInfo{"print-debuginfo",
                               cl::desc("Print locations in MLIR output"),
                               cl::cat(category)};
  // Only for --help: loadPluginsForTool consumes the real uses.
  cl::list<std::string> loadPluginHelp{
      "load-plugin", cl::desc("Load a tpx plugin (file or directory)"),
      cl::value_desc("path"), cl::cat(category)};
};
} // namespace

static Options *opts = nullptr;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static int fail(const llvm::Twine &message) {
  llvm::errs() << "error: " << message << "\n";
  return 1;
}

static int fail(llvm::Error error) {
  return fail(llvm::toString(std::move(error)));
}

/// Writes `contents` to `path`; a write that fails (a full disk) is an
/// error naming the file, and the partial file is removed.
static int writeFile(const std::string &path, llvm::StringRef contents) {
  std::string message;
  auto output = mlir::openOutputFile(path, &message);
  if (!output)
    return fail(path + ": " + message);
  output->os() << contents;
  output->os().flush();
  if (std::error_code ec = output->os().error()) {
    // Cleared, or the stream's destructor would end the process.
    output->os().clear_error();
    return fail(path + ": cannot write: " + ec.message());
  }
  output->keep();
  return 0;
}

static int writeOutput(llvm::StringRef contents) {
  return writeFile(opts->outputFile, contents);
}

/// The compile options of the command line, with the pipeline file (if
/// any) as the pipeline to run as given.
static tpx::CompileOptions
getCompileOptions(const std::optional<tpx::Pipeline> &pipelineFile) {
  tpx::CompileOptions compile;
  compile.target = opts->target;
  compile.numWarps = opts->numWarps;
  compile.numStages = opts->numStages;
  compile.pipelineOverride = pipelineFile;
  compile.pipelineName = opts->targetPipeline;
  compile.dumpDir = opts->dumpDir;
  compile.overrideDir = opts->overrideDir;
  compile.useCache = !opts->noCache;
  compile.boundsCheck = opts->boundsCheck;
  return compile;
}

/// A full compile: the driver (cache included) makes the artifact; OUT gets
/// the binary and OUT.json the metadata.
static int compileArtifact(mlir::OwningOpRef<mlir::ModuleOp> module,
                           const tpx::CompileOptions &compile) {
  auto result = tpx::compileModule(std::move(module), compile);
  if (!result)
    return fail(result.takeError());
  if (int status = writeOutput(result->artifact.binary))
    return status;
  if (opts->outputFile == "-")
    return 0;
  std::string metadata;
  llvm::raw_string_ostream os(metadata);
  os << llvm::formatv("{0:2}", result->artifact.metadataToJSON()) << "\n";
  return writeFile(opts->outputFile + ".json", metadata);
}

/// Checks of the options alone, before any input is read.
static llvm::Error checkOptions() {
  if (llvm::Error error = tpx::tools::checkTarget(opts->target))
    return error;
  if (auto problem = tpx::tools::checkNumWarps(opts->numWarps))
    return makeError("--num-warps: " + *problem);
  if (auto problem = tpx::tools::checkNumStages(opts->numStages))
    return makeError("--num-stages: " + *problem);
  if (opts->overrideDir.getNumOccurrences())
    if (llvm::Error error = tpx::tools::checkExistingDirectory(
            "override-dir", opts->overrideDir))
      return error;
  if (opts->dumpDir.getNumOccurrences())
    if (llvm::Error error =
            tpx::tools::checkDirectoryIfExists("dump-dir", opts->dumpDir))
      return error;
  return llvm::Error::success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tpx::registerTpxPasses();
  std::vector<char *> args;
  if (!tpx::loadPluginsForTool(argc, argv, args))
    return 1;
  if (cl::Option *llvmStopAfter =
          cl::getRegisteredOptions().lookup("stop-after"))
    llvmStopAfter->removeArgument();
  Options options;
  opts = &options;
  // --help lists only the options above; LLVM's own stay available (and
  // listed by --help-hidden).
  tpx::tools::hideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(static_cast<int>(args.size()), args.data(),
                              "tpx compiler driver\n");
  if (llvm::Error error = checkOptions())
    return fail(std::move(error));

  mlir::DialectRegistry registry;
  tpx::registerTpxDialects(registry);
  tpx::appendPluginDialects(registry);
  mlir::MLIRContext context(registry);

  tpx::PipelineSelectionScope selection(opts->pipelineExt);
  if (llvm::Error error = selection.takeError())
    return fail("--pipeline-ext: " + llvm::toString(std::move(error)));

  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (!opts->inputFile.empty()) {
    llvm::SourceMgr sourceMgr;
    mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    auto buffer = tpx::readSourceFile(opts->inputFile);
    if (!buffer)
      return fail(llvm::toString(buffer.takeError()));
    sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
    // MLIR's parser can crash on some malformed input (a dense array of
    // `index`): the guard makes that an error too.
    if (llvm::Error crash = tpx::runLLVMGuarded(opts->inputFile, [&] {
          module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
          return llvm::Error::success();
        }))
      return fail(std::move(crash));
    if (!module)
      return fail(opts->inputFile + ": cannot parse");
  } else if (!opts->dumpPipeline && !opts->printCacheKey) {
    return fail("no input file (only --dump-pipeline and --print-cache-key "
                "work without one)");
  }

  std::optional<tpx::Pipeline> pipelineFile;
  if (!opts->pipelineFile.empty()) {
    auto buffer = tpx::readSourceFile(opts->pipelineFile);
    if (!buffer)
      return fail(llvm::toString(buffer.takeError()));
    auto parsed = tpx::Pipeline::parse((*buffer)->getBuffer());
    if (!parsed)
      return fail(opts->pipelineFile + ": " +
                  llvm::toString(parsed.takeError()));
    if (parsed->getTarget().empty())
      parsed->setTarget(opts->target);
    else if (parsed->getTarget() != opts->target)
      return fail(opts->pipelineFile + ": pipeline is for target '" +
                  parsed->getTarget() + "', not '" + opts->target + "'");
    if (!opts->targetPipeline.empty() &&
        parsed->getName() != opts->targetPipeline)
      return fail(opts->pipelineFile + ": --target-pipeline " +
                  opts->targetPipeline +
                  " cannot apply: the pipeline text runs as given" +
                  (parsed->getName().empty()
                       ? std::string()
                       : " (it is pipeline '" + parsed->getName() + "')"));
    pipelineFile = std::move(*parsed);
  }
  tpx::CompileOptions compile = getCompileOptions(pipelineFile);

  // The remark that says why a kernel left the default pipeline.
  mlir::ScopedDiagnosticHandler remarks(&context, [](mlir::Diagnostic &diag) {
    if (diag.getSeverity() != mlir::DiagnosticSeverity::Remark)
      return mlir::failure();
    tpx::printDiagnostic(llvm::errs(), diag);
    llvm::errs() << "\n";
    return mlir::success();
  });

  // Without a kernel to decide, every candidate (one per named pipeline of
  // the target, each labelled by its header) is printed.
  auto candidates =
      tpx::getCompilePipelines(module ? *module : mlir::ModuleOp(), compile);
  if (!candidates)
    return fail(candidates.takeError());
  if (opts->dumpPipeline || opts->printCacheKey) {
    std::vector<tpx::Pipeline> shown = std::move(*candidates);
    if (module && shown.size() > 1) {
      auto chosen = tpx::getCompilePipeline(*module, compile);
      if (!chosen)
        return fail(chosen.takeError());
      shown = {std::move(*chosen)};
    }
    std::string text;
    for (const tpx::Pipeline &pipeline : shown)
      text += (text.empty() ? "" : "\n") +
              (opts->dumpPipeline ? pipeline.print()
                                  : tpx::getCacheKeyMaterial(pipeline));
    return writeOutput(text);
  }

  if (opts->stopAfter.empty())
    for (const tpx::Pipeline &pipeline : *candidates)
      if (llvm::Error error = tpx::tools::checkFullCompilePipeline(
              pipeline, opts->pipelineFile))
        return fail(std::move(error));
  if (!opts->overrideDir.empty())
    if (llvm::Error error = tpx::tools::checkOverrides(
            opts->overrideDir, candidates->front(), *module, opts->stopAfter))
      return fail(std::move(error));

  if (opts->stopAfter.empty())
    return compileArtifact(std::move(module), compile);

  // The stages up to --stop-after see --num-warps and --num-stages as a
  // full compile does, and the same choice of pipeline.
  tpx::RunOptions run;
  run.stopAfter = opts->stopAfter;
  run.dumpDir = opts->dumpDir;
  run.overrideDir = opts->overrideDir;
  run.printDebugInfo = opts->printDebugInfo;
  auto result = tpx::runKernelPipelines(*candidates, module, compile, run);
  if (!result)
    return fail(result.takeError());
  return writeOutput(result->run.output);
}
