//===- CodegenCoverage.cpp - what the SIMT code generator covers ----------===//
//
// The SIMT code generator covers the ops of tile kernels; a kernel using
// anything else compiles only on the one-thread pipeline, which runs when
// asked for by name. Deciding up front (rather than failing deep in the
// lowering) lets the driver's error name the op and the reason; the
// driver records the pipeline that runs as `tpxgpu.codegen`. The
// tpx-nvidia-select-codegen pass shows the same decision in tpx-opt.
//
//===----------------------------------------------------------------------===//
#include "tpx/Analysis/SharedMemoryAllocation.h"
#include "tpx/Conversion/TTToTPXGPU/TensorMaps.h"
#include "tpx/Dialect/TPXGPU/IR/SIMTLoweringInterface.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

namespace tpx {
#define GEN_PASS_DEF_TPXNVIDIASELECTCODEGEN
#include "tpx/Target/NVIDIA/NVIDIAPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;

static bool isFp8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

/// Element types the SIMT lowering moves (and, but for fp8, computes with).
static bool isSupportedElement(Type type) {
  if (auto pointer = dyn_cast<tt::PointerType>(type))
    return isSupportedElement(pointer.getPointeeType()) ||
           isa<tt::PointerType>(pointer.getPointeeType());
  if (isa<FloatType>(type))
    return type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
           isFp8(type);
  return type.isInteger(1) || type.isInteger(8) || type.isInteger(16) ||
         type.isInteger(32) || type.isInteger(64) || type.isIndex();
}

/// Why `type` keeps a kernel off the SIMT path; empty if it does not.
static std::string checkType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    for (int64_t size : tensor.getShape())
      if (size <= 0 || !llvm::isPowerOf2_64(size))
        return "a tensor dimension that is not a power of two";
    type = tensor.getElementType();
  }
  if (isa<tt::PointerType>(type) &&
      isa<RankedTensorType>(cast<tt::PointerType>(type).getPointeeType()))
    return "block pointers";
  if (isa<tt::TensorDescType>(type))
    return "tensor descriptors";
  // What a pointer points to is what loads and stores move.
  while (auto pointer = dyn_cast<tt::PointerType>(type))
    type = pointer.getPointeeType();
  if (isa<FloatType>(type) && !isSupportedElement(type))
    return "elements of this type";
  if (!isSupportedElement(type) && !isa<FunctionType>(type))
    return "values of this type";
  return "";
}

/// The most 32-bit registers one tensor may take in each thread on the
/// SIMT path: the register file (255). Past it the code spills anyway and
/// ptxas time grows steeply (a 2^20-element f32 tensor with 4 warps, 8192
/// registers a thread: 69 s; 65536 f64 elements with libdevice math: 40 s).
static constexpr int64_t kMaxRegistersPerThread = 256;

/// Why `type` is too large for the SIMT path with `numWarps`; empty if not.
static std::string checkRegisterBudget(Type type, unsigned numWarps) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return "";
  Type element = tensor.getElementType();
  int64_t bits =
      isa<tt::PointerType>(element)
          ? 64
          : (element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 32);
  int64_t threads = int64_t(std::max(numWarps, 1u)) * 32;
  int64_t perThread = llvm::divideCeil(tensor.getNumElements(), threads);
  int64_t registers = perThread * llvm::divideCeil(bits, 32);
  if (registers <= kMaxRegistersPerThread)
    return "";
  return llvm::formatv("a tensor that needs {0} registers per thread with "
                       "num_warps = {1} (at most {2})",
                       registers, numWarps, kMaxRegistersPerThread)
      .str();
}

/// The most dynamic shared memory a block of sm_90 may have (227 KiB).
static constexpr uint64_t kMaxSharedBytes = 227 * 1024;

/// Why the scratch tt.cat, tt.gather and tt.histogram exchange their data
/// through (SharedExchangePatterns.cpp) keeps `op` off the SIMT path;
/// empty if it fits. It is the whole tensor, which the register budget
/// alone does not keep within shared memory with many warps.
static std::string checkExchangeScratch(Operation *op) {
  uint64_t bytes = getScratchBytes(op);
  if (bytes <= kMaxSharedBytes)
    return "";
  return llvm::formatv("a '{0}' that exchanges {1} bytes through shared "
                       "memory (at most {2})",
                       op->getName(), bytes, kMaxSharedBytes)
      .str();
}

