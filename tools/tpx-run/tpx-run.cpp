//===- tpx-run.cpp - run a corpus case and check it -----------------------===//
//
//   tpx-run CASE_DIR [--target cpu|cuda] [--load-plugin P]
//           [--pipeline-ext NAME]... [--no-cache] [--no-bounds-check]
//           [--cpu-threads N] [--verbose]
//
// Compiles CASE_DIR/kernel.ttir with the case's num_warps/num_stages,
// launches it on the case's inputs over its grid, and checks every expected
// buffer within its tolerance. Prints exactly one line on stdout,
// `PASS <name>` or `FAIL <name>: <reason>`, and exits 0 only on PASS.
// --verbose adds timings on stderr.
//
//===----------------------------------------------------------------------===//
#include "CaseFile.h"

#include "tpx/Compiler/Compiler.h"
#include "tpx/Plugin/PluginCommandLine.h"
#include "tpx/Plugin/PluginRegistry.h"
#include "tpx/Registration/TpxRegistration.h"
#include "tpx/Runtime/CPULauncher.h"
#include "tpx/Runtime/CUDALauncher.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>

namespace cl = llvm::cl;
using namespace tpx;

static cl::opt<std::string> caseDir(cl::Positional, cl::desc("<case dir>"),
                                    cl::Required);
static cl::opt<std::string> target("target", cl::desc("cpu or cuda"),
                                   cl::init("cpu"));
static cl::opt<bool> noCache("no-cache", cl::desc("Bypass the compile cache"));
static cl::opt<bool> noBoundsCheck(
    "no-bounds-check",
    cl::desc("CPU: do not check memory accesses against the buffers"));
static cl::opt<unsigned> threads("cpu-threads", cl::desc("CPU worker threads (0: all)"),
                                 cl::init(0));
static cl::opt<bool> verbose("verbose", cl::desc("Timings on stderr"));
static cl::list<std::string>
    pipelineExt("pipeline-ext",
                cl::desc("Select a pipeline extension for this compile"),
                cl::value_desc("name"));
// Only for --help: loadPluginsForTool consumes the real uses.
static cl::list<std::string> loadPluginHelp(
    "load-plugin", cl::desc("Load a tpx plugin (file or directory)"),
    cl::value_desc("path"));

namespace {
/// The one-line verdict; every exit path goes through here.
[[noreturn]] void finish(llvm::StringRef name, llvm::StringRef failure) {
  if (failure.empty()) {
    llvm::outs() << "PASS " << name << "\n";
    llvm::outs().flush();
    std::exit(0);
  }
  // Multi-line reasons (diagnostics) are folded into the one line.
  std::string reason = failure.str();
  std::replace(reason.begin(), reason.end(), '\n', ' ');
  llvm::outs() << "FAIL " << name << ": " << reason << "\n";
  llvm::outs().flush();
  std::exit(1);
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}
} // namespace

/// First element outside tolerance, as a reason; empty when all match.
static std::string compareBuffer(const CaseArgument &arg, const char *got,
                                 const char *want, size_t count) {
  bool isFloat = arg.dtype.front() == 'f' || arg.dtype == "bf16";
  for (size_t i = 0; i < count; ++i) {
    double g = readElement(got, arg.dtype, i);
    double w = readElement(want, arg.dtype, i);
    bool ok;
    if (isFloat) {
      ok = (std::isnan(g) && std::isnan(w)) || g == w ||
           std::fabs(g - w) <= arg.atol + arg.rtol * std::fabs(w);
    } else {
      ok = g == w;
    }
    if (!ok)
      return llvm::formatv("buffer '{0}' differs at index {1}: got {2}, want "
                           "{3} (rtol {4}, atol {5})",
                           arg.name, i, g, w, arg.rtol, arg.atol)
          .str();
  }
  return "";
}

