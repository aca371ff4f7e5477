//===- TLXDialect.h - the tlx dialect ---------------------------*- C++ -*-===//
#ifndef TPX_TLX_TLXDIALECT_H
#define TPX_TLX_TLXDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tpx/Dialect/TT/IR/TTOps.h"

#include "TLX/TLXDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "TLX/TLXTypes.h.inc"

namespace tpx::tlx {
/// The program's local memory (a GPU's shared memory), which buffers live in.
struct LocalMemory : public mlir::SideEffects::Resource::Base<LocalMemory> {
  llvm::StringRef getName() final { return "<tlx local memory>"; }
};
} // namespace tpx::tlx

#define GET_OP_CLASSES
#include "TLX/TLXOps.h.inc"

namespace tpx::tlx {
/// Reports each barrier_expect_bytes whose constant byte count differs from
/// what the TMA copies signalling that barrier next to it deliver (a phase
/// that would never complete, or complete before the data landed).
mlir::LogicalResult checkBarrierExpectations(mlir::Operation *root);

/// Moves the one op using a view an effect-free scf.if picks (TLX's `if
/// rank == 0: v = local_slice(...) else: v = local_slice(...)`) into both
/// arms of the if, so that no view is carried by it
/// (TLXBufferSelections.cpp); other ifs are left for the lowerings to
/// report.
void sinkViewSelections(mlir::Operation *root);

/// In a module launched in clusters (tpxgpu.cluster-dims of more than one
/// CTA), a tlx.cluster_barrier before every return of its kernels: no
/// program leaves while a peer may still arrive on its barriers or write
/// its buffers. Both lowerings run it; nothing happens without clusters.
void insertClusterExitBarriers(mlir::ModuleOp module);
} // namespace tpx::tlx

#endif // TPX_TLX_TLXDIALECT_H
