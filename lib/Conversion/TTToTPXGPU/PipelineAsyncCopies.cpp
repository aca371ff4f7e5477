//===- PipelineAsyncCopies.cpp - multi-buffered cp.async for wgmma loops --===//
//
// After tpxgpu-use-wgmma a matmul loop loads its operands into registers
// and stores them into shared memory every iteration, then runs the dot:
//
//   scf.for %iv iter_args(%acc, %pa, %pb) {
//     %a = tt.load %pa ; %b = tt.load %pb
//     tpxgpu.barrier                                 (staging WAR)
//     %as = local_alloc %a ; %bs = local_alloc %b
//     tpxgpu.fence_async_shared ; tpxgpu.barrier     (stores -> wgmma)
//     %d = warp_group_dot %as, %bs, %acc
//     scf.yield %d, advance(%pa), advance(%pb)
//   }
//
// With S = num_stages buffers and D = S - 1 iterations in flight this
// becomes (copies go straight from global to shared memory, no registers):
//
//   %A = local_alloc : memdesc<S x MxK, mutable>    (and %B)
//   copy iterations 0..D-1 into %A[k], %B[k]; commit after each
//   scf.for %iv iter_args(%acc, %pa', %pb')        (%p' = %p of iv + D)
//     async_wait num = D-1                          (iteration iv's group)
//     tpxgpu.barrier                   (no proxy fence: only thread stores
//                                       need one before wgmma, and the
//                                       stores before the loop get one)
//     copy iteration iv+D into %A[(i+D) mod S], %B[...]; commit
//     %d = warp_group_dot %A[i mod S], %B[i mod S], %acc
//     scf.yield %d, advance(%pa'), advance(%pb')
//   async_wait num = 0 ; tpxgpu.barrier
//
// Buffer (i+D) mod S = (i-1) mod S was last read by iteration i-1's dots,
// which every thread has finished once it is past iteration i's barrier
// (the dots are synchronous), so the copies are issued right after that
// barrier, before this iteration's MMAs, and land while they run. The masks of
// the copies gain `iv + D*step < ub`: a copy past the end reads nothing (it
// writes zeros into a buffer no dot reads). The drain after the loop keeps
// in-flight copies from landing in bytes the allocator gives to later buffers.
//
// An operand loaded through a tensor descriptor that can use TMA
// (TensorMaps.h) is copied by the copy engine instead: its buffers are in
// the tensor map's swizzle, and each buffer slot has an mbarrier (inited
// once before the loop) that the slot's copies complete on. Thread 0 arms
// it with the bytes of the iteration's TMA copies (`barrier_expect`, both
// predicated on the iteration existing), and every thread waits for the
// slot's phase ((i / S) mod 2) where the cp.async wait goes. The barriers
// are invalidated after the loop.
//
// A loop whose only dot accumulates into a carried value keeps the dot in
// flight (async-dots): `warp_group_dot ... async`, then
// `warp_group_dot_wait pendings = 1`, which retires dot i-1 in this warp
// group; a second barrier retires it in all of them, and only then do the
// copies overwrite the buffer it read. The MMAs of iteration i then run
// under the copies' issue and iteration i+1's waits and first barrier.
// With async-dots-one-barrier the copies instead run D = S-2 iterations
// ahead, right after that wait: their buffer (i-2) mod S was read by dot
// i-2, which every warp group retired before iteration i's barrier.
//
// The later dots of the body (attention's P x V) lose the fence and
// barrier tpxgpu-use-wgmma put before them once nothing the threads store
// into shared memory is left for them to publish: their operands are
// registers, pipelined buffers (published by the first barrier) or
// buffers made before the loop.
//
//===----------------------------------------------------------------------===//
#include "LoopSlices.h"
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"

#include "tpx/Conversion/TTToTPXGPU/TensorMaps.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPULinearLayout.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPUPIPELINEASYNCCOPIES
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;
using namespace tpx::tpxgpu;

/// cp.async moves 4, 8 or 16 bytes.
static constexpr int64_t kMinCopyBytes = 4;

