//===- SharedMemoryAllocation.cpp - offsets in the CTA's shared memory ----===//
#include "tpx/Analysis/SharedMemoryAllocation.h"
#include "tpx/Analysis/ShapeOpCoordinates.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPULinearLayout.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUSharedLayout.h"
#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Analysis/Liveness.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tpx;
using tpxgpu::Coordinate;
using tpxgpu::LinearLayout;

//===----------------------------------------------------------------------===//
// Scratch of the SIMT lowering
//===----------------------------------------------------------------------===//

/// Bytes one element takes in scratch (pointers as i64, i1 as a byte).
static uint64_t getScratchElementBytes(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (isa<tt::PointerType>(element))
    return 8;
  if (!element.isIntOrFloat())
    return 8;
  return std::max(1u, element.getIntOrFloatBitWidth() / 8);
}

static uint64_t getNumElements(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor ? tensor.getNumElements() : 1;
}

/// The bytes a conversion inside a reduction or scan stages: rows of the
/// last dimension padded by 16 bytes (LoweringUtils.cpp, storeToShared).
static uint64_t getPaddedTileBytes(RankedTensorType type) {
  uint64_t bytes = getScratchElementBytes(type);
  ArrayRef<int64_t> shape = type.getShape();
  int64_t pad = shape.size() >= 2 ? std::max<int64_t>(1, 16 / bytes) : 0;
  uint64_t elements = 1;
  for (auto [d, size] : llvm::enumerate(shape))
    elements *= size + (d + 1 == shape.size() ? pad : 0);
  return elements * bytes;
}

static std::optional<LinearLayout> linearLayoutOf(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.getEncoding())
    return std::nullopt;
  return tpxgpu::toLinearLayout(type.getEncoding(), type.getShape());
}

/// True when every thread already holds the source elements of its result
/// registers, `toSource` mapping a result coordinate to its source element.
/// (Equal layouts are not enough: a transpose between equal layouts moves
/// data.)
static bool
isRegisterRenaming(Operation *op,
                   function_ref<Coordinate(ArrayRef<int64_t>)> toSource) {
  std::optional<LinearLayout> from = linearLayoutOf(op->getOperand(0));
  std::optional<LinearLayout> to = linearLayoutOf(op->getResult(0));
  if (!from || !to)
    return false;
  return from->getRegisterMapFrom(*to, toSource).has_value();
}

uint64_t tpx::getScratchBytes(Operation *op) {
  // A convert_layout is lowered only as a register renaming; the ones that
  // need shared memory are local_alloc buffers by now
  // (tpxgpu-lower-layout-conversions), placed like every other buffer.
  if (isa<tpxgpu::ConvertLayoutOp>(op))
    return 0;
  auto wholeTensor = [&]() {
    uint64_t elements = std::max(getNumElements(op->getOperand(0).getType()),
                                 getNumElements(op->getResult(0).getType()));
    return elements * getScratchElementBytes(op->getResult(0).getType());
  };
  if (isCoordinateShapeOp(op))
    return isRegisterRenaming(
               op, [&](ArrayRef<int64_t> c) { return getShapeOpSource(op, c); })
               ? 0
               : wholeTensor();
  if (auto reduce = dyn_cast<tt::ReduceOp>(op)) {
    // The cross-warp slots of ReducePatterns.cpp, per operand: one slot per
    // warp position along the axis (at most every warp) for each result
    // element, each array aligned to its element.
    uint64_t slots = tpxgpu::getNumWarpsAt(op);
    uint64_t bytes = 0;
    for (auto [src, result] : llvm::zip(reduce.getSrcs(), op->getResults()))
      bytes += 8 + slots * getNumElements(result.getType()) *
                       getScratchElementBytes(src.getType());
    return bytes;
  }
  if (isa<tt::ScanOp>(op)) {
    // Cross-warp slots and a conversion: bounded by two padded copies of
    // every operand.
    uint64_t bytes = 0;
    for (Value src : op->getOperands())
      if (auto type = dyn_cast<RankedTensorType>(src.getType()))
        bytes += 2 * getPaddedTileBytes(type);
    return bytes;
  }
  if (isa<tt::AtomicRMWOp, tt::AtomicCASOp>(op)) {
    // A scalar's old value goes from thread 0 to all; a tensor's from each
    // element's owner to the threads replicating it, when it is used.
    std::optional<LinearLayout> layout = linearLayoutOf(op->getResult(0));
    if (!layout || op->getResult(0).use_empty() ||
        (!layout->getReplicationMask(LinearLayout::Lane) &&
         !layout->getReplicationMask(LinearLayout::Warp)))
      return 8;
    return std::max<uint64_t>(8, wholeTensor());
  }
  // The tiles of SharedExchangePatterns.cpp (row-major, unpadded): cat's
  // result, gather's source, histogram's counts.
  if (isa<tt::CatOp>(op))
    return getNumElements(op->getResult(0).getType()) *
           getScratchElementBytes(op->getResult(0).getType());
  if (auto gather = dyn_cast<tt::GatherOp>(op))
    return getNumElements(gather.getSrc().getType()) *
           getScratchElementBytes(gather.getSrc().getType());
  if (isa<tt::HistogramOp>(op))
    return getNumElements(op->getResult(0).getType()) *
           getScratchElementBytes(op->getResult(0).getType());
  return 0;
}

