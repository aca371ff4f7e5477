//===- ConvertToBufferOps.cpp - the tpxgpu-convert-to-buffer-ops pass -----===//
//
// CDNA's buffer instructions address memory as a 128-bit resource in
// scalar registers (base, size) plus a 32-bit unsigned byte offset per
// lane, and an offset beyond the resource's size reads zero and drops
// stores. A tensor access off one scalar base therefore needs one VGPR per
// address instead of two, and its mask costs no branch: a masked-off lane
// is given an out-of-range offset (BufferOpPatterns.cpp).
//
// The rewrite is only valid when every offset, scaled to bytes, is a
// non-negative value below the resource's size: the hardware's offset is
// unsigned, so a negative i32 offset that tt.addptr would sign-extend would
// address 4 GiB away, and one beyond the size would silently read zero.
// MLIR's integer range analysis proves it; tt's index ops do not
// implement InferIntRangeInterface, so TTIntegerRangeAnalysis gives it
// their ranges.
//
//===----------------------------------------------------------------------===//
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPUCONVERTTOBUFFEROPS
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;

namespace {

//===----------------------------------------------------------------------===//
// Ranges of tt's index ops
//===----------------------------------------------------------------------===//

/// IntegerRangeAnalysis plus the transfer functions of tt's ops that make
/// or move index values. Everything else (loads, reductions, arguments)
/// may hold any value of its type.
class TTIntegerRangeAnalysis : public dataflow::IntegerRangeAnalysis {
public:
  /// `maxProgramIds[axis]`: the largest program id a launch can have.
  TTIntegerRangeAnalysis(DataFlowSolver &solver,
                         std::array<int64_t, 3> maxProgramIds)
      : IntegerRangeAnalysis(solver), maxProgramIds(maxProgramIds) {}