/// True when each thread of `load` can copy its elements into `buffer` in
/// runs of at least 4 bytes: its registers run along the dimension that is
/// contiguous both in global memory (per `tpxgpu.contiguity`) and in the
/// shared layout, and no element belongs to two threads.
static bool canCopyAsynchronously(tt::LoadOp load, MemDescType buffer) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || load.getIsVolatile() ||
      (load.getOther() && !tt::isZeroConstant(load.getOther())) ||
      !isa<tt::PointerType>(getElementTypeOrSelf(load.getPtr().getType())))
    return false;
  auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding());
  auto shared = dyn_cast<NvmmaSharedEncodingAttr>(buffer.getEncoding());
  auto contiguity = load->getAttrOfType<DenseI64ArrayAttr>(
      TPXGPUDialect::kContiguityAttrName);
  if (!blocked || !shared || !contiguity || type.getRank() != 2 ||
      contiguity.size() != 2)
    return false;
  unsigned dim = blocked.getOrder().front();
  if (dim != (shared.getTransposed() ? 0u : 1u))
    return false;
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  int64_t run =
      std::min<int64_t>(blocked.getSizePerThread()[dim], contiguity[dim]);
  if (bytes == 0 || run * bytes < kMinCopyBytes)
    return false;
  std::optional<LinearLayout> layout =
      toLinearLayout(type.getEncoding(), type.getShape());
  return layout && !layout->getReplicationMask(LinearLayout::Lane) &&
         !layout->getReplicationMask(LinearLayout::Warp);
}

namespace {

/// A dot operand loaded in the loop and staged by a local_alloc: a
/// pointer-tensor load (cp.async) or a descriptor load (TMA).
struct StagedOperand {
  tt::LoadOp load;
  tt::DescriptorLoadOp descLoad;
  tt::MakeTensorDescOp desc;
  LocalAllocOp alloc;
  MemDescType single;           // the staging buffer's type
  SetVector<Operation *> slice; // computes the load's pointer and mask
  Value buffers;                // the S-buffer allocation

  bool isTMA() const { return bool(descLoad); }
  Operation *getLoad() {
    return isTMA() ? descLoad.getOperation() : load.getOperation();
  }
  /// The values the copy of an iteration is computed from.
  SmallVector<Value> getRoots() {
    if (isTMA())
      return SmallVector<Value>(descLoad.getIndices());
    SmallVector<Value> roots = {load.getPtr()};
    if (load.getMask())
      roots.push_back(load.getMask());
    return roots;
  }

  /// The type of one buffer of `buffers` (memdesc_index's result).
  MemDescType getBufferType() const {
    return MemDescType::get(single.getShape(), single.getElementType(),
                            single.getEncoding(), /*mutableMemory=*/true,
                            cast<MemDescType>(buffers.getType()).getShape());
  }
};

class AsyncCopyPipeliner {
public:
  AsyncCopyPipeliner(scf::ForOp loop, unsigned numStages, bool asyncDots,
                     bool oneBarrier, unsigned asyncDotsMinKSteps)
      : loop(loop), numStages(numStages), distance(numStages - 1),
        asyncDots(asyncDots), oneBarrier(oneBarrier),
        asyncDotsMinKSteps(asyncDotsMinKSteps) {}
  LogicalResult match();
  void rewrite();
  /// The loop, rewritten once rewrite() ran.
  scf::ForOp getLoop() const { return loop; }

private:
  /// Copies the operands of the iteration `iv` maps to (through `mapping`,
  /// which also gives the iteration values) into buffer `slot` of each, and
  /// commits them as one group.
  void emitCopies(OpBuilder &b, IRMapping &mapping, Value iv, Value slot);
  /// The iteration values after the one `mapping` describes.
  SmallVector<Value> advance(OpBuilder &b, IRMapping &mapping);
  Value ivPlus(OpBuilder &b, Value iv, int64_t iterations);
  Value constantLike(OpBuilder &b, Value like, int64_t value);

