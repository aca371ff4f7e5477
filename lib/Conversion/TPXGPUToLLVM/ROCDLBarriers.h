//===- ROCDLBarriers.h - mbarriers and named barriers in LDS on AMD -------===//
//
// CDNA has one hardware barrier, s_barrier, for the whole workgroup, and no
// mbarriers. Warp-specialized kernels need both kinds NVIDIA has: barriers
// among some warps only (a partition's, TLX's named barriers) and mbarriers
// with phases, arrival counts and transaction bytes. On AMD both are words
// of LDS updated with atomics:
//
//   mbarrier (i64, the memdesc's 8 bytes)
//     [0, 16)   arrivals still pending in the current phase
//     [16, 32)  arrivals per phase (init_barrier's count)
//     [32, 56)  transaction bytes still pending, 24-bit two's complement
//               (a copy may complete before its barrier_expect)
//     63        the current phase's parity
//   A phase completes when the arrivals and the bytes both reach zero: the
//   parity flips and the counts start again.
//
//   named barrier (i32, one per id in a table of the module's own)
//     [0, 31)   threads arrived in the current phase
//     31        the current phase's parity
//   Each wavefront arrives once for its 64 threads; the one that brings
//   the count to the barrier's thread count starts the next phase.
//
// Updates are compare-and-swap loops run by one lane; waits spin on an
// acquire load with s_sleep between tries. The atomics are workgroup-scope
// acquire/release, so the AMDGPU backend's memory model orders the
// accesses around them (LDS and global).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_CONVERSION_TPXGPUTOLLVM_ROCDLBARRIERS_H
#define TPX_LIB_CONVERSION_TPXGPUTOLLVM_ROCDLBARRIERS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace tpx::gpu_lowering::rocdl {

/// The LDS table of named-barrier words: ids 0-15 are the program's
/// (tpxgpu.named_barrier), 16 + k is warp_specialize partition k's.
inline constexpr llvm::StringLiteral kNamedBarrierTableSymbol =
    "tpx_named_barriers";
inline constexpr unsigned kNumNamedBarrierIds = 16;
inline constexpr unsigned kNamedBarrierTableSize = 32;

/// Declares the table in `module` (before the conversion: patterns may not
/// add module-level ops).
mlir::LLVM::GlobalOp declareNamedBarrierTable(mlir::ModuleOp module);
/// After the conversion: drops the table if nothing uses it, else zeroes it
/// at the entry of every kernel (threads 0-31, then s_barrier), since LDS
/// starts undefined.
void finishNamedBarrierTable(mlir::ModuleOp module);

/// mbarrier `word` (an !llvm.ptr<3> to its i64): the elected thread
/// (tid.x == 0 and `pred`) writes the initial state for `count` arrivals.
void initMBarrier(mlir::OpBuilder &b, mlir::Location loc, mlir::Value word,
                  unsigned count);
/// The elected thread (tid.x == 0 and `pred`, which may be null) arrives
/// `arrivals` times and adds `txBytes` (negative: completes them) to the
/// pending transaction bytes.
void updateMBarrier(mlir::OpBuilder &b, mlir::Location loc, mlir::Value word,
                    unsigned arrivals, int64_t txBytes, mlir::Value pred);
/// Every thread where `pred` holds (null: all) waits until the phase of
/// parity `phase` (an i32) has completed.
void waitMBarrier(mlir::OpBuilder &b, mlir::Location loc, mlir::Value word,
                  mlir::Value phase, mlir::Value pred);

/// Named barrier `id` (an i32, table index) among `count` threads (an i32,
/// a multiple of 64): each wavefront running it arrives; unless
/// `arriveOnly` it then waits for the phase it arrived in to complete.
/// Only valid where a wavefront runs it with all its lanes together.
void emitNamedBarrier(mlir::OpBuilder &b, mlir::Location loc, mlir::Value id,
                      mlir::Value count, bool arriveOnly);

} // namespace tpx::gpu_lowering::rocdl

#endif // TPX_LIB_CONVERSION_TPXGPUTOLLVM_ROCDLBARRIERS_H
