//===- TPXGPULayouts.cpp - tpxgpu layout attributes and helpers -----------===//
//
// Every layout prints as `<{key = value, ...}>`. Parsing goes through a
// DictionaryAttr so that parameters may come in any order and a missing,
// unknown or mistyped parameter is reported by name.
//
//===----------------------------------------------------------------------===//
#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tpx::tpxgpu;

#define GET_ATTRDEF_CLASSES
#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.cpp.inc"

void TPXGPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// `<{key = value, ...}>` parsing and printing
//===----------------------------------------------------------------------===//

namespace {
class LayoutParams {
public:
  LayoutParams(AsmParser &parser, StringRef mnemonic)
      : parser(parser), mnemonic(mnemonic) {}

  /// Parses `<{...}>`.
  ParseResult parseBody() {
    loc = parser.getCurrentLocation();
    if (parser.parseLess() || parser.parseAttribute(dict) ||
        parser.parseGreater())
      return failure();
    return success();
  }

  ParseResult getAttr(StringRef key, Attribute &out, bool required = true) {
    seen.insert(key);
    out = dict.get(key);
    if (!out && required)
      return parser.emitError(loc)
             << "#tpxgpu." << mnemonic << " needs parameter '" << key << "'";
    return success();
  }

  ParseResult getUnsigned(StringRef key, unsigned &out,
                          std::optional<unsigned> defaultValue = {}) {
    Attribute attr;
    if (getAttr(key, attr, /*required=*/!defaultValue))
      return failure();
    if (!attr) {
      out = *defaultValue;
      return success();
    }
    auto value = dyn_cast<IntegerAttr>(attr);
    if (!value || value.getType().isInteger(1) || value.getValue().isNegative())
      return parser.emitError(loc)
             << "parameter '" << key << "' of #tpxgpu." << mnemonic
             << " must be a non-negative integer, got " << attr;
    out = value.getValue().getZExtValue();
    return success();
  }

  ParseResult getBool(StringRef key, bool &out, bool defaultValue) {
    Attribute attr;
    if (getAttr(key, attr, /*required=*/false))
      return failure();
    if (!attr) {
      out = defaultValue;
      return success();
    }
    auto value = dyn_cast<BoolAttr>(attr);
    if (!value)
      return parser.emitError(loc)
             << "parameter '" << key << "' of #tpxgpu." << mnemonic
             << " must be true or false, got " << attr;
    out = value.getValue();
    return success();
  }

  ParseResult getUnsignedArray(StringRef key, SmallVectorImpl<unsigned> &out) {
    Attribute attr;
    if (getAttr(key, attr))
      return failure();
    auto array = dyn_cast<ArrayAttr>(attr);
    auto fail = [&] {
      return parser.emitError(loc)
             << "parameter '" << key << "' of #tpxgpu." << mnemonic
             << " must be an array of non-negative integers, got " << attr;
    };
    if (!array)
      return fail();
    for (Attribute element : array) {
      auto value = dyn_cast<IntegerAttr>(element);
      if (!value || value.getValue().isNegative())
        return fail();
      out.push_back(value.getValue().getZExtValue());
    }
    return success();
  }

  /// Rejects parameters no getter asked for (typos would otherwise vanish).
  ParseResult finish() {
    for (NamedAttribute entry : dict)
      if (!seen.contains(entry.getName().strref()))
        return parser.emitError(loc)
               << "unknown parameter '" << entry.getName().strref()
               << "' in #tpxgpu." << mnemonic;
    return success();
  }

private:
  AsmParser &parser;
  StringRef mnemonic;
  SMLoc loc;
  DictionaryAttr dict;
  llvm::StringSet<> seen;
};

/// Prints `key = [a, b]`.
struct ArrayParam {
  StringRef key;
  ArrayRef<unsigned> values;
};
AsmPrinter &operator<<(AsmPrinter &printer, ArrayParam param) {
  printer << param.key << " = [";
  llvm::interleaveComma(param.values, printer);
  return printer << "]";
}

std::string formatList(ArrayRef<unsigned> values) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[";
  llvm::interleaveComma(values, os);
  os << "]";
  return text;
}

std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, "x");
  return text;
}

unsigned product(ArrayRef<unsigned> values) {
  unsigned result = 1;
  for (unsigned value : values)
    result *= value;
  return result;
}

