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

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/CommandLine.h"

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
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(static_cast<int>(args.size()), args.data(),
                        "tpx optimizer driver\n", registry));
}
