//===- AMDTransposedReads.cpp - gfx950's ds_read_b64_tr_b16
//----------------===//
//
// An MFMA operand wants kWidth consecutive K elements in each lane, but a
// buffer filled by direct-to-LDS copies keeps the global row-major order:
// B [K, N] is N-contiguous, so the plain read is one ds_read_u16 per
// element. gfx950's transposing LDS read fixes that for 16-bit elements.
// Its contract (CDNA4 ISA; LLVM's llvm.amdgcn.ds.read.tr16.b64): every
// lane reads 64 contiguous bits (four elements) at its own address, and
// within each group of 16 lanes the elements are exchanged so that lane t
// receives, as element k, element t % 4 of what lane 4 k + t / 4 read.
//
// So to give lane t of a group the four elements (r0 + k, c0 + t), k =
// 0..3, along the read dimension r and the contiguous dimension c, lane
// s = 4 k + g reads (r0 + k, c0 + 4 g .. c0 + 4 g + 3): the group's 4 x 16
// block row by row. That works where the register layout is made of such
// blocks: registers 4 i .. 4 i + 3 step r by 1, 2 (a run of four from a
// multiple of four), lanes 0-15 step c by 1, 2, 4, 8 (from a multiple of
// 16), and no other basis touches those low bits; MFMA operands from a
// buffer contiguous along M (A) or N (B) are exactly that.
//
//===----------------------------------------------------------------------===//
#include "SharedView.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

namespace {
constexpr unsigned kRun = 4;    // elements a lane reads (64 bits)
constexpr unsigned kGroup = 16; // lanes that exchange them
} // namespace

static bool isUnitStep(const Coordinate &basis, unsigned dim, int64_t step) {
  for (unsigned d = 0; d < basis.size(); ++d)
    if (basis[d] != (d == dim ? step : 0))
      return false;
  return true;
}

static bool keepsLowBits(ArrayRef<Coordinate> bases, unsigned dim,
                         int64_t count) {
  return llvm::all_of(
      bases, [&](const Coordinate &b) { return (b[dim] & (count - 1)) == 0; });
}

std::optional<unsigned>
gpu_lowering::getTransposedReadDim(Operation *op, const SharedView &view,
                                   const LinearLayout &to, Type element) {
  if (tpxgpu::getModuleTarget(op) != "gfx950" || !element.isIntOrFloat() ||
      element.getIntOrFloatBitWidth() != 16 || to.getRank() != 2 ||
      view.type.getRank() != 2 || view.layout.getElementBytes() != 2 ||
      view.layout.getMaxContiguousElements() < kRun ||
      alignToRows(view, kRun, 2) != kRun)
    return std::nullopt;
  std::optional<unsigned> contiguous = view.contiguousDim();
  if (!contiguous)
    return std::nullopt;
  unsigned c = *contiguous, r = 1 - c;
  ArrayRef<Coordinate> regs = to.getBases(LinearLayout::Register);
  ArrayRef<Coordinate> lanes = to.getBases(LinearLayout::Lane);
  ArrayRef<Coordinate> warps = to.getBases(LinearLayout::Warp);
  if (regs.size() < 2 || lanes.size() < 4 || !isUnitStep(regs[0], r, 1) ||
      !isUnitStep(regs[1], r, 2))
    return std::nullopt;
  for (unsigned i = 0; i < 4; ++i)
    if (!isUnitStep(lanes[i], c, int64_t(1) << i))
      return std::nullopt;
  // Every other basis moves whole blocks: r by multiples of 4, c by
  // multiples of 16.
  if (!keepsLowBits(regs.drop_front(2), r, kRun) ||
      !keepsLowBits(regs.drop_front(2), c, kGroup) ||
      !keepsLowBits(lanes.drop_front(4), r, kRun) ||
      !keepsLowBits(lanes.drop_front(4), c, kGroup) ||
      !keepsLowBits(warps, r, kRun) || !keepsLowBits(warps, c, kGroup))
    return std::nullopt;
  return r;
}

SmallVector<Value> gpu_lowering::loadWithTransposedReads(
    OpBuilder &b, Location loc, const SharedView &view, const LinearLayout &to,
    Type element, unsigned readDim, const ThreadIds &ids) {
  unsigned r = readDim, c = 1 - readDim;
  // Lane s of a group reads block row s / 4, columns 4 (s % 4) .. + 3,
  // of the block whose first element the group's lane 0 holds.
  Value inGroup =
      LLVM::AndOp::create(b, loc, ids.lane, i32Constant(b, loc, kGroup - 1));
  Value groupLane = LLVM::SubOp::create(b, loc, ids.lane, inGroup);
  Value row = LLVM::LShrOp::create(b, loc, inGroup, i32Constant(b, loc, 2));
  Value column = LLVM::ShlOp::create(
      b, loc,
      LLVM::AndOp::create(b, loc, inGroup, i32Constant(b, loc, kRun - 1)),
      i32Constant(b, loc, 2));
  SmallVector<Value> groupThread =
      getThreadCoordinate(b, loc, to, ThreadIds{groupLane, ids.warp});
  auto vector = VectorType::get({kRun}, element);
  SmallVector<Value> result;
  for (unsigned reg = 0, e = to.getNumRegisters(); reg < e; reg += kRun) {
    SmallVector<Value> start =
        getElementCoordinate(b, loc, to, reg, groupThread);
    // The block's first element has its low bits clear (checked), so adding
    // is the layout's XOR.
    start[r] = LLVM::AddOp::create(b, loc, start[r], row);
    start[c] = LLVM::AddOp::create(b, loc, start[c], column);
    Value read = ROCDL::ds_read_tr16_b64::create(
        b, loc, vector, view.address(b, loc, start), ArrayAttr(), ArrayAttr(),
        ArrayAttr());
    for (unsigned k = 0; k < kRun; ++k)
      result.push_back(
          LLVM::ExtractElementOp::create(b, loc, read, i32Constant(b, loc, k)));
  }
  return result;
}
