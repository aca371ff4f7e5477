//===- tpx-run.cpp - run a corpus case and check it -----------------------===//
//
//   tpx-run CASE_DIR [--target cpu|cuda|hip] [--load-plugin P]
//           [--pipeline-ext NAME]... [--target-pipeline NAME]
//           [--no-cache] [--no-bounds-check]
//           [--cpu-threads N] [--write-outputs DIR] [--verbose]
//
// Checks CASE_DIR/case.json as a whole, compiles CASE_DIR/kernel.ttir with
// the case's num_warps/num_stages, launches it on the case's inputs over its
// grid, and checks every expected buffer within its tolerance. Prints
// exactly one line on stdout, `PASS <name>` or `FAIL <name>: <reason>`, and
// exits 0 only on PASS. --verbose adds timings and the named pipeline that
// compiled the kernel (simt, one-thread, default) on stderr.
//
//===----------------------------------------------------------------------===//
#include "BufferCompare.h"
#include "CaseFile.h"
#include "JSONChecks.h"

#include "../common/ToolOptions.h"

#include "tpx/Compiler/Compiler.h"
#include "tpx/Compiler/KernelSignature.h"
#include "tpx/Plugin/PluginCommandLine.h"
#include "tpx/Plugin/PluginRegistry.h"
#include "tpx/Registration/TpxRegistration.h"
#include "tpx/Runtime/CPULauncher.h"
#include "tpx/Runtime/CUDALauncher.h"
#include "tpx/Runtime/HIPLauncher.h"
#include "tpx/Runtime/HIPRuntime.h"
#include "tpx/Support/SourceInput.h"
#include "tpx/Target/Common/LLVMBackendGuard.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

namespace cl = llvm::cl;
using namespace tpx;

static cl::OptionCategory category("tpx-run options");

static cl::opt<std::string> caseDir(cl::Positional, cl::desc("<case dir>"),
                                    cl::Required, cl::cat(category));
static cl::opt<std::string>
    target("target",
           cl::desc("cpu, cuda (sm_90a, through libcuda) or hip (gfx950, "
                    "through libamdhip64)"),
           cl::init("cpu"), cl::cat(category));
static cl::opt<bool> noCache("no-cache", cl::desc("Bypass the compile cache"),
                             cl::cat(category));
static cl::opt<bool> noBoundsCheck(
    "no-bounds-check",
    cl::desc("CPU: do not check memory accesses against the buffers"),
    cl::cat(category));
/// More threads than this only cost memory: programs are spread over the
/// pool in chunks.
static constexpr unsigned kMaxThreads = 1024;
static cl::opt<unsigned> threads("cpu-threads",
                                 cl::desc("CPU worker threads (0: all)"),
                                 cl::init(0), cl::cat(category));
static cl::opt<std::string> writeOutputs(
    "write-outputs",
    cl::desc("After the launch, write every buffer argument N to "
             "DIR/argN.out.bin (raw, like the case's input files)"),
    cl::value_desc("dir"), cl::cat(category));
static cl::opt<bool>
    verbose("verbose", cl::desc("Timings and the pipeline that ran, on stderr"),
            cl::cat(category));
static cl::opt<std::string> targetPipeline(
    "target-pipeline",
    cl::desc("Run this named pipeline of the target (cuda: simt, or "
             "one-thread, the slow debugging path) instead of the one the "
             "compiler picks"),
    cl::value_desc("name"), cl::cat(category));
static cl::list<std::string>
    pipelineExt("pipeline-ext",
                cl::desc("Select a pipeline extension for this compile"),
                cl::value_desc("name"), cl::cat(category));
// Only for --help: loadPluginsForTool consumes the real uses.
static cl::list<std::string>
    loadPluginHelp("load-plugin",
                   cl::desc("Load a tpx plugin (file or directory)"),
                   cl::value_desc("path"), cl::cat(category));

namespace {
/// The one-line verdict; every exit path goes through here. The name is
/// escaped; multi-line reasons (diagnostics) are folded into the one line.
[[noreturn]] void finish(llvm::StringRef name, llvm::StringRef failure) {
  std::string shownName = escapeForLine(name);
  if (failure.empty()) {
    llvm::outs() << "PASS " << shownName << "\n";
    llvm::outs().flush();
    std::exit(0);
  }
  std::string reason = failure.str();
  std::replace(reason.begin(), reason.end(), '\n', ' ');
  llvm::outs() << "FAIL " << shownName << ": "
               << escapeForLine(reason, /*escapeBackslash=*/false) << "\n";
  llvm::outs().flush();
  std::exit(1);
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}
} // namespace