  LogicalResult visitOperation(
      Operation *op,
      ArrayRef<const dataflow::IntegerValueRangeLattice *> operands,
      ArrayRef<dataflow::IntegerValueRangeLattice *> results) override {
    auto set = [&](dataflow::IntegerValueRangeLattice *lattice, int64_t lo,
                   int64_t hi) {
      unsigned bits =
          ConstantIntRanges::getStorageBitwidth(lattice->getAnchor().getType());
      if (bits == 0)
        return setAllToEntryStates(results);
      propagateIfChanged(
          lattice,
          lattice->join(IntegerValueRange(ConstantIntRanges::fromSigned(
              APInt(bits, lo, /*isSigned=*/true),
              APInt(bits, hi, /*isSigned=*/true)))));
    };
    if (auto range = dyn_cast<tt::MakeRangeOp>(op)) {
      // The verifier keeps start < end.
      set(results[0], range.getStart(), int64_t(range.getEnd()) - 1);
      return success();
    }
    if (auto id = dyn_cast<tt::GetProgramIdOp>(op)) {
      set(results[0], 0, maxProgramIds[static_cast<unsigned>(id.getAxis())]);
      return success();
    }
    if (auto count = dyn_cast<tt::GetNumProgramsOp>(op)) {
      set(results[0], 1,
          maxProgramIds[static_cast<unsigned>(count.getAxis())] + 1);
      return success();
    }
    // Ops that only place the values of their first operand elsewhere in a
    // tensor: the result holds no value the operand does not.
    if (isa<tt::SplatOp, tt::BroadcastOp, tt::ExpandDimsOp, tt::ReshapeOp,
            tt::TransOp, tpxgpu::ConvertLayoutOp>(op) &&
        op->getNumOperands() >= 1 && op->getNumResults() == 1 &&
        isa<IntegerType>(getElementTypeOrSelf(op->getResult(0).getType()))) {
      const IntegerValueRange &source = operands[0]->getValue();
      if (source.isUninitialized())
        return success(); // visited again once the operand is known
      propagateIfChanged(results[0], results[0]->join(source));
      return success();
    }
    return IntegerRangeAnalysis::visitOperation(op, operands, results);
  }

private:
  std::array<int64_t, 3> maxProgramIds;
};

/// The largest program id along each axis. Work-groups are launched with
/// `threads` work-items along x (1 along y and z), and an AQL dispatch
/// counts a grid's work-items per axis in 32 bits, so at most
/// (2^32 - 1) / threads work-groups fit along x; HIP caps every axis at
/// 2^31 - 1 work-groups, which also keeps the ids non-negative as i32.
static std::array<int64_t, 3> getMaxProgramIds(ModuleOp module) {
  constexpr int64_t kHipMaxGrid = (int64_t(1) << 31) - 1;
  int64_t threads = int64_t(tpxgpu::getModuleNumWarps(module)) *
                    tpxgpu::getModuleThreadsPerWarp(module);
  int64_t alongX = kHipMaxGrid;
  if (threads > 0)
    alongX = std::min(alongX, ((int64_t(1) << 32) - 1) / threads);
  return {alongX - 1, kHipMaxGrid - 1, kHipMaxGrid - 1};
}

//===----------------------------------------------------------------------===//
// Pointer chains
//===----------------------------------------------------------------------===//

/// A pointer tensor taken apart as splat(base), advanced by i32 offset
/// tensors and rearranged by shape ops, in the order they apply (from the
/// splat to the accessed pointer).
struct PointerChain {
  Value base;
  /// tt.addptr (adds its offset operand) or a shape op (moves the
  /// offsets accumulated so far along with the pointers).
  SmallVector<Operation *> steps;
};

/// Whether `pointer` (a tensor of pointers) is such a chain; fills `chain`.
static bool matchPointerChain(Value pointer, PointerChain &chain) {
  SmallVector<Operation *> reversed;
  Value current = pointer;
  while (true) {
    Operation *def = current.getDefiningOp();
    if (!def)
      return false; // a block argument: a loop-carried or passed-in tensor
    if (auto splat = dyn_cast<tt::SplatOp>(def)) {
      if (!isa<tt::PointerType>(splat.getSrc().getType()))
        return false;
      chain.base = splat.getSrc();
      break;
    }
    if (auto add = dyn_cast<tt::AddPtrOp>(def)) {
      auto offsets = dyn_cast<RankedTensorType>(add.getOffset().getType());
      // i64 offsets may exceed what a 32-bit buffer offset holds.
      if (!offsets || !offsets.getElementType().isInteger(32))
        return false;
      reversed.push_back(def);
      current = add.getPtr();
      continue;
    }
    if (isa<tt::BroadcastOp, tt::ExpandDimsOp, tpxgpu::ConvertLayoutOp>(def)) {
      reversed.push_back(def);
      current = def->getOperand(0);
      continue;
    }
    return false;
  }
  chain.steps.assign(reversed.rbegin(), reversed.rend());
  return true;
}

/// The signed range of `value` (i32), if the analysis reached it.
static std::optional<std::pair<int64_t, int64_t>>
getSignedRange(DataFlowSolver &solver, Value value) {
  auto *lattice = solver.lookupState<dataflow::IntegerValueRangeLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return std::nullopt;
  const ConstantIntRanges &range = lattice->getValue().getValue();
  return std::make_pair(range.smin().getSExtValue(),
                        range.smax().getSExtValue());
}

/// Whether every element the chain addresses lies, with all its
/// `elementBytes` bytes, in [0, kMaxBytes) from the base. The addends'
/// ranges are summed exactly (in 64 bits); their i32 sum, which the
/// rewrite computes, wraps to the same value whenever the exact sum is a
/// non-negative i32, so proving the exact sum in range proves it too.
static bool isInBufferRange(DataFlowSolver &solver, const PointerChain &chain,
                            int64_t elementBytes) {
  int64_t lo = 0, hi = 0;
  for (Operation *step : chain.steps) {
    auto add = dyn_cast<tt::AddPtrOp>(step);
    if (!add)
      continue;
    std::optional<std::pair<int64_t, int64_t>> range =
        getSignedRange(solver, add.getOffset());
    if (!range)
      return false;
    lo += range->first;
    hi += range->second;
  }
  return lo >= 0 && (hi + 1) * elementBytes <= tpxgpu::BufferLoadOp::kMaxBytes;
}

/// `type` with i32 elements.
static RankedTensorType getOffsetsType(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return tensor.clone(IntegerType::get(type.getContext(), 32));
}

/// Builds the chain's summed i32 offsets, shaped like `accessType`. Each
/// new op goes right after the op it mirrors, so it is computed where
/// (and as often as) the pointers were: outside a loop if they were.
static Value buildOffsets(OpBuilder &b, const PointerChain &chain,
                          Location accessLoc, RankedTensorType accessType) {
  Value sum; // null: zero so far
  for (Operation *step : chain.steps) {
    b.setInsertionPointAfter(step);
    if (auto add = dyn_cast<tt::AddPtrOp>(step)) {
      sum = sum ? arith::AddIOp::create(b, add.getLoc(), sum, add.getOffset())
                      .getResult()
                : add.getOffset();
      continue;
    }
    if (!sum)
      continue; // a rearranged zero is still zero
    IRMapping mapping;
    mapping.map(step->getOperand(0), sum);
    Operation *moved = b.clone(*step, mapping);
    moved->getResult(0).setType(getOffsetsType(step->getResult(0).getType()));
    sum = moved->getResult(0);
  }
  if (sum)
    return sum;
  // The pointer is the splat itself: every element at the base.
  RankedTensorType zerosType = getOffsetsType(accessType);
  b.setInsertionPointAfterValue(chain.base);
  return arith::ConstantOp::create(
      b, accessLoc, zerosType,
      DenseElementsAttr::get(zerosType, b.getI32IntegerAttr(0)));
}

/// Bytes of one pointee in memory (i1 is a byte, pointers are 8).
static int64_t getElementBytes(Type element) {
  if (isa<tt::PointerType>(element))
    return 8;
  return std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
}

/// A scalar mask as a tensor of `type`'s shape (the buffer ops mask
/// element by element).
static Value getTensorMask(OpBuilder &b, Location loc, Value mask,
                           RankedTensorType type) {
  if (!mask || isa<RankedTensorType>(mask.getType()))
    return mask;
  return tt::SplatOp::create(b, loc, tt::getI1SameShape(type), mask);
}

struct TPXGPUConvertToBufferOpsPass
    : public tpx::impl::TPXGPUConvertToBufferOpsBase<
          TPXGPUConvertToBufferOpsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!tpxgpu::isAMDModule(module)) {
      module.emitError("tpxgpu-convert-to-buffer-ops: buffer loads and "
                       "stores are AMD instructions; the module targets '")
          << (tpxgpu::getModuleTarget(module).empty()
                  ? StringRef("NVIDIA")
                  : tpxgpu::getModuleTarget(module))
          << "' (set tpxgpu.target = \"gfx...\")";
      return signalPassFailure();
    }
    // The buffer resource's flags are those of gfx9 (CDNA); RDNA's
    // descriptor has another format.
    if (!tpxgpu::getModuleTarget(module).starts_with("gfx9"))
      return;

    DataFlowSolver solver;
    solver.load<dataflow::DeadCodeAnalysis>();
    solver.load<dataflow::SparseConstantPropagation>();
    solver.load<TTIntegerRangeAnalysis>(getMaxProgramIds(module));
    if (failed(solver.initializeAndRun(module))) {
      module.emitError("tpxgpu-convert-to-buffer-ops: the integer range "
                       "analysis failed");
      return signalPassFailure();
    }

    // Matched first, rewritten after: the analysis' facts belong to the
    // values as they are now.
    struct Candidate {
      Operation *op;
      PointerChain chain;
    };
    SmallVector<Candidate> candidates;
    module.walk([&](Operation *op) {
      Value pointer;
      Type element;
      if (auto load = dyn_cast<tt::LoadOp>(op)) {
        if (!load.getBoundaryCheck().empty() || !isLoadCache(load.getCache()))
          return;
        pointer = load.getPtr();
      } else if (auto store = dyn_cast<tt::StoreOp>(op)) {
        if (!store.getBoundaryCheck().empty() ||
            !isStoreCache(store.getCache()))
          return;
        pointer = store.getPtr();
      } else {
        return;
      }
      auto pointers = dyn_cast<RankedTensorType>(pointer.getType());
      if (!pointers)
        return; // a scalar access or a block pointer
      auto pointerType = dyn_cast<tt::PointerType>(pointers.getElementType());
      if (!pointerType || pointerType.getAddressSpace() != 1)
        return;
      element = pointerType.getPointeeType();
      PointerChain chain;
      if (!matchPointerChain(pointer, chain) ||
          !isInBufferRange(solver, chain, getElementBytes(element)))
        return;
      candidates.push_back({op, std::move(chain)});
    });

    OpBuilder b(module.getContext());
    StringRef contiguity = tpxgpu::TPXGPUDialect::kContiguityAttrName;
    // Accesses through one pointer tensor (a load and a store of the same
    // elements) share its offsets.
    DenseMap<Value, Value> offsetsOf;
    for (Candidate &candidate : candidates) {
      Operation *op = candidate.op;
      Value pointer = isa<tt::LoadOp>(op) ? cast<tt::LoadOp>(op).getPtr()
                                          : cast<tt::StoreOp>(op).getPtr();
      auto pointers = cast<RankedTensorType>(pointer.getType());
      Value &offsets = offsetsOf[pointer];
      if (!offsets)
        offsets = buildOffsets(b, candidate.chain, op->getLoc(), pointers);
      b.setInsertionPoint(op);
      Operation *replacement;
      if (auto load = dyn_cast<tt::LoadOp>(op)) {
        auto type = cast<RankedTensorType>(load.getType());
        auto buffer = tpxgpu::BufferLoadOp::create(
            b, load.getLoc(), type, candidate.chain.base, offsets,
            getTensorMask(b, load.getLoc(), load.getMask(), type),
            load.getOther(), load.getCache(), load.getIsVolatile());
        load.replaceAllUsesWith(buffer.getResult());
        replacement = buffer;
      } else {
        auto store = cast<tt::StoreOp>(op);
        auto type = cast<RankedTensorType>(store.getValue().getType());
        replacement = tpxgpu::BufferStoreOp::create(
            b, store.getLoc(), store.getValue(), candidate.chain.base, offsets,
            getTensorMask(b, store.getLoc(), store.getMask(), type),
            store.getCache());
      }
      // Same addresses, same mask: the vector width facts carry over.
      if (Attribute facts = op->getAttr(contiguity))
        replacement->setAttr(contiguity, facts);
      op->erase();
      eraseDeadChain(candidate.chain, pointer);
    }
  }

  static bool isLoadCache(tt::CacheModifier cache) {
    using tt::CacheModifier;
    return cache == CacheModifier::NONE || cache == CacheModifier::CA ||
           cache == CacheModifier::CG || cache == CacheModifier::CS ||
           cache == CacheModifier::CV;
  }
  static bool isStoreCache(tt::CacheModifier cache) {
    using tt::CacheModifier;
    return cache == CacheModifier::NONE || cache == CacheModifier::WB ||
           cache == CacheModifier::CG || cache == CacheModifier::CS ||
           cache == CacheModifier::WT;
  }

  /// Erases the pointer computations no access uses any more (from the
  /// accessed pointer back to the splat), so that the lowering does not
  /// build 64-bit addresses only to drop them.
  static void eraseDeadChain(const PointerChain &chain, Value pointer) {
    SmallVector<Operation *> ops(chain.steps.rbegin(), chain.steps.rend());
    if (Operation *splat =
            chain.steps.empty()
                ? pointer.getDefiningOp()
                : chain.steps.front()->getOperand(0).getDefiningOp())
      ops.push_back(splat);
    for (Operation *op : ops) {
      if (!op->use_empty() || !isOpTriviallyDead(op))
        return;
      op->erase();
    }
  }
};
} // namespace
