//===- CPURuntimeState.h - what a running CPU launch records ----*- C++ -*-===//
//
// Internal to lib/Runtime. Compiled kernels call back into the runtime for
// tt.print, tt.assert and bounds checks; those calls find the launch they
// belong to through a thread-local pointer set by the worker thread.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_RUNTIME_CPURUNTIMESTATE_H
#define TPX_LIB_RUNTIME_CPURUNTIMESTATE_H

#include <array>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace tpx::cpu {

struct BufferRange {
  std::string name;
  uintptr_t begin;
  uint64_t bytes;
};

class LaunchState {
public:
  std::vector<BufferRange> buffers;

  /// Records a failure; the first few are kept for the launch's error.
  void fail(std::string message);
  /// The recorded failures, joined; empty if none.
  std::string takeFailures();

private:
  std::mutex mutex;
  std::vector<std::string> failures;
  size_t dropped = 0;
};

/// The launch the calling thread is running programs of (null outside).
LaunchState *&currentLaunch();

/// Addresses of the runtime entry points kernels call, by symbol name.
struct RuntimeSymbol {
  const char *name;
  void *address;
};
std::vector<RuntimeSymbol> getRuntimeSymbols();
/// Concurrent tasks and mbarriers (CPUTaskRuntime.cpp); part of
/// getRuntimeSymbols().
std::vector<RuntimeSymbol> getTaskRuntimeSymbols();

/// Runs `program(rank)` for the `programs` programs of one thread-block
/// cluster at once, each on a thread of its own, in one task group (their
/// barriers, a deadlock, the cluster barrier are the cluster's); `first`
/// is the program id of rank 0, which names the cluster in messages.
void runClusterPrograms(int32_t programs, std::array<int32_t, 3> first,
                        const std::function<void(int32_t rank)> &program);

} // namespace tpx::cpu

#endif // TPX_LIB_RUNTIME_CPURUNTIMESTATE_H
