//===- TensorMapEncoding.h - TMA tensor maps for a launch -------*- C++ -*-===//
//
// Builds the tensor maps an artifact's kernel takes after its own
// arguments (Artifact::tensorMaps) from the values of those arguments, with
// the driver's cuTensorMapEncodeTiled. Both launchers use it: tpx-run's
// (CUDALauncher.cpp) and the Python runtime's (through the C API).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_RUNTIME_TENSORMAPENCODING_H
#define TPX_RUNTIME_TENSORMAPENCODING_H

#include "tpx/Compiler/TensorMapParam.h"
#include "tpx/Runtime/CUDADriver.h"

#include "llvm/ADT/ArrayRef.h"

#include <array>

namespace tpx::cuda {

/// A CUtensorMap: 128 bytes, 64-byte aligned.
struct alignas(64) TensorMap {
  std::array<uint8_t, 128> bytes;
};

/// The checks Triton's host TensorDescriptor makes, then the map: the base
/// (a device address, 16-byte aligned), extents >= 1, strides (elements)
/// whose byte sizes are multiples of 16 below 2^40. `args[i]` is the value
/// of kernel argument i (a pointer as its device address, an integer as
/// itself). `where` names the kernel in messages.
llvm::Expected<TensorMap> encodeTensorMap(const DriverAPI &driver,
                                          const TensorMapParam &param,
                                          llvm::ArrayRef<int64_t> args,
                                          llvm::StringRef where);

} // namespace tpx::cuda

#endif // TPX_RUNTIME_TENSORMAPENCODING_H
