//===- CUDALauncher.h - run an NVIDIA artifact on a GPU ---------*- C++ -*-===//
#ifndef TPX_RUNTIME_CUDALAUNCHER_H
#define TPX_RUNTIME_CUDALAUNCHER_H

#include "tpx/Compiler/Artifact.h"
#include "tpx/Runtime/LaunchArgument.h"

#include <array>

namespace tpx {

/// Runs an NVIDIA artifact (a cubin) over the 3-D `grid` through the CUDA
/// driver API (dlopen'ed; see CUDADriver.h). Arguments are the CPU
/// launcher's and are checked the same way (encodeLaunchArguments).
///
/// Buffers are HOST memory: for each one the launcher allocates device
/// memory, copies the host bytes in, launches, synchronizes, copies the
/// device bytes back into the host buffer and frees the device memory. That
/// is what tpx-run needs; a caller with device memory already will want a
/// launcher that passes device pointers through (later work).
///
/// Blocks have the artifact's `blockThreads` threads (num_warps * 32 for
/// SIMT code, 1 for the one-thread path; see docs/nvidia-target.md) and its
/// dynamic shared memory. Errors name the failing driver call and the
/// driver's error; no driver on the machine is an error, not a crash.
llvm::Error launchOnCUDA(const Artifact &artifact,
                         std::array<uint32_t, 3> grid,
                         llvm::ArrayRef<LaunchArgument> args);

} // namespace tpx

#endif // TPX_RUNTIME_CUDALAUNCHER_H
