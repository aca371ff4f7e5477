//===- TPXGPUToNVVM.h - SIMT code generation for NVIDIA GPUs ----*- C++ -*-===//
#ifndef TPX_CONVERSION_TPXGPUTONVVM_TPXGPUTONVVM_H
#define TPX_CONVERSION_TPXGPUTONVVM_TPXGPUTONVVM_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tpx {

#define GEN_PASS_DECL
#include "tpx/Conversion/TPXGPUToNVVM/TPXGPUToNVVMPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "tpx/Conversion/TPXGPUToNVVM/TPXGPUToNVVMPasses.h.inc"

/// Module attribute recording which NVIDIA code generator compiles the
/// module: "simt" (convert-tpxgpu-to-nvvm) or "scalar" (the one-thread
/// lowering shared with the CPU target).
inline constexpr llvm::StringLiteral kCodegenAttr = "tpx.codegen";

/// True when `module` was routed to the one-thread path.
bool usesScalarCodegen(mlir::ModuleOp module);

/// Module attribute with the number of threads per block the lowered kernel
/// must be launched with (set by convert-tpxgpu-to-nvvm and by
/// tpx-nvidia-emit-kernel).
inline constexpr llvm::StringLiteral kBlockThreadsAttr = "tpx.block-threads";

/// Module attribute with the dynamic shared memory (bytes) the kernel needs.
inline constexpr llvm::StringLiteral kSharedBytesAttr = "tpx.shared-bytes";

} // namespace tpx

#endif // TPX_CONVERSION_TPXGPUTONVVM_TPXGPUTONVVM_H
