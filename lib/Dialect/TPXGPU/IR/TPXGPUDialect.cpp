//===- TPXGPUDialect.cpp - the tpxgpu dialect -----------------------------===//
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TPXGPU/IR/SIMTLoweringInterface.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FoldInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tpx::tpxgpu;

#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.cpp.inc"

// Defined once, in the core library, so that plugins and the core agree on
// the interface's identity.
MLIR_DEFINE_EXPLICIT_TYPE_ID(tpx::tpxgpu::SIMTLoweringDialectInterface)

namespace {
/// Layouts print as `#blocked`, `#mma`, `#shared` ... aliases so that long
/// tensor types stay readable.
struct TPXGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    StringRef name =
        llvm::TypeSwitch<Attribute, StringRef>(attr)
            .Case([](BlockedEncodingAttr) { return "blocked"; })
            .Case([](SliceEncodingAttr) { return "slice"; })
            .Case([](NvidiaMmaEncodingAttr) { return "mma"; })
            .Case([](AmdMfmaEncodingAttr) { return "mfma"; })
            .Case([](DotOperandEncodingAttr) { return "dot_op"; })
            .Case<SwizzledSharedEncodingAttr, NvmmaSharedEncodingAttr,
                  PaddedSharedEncodingAttr>([](auto) { return "shared"; })
            .Default([](Attribute) { return StringRef(); });
    if (name.empty())
      return AliasResult::NoAlias;
    os << name;
    return AliasResult::FinalAlias;
  }
};
} // namespace

namespace {
/// Constants folded inside a warp_specialize partition stay there, in the
/// partition's layouts, rather than being hoisted to the function entry.
struct TPXGPUFoldInterface : public DialectFoldInterface {
  using DialectFoldInterface::DialectFoldInterface;
  bool shouldMaterializeInto(Region *region) const final {
    return isa<WarpSpecializeOp>(region->getParentOp());
  }
};
} // namespace

void TPXGPUDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.cpp.inc"
      >();
  addInterfaces<TPXGPUOpAsmInterface, TPXGPUFoldInterface>();
}

/// The facts passes hand on (TPXGPUDialect.td): each has one owner op kind
/// (a module, or any op) and one value form, checked here so that a pass
/// reading one never has to cope with a malformed value.
static LogicalResult verifyHandOffAttribute(Operation *op, StringRef name,
                                            Attribute value) {
  bool onModule = name != TPXGPUDialect::kSharedOffsetAttrName &&
                  name != TPXGPUDialect::kContiguityAttrName;
  if (onModule && !isa<ModuleOp>(op))
    return op->emitError() << "'" << name
                           << "' is a module attribute; it cannot be set on '"
                           << op->getName() << "'";
  if (!onModule && isa<ModuleOp>(op))
    return op->emitError() << "'" << name
                           << "' belongs on the op it describes, not on a "
                              "module";
  if (name == TPXGPUDialect::kCodegenAttrName) {
    auto string = dyn_cast<StringAttr>(value);
    if (!string ||
        (string.getValue() != "simt" && string.getValue() != "scalar"))
      return op->emitError()
             << "'" << name << "' must be \"simt\" or \"scalar\", got "
             << value;
    return success();
  }
  if (name == TPXGPUDialect::kTargetAttrName) {
    auto string = dyn_cast<StringAttr>(value);
    if (!string || !(string.getValue().starts_with("sm_") ||
                     string.getValue().starts_with("gfx")))
      return op->emitError()
             << "'" << name
             << "' must name a GPU (\"sm_<N>\" or \"gfx<N>\"), got " << value;
    return success();
  }
  if (name == TPXGPUDialect::kContiguityAttrName) {
    auto array = dyn_cast<DenseI64ArrayAttr>(value);
    if (!array)
      return op->emitError() << "'" << name
                             << "' must be a dense i64 array (array<i64: "
                                "...>), got "
                             << value;
    if (llvm::any_of(array.asArrayRef(), [](int64_t v) { return v <= 0; }))
      return op->emitError()
             << "'" << name << "' must hold positive entries, got " << value;
    return success();
  }
  // block-threads (i32, positive); shared-bytes, shared-offset (i64, >= 0).
  bool isBlockThreads = name == TPXGPUDialect::kBlockThreadsAttrName;
  unsigned width = isBlockThreads ? 32 : 64;
  auto integer = dyn_cast<IntegerAttr>(value);
  if (!integer || !integer.getType().isSignlessInteger(width))
    return op->emitError() << "'" << name << "' must be an i" << width
                           << " integer, got " << value;
  int64_t count = integer.getInt();
  if (isBlockThreads ? count <= 0 : count < 0)
    return op->emitError() << "'" << name << "' must be "
                           << (isBlockThreads ? "positive" : "non-negative")
                           << ", got " << count;
  return success();
}

