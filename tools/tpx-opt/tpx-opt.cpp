//===- tpx-opt.cpp - mlir-opt with tpx dialects, passes and plugins -------===//
//
// Prints locations by default and names SSA values after their NameLocs, so
// that TTIR printed by Triton reads back and prints the way Triton prints it.
// Either default can be switched off (`--mlir-print-debuginfo=false`).
//
//===----------------------------------------------------------------------===//
#include "tpx/Registration/TpxRegistration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include <vector>

int main(int argc, char **argv) {
  // Defaults go first so that a user's own flag, later on the line, wins.
  std::vector<char *> args(argv, argv + argc);
  static char printDebugInfo[] = "--mlir-print-debuginfo";
  static char nameLocPrefix[] = "--mlir-use-nameloc-as-prefix";
  args.insert(args.begin() + 1, {printDebugInfo, nameLocPrefix});

  mlir::DialectRegistry registry;
  tpx::registerTpxDialects(registry);
  tpx::registerTpxPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      static_cast<int>(args.size()), args.data(), "tpx optimizer driver\n",
      registry));
}