LogicalResult verifyPowersOfTwo(function_ref<InFlightDiagnostic()> emitError,
                                StringRef what, ArrayRef<unsigned> values) {
  for (unsigned value : values)
    if (!llvm::isPowerOf2_32(value))
      return emitError() << what << " must hold powers of two, got "
                         << formatList(values);
  return success();
}

LogicalResult verifyPermutation(function_ref<InFlightDiagnostic()> emitError,
                                StringRef what, ArrayRef<unsigned> order,
                                unsigned rank) {
  SmallVector<bool> used(rank, false);
  for (unsigned dim : order) {
    if (dim >= rank || used[dim])
      return emitError() << what << " must be a permutation of 0.." << rank - 1
                         << ", got " << formatList(order);
    used[dim] = true;
  }
  if (order.size() != rank)
    return emitError() << what << " must be a permutation of 0.." << rank - 1
                       << ", got " << formatList(order);
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// #tpxgpu.blocked
//===----------------------------------------------------------------------===//

Attribute BlockedEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutParams params(parser, "blocked");
  SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  if (params.parseBody() ||
      params.getUnsignedArray("sizePerThread", sizePerThread) ||
      params.getUnsignedArray("threadsPerWarp", threadsPerWarp) ||
      params.getUnsignedArray("warpsPerCTA", warpsPerCTA) ||
      params.getUnsignedArray("order", order) || params.finish())
    return {};
  return parser.getChecked<BlockedEncodingAttr>(
      parser.getContext(), sizePerThread, threadsPerWarp, warpsPerCTA, order);
}

void BlockedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{" << ArrayParam{"sizePerThread", getSizePerThread()} << ", "
          << ArrayParam{"threadsPerWarp", getThreadsPerWarp()} << ", "
          << ArrayParam{"warpsPerCTA", getWarpsPerCTA()} << ", "
          << ArrayParam{"order", getOrder()} << "}>";
}

LogicalResult BlockedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError,
    ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> threadsPerWarp,
    ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (rank == 0)
    return emitError() << "blocked layout needs at least one dimension";
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return emitError() << "blocked layout parameters must have one entry per "
                          "dimension; got sizePerThread "
                       << sizePerThread.size() << ", threadsPerWarp "
                       << threadsPerWarp.size() << ", warpsPerCTA "
                       << warpsPerCTA.size() << ", order " << rank;
  if (failed(verifyPowersOfTwo(emitError, "blocked sizePerThread",
                               sizePerThread)) ||
      failed(verifyPowersOfTwo(emitError, "blocked threadsPerWarp",
                               threadsPerWarp)) ||
      failed(verifyPowersOfTwo(emitError, "blocked warpsPerCTA", warpsPerCTA)))
    return failure();
  // The exact warp size comes from the module (verifyLayoutsInContext); on
  // its own a layout can only be for one of the two warp sizes there are.
  unsigned warpSize = product(threadsPerWarp);
  if (warpSize != 32 && warpSize != 64)
    return emitError() << "blocked threadsPerWarp must multiply to a warp "
                          "size (32 or 64), got "
                       << warpSize;
  return verifyPermutation(emitError, "blocked order", order, rank);
}

//===----------------------------------------------------------------------===//
// #tpxgpu.slice
//===----------------------------------------------------------------------===//

Attribute SliceEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutParams params(parser, "slice");
  unsigned dim;
  Attribute parent;
  if (params.parseBody() || params.getUnsigned("dim", dim) ||
      params.getAttr("parent", parent) || params.finish())
    return {};
  return parser.getChecked<SliceEncodingAttr>(parser.getContext(), dim, parent);
}

void SliceEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{dim = " << getDim() << ", parent = ";
  printer.printAttribute(getParent());
  printer << "}>";
}

LogicalResult
SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned dim, Attribute parent) {
  // A dot operand layout is tied to one MMA's operand shape; slicing it
  // has no meaning for any instruction.
  if (!isDistributedLayout(parent) || isa<DotOperandEncodingAttr>(parent))
    return emitError() << "slice parent must be a blocked, slice or MMA "
                          "layout, got "
                       << parent;
  unsigned parentRank = getLayoutRank(parent);
  if (parentRank < 2)
    return emitError() << "slice parent must have rank >= 2 (the slice has "
                          "one dimension fewer), got rank "
                       << parentRank;
  if (dim >= parentRank)
    return emitError() << "slice dim " << dim
                       << " is out of range for a parent of rank "
                       << parentRank;
  return success();
}

