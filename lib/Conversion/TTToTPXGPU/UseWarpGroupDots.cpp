//===- UseWarpGroupDots.cpp - tt.dot on Hopper's wgmma --------------------===//
//
// convert-tt-to-tpxgpu gives every 16-bit tt.dot an mma.sync accumulator
// (nvidia_mma version 2) and the other types FMA (blocked) ones, with the
// operands converted to dot_op layouts. On Hopper the warp-group MMA
// (wgmma) is the fast instruction: four warps together compute a 64xN
// tile, reading B (and usually A) straight from shared memory in a
// swizzled layout the hardware defines. This pass rewrites the dots wgmma
// has a form for (f16/bf16, tf32, fp8 into f32; int8 into i32) that way:
//
//   tpxgpu.barrier
//   %a_s = tpxgpu.local_alloc %a -> memdesc<MxK, #nvmma_shared>
//   %b_s = tpxgpu.local_alloc %b -> memdesc<KxN, #nvmma_shared>
//   tpxgpu.fence_async_shared
//   tpxgpu.barrier
//   %d   = tpxgpu.warp_group_dot %a_s, %b_s, %c -> tensor<MxN, #mma_v3>
//
// The first barrier orders the stores after earlier readers of the bytes;
// the fence and the second barrier make every thread's stores visible to
// the async proxy, through which wgmma reads shared memory.
//
// A stays in registers (dot_op of the version-3 layout) when it is computed
// from another dot (attention's P): wgmma takes A from registers, and the
// chained accumulator layout already holds it. The old layouts only remain
// in conversions, which the canonicalize after it folds away.
//
// Only f16/bf16 wgmma can transpose a shared operand (imm-trans-a/b); for
// tf32, fp8 and int8 both operands are read K-major, so B is always staged
// in the transposed (K-contiguous) nvmma layout. Swizzle widths are bytes:
// a 128-byte row is 64 f16, 32 tf32 or 128 8-bit elements.
//
//===----------------------------------------------------------------------===//
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"
#include "tpx/Conversion/TTToTPXGPU/WarpGroupDots.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/IR/Builders.h"

namespace tpx {
#define GEN_PASS_DEF_TPXGPUUSEWARPGROUPDOTS
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;
using namespace tpx::tpxgpu;

namespace {
/// One wgmma instruction is m64nNkK, K being 32 bytes of operand row: 16
/// f16/bf16, 8 tf32, 32 fp8 or int8 elements.
constexpr int64_t kWarpGroupM = 64;
constexpr int64_t kInstrKBytes = 32;
constexpr int64_t kMaxInstrN = 256;
constexpr unsigned kWarpsPerGroup = 4;
} // namespace

/// The warp groups along M and N for an MxN tile on `numWarps` warps, or
/// none when wgmma cannot cover it without replicating work. Warps go
/// along M as long as each warp group gets its own 64 rows, then along N
/// while each group keeps at least 16 columns (a 32-byte swizzle of B).
static std::optional<std::pair<unsigned, unsigned>>
chooseWarpGroups(int64_t m, int64_t n, unsigned numWarps) {
  if (numWarps % kWarpsPerGroup != 0 || m % kWarpGroupM != 0 || n % 16 != 0)
    return std::nullopt;
  unsigned groupsM = 1, groupsN = 1;
  for (unsigned left = numWarps / kWarpsPerGroup; left > 1; left /= 2) {
    if (m / (kWarpGroupM * groupsM) >= 2)
      groupsM *= 2;
    else if (n / (16 * groupsN) >= 2)
      groupsN *= 2;
    else
      return std::nullopt;
  }
  return std::make_pair(groupsM, groupsN);
}

/// The version-3 accumulator layout for an MxN tile (null as above).
static NvidiaMmaEncodingAttr chooseLayout(MLIRContext *context, int64_t m,
                                          int64_t n, int64_t instrK,
                                          unsigned numWarps) {
  auto groups = chooseWarpGroups(m, n, numWarps);
  if (!groups)
    return {};
  auto [groupsM, groupsN] = *groups;
  int64_t instrN = std::min(kMaxInstrN, n / groupsN);
  return NvidiaMmaEncodingAttr::get(context, /*version=*/3,
                                    {groupsM * kWarpsPerGroup, groupsN},
                                    {16, unsigned(instrN), unsigned(instrK)});
}

/// The widest hardware swizzle (128, 64 or 32 bytes) not wider than the
/// contiguous extent `bytes` of the tile; 0 when even 32 bytes is too wide.
static unsigned chooseSwizzle(int64_t bytes) {
  for (unsigned swizzle : {128u, 64u, 32u})
    if (bytes >= swizzle)
      return swizzle;
  return 0;
}

/// The value a convert_layout made by convert-tt-to-tpxgpu converts.
static Value stripConversion(Value value) {
  if (auto convert = value.getDefiningOp<ConvertLayoutOp>())
    return convert.getSrc();
  return value;
}

/// True when `tensor`'s registers run along dimension 0: a B operand
/// loaded K-contiguous (attention's K^T), best staged K-major so that the
/// stores (or async copies) keep the global vector width.
static bool runsAlongFirstDim(Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding());
  return blocked && blocked.getOrder().front() == 0 &&
         blocked.getSizePerThread()[0] > 1;
}

