//===- tpx-opt.cpp - mlir-opt with tpx dialects, passes and plugins -------===//
//
// Prints locations by default and names SSA values after their NameLocs, so
// that TTIR printed by Triton reads back and prints the way Triton prints it.
// Either default can be switched off (`--mlir-print-debuginfo=false`).
//
// Plugins ($TRITON_PLUGIN_PATHS, --load-plugin) load before MlirOptMain parses
// the command line, so their passes exist as flags and in --pass-pipeline.
//
//===----------------------------------------------------------------------===//
#include "tpx/Plugin/PluginCommandLine.h"
#include "tpx/Plugin/PluginRegistry.h"
#include "tpx/Registration/TpxRegistration.h"
#include "tpx/Support/SourceInput.h"
#include "tpx/Target/Common/LLVMBackendGuard.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

#include <vector>

int main(int argc, char **argv) {
  // Registered first: the pass registry rejects plugin passes that clash.
  tpx::registerTpxPasses();
  std::vector<char *> args;
  if (!tpx::loadPluginsForTool(argc, argv, args))
    return 1;
  // Only shown by --help: loadPluginsForTool consumed the real uses.
  static llvm::cl::list<std::string> loadPlugin(
      "load-plugin", llvm::cl::desc("Load a tpx plugin (file or directory)"),
      llvm::cl::value_desc("path"));

  // Defaults go first so that a user's own flag, later on the line, wins.
  static char printDebugInfo[] = "--mlir-print-debuginfo";
  static char nameLocPrefix[] = "--mlir-use-nameloc-as-prefix";
  args.insert(args.begin() + 1, {printDebugInfo, nameLocPrefix});

  mlir::DialectRegistry registry;
  tpx::registerTpxDialects(registry);
  tpx::appendPluginDialects(registry);
  int count = static_cast<int>(args.size());
  auto [input, output] = mlir::registerAndParseCLIOptions(
      count, args.data(), "tpx optimizer driver\n", registry);

  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(count, args.data(), input, output, registry));

  // MLIR's parser recurses: bound the input (and its nesting) before it
  // runs.
  auto text = tpx::readSourceFile(input);
  if (!text) {
    llvm::errs() << llvm::toString(text.takeError()) << "\n";
    return 1;
  }
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> out =
      mlir::openOutputFile(output, &error);
  if (!out) {
    llvm::errs() << error << "\n";
    return 1;
  }
  // MLIR reports some misuse by ending the process (a module pass nested
  // in a function pass: "Can't add pass ... did you intend to nest?");
  // the guard makes it an error like any other.
  mlir::LogicalResult result = mlir::failure();
  if (llvm::Error error = tpx::runLLVMGuarded("tpx-opt", [&] {
        result =
            mlir::MlirOptMain(out->os(), std::move(*text), registry, config);
        return llvm::Error::success();
      })) {
    llvm::errs() << "error: " << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  if (mlir::failed(result))
    return 1;
  out->keep();
  return 0;
}
