//===- LowerLayoutConversions.cpp - tpxgpu-lower-layout-conversions -------===//
//
// A layout conversion whose layouts give threads different elements moves
// data between threads, which the SIMT lowering does through shared memory.
// This pass writes that round trip into the ttgir as ordinary shared-memory
// ops, so that it shows up in the dumps, gets its bytes from
// tpxgpu-allocate-shared-memory like any buffer, and its barriers are in
// the IR where later passes can see them:
//
//   tpxgpu.barrier                      // earlier readers of these bytes
//   %m = tpxgpu.local_alloc %x          // every thread stores its elements
//   tpxgpu.barrier                      // the stores before the loads
//   %y = tpxgpu.local_load %m           // every thread reads its new ones
//
// The buffer is #tpxgpu.padded_shared, row-major with 16 bytes after every
// row (the address map the NVVM lowering's scratch always used): a column
// read (an mma operand fragment, a transpose) then walks across the banks
// instead of down one, and rows stay 16-byte aligned for vector accesses and
// ldmatrix.
//
// Which conversions: exactly those tpxgpu::conversionNeedsSharedMemory
// says, the test convert-tpxgpu-to-nvvm uses to decide that it can rename
// registers; everything else stays a convert_layout.
//
// Loops: in an scf.for whose body touches shared memory only through
// conversions at its top level, each conversion gets two buffers allocated
// before the loop and uses buffer ((iv - lb) / step) % 2. Buffer p is
// written in iteration j and next in j + 2; the conversion's own second
// barrier in iteration j + 1 lies between every thread's reads in j and the
// writes in j + 2, so the leading barrier is not needed. One barrier before
// the loop separates it from earlier users of the bytes.
//
//===----------------------------------------------------------------------===//
#include "LoopSlices.h"
#include "tpx/Analysis/SharedMemoryAllocation.h"
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPULinearLayout.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.h"
#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPULOWERLAYOUTCONVERSIONS
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;
using namespace tpx::tpxgpu;

/// True when `op` moves data between threads. A conversion whose layouts
/// have no linear form stays: the NVVM lowering reports it.
static bool needsSharedMemory(ConvertLayoutOp op) {
  RankedTensorType from = op.getSrc().getType(), to = op.getType();
  if (!from.getEncoding() || !to.getEncoding())
    return false;
  std::optional<LinearLayout> a =
      toLinearLayout(from.getEncoding(), from.getShape());
  std::optional<LinearLayout> b =
      toLinearLayout(to.getEncoding(), to.getShape());
  return a && b && conversionNeedsSharedMemory(*a, *b);
}

/// True when `op` itself (not its nested ops) may read or write shared
/// memory once lowered: conversions between threads, every tpxgpu op but a
/// register-renaming conversion, calls (the callee may use any of it), ops
/// whose lowering stages data in scratch, except reductions that stay
/// within warps (shuffles only: no warp steps along the axis and the result
/// is the source's slice).
static bool touchesSharedMemory(Operation *op) {
  if (auto convert = dyn_cast<ConvertLayoutOp>(op))
    return needsSharedMemory(convert);
  if (isa<tt::CallOp>(op) || isa_and_nonnull<TPXGPUDialect>(op->getDialect()))
    return true;
  if (auto reduce = dyn_cast<tt::ReduceOp>(op)) {
    auto source = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
    auto result = dyn_cast<RankedTensorType>(reduce.getResult()[0].getType());
    auto slice =
        result ? dyn_cast<SliceEncodingAttr>(result.getEncoding()) : nullptr;
    if (!source.getEncoding() || !slice ||
        slice.getParent() != source.getEncoding())
      return true;
    std::optional<LinearLayout> layout =
        toLinearLayout(source.getEncoding(), source.getShape());
    return !layout || llvm::any_of(layout->getBases(LinearLayout::Warp),
                                   [&](const Coordinate &basis) {
                                     return basis[reduce.getAxis()] != 0;
                                   });
  }
  return getScratchBytes(op) != 0;
}

/// `touchesSharedMemory` for `op` or anything nested in it.
static bool mayTouchSharedMemory(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return touchesSharedMemory(nested) ? WalkResult::interrupt()
                                           : WalkResult::advance();
      })
      .wasInterrupted();
}

