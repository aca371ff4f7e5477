//===- LLVMAtomicEffects.cpp - memory effects of LLVM atomics -------------===//
//
// llvm.atomicrmw and llvm.cmpxchg declare no memory effects upstream, so
// passes that must reason about effects (ownership-based buffer
// deallocation in the CPU pipeline) reject them. They read and write memory:
// say so.
//
//===----------------------------------------------------------------------===//
#include "tpx/Conversion/TTToCPU/TTToCPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {
template <typename OpTy>
struct ReadWriteEffects
    : public MemoryEffectOpInterface::ExternalModel<ReadWriteEffects<OpTy>,
                                                    OpTy> {
  void getEffects(Operation *op,
                  SmallVectorImpl<SideEffects::EffectInstance<
                      MemoryEffects::Effect>> &effects) const {
    effects.emplace_back(MemoryEffects::Read::get(),
                         SideEffects::DefaultResource::get());
    effects.emplace_back(MemoryEffects::Write::get(),
                         SideEffects::DefaultResource::get());
  }
};
} // namespace

void tpx::registerLLVMAtomicMemoryEffects(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, LLVM::LLVMDialect *) {
    LLVM::AtomicRMWOp::attachInterface<ReadWriteEffects<LLVM::AtomicRMWOp>>(
        *context);
    LLVM::AtomicCmpXchgOp::attachInterface<
        ReadWriteEffects<LLVM::AtomicCmpXchgOp>>(*context);
  });
}
