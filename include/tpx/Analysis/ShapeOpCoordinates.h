//===- ShapeOpCoordinates.h - result-to-source maps of shape ops -*- C++
//-*-===//
//
// tt.expand_dims, tt.broadcast, tt.trans and tt.reshape copy elements
// without computing: each result element is one source element. This is
// that map, written once for every pass that asks whether a shape op is a
// register renaming (the SIMT lowering, the shared-memory allocator's
// scratch sizes): the map is linear over GF(2) on power-of-two shapes, as
// LinearLayout::getRegisterMapFrom needs.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_ANALYSIS_SHAPEOPCOORDINATES_H
#define TPX_ANALYSIS_SHAPEOPCOORDINATES_H

#include "tpx/Dialect/TPXGPU/IR/TPXGPULinearLayout.h"

#include "mlir/IR/Operation.h"

namespace tpx {

/// True for the ops getShapeOpSource maps.
bool isCoordinateShapeOp(mlir::Operation *op);

/// The source coordinate of result element `coordinate` of `op` (one of
/// isCoordinateShapeOp's): expand_dims drops its axis, broadcast zeroes the
/// broadcast dimensions, trans permutes (result dimension i is source
/// dimension order[i]), reshape re-indexes in row-major order.
tpxgpu::Coordinate getShapeOpSource(mlir::Operation *op,
                                    llvm::ArrayRef<int64_t> coordinate);

} // namespace tpx

#endif // TPX_ANALYSIS_SHAPEOPCOORDINATES_H
