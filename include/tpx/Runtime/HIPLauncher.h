//===- HIPLauncher.h - run an AMD artifact on a GPU -------------*- C++ -*-===//
#ifndef TPX_RUNTIME_HIPLAUNCHER_H
#define TPX_RUNTIME_HIPLAUNCHER_H

#include "tpx/Compiler/Artifact.h"
#include "tpx/Runtime/LaunchArgument.h"

#include <array>

namespace tpx {

/// Runs an AMD artifact (an hsaco, the `hsaco` stage of the `amd` backend)
/// over the 3-D `grid` through the HIP module API (dlopen'ed; see
/// HIPRuntime.h). Arguments are the CPU launcher's and are checked the same
/// way (encodeLaunchArguments); buffers are HOST memory, copied to the
/// device and back as CUDALauncher does (HostBufferStaging.h).
///
/// Before the code object is loaded its ELF target (e_flags) is checked
/// against the device's gcnArchName, so that an hsaco for another GPU is an
/// error naming both rather than HIP's "no binary for GPU". Workgroups have
/// the artifact's `blockThreads` threads and getHIPDynamicSharedBytes bytes
/// of dynamic LDS. Errors name the failing HIP call and HIP's error; no
/// runtime or no GPU on the machine is an error, not a crash.
llvm::Error launchOnHIP(const Artifact &artifact, std::array<uint32_t, 3> grid,
                        llvm::ArrayRef<LaunchArgument> args);

/// The dynamic LDS bytes of a launch (hipModuleLaunchKernel's
/// sharedMemBytes). The lowering addresses shared memory through one
/// external, zero-sized LDS array (tpx_shared_memory), which AMDGPU places
/// after the kernel's static LDS and sizes only at launch: its size is the
/// artifact's `sharedMemory`. If the lowering instead gives the array a
/// static size, the code object's fixed LDS (`staticSharedMemory`, its
/// .group_segment_fixed_size) already covers `sharedMemory` and nothing
/// dynamic is needed: then 0.
unsigned getHIPDynamicSharedBytes(const Artifact &artifact);

} // namespace tpx

#endif // TPX_RUNTIME_HIPLAUNCHER_H