/// Why the SIMT lowering of tt.fp_to_fp (FloatConversionPatterns.cpp)
/// cannot convert `op`; empty if it can: narrowing toward zero starts from
/// f32 (or, to fp8, from f16/bf16, widened exactly); f64 <-> fp8 would
/// round twice.
static std::string checkFpToFp(tt::FpToFpOp op) {
  Type src = getElementTypeOrSelf(op.getSrc().getType());
  Type dst = getElementTypeOrSelf(op.getType());
  bool towardZero =
      op.getRounding() && *op.getRounding() == tt::RoundingMode::RTZ;
  if ((isFp8(src) && dst.isF64()) || (isFp8(dst) && src.isF64()))
    return "conversions between f64 and 8-bit floats";
  if (towardZero && !isFp8(dst) && !src.isF32() && !isFp8(src) &&
      dst.getIntOrFloatBitWidth() <= src.getIntOrFloatBitWidth())
    return "round-toward-zero narrowing from other types than f32";
  return "";
}

/// fp8 values (not pointers to them) are bytes on the SIMT path: loaded,
/// stored, carried by loops, made by constants, bitcast, moved by shape
/// ops and selects, multiplied by dots (on wgmma, or widened to f16) and
/// converted by tt.fp_to_fp, not otherwise computed with.
static std::string checkFp8Values(Operation *op) {
  bool hasFp8 = llvm::any_of(
      llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()),
      [](Type type) { return isFp8(getElementTypeOrSelf(type)); });
  if (!hasFp8)
    return "";
  // Off wgmma, convert-tt-to-tpxgpu widens them to f16 (exact).
  if (isa<tt::DotOp>(op))
    return "";
  if (isa<tt::LoadOp, tt::StoreOp, tt::DescriptorLoadOp, tt::DescriptorStoreOp,
          tt::FuncOp, tt::ReturnOp, scf::ForOp, scf::YieldOp, scf::IfOp,
          tt::FpToFpOp, arith::ConstantOp>(op))
    return "";
  // Moving bytes: fp8 values are i8 registers, so a bitcast to or from
  // another 8-bit type is a renaming, and shape ops and selects move them
  // as they move integers.
  if (isa<tt::BitcastOp, tt::SplatOp, tt::BroadcastOp, tt::ExpandDimsOp,
          tt::ReshapeOp, tt::TransOp, tt::JoinOp, tt::SplitOp, arith::SelectOp>(
          op))
    return "";
  return "8-bit float values in this op (the SIMT path only loads, stores, "
         "converts (tt.fp_to_fp) and feeds them to wgmma; the one-thread "
         "path computes with them)";
}

/// True for the descriptor ops of a descriptor tpxgpu-use-tma moves with
/// the copy engine (TensorMaps.h); their tensors are checked as any.
static bool isTMAAccess(Operation *op) {
  Value desc;
  if (auto make = dyn_cast<tt::MakeTensorDescOp>(op))
    desc = make.getResult();
  else if (auto load = dyn_cast<tt::DescriptorLoadOp>(op))
    desc = load.getDesc();
  else if (auto store = dyn_cast<tt::DescriptorStoreOp>(op))
    desc = store.getDesc();
  auto make = desc ? desc.getDefiningOp<tt::MakeTensorDescOp>() : nullptr;
  return make && tpxgpu::whyNotTMA(make).empty();
}

