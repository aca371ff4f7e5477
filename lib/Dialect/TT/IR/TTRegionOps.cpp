//===- TTRegionOps.cpp - tt.reduce, tt.scan, tt.map_elementwise -----------===//
#include "tpx/Dialect/TT/IR/TTOps.h"

using namespace mlir;
using namespace tpx::tt;

/// All sources of a reduce/scan share one shape.
static LogicalResult verifySourcesAndAxis(Operation *op, ValueRange srcs,
                                          int64_t axis) {
  if (srcs.empty())
    return op->emitOpError("needs at least one source tensor");
  auto first = cast<RankedTensorType>(srcs.front().getType());
  for (Value src : srcs.drop_front())
    if (cast<RankedTensorType>(src.getType()).getShape() != first.getShape())
      return op->emitOpError("all sources must have the same shape");
  if (axis < 0 || axis >= first.getRank())
    return op->emitOpError("axis ")
           << axis << " is out of range [0, " << first.getRank() << ")";
  return success();
}

/// The combine region takes (accumulated..., next...) scalars of the source
/// element types and its terminator yields one value per source.
static LogicalResult verifyCombineRegion(Operation *op, Region &region,
                                         ValueRange srcs) {
  Block &block = region.front();
  size_t n = srcs.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError("combine region must take ")
           << 2 * n << " arguments (two per source), got "
           << block.getNumArguments();
  for (size_t i = 0; i < 2 * n; ++i) {
    Type expected = getElementTypeOrSelf(srcs[i % n].getType());
    if (block.getArgument(i).getType() != expected)
      return op->emitOpError("combine region argument ")
             << i << " must be " << expected << ", got "
             << block.getArgument(i).getType();
  }
  Operation *terminator = block.getTerminator();
  if (terminator->getNumOperands() != n)
    return op->emitOpError("combine region must yield ")
           << n << " values, got " << terminator->getNumOperands();
  for (size_t i = 0; i < n; ++i) {
    Type expected = getElementTypeOrSelf(srcs[i].getType());
    if (terminator->getOperand(i).getType() != expected)
      return op->emitOpError("combine region yields ")
             << terminator->getOperand(i).getType() << " at position " << i
             << " but the source element type is " << expected;
  }
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifySourcesAndAxis(*this, getSrcs(), getAxis())))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError("has ")
           << getNumResults() << " results for " << getSrcs().size()
           << " sources";
  for (auto [src, result] : llvm::zip(getSrcs(), getResults())) {
    auto srcType = cast<RankedTensorType>(src.getType());
    Type expected = srcType.getElementType();
    if (srcType.getRank() > 1) {
      SmallVector<int64_t> shape(srcType.getShape());
      shape.erase(shape.begin() + getAxis());
      expected = RankedTensorType::get(shape, srcType.getElementType());
    }
    // Layout encodings may differ between source and result.
    Type got = result.getType();
    if (auto tensor = dyn_cast<RankedTensorType>(got))
      got = RankedTensorType::get(tensor.getShape(), tensor.getElementType());
    if (got != expected)
      return emitOpError("result type ")
             << result.getType() << " must be " << expected
             << " (the source reduced along axis " << getAxis() << ")";
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp(), getSrcs());
}

LogicalResult ScanOp::verify() {
  if (failed(verifySourcesAndAxis(*this, getSrcs(), getAxis())))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError("has ")
           << getNumResults() << " results for " << getSrcs().size()
           << " sources";
  for (auto [src, result] : llvm::zip(getSrcs(), getResults()))
    if (src.getType() != result.getType())
      return emitOpError("result type ")
             << result.getType() << " must equal the source type "
             << src.getType();
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp(), getSrcs());
}

LogicalResult MapElementwiseOp::verify() {
  int64_t pack = getPack();
  if (pack < 1)
    return emitOpError("pack must be at least 1, got ") << pack;
  if (getSrcs().empty())
    return emitOpError("needs at least one source tensor");
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(getSrcs().front().getType()).getShape();
  for (Value value : llvm::concat<Value>(getSrcs(), getResults()))
    if (cast<RankedTensorType>(value.getType()).getShape() != shape)
      return emitOpError("all sources and results must have the same shape");
  return success();
}

LogicalResult MapElementwiseOp::verifyRegions() {
  Region &region = getScalarOp();
  if (region.empty())
    return emitOpError("needs a scalar region");
  Block &entry = region.front();
  int64_t pack = getPack();
  size_t expectedArgs = getSrcs().size() * pack;
  if (entry.getNumArguments() != expectedArgs)
    return emitOpError("scalar region must take ")
           << expectedArgs << " arguments (" << pack << " per source), got "
           << entry.getNumArguments();
  for (size_t i = 0; i < expectedArgs; ++i) {
    Type expected = getElementTypeOrSelf(getSrcs()[i / pack].getType());
    if (entry.getArgument(i).getType() != expected)
      return emitOpError("scalar region argument ")
             << i << " must be " << expected;
  }
  size_t expectedYields = getNumResults() * pack;
  for (Block &block : region) {
    auto ret = dyn_cast<MapElementwiseReturnOp>(block.getTerminator());
    if (!ret)
      continue;
    if (ret.getNumOperands() != expectedYields)
      return emitOpError("scalar region must yield ")
             << expectedYields << " values, got " << ret.getNumOperands();
  }
  return success();
}