unsigned SliceEncodingAttr::getRank() const {
  return getLayoutRank(getParent()) - 1;
}

//===----------------------------------------------------------------------===//
// #tpxgpu.nvidia_mma
//===----------------------------------------------------------------------===//

Attribute NvidiaMmaEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutParams params(parser, "nvidia_mma");
  unsigned version;
  SmallVector<unsigned> warpsPerCTA, instrShape;
  if (params.parseBody() || params.getUnsigned("version", version) ||
      params.getUnsignedArray("warpsPerCTA", warpsPerCTA) ||
      params.getUnsignedArray("instrShape", instrShape) || params.finish())
    return {};
  return parser.getChecked<NvidiaMmaEncodingAttr>(parser.getContext(), version,
                                                  warpsPerCTA, instrShape);
}

void NvidiaMmaEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{version = " << getVersion() << ", "
          << ArrayParam{"warpsPerCTA", getWarpsPerCTA()} << ", "
          << ArrayParam{"instrShape", getInstrShape()} << "}>";
}

LogicalResult
NvidiaMmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              unsigned version, ArrayRef<unsigned> warpsPerCTA,
                              ArrayRef<unsigned> instrShape) {
  if (version != 2 && version != 3)
    return emitError() << "nvidia_mma version must be 2 (mma.sync) or 3 "
                          "(wgmma), got "
                       << version;
  if (warpsPerCTA.size() != 2)
    return emitError() << "nvidia_mma warpsPerCTA must have 2 entries "
                          "([M, N]), got "
                       << formatList(warpsPerCTA);
  if (failed(
          verifyPowersOfTwo(emitError, "nvidia_mma warpsPerCTA", warpsPerCTA)))
    return failure();
  if (version == 2) {
    if (instrShape != ArrayRef<unsigned>{16, 8})
      return emitError() << "nvidia_mma version 2 needs instrShape [16, 8] "
                            "(mma.sync m16n8), got "
                         << formatList(instrShape);
    return success();
  }
  // wgmma: m64nNkK per warp group, i.e. 16 rows per warp; N in steps of 8.
  if (instrShape.size() != 3 || instrShape[0] != 16 || instrShape[1] < 8 ||
      instrShape[1] > 256 || instrShape[1] % 8 != 0 ||
      (instrShape[2] != 8 && instrShape[2] != 16 && instrShape[2] != 32))
    return emitError() << "nvidia_mma version 3 needs instrShape [16, N, K] "
                          "with N a multiple of 8 in [8, 256] and K 8, 16 or "
                          "32, got "
                       << formatList(instrShape);
  if (warpsPerCTA[0] % 4 != 0)
    return emitError() << "nvidia_mma version 3 needs warpsPerCTA[0] to be a "
                          "multiple of 4 (a warp group is 4 warps along M), "
                          "got "
                       << formatList(warpsPerCTA);
  return success();
}

//===----------------------------------------------------------------------===//
// #tpxgpu.amd_mfma
//===----------------------------------------------------------------------===//

Attribute AmdMfmaEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutParams params(parser, "amd_mfma");
  unsigned version;
  bool isTransposed;
  SmallVector<unsigned> warpsPerCTA, instrShape;
  if (params.parseBody() || params.getUnsigned("version", version) ||
      params.getUnsignedArray("warpsPerCTA", warpsPerCTA) ||
      params.getUnsignedArray("instrShape", instrShape) ||
      params.getBool("isTransposed", isTransposed, false) || params.finish())
    return {};
  return parser.getChecked<AmdMfmaEncodingAttr>(
      parser.getContext(), version, warpsPerCTA, instrShape, isTransposed);
}

void AmdMfmaEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{version = " << getVersion() << ", "
          << ArrayParam{"warpsPerCTA", getWarpsPerCTA()} << ", "
          << ArrayParam{"instrShape", getInstrShape()}
          << ", isTransposed = " << (getIsTransposed() ? "true" : "false")
          << "}>";
}

