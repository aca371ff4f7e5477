//===- CUDADriver.h - the CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// tpx builds and runs without a GPU: libcuda.so.1 is dlopen'ed at first use
// and only the few entry points the launcher needs are looked up. No CUDA
// header is needed; the handful of types are declared here. Every failing
// call becomes an llvm::Error naming the call and the driver's error name
// and description; a machine without the driver gets a clear error.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_RUNTIME_CUDADRIVER_H
#define TPX_RUNTIME_CUDADRIVER_H

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>

namespace tpx::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;

/// CUlimit values (cuda.h).
enum : int { kLimitStackSize = 0x00, kLimitMallocHeapSize = 0x02 };
/// CUresult values the runtime names in its messages.
enum : CUresult { kSuccess = 0, kErrorAssert = 710 };
/// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: a kernel may use more
/// than 48 KiB of dynamic shared memory only after raising this.
enum : int { kFuncAttributeMaxDynamicSharedBytes = 8 };

/// cuLaunchKernelEx's configuration (cuda.h's CUlaunchConfig and
/// CUlaunchAttribute, CUDA 12): the launch shape plus attributes, of which
/// tpx sets the thread-block cluster's dimension.
struct LaunchAttribute {
  int id;
  char pad[4];
  unsigned value[16]; // a 64-byte union; the cluster dimension is x, y, z
};
struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};
// The layouts cuda.h has on 64-bit hosts.
static_assert(sizeof(LaunchAttribute) == 72, "CUlaunchAttribute is 72 bytes");
static_assert(sizeof(LaunchConfig) == 56, "CUlaunchConfig is 56 bytes");
/// CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION.
enum : int { kLaunchAttributeClusterDimension = 4 };

/// The driver entry points tpx uses (the `_v2` ABI where one exists).
struct DriverAPI {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxGetLimit)(size_t *, int);
  CUresult (*cuCtxSetLimit)(int, size_t);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  /// Null with a driver older than CUDA 12 (no clusters).
  CUresult (*cuLaunchKernelEx)(const LaunchConfig *, CUfunction, void **,
                               void **);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  /// Null with a driver older than CUDA 12 (no TMA).
  CUresult (*cuTensorMapEncodeTiled)(
      void *tensorMap, int dataType, uint32_t rank, void *globalAddress,
      const uint64_t *globalDim, const uint64_t *globalStrides,
      const uint32_t *boxDim, const uint32_t *elementStrides, int interleave,
      int swizzle, int l2Promotion, int oobFill);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);

  /// Success, or an error "<call> failed: <NAME> (<description>)".
  llvm::Error check(CUresult result, llvm::StringRef call) const;
};

/// The driver library to load: $TPX_CUDA_DRIVER if set (tests use it to
/// simulate a machine without a driver), else "libcuda.so.1".
std::string getDriverLibraryName();

/// Loads the driver (once per process), looks up its entry points and calls
/// cuInit. Errors: "libcuda.so.1 not found: no NVIDIA driver on this
/// machine (...)", a missing entry point, or cuInit's failure.
llvm::Expected<const DriverAPI *> getDriver();

/// The primary context of device $TPX_CUDA_DEVICE (default 0), made current
/// on the calling thread. On first use it raises the device malloc heap to
/// $TPX_CUDA_HEAP_MB MiB (default 4096): kernels allocate their tensor
/// buffers with device-side malloc (see docs/nvidia-target.md).
llvm::Expected<CUcontext> getContext(const DriverAPI &driver);

} // namespace tpx::cuda

#endif // TPX_RUNTIME_CUDADRIVER_H
