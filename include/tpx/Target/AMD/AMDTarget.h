//===- AMDTarget.h - the AMD (gfx<N>) target --------------------*- C++ -*-===//
//
// The AMD path: the llir stage lowers tt to the LLVM dialect with a ROCDL
// kernel, `amdgcn` translates it to LLVM IR, links the ROCm device libraries
// it calls and runs the AMDGPU backend, `hsaco` assembles that text and
// links it with ld.lld into the code object the HSA runtime loads. See
// docs/amd-target.md.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_TARGET_AMD_AMDTARGET_H
#define TPX_TARGET_AMD_AMDTARGET_H

#include "tpx/Pipeline/StageEmitter.h"
#include "tpx/Target/TargetBackend.h"

// ModuleOp is taken by value: complete for the std::function hooks.
#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace tpx {

struct Artifact;

/// The `amd` family: targets `gfx<N>`, stages ttir, ttgir, llir, amdgcn,
/// hsaco, one pipeline (`default`).
TargetBackend getAMDBackend();

namespace amd {
/// The module after llir -> AMDGCN assembly; that assembly -> hsaco.
std::unique_ptr<StageEmitter> createAMDGCNStageEmitter();
std::unique_ptr<StageEmitter> createHsacoStageEmitter();

/// Translates a module in the LLVM dialect (with ROCDL ops) to LLVM IR for
/// amdgcn-amd-amdhsa, links the ROCm device libraries when it calls
/// `__ocml_*` / `__ockl_*` functions, optimizes at -O3 and emits assembly
/// for `chip` (e.g. "gfx950").
llvm::Expected<std::string> emitAMDGCN(mlir::ModuleOp module,
                                       llvm::StringRef chip);

/// Assembles AMDGCN assembly for `chip` into a relocatable ELF object, in
/// process; the assembler's diagnostics are the error.
llvm::Expected<std::string> assembleAMDGCN(llvm::StringRef assembly,
                                           llvm::StringRef chip);

/// The ld.lld to link code objects with: `$TPX_LD_LLD` alone when set, else
/// /usr/lib/llvm-22/bin/ld.lld, else ld.lld-22 or ld.lld on PATH.
llvm::Expected<std::string> findLdLld();

/// Links a relocatable object into an hsaco (`ld.lld -shared`); ld.lld's
/// output is the error when it fails.
llvm::Expected<std::string> linkHsaco(llvm::StringRef object);

/// The resources of each kernel of an AMDGPU code object (an object file or
/// an hsaco), from its NT_AMDGPU_METADATA note, by the kernel's `.name`.
llvm::Expected<EntryResourceMap> readHsacoResources(llvm::StringRef codeObject);

/// The name of the kernel function in the compiled module and the hsaco:
/// the kernel's own name (ELF symbols may hold any byte but NUL).
std::string getAMDGPUEntryName(llvm::StringRef kernelName);

/// The backend's artifact hooks: the compiled module must hold an
/// `llvm.func` with the `rocdl.kernel` attribute named `entryPoint`; the
/// artifact gets the launch shape the lowering recorded and the resources
/// the hsaco reports for the entry.
llvm::Error checkEntryPoint(mlir::ModuleOp module, llvm::StringRef kernel,
                            llvm::StringRef entryPoint);
llvm::Error fillArtifact(mlir::ModuleOp module,
                         const EntryResourceMap &resources, Artifact &artifact);
} // namespace amd

} // namespace tpx

#endif // TPX_TARGET_AMD_AMDTARGET_H
