//===- TTTypes.cpp - tt types ---------------------------------------------===//
#include "tpx/Dialect/TT/IR/TTTypes.h"
#include "tpx/Dialect/TT/IR/TTDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tpx::tt;

#define GET_TYPEDEF_CLASSES
#include "tpx/Dialect/TT/IR/TTTypes.cpp.inc"

void TTDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tpx/Dialect/TT/IR/TTTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// !tt.ptr<pointee[, addressSpace]>
//===----------------------------------------------------------------------===//

Type PointerType::parse(AsmParser &parser) {
  Type pointee;
  int addressSpace = 1;
  if (parser.parseLess() || parser.parseType(pointee))
    return {};
  if (succeeded(parser.parseOptionalComma()) &&
      parser.parseInteger(addressSpace))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<PointerType>(parser.getContext(), pointee,
                                        addressSpace);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() != 1)
    printer << ", " << getAddressSpace();
  printer << ">";
}

LogicalResult
PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                    Type pointee, int addressSpace) {
  if (addressSpace < 0)
    return emitError() << "pointer address space must be non-negative, got "
                       << addressSpace;
  if (auto tensor = dyn_cast<RankedTensorType>(pointee)) {
    if (!tensor.hasStaticShape())
      return emitError() << "block pointer must point to a statically shaped "
                            "tensor, got "
                         << pointee;
    if (isa<PointerType>(tensor.getElementType()))
      return emitError() << "block pointer cannot point to a tensor of "
                            "pointers";
    return success();
  }
  if (!pointee.isIntOrFloat() && !isa<PointerType>(pointee))
    return emitError() << "pointee must be an integer, float, pointer or "
                          "tensor type, got "
                       << pointee;
  return success();
}

//===----------------------------------------------------------------------===//
// !tt.tensordesc<tensor<...>>
//===----------------------------------------------------------------------===//

Type TensorDescType::parse(AsmParser &parser) {
  // Both `!tt.tensordesc<tensor<64x64xf16>>` and the shorter
  // `!tt.tensordesc<64x64xf16>` are accepted; the first is printed.
  if (parser.parseLess())
    return {};
  RankedTensorType blockType;
  if (succeeded(parser.parseOptionalKeyword("tensor"))) {
    SmallVector<int64_t> shape;
    Type element;
    Attribute encoding;
    if (parser.parseLess() ||
        parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
        parser.parseType(element))
      return {};
    if (succeeded(parser.parseOptionalComma()) &&
        parser.parseAttribute(encoding))
      return {};
    if (parser.parseGreater())
      return {};
    blockType = RankedTensorType::get(shape, element, encoding);
  } else {
    SmallVector<int64_t> shape;
    Type element;
    Attribute encoding;
    if (parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
        parser.parseType(element))
      return {};
    if (succeeded(parser.parseOptionalComma()) &&
        parser.parseAttribute(encoding))
      return {};
    blockType = RankedTensorType::get(shape, element, encoding);
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<TensorDescType>(parser.getContext(), blockType);
}

void TensorDescType::print(AsmPrinter &printer) const {
  printer << "<" << getBlockType() << ">";
}

LogicalResult
TensorDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                       RankedTensorType blockType) {
  if (!blockType)
    return emitError() << "tensor descriptor needs a block type";
  if (blockType.getRank() == 0)
    return emitError() << "tensor descriptor block must have rank >= 1";
  Type element = blockType.getElementType();
  if (!element.isIntOrFloat())
    return emitError()
           << "tensor descriptor block element must be an integer or float, "
              "got "
           << element;
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

ArrayRef<int64_t> tpx::tt::getShapeOrEmpty(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

Type tpx::tt::withElementType(Type type, Type elementType) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), elementType,
                                 tensor.getEncoding());
  return elementType;
}

Type tpx::tt::getPointeeTypeOf(Type ptrLike) {
  auto ptr = dyn_cast<PointerType>(getElementTypeOrSelf(ptrLike));
  if (!ptr)
    return {};
  if (isa<RankedTensorType>(ptr.getPointeeType()))
    return isa<RankedTensorType>(ptrLike) ? Type() : ptr.getPointeeType();
  return withElementType(ptrLike, ptr.getPointeeType());
}

Type tpx::tt::getI1SameShape(Type type) {
  return withElementType(type, IntegerType::get(type.getContext(), 1));
}

Type tpx::tt::getBlockBaseType(Type blockPointer) {
  auto ptr = dyn_cast<PointerType>(blockPointer);
  if (!ptr)
    return blockPointer;
  auto block = dyn_cast<RankedTensorType>(ptr.getPointeeType());
  if (!block)
    return blockPointer;
  return PointerType::get(block.getElementType(), ptr.getAddressSpace());
}
