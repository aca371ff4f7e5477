//===- AMDGPUTargetInit.h - the AMDGPU backend of libLLVM -------*- C++ -*-===//
//
// The amdgcn and hsaco emitters share the AMDGPU backend: its registration
// (only AMDGPU's initializers run, not every backend's), the triple, and the
// check that a target name is a chip the backend knows.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_TARGET_AMD_AMDGPUTARGETINIT_H
#define TPX_LIB_TARGET_AMD_AMDGPUTARGETINIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Target;
} // namespace llvm

namespace tpx::amd {

/// HSA code objects for the ROCm runtime.
inline constexpr const char *kAMDGPUTriple = "amdgcn-amd-amdhsa";

/// The AMDGPU backend (initialized on first use), or an error; also an
/// error when `chip` is no processor the backend knows.
llvm::Expected<const llvm::Target *> getAMDGPUTarget(llvm::StringRef chip);

} // namespace tpx::amd

#endif // TPX_LIB_TARGET_AMD_AMDGPUTARGETINIT_H
