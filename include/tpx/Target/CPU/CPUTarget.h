//===- CPUTarget.h - the host CPU target ------------------------*- C++ -*-===//
#ifndef TPX_TARGET_CPU_CPUTARGET_H
#define TPX_TARGET_CPU_CPUTARGET_H

#include "tpx/Target/TargetBackend.h"

#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tpx {

/// Registers the built-in target backends (the CPU's among them, with its
/// `obj` emitter). Idempotent.
void registerCPUTarget();

/// The `cpu` family: target `cpu`, stages ttir, llir, obj, one pipeline
/// (`default`); CPUBackend.cpp.
TargetBackend getCPUBackend();

/// Translates a module in the LLVM dialect to LLVM IR, optimizes it at -O3
/// for getCPUArch() and returns an ELF relocatable object. Fails if the
/// object calls a function that neither the CPU runtime nor the process
/// defines.
llvm::Expected<std::string> emitCPUObject(mlir::ModuleOp module);

/// The CPU objects are built for: $TPX_CPU_ARCH, an LLVM CPU name of the
/// host's architecture ("x86-64" is the baseline of every x86-64 machine),
/// or "host" (the default): the host CPU with every feature it has.
std::string getCPUArch();

/// The triple, CPU and features the objects are built for (part of cache
/// keys: an object built for one CPU may not run on another).
std::string getCPUTargetDescription();

} // namespace tpx

#endif // TPX_TARGET_CPU_CPUTARGET_H