/// True when nothing that runs before `op` in the same launch can have
/// touched shared memory, so no earlier reader needs waiting for: `op` is
/// in the entry block of a kernel (a device function may be called after
/// its caller used shared memory, or twice), nested only in scf.if (a loop
/// runs its body again), and nothing before it on that path touches shared
/// memory.
static bool isFirstSharedMemoryUse(Operation *op) {
  for (Operation *at = op;;) {
    for (Operation *prev = at->getPrevNode(); prev; prev = prev->getPrevNode())
      if (mayTouchSharedMemory(prev))
        return false;
    Operation *parent = at->getParentOp();
    if (auto function = dyn_cast_or_null<tt::FuncOp>(parent))
      return function.isPublic() &&
             at->getBlock() == &function.getBody().front();
    if (!isa_and_nonnull<scf::IfOp>(parent))
      return false;
    at = parent;
  }
}

/// The conversions of `loop`'s body when they are the body's only
/// shared-memory users and all at its top level (so every iteration runs
/// each of them once); empty otherwise. An outer loop holding a loop never
/// qualifies: only innermost loops are double-buffered.
static SmallVector<ConvertLayoutOp>
getDoubleBufferedConversions(scf::ForOp loop) {
  SmallVector<ConvertLayoutOp> conversions;
  bool clean = true;
  loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
      if (!needsSharedMemory(convert))
        return;
      if (convert->getParentOp() != loop.getOperation())
        clean = false;
      conversions.push_back(convert);
      return;
    }
    if (isa<scf::ForOp, scf::WhileOp>(op) || touchesSharedMemory(op))
      clean = false;
  });
  if (!clean)
    conversions.clear();
  return conversions;
}

namespace {
/// The tensor a conversion stages in shared memory: its source, with
/// pointers as i64 (a memdesc holds integers and floats only).
struct Staging {
  RankedTensorType resultType;
  RankedTensorType storedType;
  Attribute encoding;

  explicit Staging(ConvertLayoutOp op) : resultType(op.getType()) {
    RankedTensorType source = op.getSrc().getType();
    storedType = source;
    if (isa<tt::PointerType>(source.getElementType()))
      storedType = source.clone(IntegerType::get(op.getContext(), 64));
    // 16 bytes after every row (none for a 1-D tensor, which has one row);
    // the fastest dimension last, as the registers of a blocked layout run.
    unsigned rank = source.getRank();
    unsigned bytes =
        std::max(1u, storedType.getElementType().getIntOrFloatBitWidth() / 8);
    unsigned padding = rank >= 2 ? std::max(1u, 16 / bytes) : 0;
    SmallVector<unsigned> order;
    for (unsigned d = rank; d-- > 0;)
      order.push_back(d);
    encoding = PaddedSharedEncodingAttr::get(op.getContext(), padding, order);
  }

  /// The type of `buffers` buffers (0: a single, immutable one).
  MemDescType getBufferType(unsigned buffers = 0) const {
    SmallVector<int64_t> shape;
    if (buffers)
      shape.push_back(buffers);
    llvm::append_range(shape, storedType.getShape());
    return MemDescType::get(shape, storedType.getElementType(), encoding,
                            /*mutableMemory=*/buffers != 0);
  }
  /// One buffer of a getBufferType(buffers) allocation.
  MemDescType getViewType(unsigned buffers) const {
    return MemDescType::get(storedType.getShape(), storedType.getElementType(),
                            encoding, /*mutableMemory=*/true,
                            getBufferType(buffers).getShape());
  }

  Value toStored(OpBuilder &b, Location loc, Value source) const {
    if (source.getType() == storedType)
      return source;
    return tt::PtrToIntOp::create(b, loc, storedType, source);
  }
  RankedTensorType getLoadedType() const {
    return RankedTensorType::get(resultType.getShape(),
                                 storedType.getElementType(),
                                 resultType.getEncoding());
  }
  Value fromStored(OpBuilder &b, Location loc, Value loaded) const {
    if (loaded.getType() == resultType)
      return loaded;
    return tt::IntToPtrOp::create(b, loc, resultType, loaded);
  }
};
} // namespace

/// True when a barrier precedes `at` in its block with only ops that touch
/// no memory in between (address arithmetic, conversions of registers; no
/// conversion still to be lowered, no region and no op whose lowering uses
/// scratch shared memory): it already orders what a leading barrier at `at`
/// would. A matmul's epilogue conversion follows the pipeliner's drain barrier
/// this way.
static bool followsBarrier(Operation *at) {
  for (Operation *prev = at->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (isa<BarrierOp>(prev))
      return true;
    if (!isMemoryEffectFree(prev) || isa<ConvertLayoutOp>(prev) ||
        prev->getNumRegions() != 0 || getScratchBytes(prev) != 0)
      return false;
  }
  return false;
}

