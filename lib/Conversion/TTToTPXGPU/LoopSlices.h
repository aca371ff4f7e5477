//===- LoopSlices.h - recomputing a loop body's values elsewhere -*- C++
//-*-===//
//
// The software pipeliners (tpxgpu-prefetch-loads, tpxgpu-pipeline-async-
// copies) issue a load of a later iteration early: they clone the body ops
// its operands depend on under a mapping of the induction variable and the
// iteration values. These helpers find those ops and what they read.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_CONVERSION_TTTOTPXGPU_LOOPSLICES_H
#define TPX_LIB_CONVERSION_TTTOTPXGPU_LOOPSLICES_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

namespace tpx {

/// The ops of `loop`'s body that `value` depends on, in block order; fails
/// if any of them may not be recomputed freely (memory access, regions,
/// dots: their cost or effects forbid a second copy).
mlir::FailureOr<llvm::SetVector<mlir::Operation *>>
getRecomputableSlice(mlir::scf::ForOp loop, mlir::Value value);

/// Adds to `iterArgs` the positions of the loop's iteration values that
/// `roots` or the ops of `slice` read.
void collectIterArgs(mlir::scf::ForOp loop, llvm::ArrayRef<mlir::Value> roots,
                     const llvm::SetVector<mlir::Operation *> &slice,
                     llvm::SetVector<unsigned> &iterArgs);

/// The body ops that compute the next values of the iteration values in
/// `iterArgs` (their yielded operands), in block order; fails if one is not
/// recomputable. With `closed`, the iteration values those ops read join
/// `iterArgs` (and are advanced too): needed to advance several iterations
/// ahead, where every value read must be known for the later iteration.
mlir::FailureOr<llvm::SetVector<mlir::Operation *>>
getAdvanceSlice(mlir::scf::ForOp loop, llvm::SetVector<unsigned> &iterArgs,
                bool closed);

/// The i32 index ((iv - lb) / step + ahead) mod count of the buffer that
/// iteration iv + ahead * step uses when `count` buffers rotate, built at
/// `b` (in the loop body).
mlir::Value getRotatingBufferIndex(mlir::OpBuilder &b, mlir::scf::ForOp loop,
                                   int64_t ahead, int64_t count);

/// `value` (an integer of any width, or an index) as an i32.
mlir::Value castToI32(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Value value);

/// `ops` (of one block) in block order, for cloning.
llvm::SetVector<mlir::Operation *>
sortInBlockOrder(const llvm::SetVector<mlir::Operation *> &ops);

/// Replaces `loop` by a loop with `extraInits` appended to its inits, which
/// takes over its body (the caller has added the matching block arguments
/// and yield operands); the old results' uses move to the new loop.
mlir::scf::ForOp appendIterArgs(mlir::scf::ForOp loop,
                                mlir::ValueRange extraInits);

} // namespace tpx

#endif // TPX_LIB_CONVERSION_TTTOTPXGPU_LOOPSLICES_H