LogicalResult
AmdMfmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            unsigned version, ArrayRef<unsigned> warpsPerCTA,
                            ArrayRef<unsigned> instrShape, bool) {
  if (version < 1 || version > 4)
    return emitError() << "amd_mfma version must be the CDNA generation 1-4, "
                          "got "
                       << version;
  if (warpsPerCTA.size() != 2)
    return emitError() << "amd_mfma warpsPerCTA must have 2 entries "
                          "([M, N]), got "
                       << formatList(warpsPerCTA);
  if (failed(verifyPowersOfTwo(emitError, "amd_mfma warpsPerCTA", warpsPerCTA)))
    return failure();
  if (instrShape.size() != 3 || instrShape[0] != instrShape[1] ||
      (instrShape[0] != 32 && instrShape[0] != 16) ||
      !llvm::isPowerOf2_32(instrShape[2]))
    return emitError() << "amd_mfma instrShape must be [32, 32, K] or "
                          "[16, 16, K] with K a power of two, got "
                       << formatList(instrShape);
  return success();
}

//===----------------------------------------------------------------------===//
// #tpxgpu.dot_op
//===----------------------------------------------------------------------===//

Attribute DotOperandEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutParams params(parser, "dot_op");
  unsigned opIdx, kWidth;
  Attribute parent;
  if (params.parseBody() || params.getUnsigned("opIdx", opIdx) ||
      params.getAttr("parent", parent) ||
      params.getUnsigned("kWidth", kWidth, 0u) || params.finish())
    return {};
  return parser.getChecked<DotOperandEncodingAttr>(parser.getContext(), opIdx,
                                                   parent, kWidth);
}

void DotOperandEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{opIdx = " << getOpIdx() << ", parent = ";
  printer.printAttribute(getParent());
  if (getKWidth() != 0)
    printer << ", kWidth = " << getKWidth();
  printer << "}>";
}

LogicalResult
DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned opIdx, Attribute parent,
                               unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "dot_op opIdx must be 0 (A) or 1 (B), got " << opIdx;
  if (isa<BlockedEncodingAttr>(parent)) {
    if (kWidth != 0)
      return emitError() << "dot_op with a blocked parent (an FMA dot) takes "
                            "no kWidth, got "
                         << kWidth;
    return success();
  }
  auto nvidia = dyn_cast<NvidiaMmaEncodingAttr>(parent);
  if (!nvidia && !isa<AmdMfmaEncodingAttr>(parent))
    return emitError() << "dot_op parent must be an nvidia_mma, amd_mfma or "
                          "blocked layout, got "
                       << parent;
  if (kWidth == 0)
    return emitError() << "dot_op with an MMA parent needs kWidth > 0 (K "
                          "elements per thread and register load)";
  if (nvidia && nvidia.isHopper() && opIdx == 1)
    return emitError() << "wgmma reads operand B only from shared memory; "
                          "there is no register layout for opIdx = 1 of an "
                          "nvidia_mma version 3 parent";
  return success();
}

unsigned DotOperandEncodingAttr::getRank() const {
  return getLayoutRank(getParent());
}

//===----------------------------------------------------------------------===//
// Shared layouts
//===----------------------------------------------------------------------===//

Attribute SwizzledSharedEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutParams params(parser, "swizzled_shared");
  unsigned vec, perPhase, maxPhase;
  SmallVector<unsigned> order;
  if (params.parseBody() || params.getUnsigned("vec", vec) ||
      params.getUnsigned("perPhase", perPhase) ||
      params.getUnsigned("maxPhase", maxPhase) ||
      params.getUnsignedArray("order", order) || params.finish())
    return {};
  return parser.getChecked<SwizzledSharedEncodingAttr>(
      parser.getContext(), vec, perPhase, maxPhase, order);
}

void SwizzledSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{vec = " << getVec() << ", perPhase = " << getPerPhase()
          << ", maxPhase = " << getMaxPhase() << ", "
          << ArrayParam{"order", getOrder()} << "}>";
}

LogicalResult SwizzledSharedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned vec,
    unsigned perPhase, unsigned maxPhase, ArrayRef<unsigned> order) {
  // The swizzle is computed with shifts and masks in the lowering.
  if (!llvm::isPowerOf2_32(vec) || !llvm::isPowerOf2_32(perPhase) ||
      !llvm::isPowerOf2_32(maxPhase))
    return emitError() << "swizzled_shared vec, perPhase and maxPhase must be "
                          "powers of two, got "
                       << vec << ", " << perPhase << ", " << maxPhase;
  if (order.empty())
    return emitError() << "swizzled_shared layout needs at least one "
                          "dimension in order";
  return verifyPermutation(emitError, "swizzled_shared order", order,
                           order.size());
}