  /// The iteration value `firstDot` accumulates into when it may stay in
  /// flight (it is the loop's only dot and its result goes straight back).
  std::optional<unsigned> getInFlightAccumulator();
  /// The staged operand `operand` (a dot's A or B) would be, if any.
  std::optional<StagedOperand> matchOperand(Value operand);
  bool hasCopies(bool tma) const {
    return llvm::any_of(
        operands, [&](const StagedOperand &s) { return s.isTMA() == tma; });
  }
  /// Bytes of one iteration's TMA copies.
  int64_t getTMABytes() const;
  /// The mbarrier of buffer slot `slot` (a constant).
  Value slotBarrier(OpBuilder &b, Location loc, int64_t slot) const {
    Value index = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(slot));
    return getMBarrierView(b, loc, barriers, index);
  }

  scf::ForOp loop;
  unsigned numStages, distance;
  bool asyncDots, oneBarrier;
  unsigned asyncDotsMinKSteps;
  /// The iteration value of the dot kept in flight, once match() found one.
  std::optional<unsigned> inFlight;
  /// Whether the copies follow the in-flight dot's wait without a second
  /// barrier (they then run S-2 iterations ahead, not S-1).
  bool copiesAfterWait = false;
  SmallVector<StagedOperand> operands;
  WarpGroupDotOp firstDot;
  SetVector<unsigned> advancedArgs;
  SetVector<Operation *> advanceSlice;
  /// One mbarrier per buffer slot (S x 1 x i64) when TMA copies exist.
  Value barriers;
};

} // namespace

/// A descriptor load the copy engine can move straight into the staging
/// buffer `buffer`: its descriptor can use TMA, is made outside `loop`, and
/// the staging layout is the one TMA writes.
static tt::MakeTensorDescOp getTMADescriptor(tt::DescriptorLoadOp load,
                                             MemDescType buffer,
                                             scf::ForOp loop) {
  auto desc = load.getDesc().getDefiningOp<tt::MakeTensorDescOp>();
  if (!desc || loop->isAncestor(desc) || !whyNotTMA(desc).empty())
    return nullptr;
  MemDescType expected = getTMABlockBufferType(
      getTensorMap(desc), load.getType().getShape(), /*mutable=*/false);
  return expected == buffer ? desc : nullptr;
}

std::optional<StagedOperand> AsyncCopyPipeliner::matchOperand(Value operand) {
  Block *body = loop.getBody();
  auto alloc = operand.getDefiningOp<LocalAllocOp>();
  if (!alloc || !alloc.getSrc() || alloc->getBlock() != body ||
      llvm::any_of(operands,
                   [&](const StagedOperand &s) { return s.alloc == alloc; }))
    return std::nullopt;
  if (!llvm::all_of(alloc->getUsers(), [&](Operation *user) {
        auto reader = dyn_cast<WarpGroupDotOp>(user);
        return reader && reader->getBlock() == body && !reader.getIsAsync();
      }))
    return std::nullopt;
  StagedOperand staged{};
  staged.alloc = alloc;
  staged.single = alloc.getType();
  // A descriptor load reaches the staging through its layout conversion.
  Value source = alloc.getSrc();
  if (auto convert = source.getDefiningOp<ConvertLayoutOp>();
      convert && convert->hasOneUse())
    source = convert.getSrc();
  if (auto descLoad = source.getDefiningOp<tt::DescriptorLoadOp>()) {
    staged.descLoad = descLoad;
    staged.desc = getTMADescriptor(descLoad, alloc.getType(), loop);
    if (!staged.desc || descLoad->getBlock() != body || !descLoad->hasOneUse())
      return std::nullopt;
  } else {
    staged.load = alloc.getSrc().getDefiningOp<tt::LoadOp>();
    if (!staged.load || staged.load->getBlock() != body ||
        !staged.load->hasOneUse() ||
        !canCopyAsynchronously(staged.load, alloc.getType()))
      return std::nullopt;
  }
  for (Value v : staged.getRoots()) {
    FailureOr<SetVector<Operation *>> slice = getRecomputableSlice(loop, v);
    if (failed(slice))
      return std::nullopt;
    staged.slice.insert(slice->begin(), slice->end());
  }
  staged.slice = sortInBlockOrder(staged.slice);
  return staged;
}

