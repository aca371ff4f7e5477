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

/// Checks that every operand and result of an elementwise op has the shape
/// of the first result (or, with no results, of the first operand), naming
/// the offending value. Runs before MLIR's generic Elementwise trait so that
/// a mismatch is reported in these terms rather than the trait's vaguer
/// "same shape and base type".
mlir::LogicalResult verifySameShapeElementwise(mlir::Operation *op);

/// True when `value` is a constant whose every element is zero (+0.0 for
/// floats): what a masked load's `other`, a dot's accumulator or cp.async's
/// fill may be compared against.
bool isZeroConstant(mlir::Value value);

/// How many elements of `elementType` one assembly operand of a
/// tt.elementwise_inline_asm with `packedElement` carries: with more than
/// one element per pack, types narrower than 32 bits share 32-bit registers
/// (as vectors: four i8, two f16), as in Triton; otherwise one.
unsigned getInlineAsmElementsPerOperand(mlir::Type elementType,
                                        int64_t packedElement);
/// The assembly operands one value of `elementType` takes per pack of
/// `packedElement` elements.
unsigned getInlineAsmOperandsPerPack(mlir::Type elementType,
                                     int64_t packedElement);

/// The trait behind TT_SameShapeElementwise in TTOps.td.
template <typename ConcreteType>
class SameShapeElementwise
    : public mlir::OpTrait::TraitBase<ConcreteType, SameShapeElementwise> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifySameShapeElementwise(op);
  }
};
} // namespace tpx::tt

#define GET_OP_CLASSES
#include "tpx/Dialect/TT/IR/TTOps.h.inc"

#endif // TPX_DIALECT_TT_IR_TTOPS_H
