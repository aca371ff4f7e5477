//===- TargetPipelines.h - Default pipeline of each target ------*- C++ -*-===//
//
// The one table of stages and default passes per target family; see
// lib/Pipeline/TargetPipelines.cpp. Targets are named like Triton's: `cpu`,
// `sm_<N>[a]` (NVIDIA) and `gfx<N>` (AMD).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_PIPELINE_TARGETPIPELINES_H
#define TPX_PIPELINE_TARGETPIPELINES_H

#include "tpx/Pipeline/Pipeline.h"

namespace tpx {

/// `cpu`, `nvidia` or `amd` for a target name; an error for anything else.
llvm::Expected<std::string> getTargetFamily(llvm::StringRef target);

/// The default pipeline of `target`; an error for an unknown target.
llvm::Expected<Pipeline> getDefaultPipeline(llvm::StringRef target);

} // namespace tpx

#endif // TPX_PIPELINE_TARGETPIPELINES_H