int64_t AsyncCopyPipeliner::getTMABytes() const {
  int64_t bytes = 0;
  for (const StagedOperand &s : operands)
    if (s.isTMA())
      bytes += s.single.getElementByteWidth() *
               llvm::product_of(s.single.getShape());
  return bytes;
}

LogicalResult AsyncCopyPipeliner::match() {
  Block *body = loop.getBody();
  for (Operation &op : body->without_terminator()) {
    auto dot = dyn_cast<WarpGroupDotOp>(&op);
    if (!dot)
      continue;
    if (dot.getIsAsync())
      return failure();
    for (Value operand : SmallVector<Value>{dot.getA(), dot.getB()}) {
      std::optional<StagedOperand> staged = matchOperand(operand);
      if (!staged)
        continue;
      if (!firstDot)
        firstDot = dot;
      operands.push_back(std::move(*staged));
    }
  }
  if (operands.empty())
    return failure();

  // The iteration values the copies read, and those their advances read in
  // turn, must all be advanced without memory access.
  for (StagedOperand &s : operands)
    collectIterArgs(loop, s.getRoots(), s.slice, advancedArgs);
  FailureOr<SetVector<Operation *>> advance =
      getAdvanceSlice(loop, advancedArgs, /*closed=*/true);
  if (failed(advance))
    return failure();
  advanceSlice = std::move(*advance);

  // With the dot in flight, the buffer the copies of iteration i+D
  // overwrite must have been read by a dot every warp group retired. Each
  // retires dot i-2 before the barrier of iteration i; so D = S-2 needs no
  // other barrier, while D = S-1 (the buffer of dot i-1) needs a second.
  inFlight = getInFlightAccumulator();
  if (inFlight && oneBarrier && numStages >= 3) {
    copiesAfterWait = true;
    distance = numStages - 2;
  }
  return success();
}

/// The wgmma instructions one warp group issues along K for `dot`: each
/// takes 32 bytes of K (16 f16/bf16, 32 fp8/int8, 8 tf32 elements).
static int64_t getWgmmaKSteps(WarpGroupDotOp dot) {
  // A is a buffer (a memdesc) or registers (a tensor); its last dimension
  // is K.
  Type a = dot.getA().getType();
  if (auto buffer = dyn_cast<MemDescType>(a))
    return buffer.getShape().back() *
           buffer.getElementType().getIntOrFloatBitWidth() / 256;
  auto tensor = cast<RankedTensorType>(a);
  return tensor.getShape().back() * tensor.getElementTypeBitWidth() / 256;
}

std::optional<unsigned> AsyncCopyPipeliner::getInFlightAccumulator() {
  // A dot of few K steps gains less from staying in flight than the second
  // barrier costs (async-dots-min-k-steps).
  if (!asyncDots || firstDot.getUseC() ||
      getWgmmaKSteps(firstDot) < asyncDotsMinKSteps ||
      llvm::count_if(loop.getBody()->getOperations(), [](Operation &op) {
        return isa<WarpGroupDotOp>(op);
      }) != 1)
    return std::nullopt;
  auto arg = dyn_cast<BlockArgument>(firstDot.getC());
  if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0 ||
      !arg.hasOneUse() || !firstDot.getD().hasOneUse())
    return std::nullopt;
  unsigned index = arg.getArgNumber() - 1;
  if (loop.getBody()->getTerminator()->getOperand(index) != firstDot.getD())
    return std::nullopt;
  return index;
}

Value AsyncCopyPipeliner::constantLike(OpBuilder &b, Value like,
                                       int64_t value) {
  return arith::ConstantOp::create(b, loop.getLoc(),
                                   b.getIntegerAttr(like.getType(), value));
}

Value AsyncCopyPipeliner::ivPlus(OpBuilder &b, Value iv, int64_t iterations) {
  if (iterations == 0)
    return iv;
  Value steps = arith::MulIOp::create(b, loop.getLoc(), loop.getStep(),
                                      constantLike(b, iv, iterations));
  return arith::AddIOp::create(b, loop.getLoc(), iv, steps);
}

