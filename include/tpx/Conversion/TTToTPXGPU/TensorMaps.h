//===- TensorMaps.h - which tensor descriptors use TMA ----------*- C++ -*-===//
//
// tpxgpu-use-tma's choice, shared with tpxgpu-lower-tensor-descriptors
// (which turns the other descriptors into pointer tensors) and the NVIDIA
// coverage check. A descriptor uses the copy engine when the launcher can
// build its tensor map: it is made in the kernel from the kernel's own
// arguments (the form every host TensorDescriptor takes, docs/python.md),
// and it is only loaded and stored whole.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_CONVERSION_TTTOTPXGPU_TENSORMAPS_H
#define TPX_CONVERSION_TTTOTPXGPU_TENSORMAPS_H

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/IR/Builders.h"

#include <string>

namespace tpx::tpxgpu {

/// Why `desc` cannot use TMA; empty when it can: a 2-D block of 1-, 2-, 4-
/// or 8-byte elements at most 256 rows tall and at least 16 bytes wide; a
/// base that is an argument of the public function it is made in, and a
/// shape and strides that are arguments or positive constants, the last
/// stride 1; every user a descriptor_load or descriptor_store of the whole
/// block (or an op of a plugin dialect that lowers its own ops on the SIMT
/// path, SIMTLoweringInterface.h), and stores only where the innermost
/// extent is known to fill whole
/// 16-byte chunks (a constant, or tt.divisibility), since a TMA store
/// writes the rest of a row's last chunk, and at offsets known to be
/// non-negative (program ids, loop counters, constants and their sums and
/// products), since a TMA store at a negative coordinate faults.
std::string whyNotTMA(tt::MakeTensorDescOp desc);

/// The shared-memory swizzle (bytes) of a TMA block whose rows are
/// `rowBytes` wide: the widest of 128, 64, 32 that a row fills, else 0.
unsigned getTMASwizzleBytes(int64_t rowBytes);

/// The tensor map the launcher builds for `desc` (whyNotTMA(desc) empty):
/// boxes as wide as the swizzle, so a wider block takes several copies.
TensorMapAttr getTensorMap(tt::MakeTensorDescOp desc);

/// The kernel argument that carries `desc`'s tensor map (a `!tt.tensordesc`
/// of the box with `tpxgpu.tensor_map`), added as the kernel's last argument
/// the first time it is asked for.
mlir::Value getOrAddTensorMapArgument(tt::MakeTensorDescOp desc);

/// The nvmma_shared buffer type one block of `map` lands in: the map's
/// swizzle, so that TMA's writes and the buffer's address map agree (and
/// wgmma can read it as staged).
MemDescType getTMABlockBufferType(TensorMapAttr map,
                                  llvm::ArrayRef<int64_t> block,
                                  bool mutableMemory);

/// The TMA copies of one block into `buffer` (a block buffer, or one
/// buffer of a multi-buffered allocation): one per box of `map` (column
/// offsets k * box width in the coordinates and the buffer), completing on
/// `barrier`, each predicated on `pred` when given and multicast to the
/// cluster's CTAs in `multicast` (an i16 mask) when given. `buffer` may be
/// a static window (memdesc_subview) of a whole buffer: the boxes are then
/// windows of that buffer.
void emitTMALoads(mlir::OpBuilder &b, mlir::Location loc, mlir::Value map,
                  TensorMapAttr mapAttr, mlir::Value buffer,
                  mlir::ValueRange indices, mlir::Value barrier,
                  mlir::Value pred, tt::CacheModifier cache,
                  tt::EvictionPolicy evict, mlir::Value multicast = {});

/// The TMA stores of one block from `buffer`, one per box.
void emitTMAStores(mlir::OpBuilder &b, mlir::Location loc, mlir::Value map,
                   TensorMapAttr mapAttr, mlir::Value buffer,
                   mlir::ValueRange indices);

/// `!tpxgpu.memdesc<1xi64, ...>`: one mbarrier.
MemDescType getMBarrierType(mlir::MLIRContext *context);

/// `count` mbarriers (a `count x 1 x i64` allocation), each initialised to
/// `arriveCount` arrivals a phase, then a proxy fence and a CTA barrier so
/// that every thread and the copy engine see them initialised.
mlir::Value createMBarriers(mlir::OpBuilder &b, mlir::Location loc,
                            int64_t count, unsigned arriveCount);
/// Barrier `index` (an i32) of an allocation made by createMBarriers.
mlir::Value getMBarrierView(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value barriers, mlir::Value index);

} // namespace tpx::tpxgpu

#endif // TPX_CONVERSION_TTTOTPXGPU_TENSORMAPS_H