//===----------------------------------------------------------------------===//
// Live ranges
//===----------------------------------------------------------------------===//

namespace {
/// Pre-order positions of the ops of one function; a region op spans its
/// nested ops.
struct Positions {
  DenseMap<Operation *, std::pair<uint64_t, uint64_t>> span;

  explicit Positions(Operation *function) {
    uint64_t next = 0;
    number(function, next);
  }
  void number(Operation *op, uint64_t &next) {
    uint64_t start = next++;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          number(&nested, next);
    span[op] = {start, next - 1};
  }
};
} // namespace

/// Every value the buffer of `alloc` is reachable through: views and the
/// results and region arguments of control flow it passes through.
static SmallVector<Value> getAliases(Value alloc) {
  SetVector<Value> aliases;
  SmallVector<Value> worklist = {alloc};
  auto add = [&](Value v) {
    if (isa<tpxgpu::MemDescType>(v.getType()) && aliases.insert(v))
      worklist.push_back(v);
  };
  aliases.insert(alloc);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      unsigned n = use.getOperandNumber();
      if (auto loop = dyn_cast<scf::ForOp>(user)) {
        if (n >= loop.getNumControlOperands()) {
          unsigned i = n - loop.getNumControlOperands();
          add(loop.getRegionIterArgs()[i]);
          add(loop.getResult(i));
        }
      } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        Operation *parent = yield->getParentOp();
        if (n < parent->getNumResults())
          add(parent->getResult(n));
        if (auto loop = dyn_cast<scf::ForOp>(parent))
          add(loop.getRegionIterArgs()[n]);
        if (auto loop = dyn_cast<scf::WhileOp>(parent))
          add(loop.getBeforeArguments()[n]);
      } else if (auto loop = dyn_cast<scf::WhileOp>(user)) {
        add(loop.getBeforeArguments()[n]);
      } else if (auto condition = dyn_cast<scf::ConditionOp>(user)) {
        if (n > 0) {
          auto loop = cast<scf::WhileOp>(condition->getParentOp());
          add(loop.getAfterArguments()[n - 1]);
          add(loop.getResult(n - 1));
        }
      } else {
        // Views (memdesc_index, memdesc_subview) and anything else that
        // returns a memdesc from one: assume it may alias.
        for (Value result : user->getResults())
          add(result);
      }
    }
  }
  return aliases.takeVector();
}

static std::pair<uint64_t, uint64_t>
getLiveRange(Value alloc, Liveness &liveness, const Positions &positions) {
  auto [start, end] = positions.span.lookup(alloc.getDefiningOp());
  for (Value alias : getAliases(alloc)) {
    for (Operation *op : liveness.resolveLiveness(alias)) {
      auto [s, e] = positions.span.lookup(op);
      start = std::min(start, s);
      end = std::max(end, e);
    }
    // Uses in nested regions count for the op holding them in the alias's
    // block; resolveLiveness covers that, but a use itself is live too.
    for (Operation *user : alias.getUsers()) {
      auto [s, e] = positions.span.lookup(user);
      start = std::min(start, s);
      end = std::max(end, e);
    }
  }
  return {start, end};
}

/// Partitions of a tpxgpu.warp_specialize run at once, so program order
/// says nothing about when their buffers are live: a buffer of one is live
/// for the whole op.
static std::pair<uint64_t, uint64_t>
widenForPartitions(Operation *owner, std::pair<uint64_t, uint64_t> range,
                   const Positions &positions) {
  if (auto split = owner->getParentOfType<tpxgpu::WarpSpecializeOp>()) {
    auto [start, end] = positions.span.lookup(split);
    range = {std::min(range.first, start), std::max(range.second, end)};
  }
  return range;
}

/// First fit: the lowest aligned offset where `a` overlaps no placed
/// allocation that is live at the same time.
static void place(SharedAllocation &a, ArrayRef<SharedAllocation> placed) {
  SmallVector<const SharedAllocation *> live;
  for (const SharedAllocation &other : placed)
    if (other.liveStart <= a.liveEnd && a.liveStart <= other.liveEnd &&
        other.size > 0)
      live.push_back(&other);
  SmallVector<uint64_t> candidates = {0};
  for (const SharedAllocation *other : live)
    candidates.push_back(other->offset + other->size);
  llvm::sort(candidates);
  for (uint64_t candidate : candidates) {
    uint64_t offset = llvm::alignTo(candidate, a.alignment);
    bool fits = llvm::none_of(live, [&](const SharedAllocation *other) {
      return offset < other->offset + other->size &&
             other->offset < offset + a.size;
    });
    if (fits) {
      a.offset = offset;
      return;
    }
  }
  llvm_unreachable("the end of the last live allocation always fits");
}

