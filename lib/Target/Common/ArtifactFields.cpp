//===- ArtifactFields.cpp - artifact fields every GPU backend fills -------===//
#include "tpx/Target/Common/ArtifactFields.h"

#include "tpx/Compiler/Artifact.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"

using namespace tpx;

void tpx::readLaunchShape(mlir::ModuleOp module, Artifact &artifact) {
  using tpxgpu::TPXGPUDialect;
  if (auto threads = module->getAttrOfType<mlir::IntegerAttr>(
          TPXGPUDialect::kBlockThreadsAttrName))
    artifact.blockThreads = static_cast<unsigned>(threads.getInt());
  if (auto shared = module->getAttrOfType<mlir::IntegerAttr>(
          TPXGPUDialect::kSharedBytesAttrName))
    artifact.sharedMemory = static_cast<unsigned>(shared.getInt());
  std::array<int32_t, 3> dims = tpxgpu::getModuleClusterDims(module);
  for (unsigned i = 0; i < 3; ++i)
    artifact.clusterDims[i] = static_cast<unsigned>(dims[i]);
}

llvm::Expected<const EntryResources *>
tpx::findEntryResources(const EntryResourceMap &resources,
                        const Artifact &artifact, llvm::StringRef binary,
                        llvm::StringRef producer) {
  auto found = resources.find(artifact.entryPoint);
  if (found != resources.end())
    return &found->second;
  std::string names;
  for (const auto &[name, _] : resources)
    names += (names.empty() ? "'" : ", '") + name + "'";
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "the " + binary + " has no entry '" +
                                     artifact.entryPoint + "' for kernel '" +
                                     artifact.signature.kernelName + "' (" +
                                     producer + " " + names + ")");
}
