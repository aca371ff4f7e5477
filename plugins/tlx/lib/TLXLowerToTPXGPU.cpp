//===- TLXLowerToTPXGPU.cpp - tlx-lower-to-tpxgpu: TLX on sm_90a ----------===//
//
// TLX on an NVIDIA GPU with wgmma, as tpxgpu ops. The pass runs right after
// convert-tt-to-tpxgpu, which has given every tensor a layout and left the
// tlx ops with their unencoded tensor types, each tensor bracketed by an
// unrealized cast (SIMTLoweringInterface.h): an operand is cast from its
// producer's layout, a result to its default layout. Placing the tlx ops
// after layout assignment lets this pass build tpxgpu ops that verify at
// once (their tensors need layouts), in the layouts the rest of the kernel
// has: async copies take the coalesced layout of their pointers, loads the
// default one of their results, and async dots get the same version-3 MMA
// layout tpxgpu-use-wgmma gives a tt.dot.
//
//   local_alloc        tpxgpu.local_alloc (mutable; layout from the uses)
//   local_view         tpxgpu.memdesc_index
//   local_slice        tpxgpu.memdesc_subview (static offsets)
//   local_load/store   tpxgpu.local_load / local_store
//   async_load         tpxgpu.async_copy_global_to_local (cp.async)
//   async_commit_group tpxgpu.async_commit_group
//   async_wait_group   tpxgpu.async_wait, then fence + barrier
//   async_dot          tpxgpu.warp_group_dot ... async (wgmma on the buffers)
//   async_dot_wait     tpxgpu.warp_group_dot_wait (wgmma.wait_group)
//   fence_async_shared tpxgpu.fence_async_shared
//   alloc_barriers     tpxgpu.local_alloc (N x 1 x i64) + init_barrier each
//   barrier_view       tpxgpu.memdesc_index
//   barrier_wait       tpxgpu.wait_barrier
//   barrier_arrive     tpxgpu.arrive_barrier
//   barrier_expect_bytes          tpxgpu.barrier_expect (constant bytes)
//   async_descriptor_load         TMA copies (tpxgpu.async_tma_copy_*) on the
//                                 descriptor's launcher-built tensor map
//   async_descriptor_store(_wait) TMA stores, tpxgpu.async_tma_store_wait
//
// Shared-memory hazards between threads are the compiler's in TLX; see
// TLXPlaceBarriers.cpp.
//
// On AMD CDNA4 (gfx950; the module's tpxgpu.target) the same ops lower to
// the same tpxgpu ops, except:
//
//   async_dot          local_load of the buffers into MFMA operand layouts,
//                      then tt.dot in a #tpxgpu.amd_mfma accumulator (MFMA
//                      reads registers; there is no asynchronous dot)
//   async_dot_wait     nothing: the dot's result is ready
//   fence_async_shared tpxgpu.fence_async_shared (a no-op on AMD)
//   buffers            row-major, unpadded: async_load's direct-to-LDS
//                      loads write a wavefront's 64 pieces contiguously
//                      (AMDAsyncCopyPatterns.cpp), which padding would break
//                      (MFMA operand reads then meet LDS bank conflicts;
//                      a layout that serves both is future work)
//   thread_id, clock64 workitem ids, s_memtime
//   async_descriptor_* the program's own copies of the descriptor's block,
//                      completing the bytes on the barrier as TMA would
//                      (TLXAMDTileCopies.cpp)
//
// mbarriers and named barriers are the same tpxgpu ops on both vendors;
// gfx950, which has neither, keeps them as words of LDS (the ROCDL
// lowering's ROCDLBarriers.h).
//
//===----------------------------------------------------------------------===//
#include "TLXLowerToTPXGPU.h"
#include "TLXAMDTileCopies.h"

#include "TLX/TLXDialect.h"

#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"
#include "tpx/Conversion/TTToTPXGPU/TensorMaps.h"
#include "tpx/Conversion/TTToTPXGPU/WarpGroupDots.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::tlx;
namespace tg = tpx::tpxgpu;

/// The element type of a dot operand (a buffer or a tensor).
static Type getOperandElementType(Value operand) {
  if (auto buffer = dyn_cast<BufferType>(operand.getType()))
    return buffer.getElementType();
  return cast<RankedTensorType>(operand.getType()).getElementType();
}

/// The MFMA accumulator layout of `dot` on the module's AMD GPU over the
/// warps that run it, or null when no MFMA block fits its tile.
static tg::AmdMfmaEncodingAttr getMfmaLayout(AsyncDotOp dot) {
  Type a = dot.getA().getType();
  int64_t k = isa<BufferType>(a) ? cast<BufferType>(a).getShape().back()
                                 : cast<RankedTensorType>(a).getShape().back();
  auto acc = cast<RankedTensorType>(dot.getC().getType());
  return tg::chooseAmdMfmaLayout(dot.getContext(), tg::getModuleTarget(dot),
                                 acc.getShape(), k, tg::getNumWarpsAt(dot),
                                 /*warpsAlongM=*/false,
                                 getOperandElementType(dot.getA()));
}

/// The K of one wgmma instruction for `dot` (16 for 16-bit operands, 8 for
/// tf32, 32 for fp8 and int8), or 0 when wgmma has no form for its types.
static int64_t getInstrK(AsyncDotOp dot) {
  return tg::getWarpGroupDotInstrK(
      getOperandElementType(dot.getA()), getOperandElementType(dot.getB()),
      cast<RankedTensorType>(dot.getC().getType()).getElementType(),
      dot.getInputPrecision());
}

//===----------------------------------------------------------------------===//
// What is lowered
//===----------------------------------------------------------------------===//

static bool isTLXType(Type type) {
  return isa<BufferType, AsyncTokenType, BarriersType>(type);
}

/// The descriptor a TMA op of TLX reads, if it is made in the kernel in a
/// form the launcher can build a tensor map for; else why not.
static std::string whyNotTensorMap(Value desc) {
  auto make = desc.getDefiningOp<tt::MakeTensorDescOp>();
  if (!make)
    return "a descriptor not made by tl.make_tensor_descriptor in the "
           "kernel (or a host TensorDescriptor)";
  std::string why = tg::whyNotTMA(make);
  return why.empty() ? "" : "a descriptor TMA cannot use: " + why;
}

/// The allocation whose buffer `buffer` is (through local_view only), or
/// null (a slice, a view of another kind).
static LocalAllocOp getAllocation(Value buffer) {
  while (auto view = buffer.getDefiningOp<LocalViewOp>())
    buffer = view.getBuffers();
  return buffer.getDefiningOp<LocalAllocOp>();
}

/// The allocation of a whole buffer or of a local_slice of one: what a TMA
/// copy may move (emitTMALoads splits a slice into windows of its buffer).
static LocalAllocOp getCopyAllocation(Value buffer) {
  if (auto slice = buffer.getDefiningOp<LocalSliceOp>())
    buffer = slice.getSrc();
  return getAllocation(buffer);
}

