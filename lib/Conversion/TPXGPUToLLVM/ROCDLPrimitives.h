//===- ROCDLPrimitives.h - what the SIMT lowering builds differently on AMD
//===//
//
// The SIMT patterns are shared between NVIDIA and AMD; where an operation
// has no common LLVM form, the shared helper asks targetsAMD() and comes
// here. NVIDIA's masked accesses are predicated PTX; AMD has no predicated
// memory instructions in LLVM, so a masked access is a branch (scf.if)
// around a plain load or store, which the AMDGPU backend turns into exec
// masking within the wavefront.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_CONVERSION_TPXGPUTOLLVM_ROCDLPRIMITIVES_H
#define TPX_LIB_CONVERSION_TPXGPUTOLLVM_ROCDLPRIMITIVES_H

#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace tpx::gpu_lowering::rocdl {

/// workitem.id.x (i32).
mlir::Value getThreadIdX(mlir::OpBuilder &b, mlir::Location loc);
/// workgroup.id.<axis> and the number of workgroups along it (i32).
mlir::Value getBlockId(mlir::OpBuilder &b, mlir::Location loc, unsigned axis);
mlir::Value getGridDim(mlir::OpBuilder &b, mlir::Location loc, unsigned axis);
/// Every thread of the workgroup meets here, and what each wrote to LDS
/// before is visible to all after (tpxgpu.barrier orders shared memory
/// only): s_waitcnt lgkmcnt(0), s_barrier, between compiler-only fences.
void emitBarrier(mlir::OpBuilder &b, mlir::Location loc);
/// The i32 `word` of lane `sourceLane` (ds_bpermute, any lane of the
/// wavefront).
mlir::Value readLane(mlir::OpBuilder &b, mlir::Location loc, mlir::Value word,
                     mlir::Value sourceLane);
/// The i32 `word` of lane `lane ^ mask` (`lane`: this lane's index): DPP
/// quad permutations for masks 1 and 2 (free on the VALU), ds_swizzle's
/// bit mode within 32 lanes for 4, 8 and 16, ds_bpermute otherwise.
mlir::Value xorLanes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value word,
                     unsigned mask, mlir::Value lane);
/// The i64 whose bit l is `predicate` of lane l.
mlir::Value ballot(mlir::OpBuilder &b, mlir::Location loc,
                   mlir::Value predicate);

/// The alias scope of direct-to-LDS copies. The copies carry it and every
/// other LDS load and store is marked noalias with it
/// (markLDSLoadsApartFromCopies): a program reads an async copy's buffer only
/// after waiting for it (async_wait's explicit s_waitcnt, then a barrier), so
/// the AMDGPU backend need not wait for every copy in flight (vmcnt(0)) before
/// each LDS read, which would serialise a software pipeline.
mlir::LLVM::AliasScopeAttr getAsyncCopyScope(mlir::MLIRContext *context);
void markLDSLoadsApartFromCopies(mlir::ModuleOp module);

/// A load of `type` through `pointer` where `mask` (i1) holds; `other`
/// (of `type`) elsewhere, where nothing is read.
mlir::Value loadWhere(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type,
                      mlir::Value pointer, mlir::Value mask, mlir::Value other,
                      unsigned alignment, bool isVolatile);
/// A store of `value` through `pointer` where `predicate` (i1) holds.
void storeWhere(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                mlir::Value pointer, mlir::Value predicate, unsigned alignment);

/// One atomic read-modify-write (`kind`) or compare-and-swap (`compare`
/// given) of `value` at `pointer` where `predicate` holds, returning the
/// old value there (zero where it does not hold). `type` is the lowered
/// element type (an integer, float or pointer); failure when LLVM has no
/// such atomic.
mlir::FailureOr<mlir::Value>
atomicWhere(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type,
            mlir::Value pointer, mlir::Value value, mlir::Value compare,
            std::optional<tt::RMWOp> kind, mlir::Value predicate,
            tt::MemSemantic sem, tt::MemSyncScope scope);

} // namespace tpx::gpu_lowering::rocdl

#endif // TPX_LIB_CONVERSION_TPXGPUTOLLVM_ROCDLPRIMITIVES_H
