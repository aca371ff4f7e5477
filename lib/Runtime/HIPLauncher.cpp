//===- HIPLauncher.cpp - host buffers in, one HIP launch, buffers out -----===//
#include "tpx/Runtime/HIPLauncher.h"
#include "tpx/Runtime/HIPRuntime.h"
#include "tpx/Runtime/HostBufferStaging.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <mutex>

using namespace tpx;
using namespace tpx::hip;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

unsigned tpx::getHIPDynamicSharedBytes(const Artifact &artifact) {
  if (artifact.staticSharedMemory && *artifact.staticSharedMemory >= 0 &&
      static_cast<unsigned>(*artifact.staticSharedMemory) >=
          artifact.sharedMemory)
    return 0;
  return artifact.sharedMemory;
}

/// The kernel of `artifact`, loading its hsaco once per process (modules
/// live as long as the process, like the CUDA launcher's). The code
/// object's target is checked against the device first.
static llvm::Expected<HipFunction> getFunction(const RuntimeAPI &api,
                                               const Artifact &artifact) {
  static std::mutex mutex;
  static std::map<std::string, HipModule> modules;
  std::lock_guard<std::mutex> lock(mutex);
  const std::string &kernel = artifact.signature.kernelName;
  HipModule &module = modules[artifact.binary];
  bool loadedNow = false;
  if (!module) {
    llvm::Error checked = [&]() -> llvm::Error {
      auto target = readCodeObjectTarget(artifact.binary);
      if (!target)
        return makeError("kernel '" + kernel + "' (target " + artifact.target +
                         "): " + llvm::toString(target.takeError()));
      if (auto error = checkCodeObjectTarget(*target, api.deviceArch, kernel))
        return error;
      return api.check(api.hipModuleLoadData(&module, artifact.binary.data()),
                       "hipModuleLoadData (kernel '" + kernel + "', target " +
                           artifact.target + ", device " + api.deviceArch +
                           ")");
    }();
    if (checked) {
      modules.erase(artifact.binary);
      return std::move(checked);
    }
    loadedNow = true;
  }
  HipFunction function;
  if (auto error =
          api.check(api.hipModuleGetFunction(&function, module,
                                             artifact.entryPoint.c_str()),
                    "hipModuleGetFunction('" + artifact.entryPoint + "')")) {
    // A code object without the entry is of no use to a later launch.
    if (loadedNow) {
      api.hipModuleUnload(module);
      modules.erase(artifact.binary);
    }
    return std::move(error);
  }
  return function;
}

/// hipMalloc and friends as the staging hooks.
static DeviceMemoryCalls getMemoryCalls(const RuntimeAPI &api) {
  auto toPointer = [](uint64_t address) {
    return reinterpret_cast<void *>(static_cast<uintptr_t>(address));
  };
  DeviceMemoryCalls calls;
  calls.allocate = [&api](uint64_t &address, size_t bytes,
                          const std::string &what) {
    void *pointer = nullptr;
    llvm::Error error =
        api.check(api.hipMalloc(&pointer, bytes), "hipMalloc for " + what);
    address = reinterpret_cast<uintptr_t>(pointer);
    return error;
  };
  calls.copyToDevice = [&api, toPointer](uint64_t address, const void *host,
                                         size_t bytes,
                                         const std::string &what) {
    // hipMemcpyHtoD takes a non-const source; it only reads it.
    return api.check(
        api.hipMemcpyHtoD(toPointer(address), const_cast<void *>(host), bytes),
        "hipMemcpyHtoD for " + what);
  };
  calls.copyToHost = [&api, toPointer](void *host, uint64_t address,
                                       size_t bytes, const std::string &what) {
    return api.check(api.hipMemcpyDtoH(host, toPointer(address), bytes),
                     "hipMemcpyDtoH for " + what);
  };
  calls.release = [&api, toPointer](uint64_t address) {
    api.hipFree(toPointer(address));
  };
  return calls;
}

llvm::Error tpx::launchOnHIP(const Artifact &artifact,
                             std::array<uint32_t, 3> grid,
                             llvm::ArrayRef<LaunchArgument> args) {
  if (!llvm::StringRef(artifact.target).starts_with("gfx"))
    return makeError("artifact for target '" + artifact.target +
                     "' cannot run on an AMD GPU (compile for gfx950)");
  if (!artifact.tensorMaps.empty())
    return makeError("kernel '" + artifact.signature.kernelName +
                     "' takes TMA tensor maps, which only NVIDIA GPUs have");
  auto encoded = encodeLaunchArguments(artifact.signature, args);
  if (!encoded)
    return encoded.takeError();
  auto runtime = getRuntime();
  if (!runtime)
    return runtime.takeError();
  const RuntimeAPI &api = **runtime;
  // HIP's current device is per thread; this thread may be new.
  if (auto error = setDevice(api))
    return error;
  auto function = getFunction(api, artifact);
  if (!function)
    return function.takeError();

  StagedArguments staged(getMemoryCalls(api), artifact.signature);
  if (auto error = staged.stage(args, *encoded))
    return error;
  if (uint64_t(grid[0]) * grid[1] * grid[2] == 0)
    return llvm::Error::success();

  unsigned threads = std::max(1u, artifact.blockThreads);
  unsigned dynamicShared = getHIPDynamicSharedBytes(artifact);
  std::string launch = llvm::formatv(
      "hipModuleLaunchKernel('{0}', grid ({1}, {2}, {3}), block ({4}, 1, 1), "
      "{5} bytes of dynamic LDS)",
      artifact.entryPoint, grid[0], grid[1], grid[2], threads, dynamicShared);
  // kernelParams, as with cuLaunchKernel: HIP copies each argument into the
  // kernarg segment at the offset the code object's metadata gives it.
  if (auto error = api.check(api.hipModuleLaunchKernel(
                                 *function, grid[0], grid[1], grid[2], threads,
                                 1, 1, dynamicShared,
                                 /*stream=*/nullptr, staged.getParams().data(),
                                 /*extra=*/nullptr),
                             launch))
    return error;
  // Kernel faults (bad addresses, traps) surface here.
  if (auto error = api.check(api.hipDeviceSynchronize(),
                             "hipDeviceSynchronize after " + launch))
    return error;
  return staged.copyBack(args);
}
