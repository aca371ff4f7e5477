//===- HIPRuntime.h - the HIP runtime, loaded at run time -------*- C++ -*-===//
//
// tpx builds and runs without an AMD GPU: libamdhip64.so is dlopen'ed at
// first use and only the HIP module API entry points the launcher needs
// are looked up, through their C ABI (hipError_t is an int; handles are
// opaque pointers). No HIP header is needed. Every failing call becomes an
// llvm::Error naming the call and HIP's error name and description; a
// machine without the runtime or without a device gets a clear error.
//
// The pure parts (which libraries are tried, the code-object target check)
// are separate functions so that they are tested without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_RUNTIME_HIPRUNTIME_H
#define TPX_RUNTIME_HIPRUNTIME_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <string>
#include <vector>

namespace tpx::hip {

using HipError = int;
using HipModule = struct ihipModule_t *;
using HipFunction = struct ihipModuleSymbol_t *;
using HipStream = struct ihipStream_t *;

/// hipError_t values the runtime names in its messages.
enum : HipError { kSuccess = 0, kErrorNoDevice = 100 };

/// The HIP entry points tpx uses and what it learnt when loading them.
struct RuntimeAPI {
  HipError (*hipInit)(unsigned flags);
  HipError (*hipGetDeviceCount)(int *count);
  HipError (*hipSetDevice)(int device);
  /// hipDeviceProp_t changed layout between HIP 5 and 6: tpx does not
  /// declare it and only reads `gcnArchName` out of it (see HIPRuntime.cpp).
  HipError (*hipGetDeviceProperties)(void *properties, int device);
  HipError (*hipModuleLoadData)(HipModule *module, const void *image);
  HipError (*hipModuleUnload)(HipModule module);
  HipError (*hipModuleGetFunction)(HipFunction *function, HipModule module,
                                   const char *name);
  HipError (*hipModuleLaunchKernel)(HipFunction function, unsigned gridX,
                                    unsigned gridY, unsigned gridZ,
                                    unsigned blockX, unsigned blockY,
                                    unsigned blockZ, unsigned sharedMemBytes,
                                    HipStream stream, void **kernelParams,
                                    void **extra);
  HipError (*hipMalloc)(void **pointer, size_t bytes);
  HipError (*hipFree)(void *pointer);
  HipError (*hipMemcpyHtoD)(void *device, void *host, size_t bytes);
  HipError (*hipMemcpyDtoH)(void *host, void *device, size_t bytes);
  HipError (*hipDeviceSynchronize)();
  const char *(*hipGetErrorName)(HipError error);
  const char *(*hipGetErrorString)(HipError error);

  /// The library that was opened.
  std::string libraryPath;
  /// The device kernels run on (0: HIP_VISIBLE_DEVICES picks which GPU
  /// that is) and its target ID, e.g. "gfx950:sramecc+:xnack-".
  int device = 0;
  std::string deviceArch;

  /// Success, or an error "<call> failed: <NAME> (<description>)
  /// [hipError_t N]".
  llvm::Error check(HipError result, llvm::StringRef call) const;
};

/// The libraries to try, in order: only $TPX_HIP_LIBRARY when it is set
/// (a path or a name for dlopen; tests name one that does not exist), else
/// libamdhip64.so, libamdhip64.so.6, libamdhip64.so.5 (the unversioned name
/// exists only with ROCm's development files installed).
std::vector<std::string> getLibraryCandidates();

/// dlopen's each candidate in order and returns the first that opens.
/// Error: "no AMD GPU runtime: <first candidate> not found (set
/// TPX_HIP_LIBRARY to its path; tried <candidate>: <dlerror>; ...)", or,
/// when `fromEnvironment`, "... <path> not found (named by
/// TPX_HIP_LIBRARY: <dlerror>)".
llvm::Expected<void *> openLibrary(llvm::ArrayRef<std::string> candidates,
                                   bool fromEnvironment);

/// Loads the runtime once per process: opens the library, looks up the
/// entry points, calls hipInit, checks that there is a device and makes
/// device 0 current on the calling thread, and reads its gcnArchName.
/// A failure is remembered: the answer would not change.
llvm::Expected<const RuntimeAPI *> getRuntime();

/// Makes the runtime's device current on the calling thread (HIP's current
/// device is per thread).
llvm::Error setDevice(const RuntimeAPI &api);

/// What an AMDGPU code object (an hsaco) was built for, from its ELF
/// header: the processor (e_flags' EF_AMDGPU_MACH) and the xnack / sramecc
/// settings (code object v4 and later).
struct CodeObjectTarget {
  enum class Setting { Unsupported, Any, Off, On };
  std::string processor;
  Setting xnack = Setting::Any;
  Setting sramecc = Setting::Any;

  /// The target ID, "gfx950", "gfx90a:xnack+" (Any and Unsupported are not
  /// spelled out, as in LLVM's target IDs).
  std::string getTargetID() const;
};

/// Reads the target of `codeObject`; an error when it is not an AMDGPU ELF
/// object.
llvm::Expected<CodeObjectTarget>
readCodeObjectTarget(llvm::StringRef codeObject);

/// Whether a code object for `target` runs on a device whose target ID is
/// `deviceArch` ("gfx950:sramecc+:xnack-", as hipDeviceProp_t::gcnArchName
/// spells it): the processors must be equal, and a feature the code object
/// requires on (off) must not be off (on) on the device. The error names
/// both and says what to compile for. `kernel` names the kernel.
llvm::Error checkCodeObjectTarget(const CodeObjectTarget &target,
                                  llvm::StringRef deviceArch,
                                  llvm::StringRef kernel);

} // namespace tpx::hip

#endif // TPX_RUNTIME_HIPRUNTIME_H
