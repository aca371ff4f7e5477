//===- CUDALauncher.cpp - host buffers in, one launch, buffers out --------===//
#include "tpx/Runtime/CUDALauncher.h"
#include "tpx/Runtime/CUDADriver.h"
#include "tpx/Runtime/HostBufferStaging.h"
#include "tpx/Runtime/TensorMapEncoding.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <mutex>

using namespace tpx;
using namespace tpx::cuda;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The kernel of `artifact`, loading its cubin once per process (modules
/// live as long as the process, like the CPU launcher's JITs).
static llvm::Expected<CUfunction> getFunction(const DriverAPI &driver,
                                              const Artifact &artifact) {
  static std::mutex mutex;
  static std::map<std::string, CUmodule> modules;
  std::lock_guard<std::mutex> lock(mutex);
  CUmodule &module = modules[artifact.binary];
  if (!module) {
    if (auto error = driver.check(
            driver.cuModuleLoadData(&module, artifact.binary.data()),
            "cuModuleLoadData (kernel '" + artifact.signature.kernelName +
                "', target " + artifact.target + ")")) {
      modules.erase(artifact.binary);
      return std::move(error);
    }
  }
  CUfunction function;
  if (auto error =
          driver.check(driver.cuModuleGetFunction(&function, module,
                                                  artifact.entryPoint.c_str()),
                       "cuModuleGetFunction('" + artifact.entryPoint + "')"))
    return std::move(error);
  return function;
}

/// cuMemAlloc and friends as the staging hooks.
static DeviceMemoryCalls getMemoryCalls(const DriverAPI &api) {
  DeviceMemoryCalls calls;
  calls.allocate = [&api](uint64_t &address, size_t bytes,
                          const std::string &what) {
    CUdeviceptr pointer = 0;
    llvm::Error error =
        api.check(api.cuMemAlloc(&pointer, bytes), "cuMemAlloc for " + what);
    address = pointer;
    return error;
  };
  calls.copyToDevice = [&api](uint64_t address, const void *host, size_t bytes,
                              const std::string &what) {
    return api.check(api.cuMemcpyHtoD(address, host, bytes),
                     "cuMemcpyHtoD for " + what);
  };
  calls.copyToHost = [&api](void *host, uint64_t address, size_t bytes,
                            const std::string &what) {
    return api.check(api.cuMemcpyDtoH(host, address, bytes),
                     "cuMemcpyDtoH for " + what);
  };
  calls.release = [&api](uint64_t address) { api.cuMemFree(address); };
  return calls;
}

/// cuLaunchKernel, or for a kernel compiled for thread-block clusters
/// cuLaunchKernelEx with the cluster's dimension (the grid counts CTAs and
/// must be a whole number of clusters).
static llvm::Error launchKernel(const DriverAPI &api, const Artifact &artifact,
                                CUfunction function,
                                std::array<uint32_t, 3> grid, unsigned threads,
                                void **params, std::string &launch) {
  const std::array<unsigned, 3> &cluster = artifact.clusterDims;
  if (cluster == std::array<unsigned, 3>{1, 1, 1})
    return api.check(api.cuLaunchKernel(function, grid[0], grid[1], grid[2],
                                        threads, 1, 1, artifact.sharedMemory,
                                        /*stream=*/nullptr, params,
                                        /*extra=*/nullptr),
                     launch);
  if (grid[0] % cluster[0] || grid[1] % cluster[1] || grid[2] % cluster[2])
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("kernel '{0}': grid ({1}, {2}, {3}) is not a whole "
                      "number of clusters of ({4}, {5}, {6}) CTAs",
                      artifact.signature.kernelName, grid[0], grid[1], grid[2],
                      cluster[0], cluster[1], cluster[2])
            .str());
  if (!api.cuLaunchKernelEx)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the CUDA driver lacks 'cuLaunchKernelEx' (driver too old for "
        "thread-block clusters?)");
  LaunchAttribute attribute = {};
  attribute.id = kLaunchAttributeClusterDimension;
  std::copy(cluster.begin(), cluster.end(), attribute.value);
  LaunchConfig config = {grid[0],
                         grid[1],
                         grid[2],
                         threads,
                         1,
                         1,
                         artifact.sharedMemory,
                         /*hStream=*/nullptr,
                         &attribute,
                         1};
  launch =
      llvm::formatv("cuLaunchKernelEx('{0}', grid ({1}, {2}, {3}), "
                    "cluster ({4}, {5}, {6}), block ({7}, 1, 1), {8} "
                    "bytes of shared memory)",
                    artifact.entryPoint, grid[0], grid[1], grid[2], cluster[0],
                    cluster[1], cluster[2], threads, artifact.sharedMemory)
          .str();
  return api.check(api.cuLaunchKernelEx(&config, function, params, nullptr),
                   launch);
}

llvm::Error tpx::launchOnCUDA(const Artifact &artifact,
                              std::array<uint32_t, 3> grid,
                              llvm::ArrayRef<LaunchArgument> args) {
  if (!llvm::StringRef(artifact.target).starts_with("sm_"))
    return makeError("artifact for target '" + artifact.target +
                     "' cannot run on an NVIDIA GPU (compile for sm_90a)");
  auto encoded = encodeLaunchArguments(artifact.signature, args);
  if (!encoded)
    return encoded.takeError();
  auto driver = getDriver();
  if (!driver)
    return driver.takeError();
  const DriverAPI &api = **driver;
  if (auto context = getContext(api); !context)
    return context.takeError();
  auto function = getFunction(api, artifact);
  if (!function)
    return function.takeError();

  StagedArguments staged(getMemoryCalls(api), artifact.signature);
  if (auto error = staged.stage(args, *encoded))
    return error;
  llvm::ArrayRef<uint64_t> slots = staged.getSlots();
  std::vector<void *> &params = staged.getParams();

  // The TMA tensor maps follow the kernel's own arguments.
  std::vector<int64_t> values(args.size());
  for (auto [i, arg] : llvm::enumerate(args))
    values[i] = arg.kind == LaunchArgument::Kind::Buffer
                    ? static_cast<int64_t>(slots[i])
                    : arg.intValue;
  std::vector<TensorMap> maps;
  for (const TensorMapParam &param : artifact.tensorMaps) {
    auto map = encodeTensorMap(
        api, param, values, "kernel '" + artifact.signature.kernelName + "'");
    if (!map)
      return map.takeError();
    maps.push_back(*map);
  }
  for (TensorMap &map : maps)
    params.push_back(map.bytes.data());

  if (uint64_t(grid[0]) * grid[1] * grid[2] == 0)
    return llvm::Error::success();
  unsigned threads = std::max(1u, artifact.blockThreads);
  std::string launch = llvm::formatv(
      "cuLaunchKernel('{0}', grid ({1}, {2}, {3}), block ({4}, 1, 1), {5} "
      "bytes of shared memory)",
      artifact.entryPoint, grid[0], grid[1], grid[2], threads,
      artifact.sharedMemory);
  if (artifact.sharedMemory > 0)
    if (auto error =
            api.check(api.cuFuncSetAttribute(
                          *function, kFuncAttributeMaxDynamicSharedBytes,
                          static_cast<int>(artifact.sharedMemory)),
                      "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " +
                          std::to_string(artifact.sharedMemory) + ")"))
      return error;
  if (auto error = launchKernel(api, artifact, *function, grid, threads,
                                params.data(), launch))
    return error;
  // Kernel faults (asserts, bad addresses, heap exhaustion) surface here.
  if (auto error =
          api.check(api.cuCtxSynchronize(), "cuCtxSynchronize after " + launch))
    return error;
  return staged.copyBack(args);
}