Attribute PaddedSharedEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutParams params(parser, "padded_shared");
  unsigned padding;
  SmallVector<unsigned> order;
  if (params.parseBody() || params.getUnsigned("padding", padding) ||
      params.getUnsignedArray("order", order) || params.finish())
    return {};
  return parser.getChecked<PaddedSharedEncodingAttr>(parser.getContext(),
                                                     padding, order);
}

void PaddedSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{padding = " << getPadding() << ", "
          << ArrayParam{"order", getOrder()} << "}>";
}

LogicalResult
PaddedSharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 unsigned, ArrayRef<unsigned> order) {
  if (order.empty())
    return emitError() << "padded_shared layout needs at least one "
                          "dimension in order";
  return verifyPermutation(emitError, "padded_shared order", order,
                           order.size());
}

Attribute NvmmaSharedEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutParams params(parser, "nvmma_shared");
  unsigned swizzle, bitWidth;
  bool transposed;
  if (params.parseBody() || params.getUnsigned("swizzlingByteWidth", swizzle) ||
      params.getBool("transposed", transposed, false) ||
      params.getUnsigned("elementBitWidth", bitWidth) || params.finish())
    return {};
  return parser.getChecked<NvmmaSharedEncodingAttr>(
      parser.getContext(), swizzle, transposed, bitWidth);
}

void NvmmaSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{swizzlingByteWidth = " << getSwizzlingByteWidth()
          << ", transposed = " << (getTransposed() ? "true" : "false")
          << ", elementBitWidth = " << getElementBitWidth() << "}>";
}

