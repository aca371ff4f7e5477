//===- SharedMemoryAllocation.h - offsets in the CTA's shared memory -*- C++
//-*-===//
//
// Places every shared-memory buffer of a module in the kernel's dynamic
// shared memory. Two kinds of users:
//
//  - buffers: `tpxgpu.local_alloc` results. A buffer is live from its alloc
//    to the last use of the memdesc or of any view derived from it
//    (memdesc_index, memdesc_subview, scf.for / scf.if / scf.while results
//    and region arguments it flows through), computed with mlir::Liveness
//    on a pre-order numbering of the ops: a use inside a loop body by a
//    buffer defined outside keeps it live for the whole loop, and a buffer
//    carried around a loop (yielded) is live through the whole body.
//  - scratch: ops whose SIMT lowering exchanges data through shared memory
//    (getScratchBytes), live only at that op.
//
// Buffers whose live ranges do not overlap share bytes (first fit, largest
// first); scratch is placed after the buffers, in the lowest gap that the
// buffers live at its op leave. Alignment is the layout's
// (SharedLayout::getAlignment: 1024 for nvmma_shared, 16 otherwise) and 16
// for scratch. A device function's offsets start above everything its call
// sites keep live.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_ANALYSIS_SHAREDMEMORYALLOCATION_H
#define TPX_ANALYSIS_SHAREDMEMORYALLOCATION_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace tpx {

/// One placed buffer or scratch region.
struct SharedAllocation {
  /// The local_alloc (buffer) or the op whose lowering uses the scratch.
  mlir::Operation *owner = nullptr;
  bool scratch = false;
  uint64_t offset = 0, size = 0, alignment = 16;
  /// The live range, as [first, last] positions in a pre-order walk of the
  /// function (a region op covers its nested ops).
  uint64_t liveStart = 0, liveEnd = 0;
};

class SharedMemoryAllocation {
public:
  /// Allocates every function of `module`; a diagnostic and failure on
  /// what cannot be placed (a memdesc whose layout has no address map,
  /// recursion through functions that use shared memory).
  static mlir::FailureOr<SharedMemoryAllocation> compute(mlir::ModuleOp module);

  llvm::ArrayRef<SharedAllocation> getAllocations() const {
    return allocations;
  }
  /// The high-water mark: bytes of dynamic shared memory the module needs.
  uint64_t getTotalBytes() const { return totalBytes; }

  /// Writes `tpxgpu.shared-offset` on every owner and
  /// `tpxgpu.shared-bytes` on the module.
  void annotate(mlir::ModuleOp module) const;

private:
  llvm::SmallVector<SharedAllocation> allocations;
  uint64_t totalBytes = 0;
};

/// Bytes of scratch shared memory the SIMT lowering of `op` may use (an
/// upper bound; 0 when it uses none): shape ops that move data between
/// threads, cross-warp reductions, scans, and atomics (their old value is
/// broadcast). Never a convert_layout: the ones that need shared memory are
/// local_alloc / local_load by then (tpxgpu-lower-layout-conversions).
uint64_t getScratchBytes(mlir::Operation *op);

} // namespace tpx

#endif // TPX_ANALYSIS_SHAREDMEMORYALLOCATION_H
