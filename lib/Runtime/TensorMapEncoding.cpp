//===- TensorMapEncoding.cpp - TMA tensor maps for a launch ---------------===//
#include "tpx/Runtime/TensorMapEncoding.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tpx;
using namespace tpx::cuda;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// CUtensorMapDataType for an element type. 8-bit floats move as bytes.
static int getDataType(llvm::StringRef type) {
  return llvm::StringSwitch<int>(type)
      .Case("f16", 6)
      .Case("bf16", 9)
      .Case("f32", 7)
      .Case("f64", 8)
      .Case("i16", 1)
      .Case("i32", 3)
      .Case("i64", 5)
      .Cases("i8", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ", 0)
      .Default(-1);
}

/// CUtensorMapSwizzle for a swizzle in bytes.
static int getSwizzle(unsigned bytes) {
  switch (bytes) {
  case 32:
    return 1;
  case 64:
    return 2;
  case 128:
    return 3;
  default:
    return 0;
  }
}

llvm::Expected<TensorMap>
tpx::cuda::encodeTensorMap(const DriverAPI &driver, const TensorMapParam &param,
                           llvm::ArrayRef<int64_t> args,
                           llvm::StringRef where) {
  size_t rank = param.box.size();
  auto argument = [&](int64_t index, int64_t constant,
                      llvm::StringRef what) -> llvm::Expected<int64_t> {
    if (index < 0)
      return constant;
    if (static_cast<size_t>(index) >= args.size())
      return makeError(llvm::formatv("{0}: the tensor map's {1} is argument "
                                     "{2}, but the kernel has {3}",
                                     where, what, index, args.size()));
    return args[index];
  };
  int dataType = getDataType(param.elementType);
  if (dataType < 0)
    return makeError(where + ": TMA cannot move elements of type " +
                     param.elementType);
  auto base = argument(param.base, 0, "base");
  if (!base)
    return base.takeError();
  if (*base % 16)
    return makeError(llvm::formatv(
        "{0}: the tensor descriptor's base address {1:x} is not 16-byte "
        "aligned (TMA requires it)",
        where, *base));
  // The driver's order is innermost first; TTIR's is outermost first.
  uint64_t dims[5], strides[4];
  uint32_t box[5], elementStrides[5];
  for (size_t d = 0; d < rank; ++d) {
    size_t r = rank - 1 - d;
    auto extent = argument(param.shapeArgs[d], param.shapeValues[d], "shape");
    if (!extent)
      return extent.takeError();
    if (*extent < 1 || *extent > (int64_t(1) << 32))
      return makeError(llvm::formatv("{0}: tensor descriptor dimension {1} "
                                     "has extent {2} (TMA takes 1 to 2^32)",
                                     where, d, *extent));
    dims[r] = static_cast<uint64_t>(*extent);
    box[r] = static_cast<uint32_t>(param.box[d]);
    elementStrides[r] = 1;
    if (d + 1 == rank)
      continue; // the innermost stride is 1 (checked by the compiler)
    auto stride =
        argument(param.strideArgs[d], param.strideValues[d], "stride");
    if (!stride)
      return stride.takeError();
    int64_t bytes = *stride * int64_t(param.elementBytes);
    if (*stride < 1 || bytes % 16 || bytes >= (int64_t(1) << 40))
      return makeError(llvm::formatv(
          "{0}: tensor descriptor stride {1} of dimension {2} is {3} bytes; "
          "TMA needs a positive multiple of 16 below 2^40",
          where, *stride, d, bytes));
    strides[r - 1] = static_cast<uint64_t>(bytes);
  }
  if (!driver.cuTensorMapEncodeTiled)
    return makeError(where + ": the CUDA driver lacks cuTensorMapEncodeTiled "
                             "(TMA needs a CUDA 12 driver or later)");
  TensorMap map;
  std::string call = llvm::formatv(
      "cuTensorMapEncodeTiled for {0} ({1}, rank {2}, swizzle {3})", where,
      param.elementType, rank, param.swizzleBytes);
  if (auto error = driver.check(
          driver.cuTensorMapEncodeTiled(
              map.bytes.data(), dataType, static_cast<uint32_t>(rank),
              reinterpret_cast<void *>(static_cast<uintptr_t>(*base)), dims,
              strides, box, elementStrides, /*interleave=*/0,
              getSwizzle(param.swizzleBytes), /*l2Promotion (128B)=*/2,
              /*oobFill=*/param.nanPadding ? 1 : 0),
          call))
    return std::move(error);
  return map;
}