/// Why `op` keeps a kernel off the SIMT path; empty if it does not.
static std::string checkOp(Operation *op, unsigned numWarps) {
  if (isTMAAccess(op)) {
    for (Type type : llvm::concat<const Type>(op->getOperandTypes(),
                                              op->getResultTypes())) {
      if (isa<tt::TensorDescType>(type))
        continue;
      if (std::string why = checkType(type); !why.empty())
        return why;
      if (std::string why = checkRegisterBudget(type, numWarps); !why.empty())
        return why;
    }
    return checkFp8Values(op);
  }
  // A plugin dialect whose own pass lowers its ops on the SIMT path
  // (SIMTLoweringInterface.h) answers for its ops and their types.
  const tpxgpu::SIMTLoweringDialectInterface *plugin =
      tpxgpu::getSIMTLoweringInterface(op);
  for (Type type :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes())) {
    if (type.getDialect()
            .getRegisteredInterface<tpxgpu::SIMTLoweringDialectInterface>())
      continue;
    // The plugin's lowering takes the tensor maps of the descriptors its
    // ops read (TensorMaps.h), or reports the descriptor it cannot.
    if (plugin && isa<tt::TensorDescType>(type))
      continue;
    if (std::string why = checkType(type); !why.empty())
      return why;
    if (std::string why = checkRegisterBudget(type, numWarps); !why.empty())
      return why;
  }
  if (std::string why = checkFp8Values(op); !why.empty())
    return why;
  if (isa<arith::ArithDialect, math::MathDialect, scf::SCFDialect,
          cf::ControlFlowDialect>(op->getDialect()))
    return "";
  if (plugin)
    return plugin->getUncoveredReason(op);
  // Batched (3-D) dots run on FMAs (DotPatterns.cpp).
  if (auto dot = dyn_cast<tt::DotOp>(op); dot && dot.getType().getRank() > 3)
    return "dots of more than three dimensions";
  if (auto convert = dyn_cast<tt::FpToFpOp>(op))
    return checkFpToFp(convert);
  if (isa<tt::FuncOp, tt::ReturnOp, tt::CallOp, tt::GetProgramIdOp,
          tt::GetNumProgramsOp, tt::MakeRangeOp, tt::SplatOp, tt::BroadcastOp,
          tt::ExpandDimsOp, tt::ReshapeOp, tt::TransOp, tt::JoinOp, tt::SplitOp,
          tt::IntToPtrOp, tt::PtrToIntOp, tt::BitcastOp, tt::AddPtrOp,
          tt::LoadOp, tt::StoreOp, tt::DotOp, tt::ReduceOp, tt::ReduceReturnOp,
          tt::ScanOp, tt::ScanReturnOp, tt::ClampFOp, tt::PreciseSqrtOp,
          tt::PreciseDivFOp, tt::MulhiUIOp, tt::ElementwiseInlineAsmOp,
          tt::MapElementwiseOp, tt::MapElementwiseReturnOp, tt::PrintOp,
          tt::AssertOp, tt::UnsplatOp>(op))
    return "";
  // Only libdevice defines functions on the device (the PTX emitter links
  // it); the one-thread path reports other symbols.
  if (auto call = dyn_cast<tt::ExternElementwiseOp>(op))
    return call.getSymbol().starts_with("__nv_")
               ? ""
               : "external functions other than libdevice's";
  if (isa<tt::CatOp, tt::GatherOp>(op))
    return checkExchangeScratch(op);
  // The counts are shared-memory atomics (SharedExchangePatterns.cpp).
  if (auto histogram = dyn_cast<tt::HistogramOp>(op)) {
    Type count = histogram.getType().getElementType();
    if (!count.isInteger(32) && !count.isInteger(64))
      return "histograms with other counts than i32 or i64";
    return checkExchangeScratch(op);
  }
  // The SIMT lowering's atom.cas covers 16-, 32- and 64-bit elements (as
  // Triton's atomic_cas does).
  if (auto cas = dyn_cast<tt::AtomicCASOp>(op)) {
    unsigned bits = getElementTypeOrSelf(cas.getType()).getIntOrFloatBitWidth();
    if (bits != 16 && bits != 32 && bits != 64)
      return "atomic_cas on this element type";
    return "";
  }
  if (auto rmw = dyn_cast<tt::AtomicRMWOp>(op)) {
    Type element = getElementTypeOrSelf(rmw.getType());
    bool isFloat = isa<FloatType>(element);
    tt::RMWOp kind = rmw.getAtomicRmwOp();
    bool fadd = kind == tt::RMWOp::FADD;
    // f32/f64 max and min: two integer atomics split by sign.
    bool floatMinMax = isFloat &&
                       (kind == tt::RMWOp::MAX || kind == tt::RMWOp::MIN) &&
                       (element.isF32() || element.isF64());
    // Exchange moves bits, whatever they mean.
    bool exchange =
        kind == tt::RMWOp::XCHG && (isa<tt::PointerType>(element) ||
                                    element.getIntOrFloatBitWidth() >= 32);
    if (floatMinMax || exchange ||
        (fadd ? isFloat : (!isFloat && element.getIntOrFloatBitWidth() >= 32)))
      return "";
    return "this atomic kind and type";
  }
  if (isa<ModuleOp>(op))
    return "";
  return "this op";
}

std::pair<Operation *, std::string> tpx::findSIMTBlocker(ModuleOp module,
                                                         unsigned numWarps) {
  Operation *blocker = nullptr;
  std::string why;
  module.walk([&](Operation *op) {
    why = checkOp(op, numWarps);
    if (why.empty())
      return WalkResult::advance();
    blocker = op;
    return WalkResult::interrupt();
  });
  if (!blocker)
    why.clear();
  return {blocker, why};
}

namespace {
struct SelectCodegenPass
    : public tpx::impl::TPXNVIDIASelectCodegenBase<SelectCodegenPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto [blocker, why] = findSIMTBlocker(module, numWarps);
    MLIRContext *context = &getContext();
    StringRef name = tpxgpu::TPXGPUDialect::kCodegenAttrName;
    if (!blocker) {
      module->setAttr(name, StringAttr::get(context, "simt"));
      return;
    }
    module->setAttr(name, StringAttr::get(context, "scalar"));
    blocker->emitRemark("the SIMT code generator does not cover ")
        << why << " ('" << blocker->getName()
        << "'); only the one-thread pipeline (--target-pipeline "
           "one-thread) compiles this kernel";
  }
};
} // namespace
