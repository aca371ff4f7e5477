//===- TPXGPUOps.h - tpxgpu operations --------------------------*- C++ -*-===//
#ifndef TPX_DIALECT_TPXGPU_IR_TPXGPUOPS_H
#define TPX_DIALECT_TPXGPU_IR_TPXGPUOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

namespace tpx::tpxgpu {
/// The CTA's shared memory, the resource local_* and async ops act on.
struct SharedMemory : public mlir::SideEffects::Resource::Base<SharedMemory> {
  llvm::StringRef getName() final { return "<tpxgpu shared memory>"; }
};

/// The trait behind TPXGPU_LayoutsMatchModule: tensor layouts of the op fit
/// the module's warp size and the warp count running the op.
template <typename ConcreteType>
class LayoutsMatchModule
    : public mlir::OpTrait::TraitBase<ConcreteType, LayoutsMatchModule> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyLayoutsInContext(op, getModuleThreadsPerWarp(op),
                                  getNumWarpsAt(op));
  }
};
} // namespace tpx::tpxgpu

#define GET_OP_CLASSES
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h.inc"

#endif // TPX_DIALECT_TPXGPU_IR_TPXGPUOPS_H