std::string tpx::tlx::getUnsupportedReason(Operation *op) {
  if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
    if (Value reuse = alloc.getReuse(); reuse && !getAllocation(reuse))
      return "a local_alloc reusing a view of another allocation (reuse= "
             "takes the allocation itself)";
    return "";
  }
  if (auto trans = dyn_cast<LocalTransOp>(op)) {
    // A K-contiguous buffer read as a dot's B (attention's K^T): the
    // allocation gets an nvmma layout and the view is a memdesc_trans.
    bool onlyB =
        !trans.getResult().use_empty() && getAllocation(trans.getSrc());
    for (OpOperand &use : trans.getResult().getUses())
      onlyB &= isa<AsyncDotOp>(use.getOwner()) && use.getOperandNumber() == 1;
    return onlyB ? ""
                 : "a transposed buffer view used other than as an "
                   "async_dot's B operand";
  }
  if (auto view = dyn_cast<LocalReinterpretOp>(op)) {
    // Both views' rows are padded by 16 bytes: the bytes line up as on the
    // CPU (dense rows) only where the rows are equally long.
    auto from = cast<BufferType>(view.getSrc().getType());
    auto to = cast<BufferType>(view.getType());
    auto rowBytes = [](BufferType type) {
      return type.getShape().back() *
             int64_t(type.getElementType().getIntOrFloatBitWidth());
    };
    if ((from.getShape().size() > 1 || to.getShape().size() > 1) &&
        rowBytes(from) != rowBytes(to))
      return "a local_reinterpret that changes the length of a row in bytes "
             "(buffers' rows are padded in shared memory, so the bytes "
             "would not line up as TLX defines them)";
    for (Operation *user : view.getResult().getUsers())
      if (!isa<LocalLoadOp, LocalStoreOp, AsyncLoadOp>(user))
        return "a reinterpreted buffer view used other than by local_load, "
               "local_store and async_load (it has a row-major padded "
               "layout of its own, which wgmma and TMA do not read)";
    return "";
  }
  if (auto expect = dyn_cast<BarrierExpectBytesOp>(op)) {
    APInt bytes;
    if (!matchPattern(expect.getBytes(), m_ConstantInt(&bytes)))
      return "a barrier_expect_bytes of a byte count that is not a "
             "compile-time constant";
    return "";
  }
  if (auto load = dyn_cast<AsyncDescriptorLoadOp>(op)) {
    if (!getCopyAllocation(load.getBuffer()))
      return "an async_descriptor_load into a view other than a buffer or "
             "a local_slice of one";
    return whyNotTensorMap(load.getDesc());
  }
  if (isa<AllocBarriersOp>(op) && tg::getModuleClusterSize(op) > 1 &&
      !isa<tt::FuncOp>(op->getParentOp()))
    return "an alloc_barriers below the top level of a kernel launched in "
           "clusters (every CTA of the cluster initialises its barriers and "
           "then waits for the others', so all threads must reach it)";
  if (auto store = dyn_cast<AsyncDescriptorStoreOp>(op)) {
    if (!getAllocation(store.getBuffer()))
      return "an async_descriptor_store from a buffer slice (TMA reads "
             "whole buffers)";
    return whyNotTensorMap(store.getDesc());
  }
  if (!isa<LocalAllocOp, LocalViewOp, LocalSliceOp, LocalReinterpretOp,
           LocalLoadOp, LocalStoreOp, AsyncLoadOp, AsyncCommitGroupOp,
           AsyncWaitGroupOp, AsyncDotOp, AsyncDotWaitOp, FenceAsyncSharedOp,
           AllocBarriersOp, BarrierViewOp, BarrierWaitOp, BarrierArriveOp,
           AsyncDescriptorStoreWaitOp, NamedBarrierOp, Clock64Op, ThreadIdOp,
           ClusterCTARankOp, ClusterBarrierOp, VoteBallotSyncOp>(op))
    return "the SIMT path has no lowering of this op (tlx.async_tasks "
           "becomes a tpxgpu.warp_specialize before layouts are assigned, by "
           "tlx-lower-tasks-to-tpxgpu; function addresses are the CPU's "
           "only)";
  if (auto load = dyn_cast<AsyncLoadOp>(op)) {
    if (Value other = load.getOther()) {
      Value placed = other;
      if (auto cast = other.getDefiningOp<UnrealizedConversionCastOp>())
        placed = cast.getOperand(0);
      while (auto convert = placed.getDefiningOp<tg::ConvertLayoutOp>())
        placed = convert.getSrc();
      if (!tt::isZeroConstant(placed))
        return "an async_load with a non-zero `other` (cp.async fills "
               "masked-off elements with zeros only)";
    }
    return "";
  }
  if (auto dot = dyn_cast<AsyncDotOp>(op)) {
    if (!isa<BufferType>(dot.getB().getType()))
      return "an async_dot whose B is a tensor (wgmma reads B from shared "
             "memory: store it into a buffer)";
    auto bType = cast<BufferType>(dot.getB().getType());
    Type element = bType.getElementType();
    int64_t instrK = getInstrK(dot);
    if (!instrK)
      return "an async_dot of these element types (wgmma is lowered for "
             "f16/bf16, tf32 (f32 with input_precision tf32) and fp8 "
             "operands with an f32 accumulator, and int8 with an i32 one)";
    // Only 16-bit wgmma reads an MN-major B (a KxN buffer, N contiguous).
    if (!element.isF16() && !element.isBF16() &&
        !dot.getB().getDefiningOp<LocalTransOp>())
      return "an async_dot of 32- or 8-bit operands whose B is not K-major "
             "(wgmma reads them K-major only: store B as NxK and pass "
             "tlx.local_trans of it)";
    if (bType.getShape()[0] % instrK != 0)
      return "an async_dot whose K is not a multiple of wgmma's " +
             std::to_string(instrK);
    // wgmma's descriptors address whole tiles of one allocation.
    for (Value operand : {dot.getA(), dot.getB()}) {
      if (auto trans = operand.getDefiningOp<LocalTransOp>())
        operand = trans.getSrc();
      if (isa<BufferType>(operand.getType()) && !getAllocation(operand))
        return "an async_dot on a buffer slice (wgmma reads whole buffers)";
    }
    return "";
  }
  return "";
}

/// Why AMD code generation cannot lower `op`, or "".
static std::string getAMDUnsupportedReason(Operation *op, StringRef chip) {
  if (isa<VoteBallotSyncOp>(op))
    return "a vote_ballot_sync (a ballot of 32 lanes; " + chip.str() +
           "'s wavefronts have 64)";
  if (auto load = dyn_cast<AsyncDescriptorLoadOp>(op)) {
    if (!getAllocation(load.getBuffer()))
      return "an async_descriptor_load into a buffer slice (the block fills "
             "whole buffers)";
    return amd::whyNotTileCopy(load.getDesc());
  }
  if (auto store = dyn_cast<AsyncDescriptorStoreOp>(op)) {
    if (!getAllocation(store.getBuffer()))
      return "an async_descriptor_store from a buffer slice (the block is "
             "whole buffers)";
    return amd::whyNotTileCopy(store.getDesc());
  }
  if (auto dot = dyn_cast<AsyncDotOp>(op)) {
    Type a = getOperandElementType(dot.getA());
    Type b = getOperandElementType(dot.getB());
    auto acc = cast<RankedTensorType>(dot.getC().getType());
    auto isFp8 = [](Type t) {
      return isa<Float8E4M3FNType, Float8E5M2Type>(t);
    };
    bool sixteenBit = a == b && (a.isF16() || a.isBF16());
    bool floats =
        (sixteenBit || (isFp8(a) && isFp8(b))) && acc.getElementType().isF32();
    bool int8 =
        a.isInteger(8) && b.isInteger(8) && acc.getElementType().isInteger(32);
    if (!floats && !int8)
      return "an async_dot other than f16 x f16, bf16 x bf16 or of 8-bit "
             "floats into f32, or int8 into i32 (the MFMA forms lowered so "
             "far)";
    if (!getMfmaLayout(dot))
      return "an async_dot whose tile fits no MFMA block of " + chip.str() +
             (int8 ? " (M and N multiples of 32 with K of 32, or of 16 with "
                     "K of 64)"
                   : " (M and N multiples of 32 with K of 16, or of 16 with "
                     "K of 32)");
    return "";
  }
  return getUnsupportedReason(op);
}

