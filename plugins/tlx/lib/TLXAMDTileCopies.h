//===- TLXAMDTileCopies.h - TLX's TMA copies on AMD -------------*- C++ -*-===//
#ifndef TPX_TLX_TLXAMDTILECOPIES_H
#define TPX_TLX_TLXAMDTILECOPIES_H

#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/IR/Builders.h"

#include <string>

namespace tpx::tlx::amd {
/// Why an async_descriptor_load/store of `desc` cannot be copied by the
/// program on AMD, or "" (TLXAMDTileCopies.cpp).
std::string whyNotTileCopy(mlir::Value desc);
/// The block of `desc` at `offsets` copied into `buffer` (a memdesc of the
/// block) by the `numWarps` warps running it, its bytes then completed on
/// `barrier` (a one-mbarrier memdesc).
void emitTileLoad(mlir::OpBuilder &b, mlir::Location loc, mlir::Value desc,
                  mlir::ValueRange offsets, mlir::Value buffer,
                  mlir::Value barrier, unsigned numWarps,
                  tt::CacheModifier cache, tt::EvictionPolicy evict);
/// `buffer` stored to the block of `desc` at `offsets`, clipped to the
/// tensor.
void emitTileStore(mlir::OpBuilder &b, mlir::Location loc, mlir::Value desc,
                   mlir::ValueRange offsets, mlir::Value buffer,
                   unsigned numWarps);
} // namespace tpx::tlx::amd

#endif // TPX_TLX_TLXAMDTILECOPIES_H
