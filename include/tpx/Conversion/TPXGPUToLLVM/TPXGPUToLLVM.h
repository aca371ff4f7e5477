//===- TPXGPUToLLVM.h - SIMT code generation for NVIDIA and AMD -*- C++ -*-===//
#ifndef TPX_CONVERSION_TPXGPUTOLLVM_TPXGPUTOLLVM_H
#define TPX_CONVERSION_TPXGPUTOLLVM_TPXGPUTOLLVM_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tpx {

#define GEN_PASS_DECL
#include "tpx/Conversion/TPXGPUToLLVM/TPXGPUToLLVMPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "tpx/Conversion/TPXGPUToLLVM/TPXGPUToLLVMPasses.h.inc"

// The attributes this conversion reads and writes (codegen, block threads,
// shared bytes) are owned by the tpxgpu dialect: TPXGPUDialect::k*AttrName.

} // namespace tpx

#endif // TPX_CONVERSION_TPXGPUTOLLVM_TPXGPUTOLLVM_H
