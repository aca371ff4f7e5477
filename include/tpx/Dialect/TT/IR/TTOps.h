//===- TTOps.h - tt operations ----------------------------------*- C++ -*-===//
#ifndef TPX_DIALECT_TT_IR_TTOPS_H
#define TPX_DIALECT_TT_IR_TTOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tpx/Dialect/TT/IR/TTAttrs.h"
#include "tpx/Dialect/TT/IR/TTDialect.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

namespace tpx::tt {
/// Global memory, the resource tt loads, stores and atomics act on.
struct GlobalMemory : public mlir::SideEffects::Resource::Base<GlobalMemory> {
  llvm::StringRef getName() final { return "<tt global memory>"; }
};
} // namespace tpx::tt

#define GET_OP_CLASSES
#include "tpx/Dialect/TT/IR/TTOps.h.inc"

#endif // TPX_DIALECT_TT_IR_TTOPS_H