void AsyncCopyPipeliner::emitCopies(OpBuilder &b, IRMapping &mapping, Value iv,
                                    Value slot) {
  Location loc = loop.getLoc();
  Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv,
                                       loop.getUpperBound());
  SmallVector<Value> tokens;
  Value barrier;
  if (hasCopies(/*tma=*/true)) {
    barrier = getMBarrierView(b, loc, barriers, slot);
    BarrierExpectOp::create(b, loc, barrier, getTMABytes(), exists);
  }
  for (StagedOperand &s : operands) {
    if (s.isTMA()) {
      IRMapping perCopy = mapping;
      for (Operation *op : s.slice)
        b.clone(*op, perCopy);
      SmallVector<Value> indices;
      for (Value index : s.descLoad.getIndices())
        indices.push_back(perCopy.lookupOrDefault(index));
      Value buffer =
          MemDescIndexOp::create(b, loc, s.getBufferType(), s.buffers, slot);
      emitTMALoads(b, loc, getOrAddTensorMapArgument(s.desc),
                   getTensorMap(s.desc), buffer, indices, barrier, exists,
                   s.descLoad.getCache(), s.descLoad.getEvict());
      continue;
    }
    IRMapping perCopy = mapping;
    for (Operation *op : s.slice)
      b.clone(*op, perCopy);
    Value pointers = perCopy.lookupOrDefault(s.load.getPtr());
    auto ptrType = cast<RankedTensorType>(pointers.getType());
    Value mask =
        tt::SplatOp::create(b, loc, ptrType.clone(b.getI1Type()), exists);
    if (Value original = s.load.getMask())
      mask = arith::AndIOp::create(b, loc, perCopy.lookupOrDefault(original),
                                   mask);
    Value buffer =
        MemDescIndexOp::create(b, loc, s.getBufferType(), s.buffers, slot);
    auto copy = AsyncCopyGlobalToLocalOp::create(
        b, loc, pointers, buffer, mask, /*other=*/Value(), s.load.getCache(),
        s.load.getEvict(), /*isVolatile=*/false);
    tokens.push_back(copy.getToken());
  }
  if (!tokens.empty())
    AsyncCommitGroupOp::create(b, loc, tokens);
}

SmallVector<Value> AsyncCopyPipeliner::advance(OpBuilder &b,
                                               IRMapping &mapping) {
  IRMapping next = mapping;
  for (Operation *op : advanceSlice)
    b.clone(*op, next);
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<Value> values;
  for (unsigned i : advancedArgs)
    values.push_back(next.lookupOrDefault(yield.getOperand(i)));
  return values;
}

