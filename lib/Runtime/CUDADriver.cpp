//===- CUDADriver.cpp - dlopen'ed CUDA driver API -------------------------===//
#include "tpx/Runtime/CUDADriver.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

using namespace tpx::cuda;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Names of a few results for when the driver cannot name them itself (a
/// stub libcuda answers every query with CUDA_ERROR_STUB_LIBRARY).
static void fallbackName(CUresult result, const char *&name,
                         const char *&text) {
  switch (result) {
  case 34:
    name = "CUDA_ERROR_STUB_LIBRARY";
    text = "libcuda is the toolkit's stub, not a real NVIDIA driver";
    break;
  case 100:
    name = "CUDA_ERROR_NO_DEVICE";
    text = "no CUDA-capable device is detected";
    break;
  default:
    break;
  }
}

llvm::Error DriverAPI::check(CUresult result, llvm::StringRef call) const {
  if (result == kSuccess)
    return llvm::Error::success();
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName && cuGetErrorName(result, &name) != kSuccess)
    name = nullptr;
  if (cuGetErrorString && cuGetErrorString(result, &text) != kSuccess)
    text = nullptr;
  if (!name)
    fallbackName(result, name, text);
  std::string message = llvm::formatv("{0} failed: {1} ({2})", call,
                                      name ? name : "unknown CUDA error",
                                      text ? text : "no description")
                            .str();
  if (result == kErrorAssert)
    message += "; a device-side assertion (tt.assert) failed, see the "
               "message printed above, and the CUDA context of this process "
               "is no longer usable";
  message += llvm::formatv(" [CUresult {0}]", result).str();
  return makeError(message);
}

std::string tpx::cuda::getDriverLibraryName() {
  const char *path = std::getenv("TPX_CUDA_DRIVER");
  return path && *path ? path : "libcuda.so.1";
}

/// Looks up every entry point; the first missing one is the error.
static llvm::Error bind(void *library, DriverAPI &api) {
  llvm::Error error = llvm::Error::success();
  auto lookup = [&](auto &slot, const char *symbol) {
    if (error)
      return;
    void *address = dlsym(library, symbol);
    if (!address) {
      error = makeError(llvm::Twine("the CUDA driver lacks '") + symbol +
                        "' (driver too old?)");
      return;
    }
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(address);
  };
  lookup(api.cuGetErrorName, "cuGetErrorName");
  lookup(api.cuGetErrorString, "cuGetErrorString");
  lookup(api.cuInit, "cuInit");
  lookup(api.cuDeviceGetCount, "cuDeviceGetCount");
  lookup(api.cuDeviceGet, "cuDeviceGet");
  lookup(api.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  lookup(api.cuCtxSetCurrent, "cuCtxSetCurrent");
  lookup(api.cuCtxGetLimit, "cuCtxGetLimit");
  lookup(api.cuCtxSetLimit, "cuCtxSetLimit");
  lookup(api.cuCtxSynchronize, "cuCtxSynchronize");
  lookup(api.cuModuleLoadData, "cuModuleLoadData");
  lookup(api.cuModuleGetFunction, "cuModuleGetFunction");
  lookup(api.cuLaunchKernel, "cuLaunchKernel");
  lookup(api.cuFuncSetAttribute, "cuFuncSetAttribute");
  // The unsuffixed names are the 32-bit-size ABI of CUDA 3.x.
  lookup(api.cuMemAlloc, "cuMemAlloc_v2");
  lookup(api.cuMemFree, "cuMemFree_v2");
  lookup(api.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  lookup(api.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  // Only TMA kernels need it (CUDA 12 drivers and later): a missing one is
  // reported where a tensor map is built (TensorMapEncoding.cpp).
  api.cuTensorMapEncodeTiled =
      reinterpret_cast<decltype(api.cuTensorMapEncodeTiled)>(
          dlsym(library, "cuTensorMapEncodeTiled"));
  // Only kernels launched in clusters need it (CUDA 12 drivers and later).
  api.cuLaunchKernelEx = reinterpret_cast<decltype(api.cuLaunchKernelEx)>(
      dlsym(library, "cuLaunchKernelEx"));
  return error;
}

llvm::Expected<const DriverAPI *> tpx::cuda::getDriver() {
  // Loaded once; a failure is remembered (the answer will not change).
  static std::once_flag once;
  static DriverAPI api;
  static std::string failure;
  std::call_once(once, [] {
    std::string name = getDriverLibraryName();
    void *library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      const char *why = dlerror();
      failure = name + " not found: no NVIDIA driver on this machine (" +
                (why ? why : "dlopen failed") + ")";
      return;
    }
    if (auto error = bind(library, api)) {
      failure = "cannot use the CUDA driver " + name + ": " +
                llvm::toString(std::move(error));
      return;
    }
    if (auto error = api.check(api.cuInit(0), "cuInit"))
      failure = llvm::toString(std::move(error));
  });
  if (!failure.empty())
    return makeError(failure);
  return &api;
}

static size_t getEnvOr(const char *name, size_t fallback) {
  const char *text = std::getenv(name);
  if (!text || !*text)
    return fallback;
  char *end = nullptr;
  unsigned long long value = std::strtoull(text, &end, 10);
  return end && *end == '\0' ? static_cast<size_t>(value) : fallback;
}

llvm::Expected<CUcontext> tpx::cuda::getContext(const DriverAPI &driver) {
  static std::mutex mutex;
  static CUcontext context = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (!context) {
    int count = 0;
    if (auto error =
            driver.check(driver.cuDeviceGetCount(&count), "cuDeviceGetCount"))
      return std::move(error);
    int ordinal = static_cast<int>(getEnvOr("TPX_CUDA_DEVICE", 0));
    if (ordinal >= count)
      return makeError(llvm::formatv("CUDA device {0} requested "
                                     "(TPX_CUDA_DEVICE) but {1} present",
                                     ordinal, count));
    CUdevice device;
    if (auto error =
            driver.check(driver.cuDeviceGet(&device, ordinal), "cuDeviceGet"))
      return std::move(error);
    CUcontext primary;
    if (auto error =
            driver.check(driver.cuDevicePrimaryCtxRetain(&primary, device),
                         "cuDevicePrimaryCtxRetain"))
      return std::move(error);
    if (auto error =
            driver.check(driver.cuCtxSetCurrent(primary), "cuCtxSetCurrent"))
      return std::move(error);
    // Each program mallocs its tensor buffers on the device; the default
    // 8 MiB heap runs out with a few thousand resident programs.
    size_t heap = getEnvOr("TPX_CUDA_HEAP_MB", 4096) << 20;
    size_t current = 0;
    if (auto error =
            driver.check(driver.cuCtxGetLimit(&current, kLimitMallocHeapSize),
                         "cuCtxGetLimit(CU_LIMIT_MALLOC_HEAP_SIZE)"))
      return std::move(error);
    if (current < heap)
      if (auto error =
              driver.check(driver.cuCtxSetLimit(kLimitMallocHeapSize, heap),
                           "cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE)"))
        return std::move(error);
    context = primary;
    return context;
  }
  if (auto error =
          driver.check(driver.cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return std::move(error);
  return context;
}
