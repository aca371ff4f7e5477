//===- AMDTarget.h - the AMD (gfx<N>) target --------------------*- C++ -*-===//
//
// The AMD family has its stages and an (empty) pipeline; no code generation
// or emitters yet, so a full compile fails at its first emit stage with a
// clear message.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_TARGET_AMD_AMDTARGET_H
#define TPX_TARGET_AMD_AMDTARGET_H

#include "tpx/Target/TargetBackend.h"

namespace tpx {

/// The `amd` family: targets `gfx<N>`, stages ttir, ttgir, llir, amdgcn,
/// hsaco, one pipeline (`default`).
TargetBackend getAMDBackend();

} // namespace tpx

#endif // TPX_TARGET_AMD_AMDTARGET_H