/// `tpxgpu.cluster-dims`: a module's three positive cluster extents, at
/// most kMaxClusterSize CTAs in all (the portable cluster size of sm_90).
static LogicalResult verifyClusterDims(Operation *op, Attribute value) {
  StringRef name = TPXGPUDialect::kClusterDimsAttrName;
  if (!isa<ModuleOp>(op))
    return op->emitError() << "'" << name
                           << "' is a module attribute; it cannot be set on '"
                           << op->getName() << "'";
  auto dims = dyn_cast<DenseI32ArrayAttr>(value);
  if (!dims || dims.size() != 3)
    return op->emitError() << "'" << name
                           << "' must be array<i32: x, y, z>, got " << value;
  int64_t size = 1;
  for (int32_t dim : dims.asArrayRef()) {
    if (dim <= 0)
      return op->emitError()
             << "'" << name << "' must hold positive extents, got " << value;
    size *= dim;
  }
  if (size > TPXGPUDialect::kMaxClusterSize)
    return op->emitError() << "'" << name << "' = " << value << " makes "
                           << size << " CTAs a cluster; at most "
                           << TPXGPUDialect::kMaxClusterSize << " are portable";
  return success();
}

/// `tpxgpu.num-warps` and `tpxgpu.threads-per-warp` describe the target of
/// a whole module. Besides checking their values, this checks every tensor
/// layout in the module against them, so that ops of other dialects (tt,
/// arith, scf) that carry tpxgpu layouts are covered too; tpxgpu's own ops
/// check themselves (LayoutsMatchModule) even without the attributes.
LogicalResult TPXGPUDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  if (name == kCodegenAttrName || name == kTargetAttrName ||
      name == kBlockThreadsAttrName || name == kSharedBytesAttrName ||
      name == kSharedOffsetAttrName || name == kContiguityAttrName)
    return verifyHandOffAttribute(op, name, attr.getValue());
  if (name == kClusterDimsAttrName)
    return verifyClusterDims(op, attr.getValue());
  if (name != kNumWarpsAttrName && name != kThreadsPerWarpAttrName)
    return op->emitError() << "unknown tpxgpu attribute '" << name
                           << "'; expected one of '" << kNumWarpsAttrName
                           << "', '" << kThreadsPerWarpAttrName << "', '"
                           << kClusterDimsAttrName << "', '" << kCodegenAttrName
                           << "', '" << kTargetAttrName << "', '"
                           << kBlockThreadsAttrName << "', '"
                           << kSharedBytesAttrName << "', '"
                           << kSharedOffsetAttrName << "', '"
                           << kContiguityAttrName << "'";
  if (!isa<ModuleOp>(op))
    return op->emitError() << "'" << name
                           << "' is a module attribute; it cannot be set on '"
                           << op->getName() << "'";
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || value.getType().isInteger(1))
    return op->emitError() << "'" << name << "' must be an integer, got "
                           << attr.getValue();
  int64_t count = value.getInt();
  if (name == kThreadsPerWarpAttrName) {
    if (count != 32 && count != 64)
      return op->emitError()
             << "'" << name << "' must be 32 (NVIDIA) or 64 (AMD CDNA), got "
             << count;
    // The walk below runs once, under num-warps when both are present.
    if (op->hasAttr(kNumWarpsAttrName))
      return success();
  } else if (count <= 0 || !llvm::isPowerOf2_64(count)) {
    return op->emitError() << "'" << name
                           << "' must be a positive power of two, got "
                           << count;
  } else if (count * getModuleThreadsPerWarp(op) > 1024) {
    // A thread block (workgroup) has at most 1024 threads on every GPU.
    return op->emitError() << "'" << name << "' = " << count << " gives "
                           << count * getModuleThreadsPerWarp(op)
                           << " threads per program; GPUs run at most 1024";
  }

  WalkResult result = op->walk([&](Operation *nested) {
    if (nested == op)
      return WalkResult::advance();
    unsigned threadsPerWarp = getModuleThreadsPerWarp(nested);
    if (threadsPerWarp != 32 && threadsPerWarp != 64)
      return WalkResult::advance(); // reported for that attribute
    if (failed(verifyLayoutsInContext(nested, threadsPerWarp,
                                      getNumWarpsAt(nested))))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
