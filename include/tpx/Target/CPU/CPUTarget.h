//===- CPUTarget.h - the host CPU target ------------------------*- C++ -*-===//
#ifndef TPX_TARGET_CPU_CPUTARGET_H
#define TPX_TARGET_CPU_CPUTARGET_H

#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tpx {

/// Registers the CPU `obj` stage emitter. Idempotent.
void registerCPUTarget();

/// Translates a module in the LLVM dialect to LLVM IR, optimizes it at -O3
/// for the host CPU and returns an ELF relocatable object.
llvm::Expected<std::string> emitCPUObject(mlir::ModuleOp module);

/// The host CPU name and features the objects are built for (part of cache
/// keys: an object built for one CPU may not run on another).
std::string getHostCPUDescription();

} // namespace tpx

#endif // TPX_TARGET_CPU_CPUTARGET_H
