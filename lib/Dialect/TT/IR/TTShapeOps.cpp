//===- TTShapeOps.cpp - verifiers of tensor creation and shape ops --------===//
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tpx::tt;

static int64_t numElements(RankedTensorType type) {
  return type.getNumElements();
}

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStartAttr().getInt();
  int64_t end = getEndAttr().getInt();
  auto type = getType();
  if (type.getRank() != 1)
    return emitOpError("result must be a 1-D tensor, got ") << type;
  if (!type.getElementType().isInteger(32))
    return emitOpError("result element type must be i32, got ")
           << type.getElementType();
  if (end <= start)
    return emitOpError("start (")
           << start << ") must be less than end (" << end << ")";
  if (type.getDimSize(0) != end - start)
    return emitOpError("result has ")
           << type.getDimSize(0) << " elements but the range [" << start
           << ", " << end << ") has " << (end - start);
  return success();
}

LogicalResult SplatOp::verify() {
  Type src = getSrc().getType();
  if (isa<RankedTensorType>(src))
    return emitOpError("source must be a scalar, got ") << src;
  if (getType().getElementType() != src)
    return emitOpError("result element type ")
           << getType().getElementType() << " differs from the source type "
           << src;
  return success();
}

LogicalResult UnsplatOp::verify() {
  auto src = getSrc().getType();
  if (numElements(src) != 1)
    return emitOpError("source must hold exactly one element, got ") << src;
  if (getType() != src.getElementType())
    return emitOpError("result type ")
           << getType() << " differs from the source element type "
           << src.getElementType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto src = getSrc().getType();
  auto result = getType();
  if (src.getElementType() != result.getElementType())
    return emitOpError("element type changes from ")
           << src.getElementType() << " to " << result.getElementType();
  if (src.getRank() != result.getRank())
    return emitOpError("source rank ")
           << src.getRank() << " differs from result rank "
           << result.getRank();
  for (int64_t i = 0, e = src.getRank(); i != e; ++i) {
    int64_t from = src.getDimSize(i), to = result.getDimSize(i);
    if (from != to && from != 1)
      return emitOpError("dimension ")
             << i << " of size " << from << " cannot broadcast to " << to
             << " (only size-1 dimensions broadcast)";
  }
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto src = getSrc().getType();
  auto result = getType();
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis > src.getRank())
    return emitOpError("axis ")
           << axis << " is out of range [0, " << src.getRank() << "]";
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (result.getShape() != ArrayRef<int64_t>(expected) ||
      result.getElementType() != src.getElementType())
    return emitOpError("result type ")
           << result << " does not match the source with a size-1 dimension "
           << "inserted at axis " << axis;
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto src = getSrc().getType();
  auto result = getType();
  if (src.getElementType() != result.getElementType())
    return emitOpError("element type changes from ")
           << src.getElementType() << " to " << result.getElementType();
  if (numElements(src) != numElements(result))
    return emitOpError("source has ")
           << numElements(src) << " elements but the result has "
           << numElements(result);
  return success();
}

LogicalResult TransOp::verify() {
  auto src = getSrc().getType();
  auto result = getType();
  ArrayRef<int32_t> order = getOrder();
  if (static_cast<int64_t>(order.size()) != src.getRank())
    return emitOpError("order has ")
           << order.size() << " entries but the source has rank "
           << src.getRank();
  SmallVector<bool> seen(order.size(), false);
  for (int32_t dim : order) {
    if (dim < 0 || dim >= static_cast<int32_t>(order.size()) || seen[dim])
      return emitOpError("order must be a permutation of [0, ")
             << order.size() << ")";
    seen[dim] = true;
  }
  if (src.getElementType() != result.getElementType())
    return emitOpError("element type changes from ")
           << src.getElementType() << " to " << result.getElementType();
  for (auto [i, dim] : llvm::enumerate(order))
    if (result.getDimSize(i) != src.getDimSize(dim))
      return emitOpError("result dimension ")
             << i << " is " << result.getDimSize(i) << " but source dimension "
             << dim << " is " << src.getDimSize(dim);
  return success();
}

LogicalResult CatOp::verify() {
  auto lhs = getLhs().getType(), rhs = getRhs().getType();
  auto result = getType();
  if (lhs != rhs)
    return emitOpError("operands must have the same type, got ")
           << lhs << " and " << rhs;
  if (result.getElementType() != lhs.getElementType() ||
      result.getRank() != lhs.getRank())
    return emitOpError("result ")
           << result << " must have the operands' rank and element type";
  if (numElements(result) != numElements(lhs) + numElements(rhs))
    return emitOpError("result has ")
           << numElements(result) << " elements but the operands hold "
           << numElements(lhs) + numElements(rhs);
  return success();
}

LogicalResult JoinOp::verify() {
  auto lhs = getLhs().getType(), rhs = getRhs().getType();
  if (lhs != rhs)
    return emitOpError("operands must have the same type, got ")
           << lhs << " and " << rhs;
  SmallVector<int64_t> expected(lhs.getShape());
  expected.push_back(2);
  if (getType().getShape() != ArrayRef<int64_t>(expected) ||
      getType().getElementType() != lhs.getElementType())
    return emitOpError("result ")
           << getType() << " must be the operand shape with a new minor "
           << "dimension of size 2";
  return success();
}

LogicalResult SplitOp::verify() {
  auto src = getSrc().getType();
  if (src.getRank() == 0 || src.getShape().back() != 2)
    return emitOpError("source's last dimension must have size 2, got ")
           << src;
  if (getOutLHS().getType() != getOutRHS().getType())
    return emitOpError("both results must have the same type");
  auto out = getOutLHS().getType();
  if (out.getShape() != src.getShape().drop_back() ||
      out.getElementType() != src.getElementType())
    return emitOpError("results ")
           << out << " must be the source without its last dimension";
  return success();
}

LogicalResult GatherOp::verify() {
  auto src = getSrc().getType();
  auto indices = getIndices().getType();
  auto result = getType();
  int64_t axis = getAxisAttr().getInt();
  if (src.getRank() != indices.getRank())
    return emitOpError("source rank ")
           << src.getRank() << " differs from indices rank "
           << indices.getRank();
  if (axis < 0 || axis >= src.getRank())
    return emitOpError("axis ")
           << axis << " is out of range [0, " << src.getRank() << ")";
  if (result.getShape() != indices.getShape())
    return emitOpError("result shape must equal the indices shape");
  if (result.getElementType() != src.getElementType())
    return emitOpError("result element type must equal the source's");
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (d != axis && indices.getDimSize(d) > src.getDimSize(d))
      return emitOpError("indices dimension ")
             << d << " (" << indices.getDimSize(d)
             << ") exceeds the source's (" << src.getDimSize(d) << ")";
  return success();
}

LogicalResult HistogramOp::verify() {
  auto src = getSrc().getType();
  auto result = getType();
  if (src.getRank() != 1 || result.getRank() != 1)
    return emitOpError("source and result must be 1-D tensors");
  if (Value mask = getMask())
    if (getShapeOrEmpty(mask.getType()) != src.getShape())
      return emitOpError("mask shape must equal the source shape");
  return success();
}
