//===- TargetPipelines.h - The pipelines of each target ---------*- C++ -*-===//
//
// Lookups over the target backends (tpx/Target/TargetBackend.h), which own
// the stages and the named pipelines of each target family. Targets are
// named like Triton's: `cpu`, `sm_<N>[a]` (NVIDIA) and `gfx<N>` (AMD).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_PIPELINE_TARGETPIPELINES_H
#define TPX_PIPELINE_TARGETPIPELINES_H

#include "tpx/Pipeline/Pipeline.h"

#include <vector>

namespace tpx {

/// `cpu`, `nvidia` or `amd` for a target name; an error for anything else.
llvm::Expected<std::string> getTargetFamily(llvm::StringRef target);

/// The default (first) named pipeline of `target`; an error for an unknown
/// target.
llvm::Expected<Pipeline> getDefaultPipeline(llvm::StringRef target);

/// The named pipeline `name` of `target` (`simt`, `one-thread` on NVIDIA;
/// `default` on the CPU); an error listing the names for an unknown one.
llvm::Expected<Pipeline> getTargetPipeline(llvm::StringRef target,
                                           llvm::StringRef name);

/// Every named pipeline of `target`, default first.
llvm::Expected<std::vector<Pipeline>>
getTargetPipelines(llvm::StringRef target);

} // namespace tpx

#endif // TPX_PIPELINE_TARGETPIPELINES_H
