//===- LLVMAtomics.h - tt atomics as LLVM atomicrmw / cmpxchg ---*- C++ -*-===//
//
// The CPU lowering and AMD's SIMT lowering both build tt.atomic_rmw /
// tt.atomic_cas as LLVM atomics; these are the one mapping of Triton's
// kinds and memory semantics onto LLVM's.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_CONVERSION_LLVMATOMICS_H
#define TPX_CONVERSION_LLVMATOMICS_H

#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <optional>

namespace tpx {

/// Triton's semantics as an LLVM ordering (relaxed is monotonic).
inline mlir::LLVM::AtomicOrdering getLLVMAtomicOrdering(tt::MemSemantic sem) {
  using mlir::LLVM::AtomicOrdering;
  switch (sem) {
  case tt::MemSemantic::RELAXED:
    return AtomicOrdering::monotonic;
  case tt::MemSemantic::ACQUIRE:
    return AtomicOrdering::acquire;
  case tt::MemSemantic::RELEASE:
    return AtomicOrdering::release;
  case tt::MemSemantic::ACQUIRE_RELEASE:
    return AtomicOrdering::acq_rel;
  }
  return AtomicOrdering::acq_rel;
}

/// The atomicrmw of `kind` on elements of the (lowered) `element` type:
/// add/max/min on floats are LLVM's float forms; none for bitwise or
/// unsigned kinds on floats, or for arithmetic on pointers.
inline std::optional<mlir::LLVM::AtomicBinOp>
getLLVMAtomicBinOp(tt::RMWOp kind, mlir::Type element) {
  using mlir::LLVM::AtomicBinOp;
  bool isFloat = mlir::isa<mlir::FloatType>(element);
  bool isPointer = mlir::isa<mlir::LLVM::LLVMPointerType>(element);
  switch (kind) {
  case tt::RMWOp::XCHG:
    return AtomicBinOp::xchg;
  case tt::RMWOp::FADD:
    return isFloat ? std::optional(AtomicBinOp::fadd) : std::nullopt;
  case tt::RMWOp::ADD:
    if (isPointer)
      return std::nullopt;
    return isFloat ? AtomicBinOp::fadd : AtomicBinOp::add;
  case tt::RMWOp::MAX:
    if (isPointer)
      return std::nullopt;
    return isFloat ? AtomicBinOp::fmax : AtomicBinOp::max;
  case tt::RMWOp::MIN:
    if (isPointer)
      return std::nullopt;
    return isFloat ? AtomicBinOp::fmin : AtomicBinOp::min;
  case tt::RMWOp::AND:
  case tt::RMWOp::OR:
  case tt::RMWOp::XOR:
  case tt::RMWOp::UMAX:
  case tt::RMWOp::UMIN:
    if (isFloat || isPointer)
      return std::nullopt;
    return kind == tt::RMWOp::AND    ? AtomicBinOp::_and
           : kind == tt::RMWOp::OR   ? AtomicBinOp::_or
           : kind == tt::RMWOp::XOR  ? AtomicBinOp::_xor
           : kind == tt::RMWOp::UMAX ? AtomicBinOp::umax
                                     : AtomicBinOp::umin;
  }
  return std::nullopt;
}

} // namespace tpx

#endif // TPX_CONVERSION_LLVMATOMICS_H