/// Reports the first op the pass cannot lower, naming it.
static LogicalResult checkSupported(ModuleOp module) {
  bool amd = tg::isAMDModule(module);
  StringRef chip = tg::getModuleTarget(module);
  StringRef vendor = amd ? "AMD" : "NVIDIA";
  WalkResult result = module.walk([&](Operation *op) {
    if (isa<TLXDialect>(op->getDialect())) {
      std::string why =
          amd ? getAMDUnsupportedReason(op, chip) : getUnsupportedReason(op);
      if (!why.empty()) {
        op->emitError("tlx-lower-to-tpxgpu: '")
            << op->getName() << "' is not lowered for " << vendor
            << " GPUs yet: " << why;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    // Buffers and tokens live only between tlx ops: through loops, ifs or
    // calls their views would need memdesc types there too.
    for (Type type : op->getResultTypes())
      if (isTLXType(type)) {
        op->emitError("tlx-lower-to-tpxgpu: TLX buffers and tokens carried "
                      "by '")
            << op->getName() << "' are not lowered for " << vendor
            << " GPUs yet";
        return WalkResult::interrupt();
      }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          if (isTLXType(argument.getType())) {
            op->emitError("tlx-lower-to-tpxgpu: TLX buffers and tokens "
                          "carried by '")
                << op->getName() << "' are not lowered for " << vendor
                << " GPUs yet";
            return WalkResult::interrupt();
          }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Shared layouts
//===----------------------------------------------------------------------===//

/// The widest hardware swizzle (128, 64 or 32 bytes) within a contiguous
/// extent of `bytes`; 0 when even 32 bytes is too wide.
static unsigned chooseSwizzle(int64_t bytes) {
  for (unsigned swizzle : {128u, 64u, 32u})
    if (bytes >= swizzle)
      return swizzle;
  return 0;
}

/// The wgmma accumulator layout of `dot` over the warps that run it (a
/// task's own), or null.
static tg::NvidiaMmaEncodingAttr getDotLayout(AsyncDotOp dot) {
  if (tg::getWarpStartAt(dot) % 4 != 0)
    return {}; // wgmma's warp groups start at multiples of 4 warps
  auto acc = cast<RankedTensorType>(dot.getC().getType());
  return tg::chooseWarpGroupDotLayout(dot.getContext(), acc.getShape()[0],
                                      acc.getShape()[1], getInstrK(dot),
                                      tg::getNumWarpsAt(dot));
}

/// Row-major, with 16 bytes after each row of the `rank` minor dimensions
/// (as the layout-conversion buffers): column reads spread over the banks
/// and rows stay aligned for vectors.
/// On AMD without the padding (see the file comment).
static Attribute getPaddedLayout(MLIRContext *context, unsigned rank,
                                 Type element, bool amd) {
  SmallVector<unsigned> order;
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  unsigned bytes = std::max(1u, element.getIntOrFloatBitWidth() / 8);
  unsigned padding = rank >= 2 && !amd ? 16 / std::min(16u, bytes) : 0;
  return tg::PaddedSharedEncodingAttr::get(context, padding, order);
}

/// The shared layout of every allocation, from how its buffers are used.
/// wgmma reads its operands through matrix descriptors over the
/// nvmma_shared swizzles, with A K-major: an A buffer (MxK, K contiguous)
/// gets the widest swizzle K allows, a B buffer (KxN, N contiguous, which
/// wgmma reads MN-major) the widest one the N extent of one warp group's
/// instruction allows. Other buffers only meet local_load, local_store and
/// cp.async, which address any layout; they get rows padded by 16 bytes
/// (row-major, as tpxgpu-lower-layout-conversions stages), so that column
/// reads spread over the banks and rows stay 16-byte aligned for vectors.
static FailureOr<llvm::DenseMap<Operation *, Attribute>>
chooseSharedLayouts(ModuleOp module) {
  llvm::DenseMap<Operation *, Attribute> layouts;
  bool amd = tg::isAMDModule(module);
  if (amd) {
    // MFMA reads its operands from registers (local_load): every buffer is
    // row-major.
    module.walk([&](LocalAllocOp alloc) {
      BufferType type = alloc.getType();
      layouts[alloc] =
          getPaddedLayout(alloc.getContext(), type.getShape().size() - 1,
                          type.getElementType(), /*amd=*/true);
    });
    return layouts;
  }
  bool failed = false;
  auto require = [&](AsyncDotOp dot, Value buffer, Attribute layout,
                     StringRef role) {
    LocalAllocOp alloc = getAllocation(buffer);
    auto [it, inserted] = layouts.try_emplace(alloc, layout);
    if (!inserted && it->second != layout) {
      dot.emitError("tlx-lower-to-tpxgpu: operand ")
          << role << " needs the shared layout " << layout
          << ", but another async_dot reads the same allocation in "
          << it->second;
      failed = true;
    }
  };
  module.walk([&](AsyncDotOp dot) {
    tg::NvidiaMmaEncodingAttr mma = getDotLayout(dot);
    auto acc = cast<RankedTensorType>(dot.getC().getType());
    if (!mma) {
      dot.emitError("tlx-lower-to-tpxgpu: no wgmma layout holds a ")
          << acc.getShape()[0] << "x" << acc.getShape()[1] << " accumulator "
          << "with num_warps = " << tg::getNumWarpsAt(dot) << " from warp "
          << tg::getWarpStartAt(dot)
          << " (wgmma needs a multiple of 4 warps from a multiple of 4, M a "
             "multiple of 64 per warp group and N of 16)";
      failed = true;
      return;
    }
    auto bType = cast<BufferType>(dot.getB().getType());
    unsigned bytes = bType.getElementType().getIntOrFloatBitWidth() / 8;
    if (auto aType = dyn_cast<BufferType>(dot.getA().getType())) {
      unsigned swizzle = chooseSwizzle(aType.getShape()[1] * bytes);
      if (!swizzle) {
        dot.emitError("tlx-lower-to-tpxgpu: A's K extent is narrower than "
                      "wgmma's smallest (32-byte) swizzle");
        failed = true;
        return;
      }
      require(dot, dot.getA(),
              tg::NvmmaSharedEncodingAttr::get(dot.getContext(), swizzle,
                                               /*transposed=*/false, bytes * 8),
              "A");
    }
    if (auto trans = dot.getB().getDefiningOp<LocalTransOp>()) {
      // B = X^T for an NxK buffer X, K contiguous: X is laid out like an A
      // operand and B read K-major through the transposed view.
      unsigned swizzle = chooseSwizzle(bType.getShape()[0] * bytes);
      if (!swizzle) {
        dot.emitError("tlx-lower-to-tpxgpu: B's K extent is narrower than "
                      "wgmma's smallest (32-byte) swizzle");
        failed = true;
        return;
      }
      require(dot, trans.getSrc(),
              tg::NvmmaSharedEncodingAttr::get(dot.getContext(), swizzle,
                                               /*transposed=*/false, bytes * 8),
              "B (transposed)");
      return;
    }
    unsigned swizzle = chooseSwizzle(mma.getInstrShape()[1] * bytes);
    if (!swizzle) {
      dot.emitError("tlx-lower-to-tpxgpu: B's N extent per warp group is "
                    "narrower than wgmma's smallest (32-byte) swizzle");
      failed = true;
      return;
    }
    require(dot, dot.getB(),
            tg::NvmmaSharedEncodingAttr::get(dot.getContext(), swizzle,
                                             /*transposed=*/false, bytes * 8),
            "B");
  });
  // A buffer TMA writes or reads is in the swizzle of the descriptor's
  // tensor map (which wgmma can read as it is).
  auto requireTMA = [&](Operation *op, Value desc, Value buffer) {
    auto make = desc.getDefiningOp<tt::MakeTensorDescOp>();
    LocalAllocOp alloc = getCopyAllocation(buffer);
    if (!make || !alloc)
      return; // checkSupported reported it
    BufferType type = cast<BufferType>(buffer.getType());
    Attribute layout =
        tg::getTMABlockBufferType(tg::getTensorMap(make), type.getShape(), true)
            .getEncoding();
    auto [it, inserted] = layouts.try_emplace(alloc, layout);
    if (!inserted && it->second != layout) {
      op->emitError("tlx-lower-to-tpxgpu: TMA moves this buffer in the "
                    "shared layout ")
          << layout << ", but an async_dot reads the same allocation in "
          << it->second;
      failed = true;
    }
  };
  module.walk([&](AsyncDescriptorLoadOp op) {
    requireTMA(op, op.getDesc(), op.getBuffer());
  });
  module.walk([&](AsyncDescriptorStoreOp op) {
    requireTMA(op, op.getDesc(), op.getBuffer());
  });
  if (failed)
    return failure();
  module.walk([&](LocalAllocOp alloc) {
    if (layouts.count(alloc))
      return;
    BufferType type = alloc.getType();
    layouts[alloc] = getPaddedLayout(alloc.getContext(),
                                     type.getShape().size() - 1, // buffers
                                     type.getElementType(), /*amd=*/false);
  });
  return layouts;
}

//===----------------------------------------------------------------------===//
// The rewrite
//===----------------------------------------------------------------------===//

namespace {
class Lowering {
public:
  Lowering(llvm::DenseMap<Operation *, Attribute> layouts, bool amd)
      : layouts(std::move(layouts)), amd(amd) {}

  LogicalResult run(Operation *op);

private:
  /// The placed (encoded) value a tlx op's tensor operand was cast from.
  FailureOr<Value> getPlaced(Operation *user, Value operand);
  /// Replaces the placed casts of tlx result `result` by `value`, converted
  /// to the layout each cast gave it.
  LogicalResult replaceResult(OpBuilder &b, Value result, Value value);
  Value convertTo(OpBuilder &b, Location loc, Value value,
                  RankedTensorType type);

  LogicalResult lower(LocalAllocOp op, OpBuilder &b);
  LogicalResult lower(LocalViewOp op, OpBuilder &b);
  LogicalResult lower(LocalSliceOp op, OpBuilder &b);
  LogicalResult lower(LocalReinterpretOp op, OpBuilder &b);
  LogicalResult lower(LocalTransOp op, OpBuilder &b);
  LogicalResult lower(LocalLoadOp op, OpBuilder &b);
  LogicalResult lower(LocalStoreOp op, OpBuilder &b);
  LogicalResult lower(AsyncLoadOp op, OpBuilder &b);
  LogicalResult lower(AsyncCommitGroupOp op, OpBuilder &b);
  LogicalResult lower(AsyncWaitGroupOp op, OpBuilder &b);
  LogicalResult lower(AsyncDotOp op, OpBuilder &b);
  LogicalResult lower(AsyncDotWaitOp op, OpBuilder &b);
  /// AMD's: an MFMA tt.dot on registers loaded from the buffers, and a
  /// wait that has nothing to wait for.
  LogicalResult lowerForAMD(AsyncDotOp op, OpBuilder &b);
  LogicalResult lowerForAMD(AsyncDotWaitOp op, OpBuilder &b);
  LogicalResult lower(FenceAsyncSharedOp op, OpBuilder &b) {
    tg::FenceAsyncSharedOp::create(b, op.getLoc());
    return success();
  }
  LogicalResult lower(AllocBarriersOp op, OpBuilder &b);
  LogicalResult lower(BarrierViewOp op, OpBuilder &b);
  LogicalResult lower(BarrierWaitOp op, OpBuilder &b);
  LogicalResult lower(BarrierArriveOp op, OpBuilder &b);
  LogicalResult lower(BarrierExpectBytesOp op, OpBuilder &b);
  LogicalResult lower(AsyncDescriptorLoadOp op, OpBuilder &b);
  LogicalResult lower(AsyncDescriptorStoreOp op, OpBuilder &b);
  LogicalResult lower(AsyncDescriptorStoreWaitOp op, OpBuilder &b);
  LogicalResult lower(NamedBarrierOp op, OpBuilder &b);
  LogicalResult lower(Clock64Op op, OpBuilder &b);
  LogicalResult lower(ThreadIdOp op, OpBuilder &b);
  LogicalResult lower(ClusterCTARankOp op, OpBuilder &b);
  LogicalResult lower(ClusterBarrierOp op, OpBuilder &b);
  LogicalResult lower(VoteBallotSyncOp op, OpBuilder &b);
  /// The `memdesc<1xi64>` of a TLX barrier (an alloc_barriers of one, or a
  /// barrier_view).
  Value getBarrier(OpBuilder &b, Location loc, Value barrier);

  SmallVector<Value> mapTokens(ValueRange tokens) {
    SmallVector<Value> mapped;
    for (Value token : tokens)
      if (Value m = map.lookupOrNull(token))
        mapped.push_back(m);
    return mapped;
  }

  llvm::DenseMap<Operation *, Attribute> layouts;
  /// Whether the module is compiled for an AMD GPU.
  bool amd;
  /// tlx buffers and tokens -> memdescs and tpxgpu tokens.
  IRMapping map;
};
} // namespace

FailureOr<Value> Lowering::getPlaced(Operation *user, Value operand) {
  if (auto cast = operand.getDefiningOp<UnrealizedConversionCastOp>())
    if (cast->getNumOperands() == 1)
      return cast.getOperand(0);
  return user->emitError("tlx-lower-to-tpxgpu: the tensors of '")
         << user->getName()
         << "' have no layouts; run convert-tt-to-tpxgpu first";
}

Value Lowering::convertTo(OpBuilder &b, Location loc, Value value,
                          RankedTensorType type) {
  if (value.getType() == type)
    return value;
  return tg::ConvertLayoutOp::create(b, loc, type, value);
}

LogicalResult Lowering::replaceResult(OpBuilder &b, Value result, Value value) {
  for (Operation *user : llvm::make_early_inc_range(result.getUsers())) {
    auto cast = dyn_cast<UnrealizedConversionCastOp>(user);
    if (!cast || cast->getNumResults() != 1)
      return user->emitError("tlx-lower-to-tpxgpu: a tlx result is used "
                             "without the cast convert-tt-to-tpxgpu places; "
                             "run convert-tt-to-tpxgpu first");
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(cast);
    Value placed =
        convertTo(b, cast.getLoc(), value,
                  llvm::cast<RankedTensorType>(cast.getResult(0).getType()));
    cast.getResult(0).replaceAllUsesWith(placed);
    cast.erase();
  }
  return success();
}

/// A new allocation, or with `reuse` the bytes of the one it names, seen
/// in this allocation's own shape, type and layout.
LogicalResult Lowering::lower(LocalAllocOp op, OpBuilder &b) {
  BufferType type = op.getType();
  auto memdesc = tg::MemDescType::get(type.getShape(), type.getElementType(),
                                      layouts.lookup(op),
                                      /*mutableMemory=*/true);
  if (Value reuse = op.getReuse()) {
    map.map(op.getResult(), tg::MemDescReinterpretOp::create(
                                b, op.getLoc(), memdesc, map.lookup(reuse)));
    return success();
  }
  map.map(op.getResult(),
          tg::LocalAllocOp::create(b, op.getLoc(), memdesc, Value()));
  return success();
}

/// The buffer's bytes as a buffer of another shape or type, row-major and
/// padded like the buffers only local_load/store and async_load touch.
LogicalResult Lowering::lower(LocalReinterpretOp op, OpBuilder &b) {
  BufferType type = op.getType();
  auto memdesc = tg::MemDescType::get(
      type.getShape(), type.getElementType(),
      getPaddedLayout(op.getContext(), type.getShape().size(),
                      type.getElementType(), amd),
      /*mutableMemory=*/true);
  map.map(op.getResult(),
          tg::MemDescReinterpretOp::create(b, op.getLoc(), memdesc,
                                           map.lookup(op.getSrc())));
  return success();
}

LogicalResult Lowering::lower(LocalViewOp op, OpBuilder &b) {
  Value src = map.lookup(op.getBuffers());
  auto srcType = cast<tg::MemDescType>(src.getType());
  auto type = tg::MemDescType::get(
      srcType.getShape().drop_front(), srcType.getElementType(),
      srcType.getEncoding(), /*mutableMemory=*/true, srcType.getAllocShape());
  map.map(op.getResult(),
          tg::MemDescIndexOp::create(b, op.getLoc(), type, src, op.getIndex()));
  return success();
}

/// A static window of the same allocation; convert-tpxgpu-to-nvvm addresses
/// it by translation where the layout allows (padded rows; whole swizzle
/// atoms) and reports any other window.
LogicalResult Lowering::lower(LocalSliceOp op, OpBuilder &b) {
  Value src = map.lookup(op.getSrc());
  auto srcType = cast<tg::MemDescType>(src.getType());
  auto type = tg::MemDescType::get(
      op.getType().getShape(), srcType.getElementType(), srcType.getEncoding(),
      /*mutableMemory=*/true, srcType.getAllocShape());
  map.map(op.getResult(),
          tg::MemDescSubviewOp::create(b, op.getLoc(), type, src, ValueRange(),
                                       op.getOffsets()));
  return success();
}

/// The same bytes with the tile's dimensions swapped (an nvmma layout, as
/// chooseSharedLayouts gives a buffer read through local_trans).
LogicalResult Lowering::lower(LocalTransOp op, OpBuilder &b) {
  Value src = map.lookup(op.getSrc());
  auto srcType = cast<tg::MemDescType>(src.getType());
  Attribute layout = srcType.getRank() == 2
                         ? tg::getTransposedSharedLayout(srcType.getEncoding())
                         : Attribute();
  if (!layout)
    return op.emitError("tlx-lower-to-tpxgpu: local_trans needs a 2-D "
                        "buffer in an nvmma layout (one read as a dot "
                        "operand) or, on AMD, a row-major one, got ")
           << Type(srcType);
  auto swap = [](ArrayRef<int64_t> shape) {
    SmallVector<int64_t> swapped(shape);
    std::swap(swapped[swapped.size() - 2], swapped.back());
    return swapped;
  };
  auto type = tg::MemDescType::get(
      swap(srcType.getShape()), srcType.getElementType(), layout,
      srcType.getMutableMemory(), swap(srcType.getAllocShape()));
  map.map(op.getResult(),
          tg::MemDescTransOp::create(b, op.getLoc(), type, src));
  return success();
}

LogicalResult Lowering::lower(LocalLoadOp op, OpBuilder &b) {
  // The result takes the layout convert-tt-to-tpxgpu gave its users.
  auto users = op.getResult().getUsers();
  if (users.empty())
    return success();
  auto cast = dyn_cast<UnrealizedConversionCastOp>(*users.begin());
  if (!cast)
    return replaceResult(b, op.getResult(), Value());
  auto type = llvm::cast<RankedTensorType>(cast.getResult(0).getType());
  Value token = op.getToken() ? map.lookupOrNull(op.getToken()) : Value();
  Value loaded = tg::LocalLoadOp::create(b, op.getLoc(), type,
                                         map.lookup(op.getBuffer()), token);
  return replaceResult(b, op.getResult(), loaded);
}

LogicalResult Lowering::lower(LocalStoreOp op, OpBuilder &b) {
  FailureOr<Value> value = getPlaced(op, op.getValue());
  if (failed(value))
    return failure();
  tg::LocalStoreOp::create(b, op.getLoc(), *value, map.lookup(op.getBuffer()));
  return success();
}

LogicalResult Lowering::lower(AsyncLoadOp op, OpBuilder &b) {
  FailureOr<Value> ptrs = getPlaced(op, op.getPtrs());
  if (failed(ptrs))
    return failure();
  auto ptrType = cast<RankedTensorType>(ptrs->getType());
  Value mask;
  if (op.getMask()) {
    FailureOr<Value> placed = getPlaced(op, op.getMask());
    if (failed(placed))
      return failure();
    // The mask shares the pointers' layout (the tpxgpu op insists).
    mask = convertTo(b, op.getLoc(), *placed, ptrType.clone(b.getI1Type()));
  }
  // A zero `other` is cp.async's zero fill (checkSupported rejected others).
  auto copy = tg::AsyncCopyGlobalToLocalOp::create(
      b, op.getLoc(), *ptrs, map.lookup(op.getBuffer()), mask, Value(),
      op.getCache(), op.getEvict(), op.getIsVolatile());
  map.map(op.getToken(), copy.getToken());
  return success();
}

LogicalResult Lowering::lower(AsyncCommitGroupOp op, OpBuilder &b) {
  auto group = tg::AsyncCommitGroupOp::create(b, op.getLoc(),
                                              b.getType<tg::AsyncTokenType>(),
                                              mapTokens(op.getTokens()));
  map.map(op.getResult(), group.getResult());
  return success();
}

LogicalResult Lowering::lower(AsyncWaitGroupOp op, OpBuilder &b) {
  auto wait = tg::AsyncWaitOp::create(b, op.getLoc(), mapTokens(op.getTokens()),
                                      op.getPendings());
  map.map(op.getResult(), wait.getResult());
  return success();
}

/// `value` without the conversion that took an MMA result (of a dot or a
/// dot wait) out of its layout: the wait must see the registers wgmma
/// writes, not a copy read while the dot may still run.
static Value stripMmaConversion(Value value) {
  if (auto convert = value.getDefiningOp<tg::ConvertLayoutOp>())
    if (isa_and_nonnull<tg::NvidiaMmaEncodingAttr>(
            convert.getSrc().getType().getEncoding()))
      return convert.getSrc();
  return value;
}

LogicalResult Lowering::lowerForAMD(AsyncDotOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  FailureOr<Value> c = getPlaced(op, op.getC());
  if (failed(c))
    return failure();
  auto cType = cast<RankedTensorType>(c->getType());
  Value aValue = op.getA(), bValue = op.getB();
  tg::AmdMfmaEncodingAttr mfma = getMfmaLayout(op);
  auto accType = cType.cloneWithEncoding(mfma);
  Value acc = convertTo(b, loc, *c, accType);
  if (Value useAcc = op.getUseAcc()) {
    Value zero = arith::ConstantOp::create(
        b, loc, accType,
        DenseElementsAttr::get(accType,
                               b.getZeroAttr(accType.getElementType())));
    acc = arith::SelectOp::create(b, loc, useAcc, acc, zero);
  }
  // Each operand in its MFMA layout: read from its buffer, or converted
  // from the registers it is in.
  auto operand = [&](Value value, unsigned opIdx) -> FailureOr<Value> {
    auto layout = tg::DotOperandEncodingAttr::get(
        op.getContext(), opIdx, mfma, tg::getMfmaOperandKWidth(mfma));
    if (auto buffer = dyn_cast<BufferType>(value.getType())) {
      auto type = RankedTensorType::get(buffer.getShape(),
                                        buffer.getElementType(), layout);
      return tg::LocalLoadOp::create(b, loc, type, map.lookup(value), Value())
          .getResult();
    }
    FailureOr<Value> placed = getPlaced(op, value);
    if (failed(placed))
      return failure();
    return convertTo(
        b, loc, *placed,
        cast<RankedTensorType>(placed->getType()).cloneWithEncoding(layout));
  };
  FailureOr<Value> a = operand(aValue, 0);
  if (failed(a))
    return failure();
  FailureOr<Value> bOperand = operand(bValue, 1);
  if (failed(bOperand))
    return failure();
  auto dot = tt::DotOp::create(b, loc, accType, *a, *bOperand, acc,
                               op.getInputPrecisionAttr(),
                               op.getMaxNumImpreciseAccAttr());
  return replaceResult(b, op.getD(), dot.getD());
}

LogicalResult Lowering::lowerForAMD(AsyncDotWaitOp op, OpBuilder &b) {
  for (auto [input, output] : llvm::zip(op.getInputs(), op.getOutputs())) {
    if (isa<RankedTensorType>(output.getType())) {
      FailureOr<Value> placed = getPlaced(op, input);
      if (failed(placed) || failed(replaceResult(b, output, *placed)))
        return failure();
    } else if (isTLXType(output.getType())) {
      map.map(output, map.lookupOrDefault(input));
    } else {
      output.replaceAllUsesWith(input);
    }
  }
  return success();
}

LogicalResult Lowering::lower(AsyncDotOp op, OpBuilder &b) {
  if (amd)
    return lowerForAMD(op, b);
  Location loc = op.getLoc();
  tg::NvidiaMmaEncodingAttr mma = getDotLayout(op);
  FailureOr<Value> c = getPlaced(op, op.getC());
  if (failed(c))
    return failure();
  auto accType = cast<RankedTensorType>(c->getType()).cloneWithEncoding(mma);
  Value acc = convertTo(b, loc, stripMmaConversion(*c), accType);
  if (Value useAcc = op.getUseAcc()) {
    // wgmma's scale-d operand is not lowered yet: a false use_acc
    // multiplies by a zero accumulator instead.
    Value zero = arith::ConstantOp::create(
        b, loc, accType,
        DenseElementsAttr::get(accType,
                               b.getZeroAttr(accType.getElementType())));
    acc = arith::SelectOp::create(b, loc, useAcc, acc, zero);
  }
  Value a;
  if (isa<BufferType>(op.getA().getType())) {
    a = map.lookup(op.getA());
  } else {
    FailureOr<Value> placed = getPlaced(op, op.getA());
    if (failed(placed))
      return failure();
    auto aType = cast<RankedTensorType>(placed->getType());
    auto operandLayout = tg::DotOperandEncodingAttr::get(
        op.getContext(), 0, mma,
        tg::getMmaOperandKWidth(aType.getElementType()));
    a = convertTo(b, loc, *placed, aType.cloneWithEncoding(operandLayout));
  }
  auto dot = tg::WarpGroupDotOp::create(
      b, loc, accType, a, map.lookup(op.getB()), acc, /*useC=*/Value(),
      op.getInputPrecision(), op.getMaxNumImpreciseAcc(), /*isAsync=*/true);
  return replaceResult(b, op.getD(), dot.getD());
}

/// Makes loop result `value`, whose yielded value is converted out of an
/// MMA layout (an async dot's accumulator, carried in the default layout
/// convert-tt-to-tpxgpu gives loop values), a loop value in that MMA
/// layout, and returns it; null when `value` is not such a result. A wait
/// after the loop must see the registers the last dot writes: converting
/// them to another layout before the wait would read them while the dot
/// may still run.
static Value carryInMma(OpBuilder &b, Value value) {
  auto result = dyn_cast<OpResult>(value);
  auto loop = result ? dyn_cast<scf::ForOp>(result.getOwner()) : nullptr;
  if (!loop)
    return {};
  unsigned index = result.getResultNumber();
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  Value yielded = yield.getOperand(index);
  Value inner = stripMmaConversion(yielded);
  if (inner == yielded)
    return {};
  Location loc = loop.getLoc();
  Type oldType = value.getType();
  Type mmaType = inner.getType();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop);
  OpOperand &init = loop.getInitArgsMutable()[index];
  init.set(tg::ConvertLayoutOp::create(b, loc, mmaType, init.get()));
  BlockArgument arg = loop.getRegionIterArg(index);
  arg.setType(mmaType);
  b.setInsertionPointToStart(loop.getBody());
  auto back = tg::ConvertLayoutOp::create(b, loc, oldType, arg);
  arg.replaceAllUsesExcept(back, back);
  yield->setOperand(index, inner);
  result.setType(mmaType);
  b.setInsertionPointAfter(loop);
  auto out = tg::ConvertLayoutOp::create(b, loc, oldType, result);
  result.replaceAllUsesExcept(out, out);
  return result;
}

LogicalResult Lowering::lower(AsyncDotWaitOp op, OpBuilder &b) {
  if (amd)
    return lowerForAMD(op, b);
  SmallVector<Value> inputs;
  for (Value input : op.getInputs()) {
    if (Value mapped = map.lookupOrNull(input)) {
      inputs.push_back(mapped);
    } else if (isa<RankedTensorType>(input.getType())) {
      FailureOr<Value> placed = getPlaced(op, input);
      if (failed(placed))
        return failure();
      Value input = stripMmaConversion(*placed);
      if (Value carried = carryInMma(b, input))
        input = carried;
      inputs.push_back(input);
    } else {
      inputs.push_back(input);
    }
  }
  auto wait =
      tg::WarpGroupDotWaitOp::create(b, op.getLoc(), inputs, op.getPendings());
  for (auto [output, waited] : llvm::zip(op.getOutputs(), wait.getOutputs())) {
    if (isa<RankedTensorType>(output.getType())) {
      if (failed(replaceResult(b, output, waited)))
        return failure();
    } else if (isTLXType(output.getType())) {
      map.map(output, waited);
    } else {
      output.replaceAllUsesWith(waited);
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// mbarriers and TMA
//===----------------------------------------------------------------------===//

/// N barriers, each initialised (by one thread) to expect `arrive_count`
/// arrivals a phase, visible to every thread and the copy engine before
/// anyone uses them.
LogicalResult Lowering::lower(AllocBarriersOp op, OpBuilder &b) {
  map.map(op.getResult(),
          tg::createMBarriers(b, op.getLoc(), op.getType().getCount(),
                              op.getArriveCount()));
  // In a cluster, a peer CTA may arrive on these barriers or multicast into
  // their phase as soon as it is past its own: every CTA has initialised
  // its barriers before any goes on.
  if (tg::getModuleClusterSize(op) > 1) {
    tg::FenceMBarrierInitOp::create(b, op.getLoc());
    tg::ClusterBarrierOp::create(b, op.getLoc());
  }
  return success();
}

LogicalResult Lowering::lower(BarrierViewOp op, OpBuilder &b) {
  map.map(op.getResult(),
          tg::getMBarrierView(b, op.getLoc(), map.lookup(op.getBarriers()),
                              op.getIndex()));
  return success();
}

Value Lowering::getBarrier(OpBuilder &b, Location loc, Value barrier) {
  Value mapped = map.lookup(barrier);
  auto type = cast<tg::MemDescType>(mapped.getType());
  if (type.getRank() == 1)
    return mapped;
  Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  return tg::getMBarrierView(b, loc, mapped, zero);
}

LogicalResult Lowering::lower(BarrierWaitOp op, OpBuilder &b) {
  tg::WaitBarrierOp::create(b, op.getLoc(),
                            getBarrier(b, op.getLoc(), op.getBarrier()),
                            op.getPhase(), op.getPred());
  return success();
}

/// One arrival of `count` for the program (thread 0 arrives), as the CPU
/// runtime counts it.
/// One arrival for the whole task (or program), by its first thread, once
/// every warp of it is done with what came before: another warp group may
/// still have a wgmma reading the buffer the arrival releases, or a warp a
/// local_load of it.
LogicalResult Lowering::lower(BarrierArriveOp op, OpBuilder &b) {
  if (tg::getNumWarpsAt(op) > 1)
    tg::BarrierOp::create(b, op.getLoc());
  tg::ArriveBarrierOp::create(b, op.getLoc(),
                              getBarrier(b, op.getLoc(), op.getBarrier()),
                              op.getCount(), Value(), op.getRemoteCtaRank());
  return success();
}

LogicalResult Lowering::lower(ClusterCTARankOp op, OpBuilder &b) {
  op.replaceAllUsesWith(
      tg::ClusterCTARankOp::create(b, op.getLoc(), b.getI32Type()).getResult());
  return success();
}

/// vote.sync.ballot.b32 of the lanes in the mask (checked NVIDIA-only).
LogicalResult Lowering::lower(VoteBallotSyncOp op, OpBuilder &b) {
  Value mask = arith::ConstantOp::create(b, op.getLoc(), op.getMaskAttr());
  auto ballot = LLVM::InlineAsmOp::create(
      b, op.getLoc(), TypeRange(b.getI32Type()), ValueRange{op.getPred(), mask},
      "vote.sync.ballot.b32 $0, $1, $2;", "=r,b,r", /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::TailCallKind::None,
      /*asm_dialect=*/nullptr,
      /*operand_attrs=*/nullptr);
  op.replaceAllUsesWith(ballot.getResult(0));
  return success();
}

LogicalResult Lowering::lower(ClusterBarrierOp op, OpBuilder &b) {
  tg::ClusterBarrierOp::create(b, op.getLoc());
  return success();
}

/// mbarrier.arrive.expect_tx: the expectation is also the phase's arrival.
LogicalResult Lowering::lower(BarrierExpectBytesOp op, OpBuilder &b) {
  APInt bytes;
  (void)matchPattern(op.getBytes(), m_ConstantInt(&bytes)); // checked
  tg::BarrierExpectOp::create(
      b, op.getLoc(), getBarrier(b, op.getLoc(), op.getBarrier()),
      static_cast<uint32_t>(bytes.getZExtValue()), op.getPred());
  return success();
}

LogicalResult Lowering::lower(AsyncDescriptorLoadOp op, OpBuilder &b) {
  if (amd) {
    amd::emitTileLoad(b, op.getLoc(), op.getDesc(), op.getOffsets(),
                      map.lookup(op.getBuffer()),
                      getBarrier(b, op.getLoc(), op.getBarrier()),
                      tg::getNumWarpsAt(op), op.getCache(), op.getEvict());
    return success();
  }
  auto make = op.getDesc().getDefiningOp<tt::MakeTensorDescOp>();
  Value multicast;
  if (Value mask = op.getMulticast())
    multicast = arith::TruncIOp::create(b, op.getLoc(), b.getI16Type(), mask);
  tg::emitTMALoads(b, op.getLoc(), tg::getOrAddTensorMapArgument(make),
                   tg::getTensorMap(make), map.lookup(op.getBuffer()),
                   op.getOffsets(), getBarrier(b, op.getLoc(), op.getBarrier()),
                   Value(), op.getCache(), op.getEvict(), multicast);
  return success();
}

/// Thread 0 issues the store: every thread's writes of the buffer are
/// visible to the copy engine (TLX programs fence before the store; the
/// lowering does too) and in before it does.
LogicalResult Lowering::lower(AsyncDescriptorStoreOp op, OpBuilder &b) {
  if (amd) {
    amd::emitTileStore(b, op.getLoc(), op.getDesc(), op.getOffsets(),
                       map.lookup(op.getBuffer()), tg::getNumWarpsAt(op));
    return success();
  }
  auto make = op.getDesc().getDefiningOp<tt::MakeTensorDescOp>();
  tg::FenceAsyncSharedOp::create(b, op.getLoc());
  tg::BarrierOp::create(b, op.getLoc());
  tg::emitTMAStores(b, op.getLoc(), tg::getOrAddTensorMapArgument(make),
                    tg::getTensorMap(make), map.lookup(op.getBuffer()),
                    op.getOffsets());
  return success();
}

/// Only thread 0 has stores to wait for; the others wait for it.
/// On AMD the stores are the threads' own: they have read the buffer.
LogicalResult Lowering::lower(AsyncDescriptorStoreWaitOp op, OpBuilder &b) {
  if (!amd)
    tg::AsyncTMAStoreWaitOp::create(b, op.getLoc(), op.getPendings());
  tg::BarrierOp::create(b, op.getLoc());
  return success();
}

/// Barrier `id` among `count` threads (bar.sync / bar.arrive on NVIDIA, an
/// LDS word on AMD). It orders shared memory like a CTA barrier among the
/// threads that meet there (tpxgpu.barrier in a partition is one of these
/// too).
///
/// TLX counts threads of 32-lane warps (a task of num_warps warps is
/// num_warps x 32 threads). On AMD a TLX warp is a 64-lane wavefront, so
/// the count is scaled to the same warps' threads: the barrier still
/// completes when the warps the program named have arrived.
LogicalResult Lowering::lower(NamedBarrierOp op, OpBuilder &b) {
  Value count = op.getCount();
  unsigned threadsPerWarp = tg::getModuleThreadsPerWarp(op);
  if (threadsPerWarp != 32)
    count = arith::MulIOp::create(
        b, op.getLoc(), count,
        arith::ConstantIntOp::create(b, op.getLoc(), threadsPerWarp / 32, 32));
  tg::NamedBarrierOp::create(b, op.getLoc(), op.getId(), count,
                             op.getArriveOnly());
  return success();
}

/// %clock64: the multiprocessor's cycle counter.
LogicalResult Lowering::lower(Clock64Op op, OpBuilder &b) {
  if (amd) {
    // s_memtime: the shader clock, 64 bits.
    auto time = LLVM::CallIntrinsicOp::create(
        b, op.getLoc(), b.getI64Type(),
        b.getStringAttr("llvm.amdgcn.s.memtime"), ValueRange());
    op.replaceAllUsesWith(time.getResult(0));
    return success();
  }
  op.replaceAllUsesWith(
      NVVM::Clock64Op::create(b, op.getLoc(), b.getI64Type()).getResult());
  return success();
}

/// %tid.x/y/z: the hardware thread index, in a partition as outside it.
/// Read by inline PTX: the warp_specialize lowering counts nvvm tid.x reads
/// from a partition's first thread (for the layouts of its tensors), and
/// TLX's id is the block's.
LogicalResult Lowering::lower(ThreadIdOp op, OpBuilder &b) {
  if (amd) {
    // The intrinsic, not rocdl.workitem.id.x: the warp_specialize lowering
    // rebases those in a partition.
    static constexpr const char *kIntrinsics[] = {"llvm.amdgcn.workitem.id.x",
                                                  "llvm.amdgcn.workitem.id.y",
                                                  "llvm.amdgcn.workitem.id.z"};
    auto id = LLVM::CallIntrinsicOp::create(
        b, op.getLoc(), b.getI32Type(),
        b.getStringAttr(kIntrinsics[op.getAxis()]), ValueRange());
    op.replaceAllUsesWith(id.getResult(0));
    return success();
  }
  static constexpr const char *kAsm[] = {
      "mov.u32 $0, %tid.x;", "mov.u32 $0, %tid.y;", "mov.u32 $0, %tid.z;"};
  auto read = LLVM::InlineAsmOp::create(
      b, op.getLoc(), TypeRange(b.getI32Type()), ValueRange(),
      kAsm[op.getAxis()], "=r", /*has_side_effects=*/false,
      /*is_align_stack=*/false, LLVM::TailCallKind::None,
      /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
  op.replaceAllUsesWith(read.getResult(0));
  return success();
}

LogicalResult Lowering::run(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<TLXDialect>(op->getDialect()))
      ops.push_back(op);
  });
  OpBuilder b(root->getContext());
  for (Operation *op : ops) {
    b.setInsertionPoint(op);
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(op)
            .Case<LocalAllocOp, LocalViewOp, LocalSliceOp, LocalReinterpretOp,
                  LocalTransOp, LocalLoadOp, LocalStoreOp, AsyncLoadOp,
                  AsyncCommitGroupOp, AsyncWaitGroupOp, AsyncDotOp,
                  AsyncDotWaitOp, FenceAsyncSharedOp, AllocBarriersOp,
                  BarrierViewOp, BarrierWaitOp, BarrierArriveOp,
                  BarrierExpectBytesOp, AsyncDescriptorLoadOp,
                  AsyncDescriptorStoreOp, AsyncDescriptorStoreWaitOp,
                  NamedBarrierOp, Clock64Op, ThreadIdOp, ClusterCTARankOp,
                  ClusterBarrierOp, VoteBallotSyncOp>(
                [&](auto tlxOp) { return lower(tlxOp, b); })
            .Default([](Operation *other) {
              return other->emitError("tlx-lower-to-tpxgpu: '")
                     << other->getName() << "' is not lowered yet";
            });
    if (failed(result))
      return failure();
  }
  // Users first; then the casts that fed the tlx ops' operands and the
  // conversions of in-flight dot results nothing reads any more.
  for (Operation *op : llvm::reverse(ops)) {
    op->dropAllUses();
    op->erase();
  }
  bool changed = true;
  while (changed) {
    changed = false;
    root->walk([&](Operation *op) {
      if (isa<UnrealizedConversionCastOp, tg::ConvertLayoutOp>(op) &&
          op->use_empty()) {
        op->erase();
        changed = true;
        return;
      }
      // A round trip (an accumulator carryInMma took out of the MMA layout
      // and back) is the value itself: the dot must read its registers.
      if (auto convert = dyn_cast<tg::ConvertLayoutOp>(op))
        if (auto inner = convert.getSrc().getDefiningOp<tg::ConvertLayoutOp>())
          if (inner.getSrc().getType() == convert.getType()) {
            convert.replaceAllUsesWith(inner.getSrc());
            changed = true;
          }
    });
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

LogicalResult tpx::tlx::lowerToTPXGPU(ModuleOp module) {
  bool hasTLX = false;
  module.walk([&](Operation *op) {
    if (isa<TLXDialect>(op->getDialect()))
      hasTLX = true;
  });
  if (!hasTLX)
    return success();
  if (!module->hasAttr(tg::TPXGPUDialect::kNumWarpsAttrName))
    return module.emitError("tlx-lower-to-tpxgpu: the module has no tensor "
                            "layouts; run convert-tt-to-tpxgpu first");
  sinkViewSelections(module);
  insertClusterExitBarriers(module);
  bool amd = tg::isAMDModule(module);
  if (tg::getModuleThreadsPerWarp(module) != (amd ? 64u : 32u))
    return module.emitError("tlx-lower-to-tpxgpu: TLX is lowered for NVIDIA "
                            "GPUs (32 threads per warp) and AMD CDNA (64) "
                            "only");
  if (failed(checkSupported(module)))
    return failure();
  FailureOr<llvm::DenseMap<Operation *, Attribute>> layouts =
      chooseSharedLayouts(module);
  if (failed(layouts))
    return failure();
  Lowering lowering(std::move(*layouts), amd);
  if (failed(lowering.run(module)))
    return failure();
  module.walk([](tt::FuncOp func) { placeBarriers(func); });
  return success();
}