/// barrier; local_alloc %x; barrier; local_load.
static void lowerConversion(ConvertLayoutOp op, bool leadingBarrier) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Staging staging(op);
  // Orders the reads of an earlier shared-memory user, whose bytes the
  // allocation may reuse, before this conversion's stores (write after
  // read).
  if (leadingBarrier && !followsBarrier(op))
    BarrierOp::create(b, loc);
  Value buffer = LocalAllocOp::create(b, loc, staging.getBufferType(),
                                      staging.toStored(b, loc, op.getSrc()));
  // Orders every thread's stores before any thread's loads (read after
  // write).
  BarrierOp::create(b, loc);
  Value loaded =
      LocalLoadOp::create(b, loc, staging.getLoadedType(), buffer, Value());
  op.replaceAllUsesWith(staging.fromStored(b, loc, loaded));
  op.erase();
}

/// buffer ((iv - lb) / step) % 2 as an i32, built at the top of the body.
static Value getIterationParity(scf::ForOp loop) {
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  Location loc = loop.getLoc();
  Value iv = loop.getInductionVar();
  Type type = iv.getType();
  Value trip = b.createOrFold<arith::DivSIOp>(
      loc, b.createOrFold<arith::SubIOp>(loc, iv, loop.getLowerBound()),
      loop.getStep());
  Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 1));
  Value parity = b.createOrFold<arith::AndIOp>(loc, trip, one);
  return castToI32(b, loc, parity);
}

/// Two buffers per conversion before `loop`; each conversion stores into
/// the one of its iteration's parity, behind no leading barrier.
static void lowerDoubleBuffered(scf::ForOp loop,
                                ArrayRef<ConvertLayoutOp> conversions,
                                bool barrierBefore) {
  OpBuilder before(loop);
  barrierBefore = barrierBefore && !followsBarrier(loop);
  SmallVector<Value> buffers;
  for (ConvertLayoutOp op : conversions)
    buffers.push_back(LocalAllocOp::create(
        before, op.getLoc(), Staging(op).getBufferType(2), Value()));
  // Orders the reads of earlier shared-memory users, whose bytes the
  // buffers may reuse, before the loop's first stores (write after read).
  if (barrierBefore)
    BarrierOp::create(before, loop.getLoc());
  Value parity = getIterationParity(loop);
  for (auto [convert, allocation] : llvm::zip_equal(conversions, buffers)) {
    ConvertLayoutOp op = convert;
    OpBuilder b(op);
    Location loc = op.getLoc();
    Staging staging(op);
    Value buffer = MemDescIndexOp::create(b, loc, staging.getViewType(2),
                                          allocation, parity);
    LocalStoreOp::create(b, loc, staging.toStored(b, loc, op.getSrc()), buffer);
    // Orders every thread's stores before any thread's loads (read after
    // write); it also orders the reads of iteration j before the stores of
    // j + 2 into the same buffer, which is why there is no leading barrier.
    BarrierOp::create(b, loc);
    Value loaded =
        LocalLoadOp::create(b, loc, staging.getLoadedType(), buffer, Value());
    op.replaceAllUsesWith(staging.fromStored(b, loc, loaded));
    op.erase();
  }
}

namespace {
struct LowerLayoutConversionsPass
    : public tpx::impl::TPXGPULowerLayoutConversionsBase<
          LowerLayoutConversionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Every decision is taken on the IR as it came, so that one rewrite
    // does not change what the next one sees.
    struct LoopPlan {
      scf::ForOp loop;
      SmallVector<ConvertLayoutOp> conversions;
      bool barrierBefore;
    };
    SmallVector<LoopPlan> loops;
    DenseSet<Operation *> planned;
    module.walk([&](scf::ForOp loop) {
      SmallVector<ConvertLayoutOp> conversions =
          getDoubleBufferedConversions(loop);
      if (conversions.empty())
        return;
      for (ConvertLayoutOp op : conversions)
        planned.insert(op);
      loops.push_back({loop, std::move(conversions), true});
    });
    SmallVector<std::pair<ConvertLayoutOp, bool>> single;
    module.walk([&](ConvertLayoutOp op) {
      if (needsSharedMemory(op) && !planned.contains(op))
        single.push_back({op, !isFirstSharedMemoryUse(op)});
    });
    for (LoopPlan &plan : loops)
      plan.barrierBefore = !isFirstSharedMemoryUse(plan.loop);

    for (auto [op, leadingBarrier] : single)
      lowerConversion(op, leadingBarrier);
    for (LoopPlan &plan : loops)
      lowerDoubleBuffered(plan.loop, plan.conversions, plan.barrierBefore);
  }
};
} // namespace