/// Whether a thread of `body` stores into shared memory before `end`: the
/// stores a fence and barrier before a wgmma publish.
static bool storesToSharedBefore(Block *body, Operation *end) {
  for (Operation &op : *body) {
    if (&op == end)
      return false;
    WalkResult found = op.walk([](Operation *nested) {
      auto alloc = dyn_cast<LocalAllocOp>(nested);
      return isa<LocalStoreOp>(nested) || (alloc && alloc.getSrc())
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (found.wasInterrupted())
      return true;
  }
  return false;
}

/// Erases the fence and barrier before each dot of `loop` but the first
/// when they publish nothing: no thread stored into shared memory since the
/// iteration's first barrier, and the dot reads pipelined buffers
/// (`pipelined`), registers or buffers made before the loop.
static void dropRedundantDotBarriers(scf::ForOp loop, WarpGroupDotOp first,
                                     ArrayRef<Value> pipelined) {
  Block *body = loop.getBody();
  SmallVector<WarpGroupDotOp> later;
  bool seenFirst = false;
  for (Operation &op : *body)
    if (auto dot = dyn_cast<WarpGroupDotOp>(&op)) {
      if (seenFirst)
        later.push_back(dot);
      seenFirst |= dot == first;
    }
  auto readable = [&](Value operand) {
    if (!isa<MemDescType>(operand.getType()))
      return true;
    if (loop.isDefinedOutsideOfLoop(operand))
      return true;
    auto index = operand.getDefiningOp<MemDescIndexOp>();
    return index && llvm::is_contained(pipelined, index.getSrc());
  };
  for (WarpGroupDotOp dot : later) {
    auto barrier = dyn_cast_or_null<BarrierOp>(dot->getPrevNode());
    auto fence =
        barrier ? dyn_cast_or_null<FenceAsyncSharedOp>(barrier->getPrevNode())
                : nullptr;
    if (!fence || !readable(dot.getA()) || !readable(dot.getB()) ||
        storesToSharedBefore(body, fence))
      continue;
    barrier->erase();
    fence->erase();
  }
}

void AsyncCopyPipeliner::rewrite() {
  Location loc = loop.getLoc();
  Block *body = loop.getBody();
  OpBuilder b(loop);

  // The buffers, then the copies of the first D iterations. The barrier
  // orders them after earlier readers of the bytes. The fence publishes to
  // the async proxy what threads stored before the loop (a loop-invariant
  // operand staged once, attention's Q): the fences before the dots go
  // when the body itself stores nothing (below).
  FenceAsyncSharedOp::create(b, loc);
  BarrierOp::create(b, loc);
  for (StagedOperand &s : operands) {
    MemDescType single = s.single;
    SmallVector<int64_t> shape = {int64_t(numStages)};
    llvm::append_range(shape, single.getShape());
    auto type = MemDescType::get(shape, single.getElementType(),
                                 single.getEncoding(), /*mutableMemory=*/true);
    s.buffers = LocalAllocOp::create(b, loc, type, Value());
  }
  if (hasCopies(/*tma=*/true)) {
    // Initialised before the copy engine or any thread uses them.
    barriers = createMBarriers(b, loc, numStages, /*arriveCount=*/1);
  }
  SmallVector<Value> values;
  for (unsigned i : advancedArgs)
    values.push_back(loop.getInitArgs()[i]);
  for (unsigned k = 0; k < distance; ++k) {
    IRMapping mapping;
    Value iv = ivPlus(b, loop.getLowerBound(), k);
    mapping.map(loop.getInductionVar(), iv);
    for (auto [i, value] : llvm::zip_equal(advancedArgs, values))
      mapping.map(loop.getRegionIterArgs()[i], value);
    emitCopies(b, mapping, iv,
               arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(k)));
    values = advance(b, mapping);
  }

  // The body: the iteration's buffer index, and iteration iv+D's copies
  // right after the barrier before the first dot.
  // The buffer indices (and, for TMA, the phase parity) are counters the
  // loop carries, wrapped at S: a remainder of the induction variable would
  // cost a division every iteration and keep the backend from seeing that
  // each copy's address is the slot's base plus a constant.
  Value iv = loop.getInductionVar();
  auto yieldOp = cast<scf::YieldOp>(body->getTerminator());
  OpBuilder atYield(yieldOp);
  SmallVector<Value> counterInits;
  Value one = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1));
  Value last =
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(numStages - 1));
  auto addCounter = [&](int64_t start) -> std::pair<Value, Value> {
    counterInits.push_back(
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(start)));
    Value arg = body->addArgument(b.getI32Type(), loc);
    Value wraps = arith::CmpIOp::create(atYield, loc, arith::CmpIPredicate::eq,
                                        arg, last);
    Value zero =
        arith::ConstantOp::create(atYield, loc, atYield.getI32IntegerAttr(0));
    Value next =
        arith::SelectOp::create(atYield, loc, wraps, zero,
                                arith::AddIOp::create(atYield, loc, arg, one));
    yieldOp.getResultsMutable().append(ValueRange{next});
    return {arg, wraps};
  };
  auto [slot, slotWraps] = addCounter(0);
  Value aheadSlot = addCounter(distance % numStages).first;
  Value parity;
  if (hasCopies(/*tma=*/true)) {
    // Flips each time the slot counter wraps: (i / S) mod 2.
    counterInits.push_back(
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)));
    parity = body->addArgument(b.getI32Type(), loc);
    Value flipped = arith::XOrIOp::create(atYield, loc, parity, one);
    yieldOp.getResultsMutable().append(
        arith::SelectOp::create(atYield, loc, slotWraps, flipped, parity)
            .getResult());
  }

  // The dots read this iteration's buffers. The staging ops go, and with
  // them the barrier before the stores where nothing else is staged now.
  SetVector<Operation *> stagingBarriers;
  for (StagedOperand &s : operands) {
    Operation *previous = s.alloc->getPrevNode();
    while (isa_and_nonnull<LocalAllocOp>(previous))
      previous = previous->getPrevNode();
    if (isa_and_nonnull<BarrierOp>(previous) &&
        previous != firstDot->getPrevNode())
      stagingBarriers.insert(previous);
  }
  for (StagedOperand &s : operands) {
    OpBuilder here(s.alloc);
    Value buffer =
        MemDescIndexOp::create(here, loc, s.getBufferType(), s.buffers, slot);
    s.alloc.getResult().replaceAllUsesWith(buffer);
    s.alloc.erase();
  }
  for (Operation *stagingBarrier : stagingBarriers) {
    bool stillStaging = false;
    for (Operation *next = stagingBarrier->getNextNode();
         isa_and_nonnull<LocalAllocOp, MemDescIndexOp>(next);
         next = next->getNextNode())
      stillStaging |= isa<LocalAllocOp>(next);
    if (!stillStaging)
      stagingBarrier->erase();
  }

  // The fence and barrier tpxgpu-use-wgmma put before the dot now also
  // publish the copies; make sure they are there.
  Operation *barrier = firstDot->getPrevNode();
  Operation *fence = barrier ? barrier->getPrevNode() : nullptr;
  OpBuilder at(firstDot);
  if (!isa_and_nonnull<BarrierOp>(barrier) ||
      !isa_and_nonnull<FenceAsyncSharedOp>(fence)) {
    fence = FenceAsyncSharedOp::create(at, loc);
    barrier = BarrierOp::create(at, loc);
  }
  OpBuilder beforeFence(fence);
  if (hasCopies(/*tma=*/false))
    AsyncWaitOp::create(beforeFence, loc, ValueRange(), distance - 1);
  if (hasCopies(/*tma=*/true)) {
    Value barrier = getMBarrierView(beforeFence, loc, barriers, slot);
    WaitBarrierOp::create(beforeFence, loc, barrier, parity, Value());
  }
  // cp.async and TMA copies need no proxy fence before wgmma reads them (as
  // Triton and CUTLASS's cp.async mainloops have it): only stores by the
  // threads do. Without any in the body, the fence (a MEMBAR.ALL.CTA plus
  // FENCE.VIEW.ASYNC every iteration) goes; the barrier stays.
  if (!storesToSharedBefore(body, fence))
    fence->erase();

  SmallVector<BlockArgument> aheadArgs;
  for (Value value : values)
    aheadArgs.push_back(body->addArgument(value.getType(), loc));
  // Where iteration iv+D's copies go: after the barrier before the dot;
  // with the dot in flight, after the wait that retires dot i-1 and a
  // barrier that retires it in every warp group.
  OpBuilder afterBarrier(firstDot);
  if (inFlight) {
    firstDot.setIsAsyncAttr(UnitAttr::get(firstDot.getContext()));
    OpBuilder afterDot(firstDot->getContext());
    afterDot.setInsertionPointAfter(firstDot);
    SmallVector<Value> inputs = {firstDot.getD()};
    if (isa<MemDescType>(firstDot.getA().getType()))
      inputs.push_back(firstDot.getA());
    inputs.push_back(firstDot.getB());
    auto wait = WarpGroupDotWaitOp::create(afterDot, loc, ValueRange(inputs),
                                           /*pendings=*/1u);
    body->getTerminator()->setOperand(*inFlight, wait.getResult(0));
    Operation *retired = wait;
    if (!copiesAfterWait)
      retired = BarrierOp::create(afterDot, loc);
    afterBarrier.setInsertionPointAfter(retired);
  }
  IRMapping aheadMapping;
  Value aheadIv = ivPlus(afterBarrier, iv, distance);
  aheadMapping.map(iv, aheadIv);
  for (auto [i, arg] : llvm::zip_equal(advancedArgs, aheadArgs))
    aheadMapping.map(loop.getRegionIterArgs()[i], arg);
  emitCopies(afterBarrier, aheadMapping, aheadIv, aheadSlot);
  SmallVector<Value> nextAhead = advance(afterBarrier, aheadMapping);
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  yield.getResultsMutable().append(nextAhead);

  // The copies made, the loads go (their address computations with them,
  // once dead).
  for (StagedOperand &s : operands) {
    Operation *load = s.getLoad();
    SmallVector<Operation *> conversions(load->getUsers());
    for (Operation *convert : conversions)
      if (convert->use_empty())
        convert->erase();
    load->erase();
  }

  SmallVector<Value> pipelined;
  for (StagedOperand &s : operands)
    pipelined.push_back(s.buffers);
  dropRedundantDotBarriers(loop, firstDot, pipelined);

  // A loop carrying the buffer counters and the values iteration iv+D
  // needs (in the order their block arguments were added).
  llvm::append_range(counterInits, values);
  loop = appendIterArgs(loop, counterInits);

  OpBuilder exit(loop);
  exit.setInsertionPointAfter(loop);
  if (inFlight) {
    Value result = loop.getResult(*inFlight);
    auto drain = WarpGroupDotWaitOp::create(exit, loc, ValueRange{result},
                                            /*pendings=*/0u);
    result.replaceAllUsesExcept(drain.getResult(0), drain);
  }
  if (hasCopies(/*tma=*/false))
    AsyncWaitOp::create(exit, loc, ValueRange(), 0);
  BarrierOp::create(exit, loc);
  // Every copy past the end was predicated off, so no TMA is in flight:
  // the barriers die, and their bytes may be reused.
  if (hasCopies(/*tma=*/true))
    for (unsigned k = 0; k < numStages; ++k)
      InvalBarrierOp::create(exit, loc, slotBarrier(exit, loc, k));
}