LogicalResult
NvmmaSharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                unsigned swizzle, bool, unsigned bitWidth) {
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "nvmma_shared swizzlingByteWidth must be 0, 32, 64 "
                          "or 128 (the TMA/wgmma swizzle modes), got "
                       << swizzle;
  if (bitWidth != 8 && bitWidth != 16 && bitWidth != 32 && bitWidth != 64)
    return emitError() << "nvmma_shared elementBitWidth must be 8, 16, 32 or "
                          "64, got "
                       << bitWidth;
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor-encoding verification (VerifiableTensorEncoding)
//===----------------------------------------------------------------------===//

#define TPXGPU_VERIFY_ENCODING(Attr)                                           \
  LogicalResult Attr::verifyEncoding(                                          \
      ArrayRef<int64_t> shape, Type,                                           \
      function_ref<InFlightDiagnostic()> emitError) const {                    \
    return verifyLayoutForShape(*this, shape, emitError);                      \
  }
TPXGPU_VERIFY_ENCODING(BlockedEncodingAttr)
TPXGPU_VERIFY_ENCODING(SliceEncodingAttr)
TPXGPU_VERIFY_ENCODING(NvidiaMmaEncodingAttr)
TPXGPU_VERIFY_ENCODING(AmdMfmaEncodingAttr)
TPXGPU_VERIFY_ENCODING(DotOperandEncodingAttr)
TPXGPU_VERIFY_ENCODING(SwizzledSharedEncodingAttr)
TPXGPU_VERIFY_ENCODING(NvmmaSharedEncodingAttr)
TPXGPU_VERIFY_ENCODING(PaddedSharedEncodingAttr)
#undef TPXGPU_VERIFY_ENCODING

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

bool tpx::tpxgpu::isDistributedLayout(Attribute layout) {
  return isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr,
                         NvidiaMmaEncodingAttr, AmdMfmaEncodingAttr,
                         DotOperandEncodingAttr>(layout);
}

bool tpx::tpxgpu::isSharedLayout(Attribute layout) {
  return isa_and_nonnull<SwizzledSharedEncodingAttr, NvmmaSharedEncodingAttr,
                         PaddedSharedEncodingAttr>(layout);
}

unsigned tpx::tpxgpu::getLayoutRank(Attribute layout) {
  return llvm::TypeSwitch<Attribute, unsigned>(layout)
      .Case<BlockedEncodingAttr, SliceEncodingAttr, NvidiaMmaEncodingAttr,
            AmdMfmaEncodingAttr, DotOperandEncodingAttr,
            SwizzledSharedEncodingAttr, NvmmaSharedEncodingAttr,
            PaddedSharedEncodingAttr>([](auto attr) { return attr.getRank(); })
      .Default([](Attribute) { return 0u; });
}

SmallVector<unsigned> tpx::tpxgpu::getThreadsPerWarp(Attribute layout) {
  return llvm::TypeSwitch<Attribute, SmallVector<unsigned>>(layout)
      .Case([](BlockedEncodingAttr blocked) {
        return SmallVector<unsigned>(blocked.getThreadsPerWarp());
      })
      .Case([](SliceEncodingAttr slice) {
        SmallVector<unsigned> parent = getThreadsPerWarp(slice.getParent());
        parent.erase(parent.begin() + slice.getDim());
        return parent;
      })
      // mma.sync/wgmma accumulators: lane / 4 picks the row, lane % 4 the
      // column pair within a 16x8 fragment.
      .Case([](NvidiaMmaEncodingAttr) {
        return SmallVector<unsigned>{8, 4};
      })
      // MFMA: lanes run along N in groups of instrShape[1]; the remaining
      // lane bits pick a row group. Transposed swaps the roles.
      .Case([](AmdMfmaEncodingAttr mfma) {
        unsigned n = mfma.getInstrShape()[1];
        SmallVector<unsigned> result{64 / n, n};
        if (mfma.getIsTransposed())
          std::swap(result[0], result[1]);
        return result;
      })
      .Case([](DotOperandEncodingAttr dot) {
        return getThreadsPerWarp(dot.getParent());
      })
      .Default([](Attribute) { return SmallVector<unsigned>(); });
}

SmallVector<unsigned> tpx::tpxgpu::getWarpsPerCTA(Attribute layout) {
  return llvm::TypeSwitch<Attribute, SmallVector<unsigned>>(layout)
      .Case<BlockedEncodingAttr, NvidiaMmaEncodingAttr, AmdMfmaEncodingAttr>(
          [](auto attr) {
            return SmallVector<unsigned>(attr.getWarpsPerCTA());
          })
      .Case([](SliceEncodingAttr slice) {
        SmallVector<unsigned> parent = getWarpsPerCTA(slice.getParent());
        parent.erase(parent.begin() + slice.getDim());
        return parent;
      })
      .Case([](DotOperandEncodingAttr dot) {
        return getWarpsPerCTA(dot.getParent());
      })
      .Default([](Attribute) { return SmallVector<unsigned>(); });
}

unsigned tpx::tpxgpu::getWarpSize(Attribute layout) {
  return llvm::TypeSwitch<Attribute, unsigned>(layout)
      .Case([](BlockedEncodingAttr blocked) {
        return product(blocked.getThreadsPerWarp());
      })
      .Case([](SliceEncodingAttr slice) {
        return getWarpSize(slice.getParent());
      })
      .Case([](DotOperandEncodingAttr dot) {
        return getWarpSize(dot.getParent());
      })
      .Case([](NvidiaMmaEncodingAttr) { return 32u; })
      .Case([](AmdMfmaEncodingAttr) { return 64u; })
      .Default([](Attribute) { return 0u; });
}

unsigned tpx::tpxgpu::getNumWarps(Attribute layout) {
  // A slice's warps along the removed dimension still exist (they hold
  // copies), so the count is the parent's.
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout))
    return getNumWarps(slice.getParent());
  if (auto dot = dyn_cast<DotOperandEncodingAttr>(layout))
    return getNumWarps(dot.getParent());
  return product(getWarpsPerCTA(layout));
}

SmallVector<unsigned> tpx::tpxgpu::getElemsPerThread(Attribute layout,
                                                     ArrayRef<int64_t> shape) {
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout)) {
    if (shape.size() != blocked.getRank())
      return {};
    SmallVector<unsigned> result;
    for (auto [dim, size] : llvm::enumerate(shape)) {
      int64_t perThread = blocked.getSizePerThread()[dim];
      int64_t tile = perThread * blocked.getThreadsPerWarp()[dim] *
                     blocked.getWarpsPerCTA()[dim];
      result.push_back(perThread * llvm::divideCeil(size, tile));
    }
    return result;
  }
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout)) {
    if (shape.size() != slice.getRank())
      return {};
    SmallVector<unsigned> parent = getElemsPerThread(
        slice.getParent(), getSliceParentShape(shape, slice.getDim()));
    if (parent.empty())
      return {};
    // Registers along the removed dimension would hold the same element.
    parent.erase(parent.begin() + slice.getDim());
    return parent;
  }
  return {};
}

