//===- AMDArtifact.cpp - the entry and artifact fields of the amd target --===//
#include "tpx/Compiler/Artifact.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Target/AMD/AMDTarget.h"
#include "tpx/Target/Common/ArtifactFields.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace tpx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string amd::getAMDGPUEntryName(llvm::StringRef kernelName) {
  return kernelName.str();
}

llvm::Error amd::checkEntryPoint(mlir::ModuleOp module, llvm::StringRef kernel,
                                 llvm::StringRef entryPoint) {
  auto entry = module.lookupSymbol<mlir::LLVM::LLVMFuncOp>(entryPoint);
  if (!entry || entry.isExternal() ||
      !entry->hasAttr(mlir::ROCDL::ROCDLDialect::getKernelFuncAttrName()))
    return makeError("the compiled module has no rocdl.kernel function '" +
                     entryPoint + "' for kernel '" + kernel +
                     "': the pipeline's stage 'llir' must lower the kernel "
                     "to the LLVM dialect with ROCDL");
  return llvm::Error::success();
}

static std::optional<int> toInt(std::optional<unsigned> value) {
  if (!value)
    return std::nullopt;
  return static_cast<int>(*value);
}

llvm::Error amd::fillArtifact(mlir::ModuleOp module,
                              const EntryResourceMap &resources,
                              Artifact &artifact) {
  readLaunchShape(module, artifact);
  // A workgroup's LDS: 160 KiB on CDNA4 (gfx950), 64 KiB on the earlier
  // CDNA and GCN chips. Too much fails only at launch; say so now.
  uint64_t ldsLimit = artifact.target == "gfx950" ? 160 * 1024 : 64 * 1024;
  if (artifact.sharedMemory > ldsLimit)
    return makeError("kernel '" + artifact.signature.kernelName + "' needs " +
                     llvm::Twine(artifact.sharedMemory) +
                     " bytes of LDS (shared memory), more than the " +
                     llvm::Twine(ldsLimit) + " a workgroup of " +
                     artifact.target + " has");
  artifact.entryPoint = getAMDGPUEntryName(artifact.signature.kernelName);
  artifact.numRegs = artifact.numSpills = -1;
  if (resources.empty())
    return llvm::Error::success(); // e.g. an hsaco from an override
  auto found = findEntryResources(resources, artifact, "hsaco",
                                  "its metadata describes");
  if (!found)
    return found.takeError();
  const EntryResources &entry = **found;
  // A launch with more threads than the code object allows fails only at
  // hipModuleLaunchKernel; say so at compile time.
  if (entry.maxBlockThreads && artifact.blockThreads > *entry.maxBlockThreads)
    return makeError("kernel '" + artifact.entryPoint + "' needs " +
                     llvm::Twine(artifact.blockThreads) +
                     " threads per block, but the hsaco allows at most " +
                     llvm::Twine(*entry.maxBlockThreads) +
                     " (its .max_flat_workgroup_size)");
  artifact.numRegs = static_cast<int>(entry.registers);
  artifact.numSpills = static_cast<int>(entry.spillStoreBytes);
  artifact.numSgprs = toInt(entry.sgprs);
  artifact.numAgprs = toInt(entry.agprs);
  artifact.numVgprSpills = toInt(entry.vgprSpills);
  artifact.numSgprSpills = toInt(entry.sgprSpills);
  artifact.scratchBytes = toInt(entry.scratchBytes);
  artifact.staticSharedMemory = toInt(entry.staticSharedBytes);
  artifact.waveSize = toInt(entry.waveSize);
  artifact.maxBlockThreads = toInt(entry.maxBlockThreads);
  return llvm::Error::success();
}
