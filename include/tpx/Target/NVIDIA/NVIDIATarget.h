//===- NVIDIATarget.h - the NVIDIA (sm_<N>) target --------------*- C++ -*-===//
//
// The NVIDIA path: the llir stage lowers tt to the LLVM dialect with an NVVM
// kernel entry (passes below), `ptx` translates it to LLVM IR, links
// libdevice and runs the NVPTX backend, `cubin` assembles the PTX with
// ptxas. See docs/nvidia-target.md.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_TARGET_NVIDIA_NVIDIATARGET_H
#define TPX_TARGET_NVIDIA_NVIDIATARGET_H

#include "tpx/Pipeline/StageEmitter.h"
#include "tpx/Target/TargetBackend.h"

#include "mlir/Pass/Pass.h"

#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tpx {

#define GEN_PASS_DECL
#include "tpx/Target/NVIDIA/NVIDIAPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "tpx/Target/NVIDIA/NVIDIAPasses.h.inc"

/// Registers the built-in target backends (NVIDIA's among them, with its
/// `ptx` and `cubin` emitters). Idempotent.
void registerNVIDIATarget();

/// The `nvidia` family: targets `sm_<N>[a]`, stages ttir, ttgir, llir,
/// ptx, cubin, and two pipelines, `simt` and `one-thread`, chosen per
/// kernel by findSIMTBlocker after the ttir stage (NVIDIABackend.cpp,
/// docs/nvidia-target.md).
TargetBackend getNVIDIABackend();

/// The coverage check of the SIMT code generator (convert-tt-to-tpxgpu and
/// convert-tpxgpu-to-nvvm): the first op of `module` it does not cover with
/// `numWarps` warps per program, and why (a phrase: "block pointers",
/// "this op"); {nullptr, ""} when it covers the whole kernel.
std::pair<mlir::Operation *, std::string> findSIMTBlocker(mlir::ModuleOp module,
                                                          unsigned numWarps);

namespace nvidia {
/// The module after llir -> PTX; PTX -> cubin.
std::unique_ptr<StageEmitter> createPTXStageEmitter();
std::unique_ptr<StageEmitter> createCubinStageEmitter();
} // namespace nvidia

/// `$CUDA_HOME`, or /usr/local/cuda when it is unset or empty.
std::string getCUDAHome();

/// Translates a module in the LLVM dialect (with NVVM ops) to LLVM IR, links
/// libdevice when the module calls `__nv_*` functions, optimizes at -O3 and
/// emits PTX for `target` (e.g. "sm_90a").
llvm::Expected<std::string> emitPTX(mlir::ModuleOp module,
                                    llvm::StringRef target);

/// The PTX name of the kernel entry for a kernel called `kernelName`: the
/// name itself when it is a valid PTX identifier ([a-zA-Z][a-zA-Z0-9_$]* or
/// [_$%][a-zA-Z0-9_$]+), otherwise `_tpx$` followed by the name with every
/// other byte written as `$` and two hex digits (`k-x` -> `_tpx$k$2dx`).
/// The artifact's entry point, which the launcher looks up, is this name.
std::string getPTXEntryName(llvm::StringRef kernelName);

/// Assembles `ptx` with `ptxas -arch=<target>` into a cubin. ptxas is looked
/// up in $CUDA_HOME/bin, then on PATH; its diagnostics come back verbatim.
/// When `resources` is given, it receives what ptxas reports (`-v`) about
/// each entry function.
llvm::Expected<std::string> assemblePTX(llvm::StringRef ptx,
                                        llvm::StringRef target,
                                        EntryResourceMap *resources = nullptr);

/// The entries of `ptxas -v` output ("Compiling entry function 'k'",
/// "Used N registers", "N bytes spill stores"), by PTX name. Functions that
/// are not entries (device functions, vprintf) are left out.
EntryResourceMap parsePtxasResourceUsage(llvm::StringRef log);

} // namespace tpx

#endif // TPX_TARGET_NVIDIA_NVIDIATARGET_H
