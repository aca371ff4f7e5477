//===- CPULauncher.cpp - run a CPU artifact over a grid -------------------===//
#include "tpx/Runtime/CPULauncher.h"

#include "CPURuntimeState.h"
#include "tpx/Plugin/PluginLoader.h"
#include "tpx/Runtime/CPUBuiltins.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ThreadPool.h"

#include <map>
#include <mutex>

using namespace tpx;
using namespace tpx::cpu;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

using EntryFn = void (*)(void **args, int32_t, int32_t, int32_t, int32_t,
                         int32_t, int32_t);

namespace {
/// A kernel object linked into the process by ORC.
struct LoadedKernel {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  EntryFn entry = nullptr;
};
} // namespace

static llvm::Expected<std::unique_ptr<LoadedKernel>>
loadKernel(const Artifact &artifact) {
  static std::once_flag init;
  std::call_once(init, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return jit.takeError();
  llvm::orc::JITDylib &dylib = (*jit)->getMainJITDylib();
  // malloc/free and libm come from the process; the runtime's own entry
  // points and the compiler-rt builtins LLVM may call (CPUBuiltins.h) are
  // defined explicitly, so that no kernel depends on the host's libgcc.
  auto processSymbols =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          (*jit)->getDataLayout().getGlobalPrefix());
  if (!processSymbols)
    return processSymbols.takeError();
  dylib.addGenerator(std::move(*processSymbols));
  llvm::orc::SymbolMap runtime;
  for (const RuntimeSymbol &symbol : getRuntimeSymbols())
    runtime[(*jit)->mangleAndIntern(symbol.name)] = {
        llvm::orc::ExecutorAddr::fromPtr(symbol.address),
        llvm::JITSymbolFlags::Exported};
  for (const BuiltinSymbol &symbol : getBuiltinSymbols())
    runtime[(*jit)->mangleAndIntern(symbol.name)] = {
        llvm::orc::ExecutorAddr::fromPtr(symbol.address),
        llvm::JITSymbolFlags::Exported};
  if (auto error = dylib.define(llvm::orc::absoluteSymbols(runtime)))
    return std::move(error);
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(
      artifact.binary, artifact.signature.kernelName + ".o");
  if (auto error = (*jit)->addObjectFile(std::move(buffer)))
    return std::move(error);
  auto address = (*jit)->lookup(artifact.entryPoint);
  if (!address)
    return makeError("cannot load kernel '" + artifact.signature.kernelName +
                     "': " + llvm::toString(address.takeError()));
  auto kernel = std::make_unique<LoadedKernel>();
  kernel->jit = std::move(*jit);
  kernel->entry = address->toPtr<EntryFn>();
  return kernel;
}

bool tpx::isDefinedByCPURuntime(llvm::StringRef symbol) {
  for (const RuntimeSymbol &defined : getRuntimeSymbols())
    if (symbol == defined.name)
      return true;
  for (const BuiltinSymbol &defined : getBuiltinSymbols())
    if (symbol == defined.name)
      return true;
  return false;
}

/// Loaded kernels by binary hash, so that relaunching costs no linking.
static llvm::Expected<LoadedKernel *>
getLoadedKernel(const Artifact &artifact) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<LoadedKernel>> kernels;
  // A cached artifact already names its binary by content; hash only
  // uncached ones (a launch should not rehash the same object every time).
  std::string key = (artifact.cacheKey.empty() ? sha256Hex(artifact.binary)
                                               : artifact.cacheKey) +
                    artifact.entryPoint;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = kernels.find(key);
  if (it != kernels.end())
    return it->second.get();
  auto kernel = loadKernel(artifact);
  if (!kernel)
    return kernel.takeError();
  LoadedKernel *raw = kernel->get();
  kernels[key] = std::move(*kernel);
  return raw;
}