unsigned tpx::tpxgpu::getTotalElemsPerThread(Attribute layout,
                                             ArrayRef<int64_t> shape) {
  SmallVector<unsigned> perDim = getElemsPerThread(layout, shape);
  return perDim.empty() ? 0 : product(perDim);
}

SmallVector<int64_t> tpx::tpxgpu::getSliceParentShape(ArrayRef<int64_t> shape,
                                                      unsigned dim) {
  SmallVector<int64_t> parent(shape);
  parent.insert(parent.begin() + std::min<size_t>(dim, parent.size()), 1);
  return parent;
}

LogicalResult tpx::tpxgpu::verifyLayoutForShape(
    Attribute layout, ArrayRef<int64_t> shape,
    function_ref<InFlightDiagnostic()> emitError) {
  if (isSharedLayout(layout))
    return emitError() << layout
                       << " is a shared-memory layout and cannot encode a "
                          "tensor; shared memory is a !tpxgpu.memdesc";
  if (!isDistributedLayout(layout))
    return emitError() << layout << " is not a tpxgpu tensor layout";
  unsigned rank = getLayoutRank(layout);
  if (shape.size() != rank)
    return emitError() << "tensor of rank " << shape.size()
                       << " cannot have a layout of rank " << rank << " ("
                       << layout << ")";
  for (auto [dim, size] : llvm::enumerate(shape))
    if (size <= 0 || !llvm::isPowerOf2_64(size))
      return emitError() << "dimension " << dim << " of a tensor with layout "
                         << layout << " must be a power of two, got "
                         << formatShape(shape);

  // An MMA layout places whole instructions: the tensor must be made of
  // them. The instruction tile per warp is [M, N] for an accumulator,
  // [M, K] for operand A and [K, N] for operand B; wgmma's M is that of the
  // warp group (4 warps x 16 rows).
  Attribute mma = layout;
  int opIdx = -1;
  if (auto dot = dyn_cast<DotOperandEncodingAttr>(layout)) {
    mma = dot.getParent();
    opIdx = dot.getOpIdx();
  }
  ArrayRef<unsigned> instr;
  unsigned mScale = 1;
  if (auto nvidia = dyn_cast<NvidiaMmaEncodingAttr>(mma)) {
    instr = nvidia.getInstrShape();
    mScale = nvidia.isHopper() ? 4 : 1;
  } else if (auto amd = dyn_cast<AmdMfmaEncodingAttr>(mma)) {
    instr = amd.getInstrShape();
  } else {
    return success();
  }
  int64_t m = instr[0] * mScale, n = instr[1];
  int64_t k = instr.size() > 2 ? instr[2] : 1;
  int64_t rows = opIdx == 1 ? k : m;
  int64_t cols = opIdx == 0 ? k : n;
  // An accumulator layout may also describe a size-1 dimension (the source
  // of a broadcast into the accumulator): every warp and lane along it holds
  // the one element, so elementwise work on the accumulator (scaling rows,
  // say) stays in its layout.
  auto whole = [&](int64_t size, int64_t tile) {
    return size % tile == 0 || (opIdx < 0 && size == 1);
  };
  if (!whole(shape[0], rows) || !whole(shape[1], cols)) {
    StringRef role = opIdx == 0   ? "operand A"
                     : opIdx == 1 ? "operand B"
                                  : "accumulator";
    return emitError() << "tensor of shape " << formatShape(shape)
                       << " is not made of whole " << rows << "x" << cols
                       << " MMA tiles (" << role << " of " << mma << ")";
  }
  return success();
}

static ModuleOp getEnclosingModule(Operation *op) {
  if (auto module = dyn_cast<ModuleOp>(op))
    return module;
  return op->getParentOfType<ModuleOp>();
}

unsigned tpx::tpxgpu::getModuleThreadsPerWarp(Operation *op) {
  if (ModuleOp module = getEnclosingModule(op))
    if (auto value = module->getAttrOfType<IntegerAttr>(
            TPXGPUDialect::kThreadsPerWarpAttrName))
      return value.getInt();
  return TPXGPUDialect::kDefaultThreadsPerWarp;
}

Attribute tpx::tpxgpu::getTransposedSharedLayout(Attribute layout) {
  if (auto nvmma = dyn_cast<NvmmaSharedEncodingAttr>(layout))
    return NvmmaSharedEncodingAttr::get(
        layout.getContext(), nvmma.getSwizzlingByteWidth(),
        !nvmma.getTransposed(), nvmma.getElementBitWidth());
  if (auto padded = dyn_cast<PaddedSharedEncodingAttr>(layout)) {
    if (padded.getRank() != 2)
      return {};
    return PaddedSharedEncodingAttr::get(
        layout.getContext(), padded.getPadding(),
        {padded.getOrder()[1], padded.getOrder()[0]});
  }
  return {};
}