/// The body ops that only compute iteration value `index`'s next value
/// from its current one (the old pointer increments once the copies carry
/// their own): make the value pass through unchanged so that
/// canonicalization drops it, and erase them.
static void dropDeadIterationValue(scf::ForOp loop, unsigned index) {
  if (!loop.getResult(index).use_empty())
    return;
  BlockArgument arg = loop.getRegionIterArgs()[index];
  Operation *yield = loop.getBody()->getTerminator();
  SetVector<Operation *> users;
  SmallVector<Value> worklist = {arg};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user == yield) {
        if (use.getOperandNumber() != index)
          return;
        continue;
      }
      if (user->getBlock() != loop.getBody() || user->getNumRegions() ||
          !isMemoryEffectFree(user))
        return;
      if (users.insert(user))
        llvm::append_range(worklist, user->getResults());
    }
  }
  yield->setOperand(index, arg);
  SmallVector<Operation *> ordered(sortInBlockOrder(users).takeVector());
  for (Operation *op : llvm::reverse(ordered))
    op->erase();
}

/// Erases the ops of `block` whose results are unused and that have no
/// effects (the staged loads' address computations).
static void eraseDeadOps(Block *block) {
  SmallVector<Operation *> ops;
  for (Operation &op : *block)
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
}

namespace {
struct PipelineAsyncCopiesPass
    : tpx::impl::TPXGPUPipelineAsyncCopiesBase<PipelineAsyncCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (numStages < 2)
      return;
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      AsyncCopyPipeliner pipeliner(loop, numStages, asyncDots,
                                   asyncDotsOneBarrier, asyncDotsMinKSteps);
      if (failed(pipeliner.match()))
        continue;
      unsigned original = loop.getNumResults();
      pipeliner.rewrite();
      scf::ForOp rewritten = pipeliner.getLoop();
      eraseDeadOps(rewritten.getBody());
      for (unsigned i = 0; i < original; ++i)
        dropDeadIterationValue(rewritten, i);
    }
  }
};
} // namespace
