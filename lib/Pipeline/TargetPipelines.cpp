//===- TargetPipelines.cpp - The pipelines of a target, by name -----------===//
//
// The stages and pass lists belong to the target backends
// (tpx/Target/TargetBackend.h, lib/Target/<family>/*Backend.cpp); these are
// the lookups everything else uses.
//
//===----------------------------------------------------------------------===//
#include "tpx/Pipeline/TargetPipelines.h"
#include "tpx/Target/TargetBackend.h"

using namespace tpx;
using llvm::StringRef;

llvm::Expected<std::string> tpx::getTargetFamily(StringRef target) {
  auto backend = getTargetBackend(target);
  if (!backend)
    return backend.takeError();
  return (*backend)->family;
}

llvm::Expected<Pipeline> tpx::getDefaultPipeline(StringRef target) {
  auto backend = getTargetBackend(target);
  if (!backend)
    return backend.takeError();
  return (*backend)->buildPipeline(target, (*backend)->pipelines.front().name);
}

llvm::Expected<Pipeline> tpx::getTargetPipeline(StringRef target,
                                                StringRef name) {
  auto backend = getTargetBackend(target);
  if (!backend)
    return backend.takeError();
  return (*backend)->buildPipeline(target, name);
}

llvm::Expected<std::vector<Pipeline>>
tpx::getTargetPipelines(StringRef target) {
  auto backend = getTargetBackend(target);
  if (!backend)
    return backend.takeError();
  std::vector<Pipeline> pipelines;
  for (const NamedPipelineSpec &spec : (*backend)->pipelines) {
    auto pipeline = (*backend)->buildPipeline(target, spec.name);
    if (!pipeline)
      return pipeline.takeError();
    pipelines.push_back(std::move(*pipeline));
  }
  return pipelines;
}
