//===- TPXGPUTypes.cpp - tpxgpu types -------------------------------------===//
#include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tpx::tpxgpu;

#define GET_TYPEDEF_CLASSES
#include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.cpp.inc"

void TPXGPUDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// !tpxgpu.memdesc<shape x type, layout[, mutable][, alloc_shape = AxB]>
//===----------------------------------------------------------------------===//

static void printShape(raw_ostream &os, ArrayRef<int64_t> shape) {
  llvm::interleave(shape, os, "x");
}

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape, allocShape;
  Type elementType;
  Attribute encoding;
  bool isMutable = false;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(encoding))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("mutable"))) {
      isMutable = true;
      continue;
    }
    if (succeeded(parser.parseOptionalKeyword("alloc_shape"))) {
      if (parser.parseEqual() ||
          parser.parseDimensionList(allocShape, /*allowDynamic=*/false,
                                    /*withTrailingX=*/false))
        return {};
      continue;
    }
    parser.emitError(parser.getCurrentLocation(),
                     "expected 'mutable' or 'alloc_shape' in memdesc");
    return {};
  }
  if (parser.parseGreater())
    return {};
  if (allocShape.empty())
    allocShape = shape;
  return parser.getChecked<MemDescType>(
      parser.getContext(), ArrayRef<int64_t>(shape), elementType, encoding,
      isMutable, ArrayRef<int64_t>(allocShape));
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  printShape(printer.getStream(), getShape());
  printer << "x" << getElementType() << ", ";
  printer.printAttribute(getEncoding());
  if (getMutableMemory())
    printer << ", mutable";
  if (getAllocShape() != getShape()) {
    printer << ", alloc_shape = ";
    printShape(printer.getStream(), getAllocShape());
  }
  printer << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  Attribute encoding, bool,
                                  ArrayRef<int64_t> allocShape) {
  if (shape.empty())
    return emitError() << "memdesc needs at least one dimension";
  for (int64_t size : shape)
    if (size <= 0)
      return emitError() << "memdesc dimensions must be positive, got " << size;
  if (!elementType.isIntOrFloat())
    return emitError() << "memdesc element type must be an integer or float, "
                          "got "
                       << elementType;
  if (!isSharedLayout(encoding))
    return emitError() << "memdesc encoding must be a shared-memory layout "
                          "(#tpxgpu.swizzled_shared, #tpxgpu.padded_shared or "
                          "#tpxgpu.nvmma_shared), "
                          "got "
                       << encoding;
  unsigned layoutRank = getLayoutRank(encoding);
  if (shape.size() < layoutRank)
    return emitError() << "memdesc of rank " << shape.size()
                       << " is smaller than its layout's rank " << layoutRank;
  if (auto nvmma = dyn_cast<NvmmaSharedEncodingAttr>(encoding))
    if (nvmma.getElementBitWidth() != elementType.getIntOrFloatBitWidth())
      return emitError() << "nvmma_shared layout is for "
                         << nvmma.getElementBitWidth()
                         << "-bit elements, but the memdesc holds "
                         << elementType;
  // A view's trailing dimensions are windows of the allocation's.
  if (allocShape.size() < shape.size())
    return emitError() << "memdesc alloc_shape has rank " << allocShape.size()
                       << ", less than the shape's rank " << shape.size();
  ArrayRef<int64_t> allocTail = allocShape.take_back(shape.size());
  for (auto [size, allocSize] : llvm::zip(shape, allocTail))
    if (size > allocSize)
      return emitError() << "memdesc shape does not fit in its alloc_shape ("
                         << size << " > " << allocSize << ")";
  return success();
}
