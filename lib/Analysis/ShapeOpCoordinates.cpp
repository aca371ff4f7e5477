//===- ShapeOpCoordinates.cpp - result-to-source maps of shape ops --------===//
#include "tpx/Analysis/ShapeOpCoordinates.h"

#include "tpx/Dialect/TT/IR/TTOps.h"

using namespace mlir;
using namespace tpx;
using tpxgpu::Coordinate;

bool tpx::isCoordinateShapeOp(Operation *op) {
  return isa<tt::ExpandDimsOp, tt::BroadcastOp, tt::TransOp, tt::ReshapeOp>(op);
}

Coordinate tpx::getShapeOpSource(Operation *op, ArrayRef<int64_t> coordinate) {
  Coordinate source(coordinate);
  if (auto expand = dyn_cast<tt::ExpandDimsOp>(op)) {
    source.erase(source.begin() + expand.getAxis());
  } else if (auto broadcast = dyn_cast<tt::BroadcastOp>(op)) {
    for (auto [v, size] :
         llvm::zip_equal(source, broadcast.getSrc().getType().getShape()))
      if (size == 1)
        v = 0;
  } else if (auto trans = dyn_cast<tt::TransOp>(op)) {
    for (auto [i, dim] : llvm::enumerate(trans.getOrder()))
      source[dim] = coordinate[i];
  } else if (auto reshape = dyn_cast<tt::ReshapeOp>(op)) {
    source =
        tpxgpu::getRowMajorCoordinate(coordinate, reshape.getType().getShape(),
                                      reshape.getSrc().getType().getShape());
  } else {
    llvm_unreachable("not an expand_dims, broadcast, trans or reshape");
  }
  return source;
}
