//===- TPXGPUTensorMap.cpp - #tpxgpu.tensor_map and where it may sit ------===//
//
// A tensor map is the 128-byte TMA descriptor of a global tensor. The
// kernel cannot build one (no device-side encoding yet), so tpxgpu-use-tma
// adds a kernel argument that the launcher fills with
// cuTensorMapEncodeTiled, from the kernel's own arguments this attribute
// names. The attribute is the whole contract between the compiler and the
// launchers (Artifact::tensorMaps carries it into the metadata).
//
//===----------------------------------------------------------------------===//
#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tpx::tpxgpu;

LogicalResult TensorMapAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned base,
    ArrayRef<int64_t> shapeArgs, ArrayRef<int64_t> shapeValues,
    ArrayRef<int64_t> strideArgs, ArrayRef<int64_t> strideValues,
    ArrayRef<int64_t> box, Type elementType, unsigned swizzle, bool nan) {
  size_t rank = box.size();
  if (rank < 1 || rank > 5)
    return emitError() << "a tensor map has 1 to 5 dimensions, got " << rank;
  if (shapeArgs.size() != rank || shapeValues.size() != rank ||
      strideArgs.size() != rank || strideValues.size() != rank)
    return emitError() << "shape_args, shape_values, stride_args and "
                          "stride_values need one entry per box dimension ("
                       << rank << ")";
  for (int64_t b : box)
    if (b < 1 || b > 256)
      return emitError() << "TMA box dimensions are 1 to 256, got " << b;
  if (!elementType.isIntOrFloat())
    return emitError() << "element_type must be an integer or float type";
  unsigned bits = elementType.getIntOrFloatBitWidth();
  if (bits % 8 || bits > 64)
    return emitError() << "element_type must be 1, 2, 4 or 8 bytes wide";
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "swizzle must be 0, 32, 64 or 128 bytes, got "
                       << swizzle;
  int64_t innerBytes = box.back() * (bits / 8);
  if (innerBytes % 16)
    return emitError() << "the box's inner dimension must span a multiple of "
                          "16 bytes, got "
                       << innerBytes;
  if (swizzle && innerBytes > swizzle)
    return emitError() << "the box's inner dimension (" << innerBytes
                       << " bytes) is wider than its " << swizzle
                       << "-byte swizzle";
  auto checkSources = [&](ArrayRef<int64_t> args, ArrayRef<int64_t> values,
                          StringRef what) -> LogicalResult {
    for (auto [arg, value] : llvm::zip(args, values)) {
      if (arg < -1)
        return emitError() << what << "_args entries are -1 or an argument "
                           << "index, got " << arg;
      if (arg == -1 && value < 1)
        return emitError() << what << "_values must be positive, got " << value;
    }
    return success();
  };
  if (failed(checkSources(shapeArgs, shapeValues, "shape")) ||
      failed(checkSources(strideArgs, strideValues, "stride")))
    return failure();
  if (strideArgs.back() != -1 || strideValues.back() != 1)
    return emitError() << "the innermost stride must be the constant 1";
  (void)base;
  (void)nan;
  return success();
}

/// The argument is the launcher's: its type is a descriptor of the box (the
/// ttgir function) or a pointer (the LLVM function), and what it names are
/// arguments before it.
LogicalResult TPXGPUDialect::verifyRegionArgAttribute(Operation *op,
                                                      unsigned region,
                                                      unsigned argIndex,
                                                      NamedAttribute attr) {
  if (attr.getName() != kTensorMapAttrName)
    return op->emitError() << "unknown tpxgpu argument attribute '"
                           << attr.getName().strref() << "'; expected '"
                           << kTensorMapAttrName << "'";
  auto map = dyn_cast<TensorMapAttr>(attr.getValue());
  if (!map)
    return op->emitError() << "'" << kTensorMapAttrName
                           << "' must be a #tpxgpu.tensor_map";
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (!function || region != 0)
    return op->emitError() << "'" << kTensorMapAttrName
                           << "' belongs on a function's arguments";
  Type type = function.getArgumentTypes()[argIndex];
  if (auto desc = dyn_cast<tt::TensorDescType>(type)) {
    RankedTensorType block = desc.getBlockType();
    if (block.getShape() != map.getBox() ||
        block.getElementType() != map.getElementType())
      return op->emitError()
             << "argument " << argIndex << " of type " << type
             << " does not match its tensor map's box and element type";
  } else if (type.getDialect().getNamespace() != "llvm") {
    return op->emitError() << "'" << kTensorMapAttrName
                           << "' is for a !tt.tensordesc (or, lowered, "
                              "!llvm.ptr) argument, got "
                           << type;
  }
  auto before = [&](int64_t index) {
    return index < static_cast<int64_t>(argIndex);
  };
  if (!before(map.getBase()) || !llvm::all_of(map.getShapeArgs(), before) ||
      !llvm::all_of(map.getStrideArgs(), before))
    return op->emitError() << "the tensor map of argument " << argIndex
                           << " may only name arguments before it";
  return success();
}