/// `tensor` copied into a fresh shared buffer in the nvmma layout whose
/// contiguous dimension is the last (K for A, N for B), or the first when
/// `transposed` (K for B). The copy goes right after `tensor`'s definition
/// when that lies outside the dot's block (a loop-invariant operand such as
/// attention's Q is staged once, not every iteration), else at `b`.
static Value stageInSharedMemory(OpBuilder &b, Location loc, Value tensor,
                                 unsigned swizzle, bool transposed = false) {
  auto type = cast<RankedTensorType>(tensor.getType());
  Type element = type.getElementType();
  auto layout = NvmmaSharedEncodingAttr::get(
      b.getContext(), swizzle, transposed, element.getIntOrFloatBitWidth());
  auto buffer = MemDescType::get(type.getShape(), element, layout,
                                 /*mutableMemory=*/false);
  OpBuilder::InsertionGuard guard(b);
  Block *definedIn = isa<BlockArgument>(tensor)
                         ? cast<BlockArgument>(tensor).getOwner()
                         : tensor.getDefiningOp()->getBlock();
  if (definedIn != b.getInsertionBlock()) {
    // Dots in several loops (a causal attention's two) share one copy.
    for (Operation *user : tensor.getUsers())
      if (auto staged = dyn_cast<LocalAllocOp>(user))
        if (staged->getBlock() == definedIn && staged.getType() == buffer)
          return staged;
    b.setInsertionPointAfterValue(tensor);
    // Earlier readers of reused bytes, as for the per-dot staging.
    BarrierOp::create(b, loc);
  }
  return LocalAllocOp::create(b, loc, buffer, tensor);
}

static bool isFp8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

/// True for the 16-bit operand types, whose wgmma can read an MN-major B
/// (imm-trans-b); tf32, fp8 and int8 wgmma read both operands K-major.
static bool hasTransposedForms(Type element) {
  return element.isF16() || element.isBF16();
}

int64_t tpxgpu::getWarpGroupDotInstrK(Type a, Type b, Type acc,
                                      tt::InputPrecision precision) {
  // ieee f32 dots stay exact on FMAs; f16 accumulators, mixed types (f16 x
  // fp8) and fp8 into f16 keep their other lowering.
  bool supported = (a == b && hasTransposedForms(a) && acc.isF32()) ||
                   (a.isF32() && b.isF32() && acc.isF32() &&
                    precision == tt::InputPrecision::TF32) ||
                   (isFp8(a) && isFp8(b) && acc.isF32()) ||
                   (a.isInteger(8) && b.isInteger(8) && acc.isInteger(32));
  return supported ? kInstrKBytes * 8 / a.getIntOrFloatBitWidth() : 0;
}

bool tpxgpu::canUseWarpGroupDot(tt::DotOp dot, unsigned numWarps) {
  RankedTensorType acc = dot.getType();
  int64_t instrK =
      getWarpGroupDotInstrK(dot.getA().getType().getElementType(),
                            dot.getB().getType().getElementType(),
                            acc.getElementType(), dot.getInputPrecision());
  return acc.getRank() == 2 && instrK &&
         dot.getA().getType().getShape()[1] % instrK == 0 &&
         chooseWarpGroups(acc.getDimSize(0), acc.getDimSize(1), numWarps);
}

/// The K of one wgmma instruction for `dot`, or 0 when this pass leaves it.
static int64_t getWgmmaInstrK(tt::DotOp dot) {
  RankedTensorType acc = dot.getType();
  // convert-tt-to-tpxgpu gave 16-bit dots an mma.sync layout, the others
  // an FMA (blocked) one; a 16-bit dot it left on FMAs stays there.
  auto mma = dyn_cast_or_null<NvidiaMmaEncodingAttr>(acc.getEncoding());
  Type a = dot.getA().getType().getElementType();
  if ((mma && mma.isHopper()) ||
      (!mma && !isa_and_nonnull<BlockedEncodingAttr>(acc.getEncoding())) ||
      (hasTransposedForms(a) && !mma))
    return 0;
  int64_t instrK = tpxgpu::getWarpGroupDotInstrK(
      a, dot.getB().getType().getElementType(), acc.getElementType(),
      dot.getInputPrecision());
  if (!instrK || dot.getA().getType().getShape()[1] % instrK != 0)
    return 0;
  return instrK;
}

