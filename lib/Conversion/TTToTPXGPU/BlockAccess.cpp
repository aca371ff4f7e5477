//===- BlockAccess.cpp - pointer tensors for block-shaped accesses --------===//
#include "BlockAccess.h"

#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace tpx;

std::pair<Value, Value> tpx::buildBlockPointers(OpBuilder &b, Location loc,
                                                const StridedBlock &block,
                                                ArrayRef<int32_t> checked) {
  ArrayRef<int64_t> shape = block.blockType.getShape();
  unsigned rank = shape.size();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto full = [&](Type element) {
    return RankedTensorType::get(shape, element);
  };
  // A 1-D tensor along d widened to the block's rank and shape.
  auto spread = [&](Value line, unsigned d) {
    Type element = cast<RankedTensorType>(line.getType()).getElementType();
    SmallVector<int64_t> current = {shape[d]};
    for (unsigned a = 0; a < rank; ++a) {
      if (a == d)
        continue;
      current.insert(current.begin() + a, 1);
      line = tt::ExpandDimsOp::create(b, loc,
                                      RankedTensorType::get(current, element),
                                      line, b.getI32IntegerAttr(a));
    }
    return rank > 1 ? tt::BroadcastOp::create(b, loc, full(element), line)
                          .getResult()
                    : line;
  };
  Value offset, mask;
  for (unsigned d = 0; d < rank; ++d) {
    auto line = [&](Type element) {
      return RankedTensorType::get({shape[d]}, element);
    };
    Value position =
        d == 0 && block.rows
            ? block.rows
            : arith::AddIOp::create(
                  b, loc,
                  tt::SplatOp::create(b, loc, line(i32), block.offsets[d]),
                  tt::MakeRangeOp::create(b, loc, line(i32), 0,
                                          static_cast<uint32_t>(shape[d])))
                  .getResult();
    Value wide = arith::ExtSIOp::create(b, loc, line(i64), position);
    Value scaled = arith::MulIOp::create(
        b, loc, wide, tt::SplatOp::create(b, loc, line(i64), block.strides[d]));
    scaled = spread(scaled, d);
    offset = offset ? arith::AddIOp::create(b, loc, offset, scaled) : scaled;
    if (!llvm::is_contained(checked, static_cast<int32_t>(d)))
      continue;
    // Compare in the extent's own type (i32 for descriptors, i64 for block
    // pointers).
    Type extentType = block.shape[d].getType();
    Value at = extentType.isInteger(64) ? wide : position;
    Value inBounds = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::sge, at,
            arith::ConstantOp::create(
                b, loc,
                DenseElementsAttr::get(line(extentType),
                                       b.getIntegerAttr(extentType, 0)))),
        arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::slt, at,
            tt::SplatOp::create(b, loc, line(extentType), block.shape[d])));
    inBounds = spread(inBounds, d);
    mask = mask ? arith::AndIOp::create(b, loc, mask, inBounds) : inBounds;
  }
  Type pointer = block.base.getType();
  Value pointers = tt::AddPtrOp::create(
      b, loc, full(pointer),
      tt::SplatOp::create(b, loc, full(pointer), block.base), offset);
  return {pointers, mask};
}

Value tpx::buildPadding(OpBuilder &b, Location loc, RankedTensorType type,
                        bool nan) {
  Type element = type.getElementType();
  TypedAttr value;
  if (auto floatType = dyn_cast<FloatType>(element))
    value = b.getFloatAttr(
        floatType, nan ? llvm::APFloat::getNaN(floatType.getFloatSemantics())
                       : llvm::APFloat::getZero(floatType.getFloatSemantics()));
  else
    value = b.getIntegerAttr(element, 0);
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, value));
}
