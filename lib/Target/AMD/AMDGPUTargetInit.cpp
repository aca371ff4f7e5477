//===- AMDGPUTargetInit.cpp - the AMDGPU backend of libLLVM ---------------===//
#include "AMDGPUTargetInit.h"

#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/TargetParser.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

// The AMDGPU backend's initializers (exported by libLLVM.so; the generic
// InitializeAllTargets would also drag in every other backend). The asm
// parser assembles the amdgcn stage's text into the hsaco.
extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeAMDGPUTarget();
extern "C" void LLVMInitializeAMDGPUTargetMC();
extern "C" void LLVMInitializeAMDGPUAsmPrinter();
extern "C" void LLVMInitializeAMDGPUAsmParser();

using namespace tpx;

llvm::Expected<const llvm::Target *>
amd::getAMDGPUTarget(llvm::StringRef chip) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser();
  });
  // An unknown processor would only be a warning of the backend, which
  // then compiles for a generic one.
  if (llvm::AMDGPU::parseArchAMDGCN(chip) == llvm::AMDGPU::GK_NONE)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "'" + chip + "' is not an AMD GPU the AMDGPU backend of LLVM knows");
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(llvm::Triple(kAMDGPUTriple), error);
  if (!target)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the AMDGPU backend of LLVM is not "
                                   "available: " +
                                       error);
  return target;
}