/// Why the options (not the case) are unusable, or "" when they are fine.
static std::string checkOptions() {
  // --target cuda compiles for the H200's sm_90a and runs through the
  // CUDA driver, --target hip for gfx950 through the HIP runtime (host
  // buffers are copied to the device and back).
  if (target != "cpu" && target != "cuda" && target != "hip")
    return "--target: unknown target '" + escapeForLine(target) +
           "' (use cpu, cuda or hip)";
  if (threads > kMaxThreads)
    return llvm::formatv("--cpu-threads: must be at most {0}, got {1}",
                         kMaxThreads, threads.getValue())
        .str();
  if (writeOutputs.getNumOccurrences()) {
    if (writeOutputs.empty())
      return "--write-outputs: needs a directory";
    if (llvm::sys::fs::exists(writeOutputs) &&
        !llvm::sys::fs::is_directory(writeOutputs))
      return "--write-outputs: '" + writeOutputs + "' is not a directory";
    // The case's own directory holds the expected outputs under the same
    // names.
    bool same = false;
    if (!llvm::sys::fs::equivalent(writeOutputs, caseDir, same) && same)
      return "--write-outputs: '" + writeOutputs +
             "' is the case directory; its argN.out.bin files are the "
             "expected outputs";
  }
  return "";
}

/// Why the case does not fit its kernel.ttir, or "": a `kernel` field that
/// names another kernel (the case was paired with the wrong TTIR), a scalar
/// whose type is not the parameter's (its value would be converted to the
/// parameter's type unnoticed).
static std::string checkAgainstKernel(const CaseFile &caseFile,
                                      const KernelSignature &signature) {
  if (!caseFile.kernel.empty() && signature.kernelName != caseFile.kernel)
    return "case.json: kernel: '" + escapeForLine(caseFile.kernel) +
           "' does not match kernel.ttir, whose kernel is '" +
           signature.kernelName + "'";
  for (auto [index, arg] : llvm::enumerate(caseFile.args)) {
    if (arg.isBuffer || index >= signature.args.size() ||
        signature.args[index].kind != KernelArgInfo::Kind::Scalar)
      continue;
    // TTIR spells u32 as i32: only the width and integer-ness must agree.
    llvm::StringRef type = arg.scalarType;
    std::string ttirType =
        type.starts_with("u") ? "i" + type.drop_front().str() : type.str();
    const KernelArgInfo &param = signature.args[index];
    if (ttirType != param.type)
      return llvm::formatv("case.json: args[{0}].type: {1}, but argument {0} "
                           "'{2}' of kernel.ttir is {3}",
                           index, type, param.name, param.type)
          .str();
  }
  return "";
}

/// Writes every buffer argument N to `directory/argN.out.bin`.
static std::string writeOutputBuffers(const CaseFile &caseFile,
                                      const std::vector<std::string> &buffers,
                                      llvm::StringRef directory) {
  if (std::error_code ec = llvm::sys::fs::create_directories(directory))
    return "--write-outputs: cannot create '" + directory.str() +
           "': " + ec.message();
  for (auto [index, arg] : llvm::enumerate(caseFile.args)) {
    if (!arg.isBuffer)
      continue;
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, "arg" + std::to_string(index) + ".out.bin");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
    if (!ec) {
      os << buffers[index];
      os.close();
      ec = os.error();
      os.clear_error(); // or the stream's destructor would end the process
    }
    if (ec)
      return "--write-outputs: cannot write '" + path.str().str() +
             "': " + ec.message();
  }
  return "";
}

