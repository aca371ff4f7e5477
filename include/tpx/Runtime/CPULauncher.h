//===- CPULauncher.h - run a CPU artifact over a grid -----------*- C++ -*-===//
#ifndef TPX_RUNTIME_CPULAUNCHER_H
#define TPX_RUNTIME_CPULAUNCHER_H

#include "tpx/Compiler/Artifact.h"
#include "tpx/Runtime/LaunchArgument.h"

#include <array>

namespace tpx {

struct CPULaunchOptions {
  /// Worker threads; 0 means one per hardware thread.
  unsigned numThreads = 0;
};

/// Loads (once per binary) and runs a CPU artifact: every program of the 3-D
/// `grid` runs once, spread over a thread pool. Bad arguments, device-side
/// assert failures and (for bounds-checked kernels) accesses outside every
/// buffer argument come back as errors; the process is never aborted.
llvm::Error launchOnCPU(const Artifact &artifact, std::array<uint32_t, 3> grid,
                        llvm::ArrayRef<LaunchArgument> args,
                        const CPULaunchOptions &options = {});

/// Whether the CPU runtime itself defines `symbol` for the kernels it links
/// (its entry points and the compiler-rt builtins of CPUBuiltins.h).
bool isDefinedByCPURuntime(llvm::StringRef symbol);

} // namespace tpx

#endif // TPX_RUNTIME_CPULAUNCHER_H