namespace {
struct FunctionAllocation {
  SmallVector<SharedAllocation> allocations;
  uint64_t total = 0;
  /// Per call: the bytes live across it (the callee's memory starts there).
  SmallVector<std::pair<tt::CallOp, uint64_t>> calls;
};
} // namespace

static FailureOr<FunctionAllocation> allocateFunction(tt::FuncOp function) {
  FunctionAllocation result;
  Positions positions(function);
  Liveness liveness(function);
  SmallVector<SharedAllocation> buffers, scratch;
  bool failedAny = false;
  function.walk([&](Operation *op) {
    auto span = positions.span.lookup(op);
    if (auto alloc = dyn_cast<tpxgpu::LocalAllocOp>(op)) {
      std::string why;
      std::optional<tpxgpu::SharedLayout> layout =
          tpxgpu::SharedLayout::get(alloc.getType(), &why);
      if (!layout) {
        alloc.emitOpError("cannot be placed in shared memory: ") << why;
        failedAny = true;
        return;
      }
      SharedAllocation a;
      a.owner = op;
      a.size = layout->getTotalBytes();
      a.alignment = layout->getAlignment();
      std::tie(a.liveStart, a.liveEnd) = widenForPartitions(
          op, getLiveRange(alloc.getResult(), liveness, positions), positions);
      buffers.push_back(a);
      return;
    }
    if (uint64_t bytes = getScratchBytes(op)) {
      SharedAllocation a;
      a.owner = op;
      a.scratch = true;
      a.size = bytes;
      // 128 keeps vector and ldmatrix rows of a conversion aligned.
      a.alignment = 128;
      std::tie(a.liveStart, a.liveEnd) =
          widenForPartitions(op, span, positions);
      scratch.push_back(a);
    }
  });
  if (failedAny)
    return failure();
  // Largest first packs best; ties in program order keep offsets stable.
  llvm::stable_sort(buffers,
                    [](const SharedAllocation &a, const SharedAllocation &b) {
                      return a.size > b.size;
                    });
  for (SharedAllocation &a : buffers) {
    place(a, result.allocations);
    result.allocations.push_back(a);
  }
  for (SharedAllocation &a : scratch) {
    place(a, result.allocations);
    result.allocations.push_back(a);
  }
  for (const SharedAllocation &a : result.allocations)
    result.total = std::max(result.total, a.offset + a.size);
  function.walk([&](tt::CallOp call) {
    auto [start, end] = positions.span.lookup(call);
    uint64_t live = 0;
    for (const SharedAllocation &a : result.allocations)
      if (a.liveStart <= end && start <= a.liveEnd)
        live = std::max(live, a.offset + a.size);
    result.calls.push_back({call, llvm::alignTo(live, 1024)});
  });
  return result;
}

FailureOr<SharedMemoryAllocation>
SharedMemoryAllocation::compute(ModuleOp module) {
  SmallVector<tt::FuncOp> functions;
  DenseMap<Operation *, FunctionAllocation> perFunction;
  for (tt::FuncOp function : module.getOps<tt::FuncOp>()) {
    if (function.isExternal())
      continue;
    FailureOr<FunctionAllocation> a = allocateFunction(function);
    if (failed(a))
      return failure();
    functions.push_back(function);
    perFunction[function] = std::move(*a);
  }
  // A callee's memory starts above what its callers keep live across the
  // calls; iterate to a fixed point (at most one round per function unless
  // calls are recursive).
  DenseMap<Operation *, uint64_t> base;
  for (unsigned round = 0;; ++round) {
    bool changed = false;
    for (tt::FuncOp caller : functions)
      for (auto [call, live] : perFunction[caller].calls) {
        auto callee = module.lookupSymbol<tt::FuncOp>(call.getCallee());
        if (!callee || !perFunction.count(callee))
          continue;
        uint64_t start = base.lookup(caller) + live;
        if (start > base.lookup(callee)) {
          base[callee] = start;
          changed = true;
        }
      }
    if (!changed)
      break;
    if (round > functions.size())
      return module.emitError(
          "recursive calls between functions cannot be given shared memory");
  }
  SharedMemoryAllocation result;
  for (tt::FuncOp function : functions) {
    FunctionAllocation &a = perFunction[function];
    uint64_t shift = base.lookup(function);
    for (SharedAllocation alloc : a.allocations) {
      alloc.offset += shift;
      result.allocations.push_back(alloc);
    }
    if (a.total)
      result.totalBytes = std::max(result.totalBytes, shift + a.total);
  }
  return result;
}

void SharedMemoryAllocation::annotate(ModuleOp module) const {
  Builder b(module.getContext());
  for (const SharedAllocation &a : allocations)
    a.owner->setAttr(tpxgpu::TPXGPUDialect::kSharedOffsetAttrName,
                     b.getI64IntegerAttr(a.offset));
  module->setAttr(tpxgpu::TPXGPUDialect::kSharedBytesAttrName,
                  b.getI64IntegerAttr(totalBytes));
}
