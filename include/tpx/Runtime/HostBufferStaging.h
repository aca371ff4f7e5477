//===- HostBufferStaging.h - host buffers through device memory -*- C++ -*-===//
//
// What the GPU launchers (CUDA, HIP) share: every buffer argument is host
// memory that is copied to a fresh device allocation before the launch and
// back after it; every argument gets one 8-byte parameter slot, and the
// launch API takes an array of pointers to those slots (cuLaunchKernel's and
// hipModuleLaunchKernel's `kernelParams`). The device-memory calls are
// hooks, so that this file knows no GPU API.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_RUNTIME_HOSTBUFFERSTAGING_H
#define TPX_RUNTIME_HOSTBUFFERSTAGING_H

#include "tpx/Compiler/KernelSignature.h"
#include "tpx/Runtime/LaunchArgument.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tpx {

/// The device-memory calls of one GPU API. Device addresses travel as
/// uint64_t. `what` names the argument ("argument 0 'x' (64 bytes)"); each
/// hook puts its own call name before it in the error it returns.
struct DeviceMemoryCalls {
  std::function<llvm::Error(uint64_t &address, size_t bytes,
                            const std::string &what)>
      allocate;
  std::function<llvm::Error(uint64_t address, const void *host, size_t bytes,
                            const std::string &what)>
      copyToDevice;
  std::function<llvm::Error(void *host, uint64_t address, size_t bytes,
                            const std::string &what)>
      copyToHost;
  /// Errors are ignored: frees run on every path out, after a failed launch
  /// too, when the device context may be gone.
  std::function<void(uint64_t address)> release;
};

/// The parameter slots of one launch and the device copies of its buffers;
/// the copies are freed when it is destroyed.
class StagedArguments {
public:
  StagedArguments(DeviceMemoryCalls calls, const KernelSignature &signature);
  ~StagedArguments();
  StagedArguments(const StagedArguments &) = delete;
  StagedArguments &operator=(const StagedArguments &) = delete;

  /// Fills one slot per argument: scalars from their encoded bytes
  /// (encodeLaunchArguments; zero-padded to 8 bytes, so that no launch API
  /// reads past a narrow scalar), buffers with the address of a device copy
  /// of their host bytes. An empty buffer is a null device pointer.
  llvm::Error stage(llvm::ArrayRef<LaunchArgument> args,
                    llvm::ArrayRef<std::string> encoded);

  /// Copies every device buffer back into its host buffer.
  llvm::Error copyBack(llvm::ArrayRef<LaunchArgument> args);

  /// The argument slots (a buffer's slot holds its device address).
  llvm::ArrayRef<uint64_t> getSlots() const { return slots; }
  /// `kernelParams`: a pointer to each slot; a launcher may append
  /// parameters of its own (NVIDIA's TMA tensor maps).
  std::vector<void *> &getParams() { return params; }

private:
  std::string describe(size_t index, size_t bytes) const;

  DeviceMemoryCalls calls;
  const KernelSignature &signature;
  std::vector<uint64_t> slots;
  std::vector<uint64_t> device;
  std::vector<void *> params;
};

} // namespace tpx

#endif // TPX_RUNTIME_HOSTBUFFERSTAGING_H
