//===- TTToCPU.h - lowering tt to host code ---------------------*- C++ -*-===//
#ifndef TPX_CONVERSION_TTTOCPU_TTTOCPU_H
#define TPX_CONVERSION_TTTOCPU_TTTOCPU_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tpx {

#define GEN_PASS_DECL
#include "tpx/Conversion/TTToCPU/TTToCPUPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "tpx/Conversion/TTToCPU/TTToCPUPasses.h.inc"

/// Declares the memory effects of llvm.atomicrmw / llvm.cmpxchg, which the
/// CPU pipeline's buffer deallocation needs.
void registerLLVMAtomicMemoryEffects(mlir::DialectRegistry &registry);

/// Number of trailing i32 grid arguments every lowered kernel takes:
/// program id x, y, z then number of programs x, y, z.
constexpr unsigned kCPUGridArgCount = 6;

/// Name of the uniform launch entry of kernel `kernelName`.
std::string getCPUEntryPointName(llvm::StringRef kernelName);

} // namespace tpx

#endif // TPX_CONVERSION_TTTOCPU_TTTOCPU_H