static void rewriteDot(tt::DotOp dot, int64_t instrK, unsigned numWarps) {
  RankedTensorType acc = dot.getType();
  ArrayRef<int64_t> shape = acc.getShape();
  NvidiaMmaEncodingAttr layout =
      chooseLayout(dot.getContext(), shape[0], shape[1], instrK, numWarps);
  if (!layout)
    return;
  Type element = dot.getB().getType().getElementType();
  unsigned bytes = dot.getA().getType().getElementTypeBitWidth() / 8;
  int64_t k = dot.getA().getType().getShape()[1];
  Value b0 = stripConversion(dot.getB());
  // Without imm-trans-b (all but the 16-bit types) B must be K-major:
  // staged transposed whatever its registers' order.
  bool kMajorB = !hasTransposedForms(element) || runsAlongFirstDim(b0);
  unsigned swizzleA = chooseSwizzle(k * bytes);
  unsigned swizzleB =
      chooseSwizzle((kMajorB ? k : int64_t(layout.getInstrShape()[1])) * bytes);
  if (!swizzleA || !swizzleB)
    return;

  OpBuilder b(dot);
  Location loc = dot.getLoc();
  // The staging buffers may reuse bytes that earlier ops (the previous
  // iteration's dot, a conversion's scratch) still read in other warps:
  // every thread must be past those reads before the stores.
  BarrierOp::create(b, loc);
  Value a = stripConversion(dot.getA());
  Value aOperand;
  if (isComputedFromDot(a)) {
    auto aType = cast<RankedTensorType>(a.getType());
    auto operandLayout = DotOperandEncodingAttr::get(
        dot.getContext(), 0, layout,
        getMmaOperandKWidth(aType.getElementType()));
    aOperand = ConvertLayoutOp::create(
        b, loc, aType.cloneWithEncoding(operandLayout), a);
  } else {
    aOperand = stageInSharedMemory(b, loc, a, swizzleA);
  }
  Value bOperand = stageInSharedMemory(b, loc, b0, swizzleB, kMajorB);
  Value c = ConvertLayoutOp::create(b, loc, acc.cloneWithEncoding(layout),
                                    stripConversion(dot.getC()));
  // Every thread's stores, visible to the async proxy wgmma reads through.
  FenceAsyncSharedOp::create(b, loc);
  BarrierOp::create(b, loc);
  auto wgmma = WarpGroupDotOp::create(
      b, loc, acc.cloneWithEncoding(layout), aOperand, bOperand, c,
      /*useC=*/Value(), dot.getInputPrecision(), dot.getMaxNumImpreciseAcc(),
      /*isAsync=*/false);
  Value back = ConvertLayoutOp::create(b, loc, acc, wgmma.getD());
  SmallVector<Operation *> operandConversions;
  for (Value operand : dot->getOperands())
    if (Operation *def = operand.getDefiningOp<ConvertLayoutOp>())
      operandConversions.push_back(def);
  dot.replaceAllUsesWith(back);
  dot.erase();
  for (Operation *conversion : operandConversions)
    if (conversion->use_empty())
      conversion->erase();
}

namespace {
struct UseWarpGroupDotsPass
    : tpx::impl::TPXGPUUseWarpGroupDotsBase<UseWarpGroupDotsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!module->hasAttr(TPXGPUDialect::kNumWarpsAttrName))
      return; // no layouts assigned (the one-thread path)
    if (getModuleThreadsPerWarp(module) != 32)
      return;
    SmallVector<std::pair<tt::DotOp, int64_t>> dots;
    module.walk([&](tt::DotOp dot) {
      // A warp group starts at a multiple of 4 warps (a partition placed
      // elsewhere keeps mma.sync).
      if (getWarpStartAt(dot) % 4 != 0)
        return;
      if (int64_t instrK = getWgmmaInstrK(dot))
        dots.push_back({dot, instrK});
    });
    for (auto [dot, instrK] : dots)
      rewriteDot(dot, instrK, getNumWarpsAt(dot)); // a partition's own
  }
};
} // namespace

NvidiaMmaEncodingAttr
tpx::tpxgpu::chooseWarpGroupDotLayout(MLIRContext *context, int64_t m,
                                      int64_t n, int64_t instrK,
                                      unsigned numWarps) {
  return chooseLayout(context, m, n, instrK, numWarps);
}