int main(int argc, char **argv) {
  // Registered first: the pass registry rejects plugin passes that clash
  // with tpx's own (loaded later, a clash would be a fatal error).
  registerTpxPasses();
  std::vector<char *> remaining;
  if (!loadPluginsForTool(argc, argv, remaining))
    return 1;
  tools::hideUnrelatedOptions(category);
  std::string parseErrors;
  llvm::raw_string_ostream parseStream(parseErrors);
  bool parsed = cl::ParseCommandLineOptions(
      static_cast<int>(remaining.size()), remaining.data(),
      "tpx corpus case runner\n", &parseStream);
  std::string name =
      llvm::sys::path::filename(llvm::StringRef(caseDir).rtrim("/")).str();
  // A bad option is a FAIL line of its case; without a case directory there
  // is nothing to name, and the usage error goes to stderr alone.
  if (!parsed) {
    if (caseDir.empty()) {
      llvm::errs() << parseErrors;
      return 1;
    }
    // LLVM prints errors about an option's value to stderr itself.
    llvm::StringRef reason = llvm::StringRef(parseErrors).trim();
    finish(name, reason.empty() ? "invalid command line (the option parser's "
                                  "message is on stderr)"
                                : reason);
  }
  if (std::string problem = checkOptions(); !problem.empty())
    finish(name, problem);
  bool onCuda = target == "cuda";
  bool onHip = target == "hip";
  // Without the HIP runtime or an AMD GPU nothing can run: say so before
  // spending a compile on it.
  if (onHip)
    if (auto runtime = hip::getRuntime(); !runtime)
      finish(name, llvm::toString(runtime.takeError()));
  auto caseFile = CaseFile::read(caseDir, name);
  if (!caseFile)
    finish(name, llvm::toString(caseFile.takeError()));

  mlir::DialectRegistry registry;
  registerTpxDialects(registry);
  appendPluginDialects(registry);
  mlir::MLIRContext context(registry);
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagStream);

  std::string kernelPath = caseFile->pathOf("kernel.ttir");
  auto kernelBuffer = readSourceFile(kernelPath);
  if (!kernelBuffer)
    finish(name, llvm::toString(kernelBuffer.takeError()));
  sourceMgr.AddNewSourceBuffer(std::move(*kernelBuffer), llvm::SMLoc());
  // MLIR's parser can crash on some malformed input: guarded.
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (llvm::Error crash = runLLVMGuarded("parsing kernel.ttir", [&] {
        module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
        return llvm::Error::success();
      }))
    finish(name, llvm::toString(std::move(crash)));
  if (!module)
    finish(name, "cannot parse kernel.ttir: " + diagnostics);
  // A module without a kernel is reported by the compile; argument counts
  // and kinds by the launch.
  if (auto signature = getKernelSignature(*module)) {
    if (std::string problem = checkAgainstKernel(*caseFile, *signature);
        !problem.empty())
      finish(name, problem);
  } else {
    llvm::consumeError(signature.takeError());
  }

  CompileOptions options;
  options.target = onCuda ? "sm_90a" : onHip ? "gfx950" : "cpu";
  options.numWarps = caseFile->numWarps;
  options.numStages = caseFile->numStages;
  options.boundsCheck = !noBoundsCheck;
  options.useCache = !noCache;
  options.pipelineSelection.assign(pipelineExt.begin(), pipelineExt.end());
  options.pipelineName = targetPipeline;
  auto start = std::chrono::steady_clock::now();
  auto compiled = compileModule(std::move(module), options);
  if (!compiled)
    finish(name, "compile failed: " + llvm::toString(compiled.takeError()));
  double compileSeconds = secondsSince(start);

  // Buffers start from their input files; scalars pass by value. The sizes
  // were checked with the case; a file that changed since is still caught.
  std::vector<std::string> buffers(caseFile->args.size());
  std::vector<LaunchArgument> args;
  for (auto [index, arg] : llvm::enumerate(caseFile->args)) {
    if (!arg.isBuffer) {
      args.push_back(arg.scalarIsFloat
                         ? LaunchArgument::floating(arg.floatValue)
                         : LaunchArgument::integer(arg.intValue));
      continue;
    }
    std::string path = caseFile->pathOf(arg.inputFile);
    auto input = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
    if (!input)
      finish(name, path + ": " + input.getError().message());
    if ((*input)->getBufferSize() != arg.byteSize)
      finish(name, llvm::formatv("{0} holds {1} bytes but buffer '{2}' "
                                 "({3} x {4}) needs {5}",
                                 arg.inputFile, (*input)->getBufferSize(),
                                 escapeForLine(arg.name), arg.elementCount,
                                 arg.dtype, arg.byteSize)
                       .str());
    buffers[index] = (*input)->getBuffer().str();
    args.push_back(LaunchArgument::buffer(buffers[index].data(), arg.byteSize));
  }

  start = std::chrono::steady_clock::now();
  CPULaunchOptions launch;
  launch.numThreads = threads;
  if (auto error =
          onCuda ? launchOnCUDA(compiled->artifact, caseFile->grid, args)
          : onHip
              ? launchOnHIP(compiled->artifact, caseFile->grid, args)
              : launchOnCPU(compiled->artifact, caseFile->grid, args, launch))
    finish(name, "launch failed: " + llvm::toString(std::move(error)));
  double runSeconds = secondsSince(start);
  if (verbose)
    llvm::errs() << llvm::formatv(
        "tpx-run: {0}: compile {1:f3} s ({2}), pipeline {3}, run {4:f3} s\n",
        escapeForLine(name), compileSeconds,
        compiled->cacheHit ? "cache hit" : "compiled",
        compiled->artifact.pipeline.empty() ? "unnamed"
                                            : compiled->artifact.pipeline,
        runSeconds);

  // Written before the comparison, so that a failing case leaves them too.
  if (!writeOutputs.empty())
    if (std::string problem =
            writeOutputBuffers(*caseFile, buffers, writeOutputs);
        !problem.empty())
      finish(name, problem);

  for (auto [index, arg] : llvm::enumerate(caseFile->args)) {
    if (!arg.isBuffer || arg.expectedFile.empty())
      continue;
    std::string path = caseFile->pathOf(arg.expectedFile);
    auto expected = llvm::MemoryBuffer::getFile(
        path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!expected)
      finish(name, path + ": " + expected.getError().message());
    if ((*expected)->getBufferSize() != arg.byteSize)
      finish(name, llvm::formatv("{0} holds {1} bytes but buffer '{2}' has "
                                 "{3}",
                                 arg.expectedFile, (*expected)->getBufferSize(),
                                 escapeForLine(arg.name), arg.byteSize)
                       .str());
    std::string reason = compareBuffer(arg, buffers[index].data(),
                                       (*expected)->getBufferStart());
    if (!reason.empty())
      finish(name, reason);
  }
  finish(name, "");
}