llvm::Error tpx::launchOnCPU(const Artifact &artifact,
                             std::array<uint32_t, 3> grid,
                             llvm::ArrayRef<LaunchArgument> args,
                             const CPULaunchOptions &options) {
  if (artifact.target != "cpu")
    return makeError("artifact for target '" + artifact.target +
                     "' cannot run on the CPU");
  auto encoded = encodeLaunchArguments(artifact.signature, args);
  if (!encoded)
    return encoded.takeError();
  auto kernel = getLoadedKernel(artifact);
  if (!kernel)
    return kernel.takeError();

  LaunchState state;
  for (auto [info, arg] : llvm::zip(artifact.signature.args, args))
    if (arg.kind == LaunchArgument::Kind::Buffer)
      state.buffers.push_back(
          {info.name, reinterpret_cast<uintptr_t>(arg.data), arg.bytes});
  std::vector<void *> slots;
  for (std::string &bytes : *encoded)
    slots.push_back(bytes.data());

  uint64_t total = uint64_t(grid[0]) * grid[1] * grid[2];
  if (total == 0)
    return llvm::Error::success();
  const std::array<unsigned, 3> &cluster = artifact.clusterDims;
  uint64_t clusterSize = uint64_t(cluster[0]) * cluster[1] * cluster[2];
  if (clusterSize > 1 &&
      (grid[0] % cluster[0] || grid[1] % cluster[1] || grid[2] % cluster[2]))
    return makeError(llvm::formatv("kernel '{0}': grid ({1}, {2}, {3}) is not "
                                   "a whole number of clusters of ({4}, {5}, "
                                   "{6}) programs",
                                   artifact.signature.kernelName, grid[0],
                                   grid[1], grid[2], cluster[0], cluster[1],
                                   cluster[2])
                         .str());
  // Units of work: programs, or clusters of programs.
  total /= clusterSize;
  unsigned threads = options.numThreads
                         ? options.numThreads
                         : llvm::hardware_concurrency().compute_thread_count();
  threads = static_cast<unsigned>(std::min<uint64_t>(threads, total));
  EntryFn entry = (*kernel)->entry;
  auto runProgram = [&](std::vector<void *> &mySlots, uint32_t x, uint32_t y,
                        uint32_t z) {
    entry(mySlots.data(), x, y, z, grid[0], grid[1], grid[2]);
  };
  // Without clusters a unit of work is a program; with them a cluster,
  // whose programs run at once (runClusterPrograms).
  std::array<uint32_t, 3> units = {grid[0] / cluster[0], grid[1] / cluster[1],
                                   grid[2] / cluster[2]};
  auto runRange = [&](uint64_t begin, uint64_t end) {
    // Each worker gets its own copy of the slot array: kernels only read
    // it, but a private copy keeps workers independent.
    std::vector<void *> mySlots = slots;
    currentLaunch() = &state;
    for (uint64_t id = begin; id < end; ++id) {
      uint32_t x = id % units[0];
      uint32_t y = (id / units[0]) % units[1];
      uint32_t z = id / (uint64_t(units[0]) * units[1]);
      if (clusterSize == 1) {
        runProgram(mySlots, x, y, z);
        continue;
      }
      std::array<int32_t, 3> first = {int32_t(x * cluster[0]),
                                      int32_t(y * cluster[1]),
                                      int32_t(z * cluster[2])};
      runClusterPrograms(
          static_cast<int32_t>(clusterSize), first, [&](int32_t rank) {
            // Each program of the cluster on its own thread, x fastest (as
            // %cluster_ctarank orders them).
            std::vector<void *> programSlots = slots;
            runProgram(programSlots, first[0] + rank % cluster[0],
                       first[1] + (rank / cluster[0]) % cluster[1],
                       first[2] + rank / (cluster[0] * cluster[1]));
          });
    }
    currentLaunch() = nullptr;
  };
  if (threads <= 1) {
    runRange(0, total);
  } else {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(threads));
    // Several chunks per thread balance programs of uneven cost.
    uint64_t chunks = std::min<uint64_t>(total, uint64_t(threads) * 4);
    for (uint64_t c = 0; c < chunks; ++c)
      pool.async(runRange, total * c / chunks, total * (c + 1) / chunks);
    pool.wait();
  }
  std::string failures = state.takeFailures();
  if (!failures.empty())
    return makeError("kernel '" + artifact.signature.kernelName +
                     "' failed: " + failures);
  return llvm::Error::success();
}