llvm::StringRef tpx::tpxgpu::getModuleTarget(Operation *op) {
  if (ModuleOp module = getEnclosingModule(op))
    if (auto value =
            module->getAttrOfType<StringAttr>(TPXGPUDialect::kTargetAttrName))
      return value.getValue();
  return "";
}

bool tpx::tpxgpu::isAMDModule(Operation *op) {
  return getModuleTarget(op).starts_with("gfx");
}

unsigned tpx::tpxgpu::getModuleNumWarps(Operation *op) {
  if (ModuleOp module = getEnclosingModule(op))
    if (auto value = module->getAttrOfType<IntegerAttr>(
            TPXGPUDialect::kNumWarpsAttrName))
      return value.getInt() > 0 ? value.getInt() : 0;
  return 0;
}

std::array<int32_t, 3> tpx::tpxgpu::getModuleClusterDims(Operation *op) {
  if (ModuleOp module = getEnclosingModule(op))
    if (auto dims = module->getAttrOfType<DenseI32ArrayAttr>(
            TPXGPUDialect::kClusterDimsAttrName);
        dims && dims.size() == 3)
      return {dims[0], dims[1], dims[2]};
  return {1, 1, 1};
}

unsigned tpx::tpxgpu::getModuleClusterSize(Operation *op) {
  std::array<int32_t, 3> dims = getModuleClusterDims(op);
  return std::max<int64_t>(1, int64_t(dims[0]) * dims[1] * dims[2]);
}

LogicalResult tpx::tpxgpu::verifyLayoutsInContext(Operation *op,
                                                  unsigned threadsPerWarp,
                                                  unsigned numWarps) {
  auto check = [&](Type type, StringRef role, unsigned index) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !isDistributedLayout(tensor.getEncoding()))
      return success();
    Attribute layout = tensor.getEncoding();
    if (unsigned warpSize = getWarpSize(layout); warpSize != threadsPerWarp)
      return op->emitOpError()
             << role << " #" << index << " has a layout for " << warpSize
             << " threads per warp, but the module has " << threadsPerWarp
             << " (" << TPXGPUDialect::kThreadsPerWarpAttrName << ")";
    if (unsigned warps = getNumWarps(layout); numWarps && warps != numWarps)
      return op->emitOpError()
             << role << " #" << index << " has a layout for " << warps
             << " warps, but the module has " << numWarps << " ("
             << TPXGPUDialect::kNumWarpsAttrName << ")";
    return success();
  };
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", index)))
      return failure();
  for (auto [index, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", index)))
      return failure();
  return success();
}

BlockedEncodingAttr tpx::tpxgpu::getJoinedLayout(BlockedEncodingAttr layout) {
  SmallVector<unsigned> sizePerThread(layout.getSizePerThread());
  SmallVector<unsigned> threadsPerWarp(layout.getThreadsPerWarp());
  SmallVector<unsigned> warpsPerCTA(layout.getWarpsPerCTA());
  sizePerThread.push_back(2);
  threadsPerWarp.push_back(1);
  warpsPerCTA.push_back(1);
  SmallVector<unsigned> order = {layout.getRank()};
  llvm::append_range(order, layout.getOrder());
  return BlockedEncodingAttr::get(layout.getContext(), sizePerThread,
                                  threadsPerWarp, warpsPerCTA, order);
}

BlockedEncodingAttr tpx::tpxgpu::getSplitLayout(BlockedEncodingAttr layout) {
  unsigned minor = layout.getRank() - 1;
  if (layout.getRank() < 2 || layout.getOrder().front() != minor ||
      layout.getSizePerThread()[minor] != 2 ||
      layout.getThreadsPerWarp()[minor] != 1 ||
      layout.getWarpsPerCTA()[minor] != 1)
    return nullptr;
  return BlockedEncodingAttr::get(
      layout.getContext(), layout.getSizePerThread().drop_back(),
      layout.getThreadsPerWarp().drop_back(),
      layout.getWarpsPerCTA().drop_back(), layout.getOrder().drop_front());
}