int main(int argc, char **argv) {
  std::vector<char *> remaining;
  if (!loadPluginsForTool(argc, argv, remaining))
    return 1;
  cl::ParseCommandLineOptions(static_cast<int>(remaining.size()),
                              remaining.data(), "tpx corpus case runner\n");
  std::string name = llvm::sys::path::filename(
                         llvm::StringRef(caseDir).rtrim("/"))
                         .str();
  auto caseFile = CaseFile::read(caseDir);
  if (!caseFile)
    finish(name, llvm::toString(caseFile.takeError()));
  name = caseFile->name;
  // --target cuda compiles for the H200's sm_90a and runs through the
  // CUDA driver (host buffers are copied to the device and back).
  if (target != "cpu" && target != "cuda")
    finish(name, "unknown target '" + target + "' (use cpu or cuda)");
  bool onCuda = target == "cuda";

  mlir::DialectRegistry registry;
  registerTpxDialects(registry);
  appendPluginDialects(registry);
  registerTpxPasses();
  mlir::MLIRContext context(registry);
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagStream);

  llvm::SmallString<256> kernelPath(caseDir);
  llvm::sys::path::append(kernelPath, "kernel.ttir");
  auto kernelBuffer = llvm::MemoryBuffer::getFile(kernelPath);
  if (!kernelBuffer)
    finish(name, (kernelPath + ": " + kernelBuffer.getError().message()).str());
  sourceMgr.AddNewSourceBuffer(std::move(*kernelBuffer), llvm::SMLoc());
  auto module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    finish(name, "cannot parse kernel.ttir: " + diagnostics);

  CompileOptions options;
  options.target = onCuda ? "sm_90a" : "cpu";
  options.numWarps = caseFile->numWarps;
  options.numStages = caseFile->numStages;
  options.boundsCheck = !noBoundsCheck;
  options.useCache = !noCache;
  options.pipelineSelection.assign(pipelineExt.begin(), pipelineExt.end());
  auto start = std::chrono::steady_clock::now();
  auto compiled = compileModule(std::move(module), options);
  if (!compiled)
    finish(name, "compile failed: " + llvm::toString(compiled.takeError()));
  double compileSeconds = secondsSince(start);

  // Buffers start from their input files; scalars pass by value.
  std::vector<std::string> buffers(caseFile->args.size());
  std::vector<LaunchArgument> args;
  for (auto [index, arg] : llvm::enumerate(caseFile->args)) {
    if (!arg.isBuffer) {
      args.push_back(arg.scalarIsFloat ? LaunchArgument::floating(arg.floatValue)
                                       : LaunchArgument::integer(arg.intValue));
      continue;
    }
    llvm::SmallString<256> path(caseDir);
    llvm::sys::path::append(path, arg.inputFile);
    auto input = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
    if (!input)
      finish(name, (path + ": " + input.getError().message()).str());
    size_t count = 1;
    for (int64_t dim : arg.shape)
      count *= static_cast<size_t>(dim);
    size_t bytes = count * *getDTypeSize(arg.dtype);
    if ((*input)->getBufferSize() != bytes)
      finish(name, llvm::formatv("{0} holds {1} bytes but buffer '{2}' "
                                 "({3} x {4}) needs {5}",
                                 arg.inputFile, (*input)->getBufferSize(),
                                 arg.name, count, arg.dtype, bytes)
                       .str());
    buffers[index] = (*input)->getBuffer().str();
    args.push_back(LaunchArgument::buffer(buffers[index].data(), bytes));
  }

  start = std::chrono::steady_clock::now();
  CPULaunchOptions launch;
  launch.numThreads = threads;
  if (auto error =
          onCuda ? launchOnCUDA(compiled->artifact, caseFile->grid, args)
                 : launchOnCPU(compiled->artifact, caseFile->grid, args, launch))
    finish(name, "launch failed: " + llvm::toString(std::move(error)));
  double runSeconds = secondsSince(start);
  if (verbose)
    llvm::errs() << llvm::formatv(
        "tpx-run: {0}: compile {1:f3} s ({2}), run {3:f3} s\n", name,
        compileSeconds, compiled->cacheHit ? "cache hit" : "compiled",
        runSeconds);

  for (auto [index, arg] : llvm::enumerate(caseFile->args)) {
    if (!arg.isBuffer || arg.expectedFile.empty())
      continue;
    llvm::SmallString<256> path(caseDir);
    llvm::sys::path::append(path, arg.expectedFile);
    auto expected = llvm::MemoryBuffer::getFile(
        path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!expected)
      finish(name, (path + ": " + expected.getError().message()).str());
    if ((*expected)->getBufferSize() != buffers[index].size())
      finish(name, llvm::formatv("{0} holds {1} bytes, buffer '{2}' {3}",
                                 arg.expectedFile,
                                 (*expected)->getBufferSize(), arg.name,
                                 buffers[index].size())
                       .str());
    size_t count = buffers[index].size() / *getDTypeSize(arg.dtype);
    std::string reason = compareBuffer(arg, buffers[index].data(),
                                       (*expected)->getBufferStart(), count);
    if (!reason.empty())
      finish(name, reason);
  }
  finish(name, "");
}
