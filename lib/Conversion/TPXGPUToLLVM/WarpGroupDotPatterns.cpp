//===- WarpGroupDotPatterns.cpp - warp_group_dot to Hopper wgmma ----------===//
//
// `tpxgpu.warp_group_dot` (tpxgpu-use-wgmma) becomes a run of
// `wgmma.mma_async.sync.aligned.m64nNkK.<d>.<a>.<b>` instructions, one per
// (warp-group tile, K step), issued back to back and committed as one
// group; a synchronous dot then waits for it, an `async` one leaves that
// to a `warp_group_dot_wait` (wgmma.wait_group N). A K step is 32 bytes of
// operand row: k16 for f16/bf16, k8 for tf32 (f32 operands), k32 for
// e4m3/e5m2 (any pair) and s8; <d> is f32, or s32 for s8. Only the 16-bit
// forms have imm-trans-a/b; the others read both operands K-major, and the
// integer form has no imm-scale-a/b either.
//
// Registers. The accumulator's version-3 layout gives each thread the
// registers of one m64nN instruction in the instruction's own order (the
// lowest log2(N/2) register bits; pinned in TPXGPULinearLayoutTest), so an
// instruction tile is a contiguous run of registers whose origin is the
// register coordinate of its first. A register A operand (dot_op of the
// version-3 layout) holds, per K step and 16 rows of a warp, the A
// fragment of the element size in its order: four 32-bit registers of
// kWidth = 32 / bits elements each (mmaV3OperandAToLinear).
//
// Shared operands. A memdesc lowers to an `!llvm.ptr<3>` to its first
// byte. wgmma reads a shared operand through a 64-bit matrix descriptor
// (PTX ISA, "Matrix Descriptor Format"): start address >> 4 (bits 0-13),
// leading-dimension byte offset >> 4 (16-29), stride-dimension byte offset
// >> 4 (32-45), swizzle mode (62-63: 1 = 128 B, 2 = 64 B, 3 = 32 B). In the
// nvmma_shared layout (docs/tpxgpu-dialect.md) a tile with rows of S
// swizzle bytes along its contiguous dimension is stored as column blocks
// of S / element-bytes elements, each block `outer x S` bytes; inside a
// block, 8-row groups are 8 * S bytes apart. For the canonical layouts:
//  - K-major (K contiguous: A; every B of tf32, fp8 and int8, and f16/bf16
//    B's such as attention's K^T): SBO = 8 * S (8-row groups along M/N);
//    the leading offset is unused while a 32-byte K step stays inside one
//    S-byte row, which it does (K steps advance the start address by 32
//    bytes, whatever the element size);
//  - MN-major (B with N contiguous, `imm-trans-b` = 1): LBO = the distance
//    between column blocks along N (K * S), SBO = 8 * S (8-row groups along
//    K); K steps advance the start address by 16 * S.
// The hardware applies the XOR swizzle to absolute addresses, which is why
// nvmma buffers are 1024-byte aligned; tile origins used here are always
// multiples of 8 rows, so the start addresses need no base offset.
//
// Memory ordering. The operands were written with ordinary shared stores
// or cp.async (generic proxy); wgmma reads through the async proxy. The IR
// orders that, visibly: `tpxgpu.fence_async_shared` in every writing
// thread, then `tpxgpu.barrier`, before the dot (tpxgpu-use-wgmma and the
// pipeliners place them). The lowering only adds `wgmma.fence`, which
// orders the accumulator registers' earlier writes before the MMAs read
// them.
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <string>

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;
using tpxgpu::MemDescType;
using tpxgpu::NvidiaMmaEncodingAttr;
using tpxgpu::NvmmaSharedEncodingAttr;
using tpxgpu::WarpGroupDotOp;

namespace {
/// One wgmma instruction reads 32 bytes of every operand row along K: K =
/// 16 for f16/bf16, 8 for tf32, 32 for fp8 and int8.
constexpr int64_t kInstrKBytes = 32;
constexpr unsigned kGroupWarpBits = 2; // four warps per warp group

/// How a shared operand is laid out for wgmma: its descriptor's constant
/// part and how tile coordinates become start-address offsets.
struct SharedOperand {
  Value base; // !llvm.ptr<3>
  unsigned swizzle;
  unsigned elementBytes;
  int64_t outer;    // extent of the non-contiguous dimension
  bool kContiguous; // K-major (true) or MN-major
  uint64_t constantBits = 0;

  /// Byte offset (before swizzling) of element (inner i, outer o).
  int64_t offsetOf(int64_t inner, int64_t outerIndex) const {
    int64_t perBlock = swizzle / elementBytes;
    return (inner / perBlock) * (outer * swizzle) + outerIndex * swizzle +
           (inner % perBlock) * elementBytes;
  }

  /// The i32 byte offset of the instruction tile at K `k0` and static M/N
  /// origin `mn`, plus the warp group's run-time M/N origin `groupMN` (a
  /// multiple of the instruction's extent, hence of a column block when
  /// M/N is the contiguous dimension).
  Value offsetAt(OpBuilder &b, Location loc, int64_t k0, int64_t mn,
                 Value groupMN) const {
    int64_t fixed = kContiguous ? offsetOf(k0, mn) : offsetOf(mn, k0);
    // Moving one row along the non-contiguous M/N dimension: `swizzle`
    // bytes; along a contiguous N: a column block (outer * swizzle bytes)
    // per swizzle / elementBytes columns.
    int64_t perUnit = kContiguous ? swizzle : outer * elementBytes;
    return LLVM::AddOp::create(
        b, loc, i32Constant(b, loc, fixed),
        LLVM::MulOp::create(b, loc, groupMN, i32Constant(b, loc, perUnit)));
  }
};
} // namespace

static InFlightDiagnostic wgmmaError(Operation *op) {
  return op->emitError("convert-tpxgpu-to-nvvm: cannot lower "
                       "tpxgpu.warp_group_dot: ");
}

static unsigned getSwizzleMode(unsigned swizzle) {
  switch (swizzle) {
  case 128:
    return 1;
  case 64:
    return 2;
  default:
    return 3; // 32 bytes
  }
}

/// The descriptor fields of a shared operand whose memdesc is `type`;
/// `kDim` is the operand's K dimension (1 for A, 0 for B).
static FailureOr<SharedOperand> describeSharedOperand(Operation *op,
                                                      MemDescType type,
                                                      Value base,
                                                      unsigned kDim) {
  auto layout = dyn_cast<NvmmaSharedEncodingAttr>(type.getEncoding());
  unsigned swizzle = layout ? layout.getSwizzlingByteWidth() : 0;
  if (!layout || (swizzle != 32 && swizzle != 64 && swizzle != 128))
    return wgmmaError(op) << "shared operands must be in an nvmma_shared "
                             "layout with a 32, 64 or 128-byte swizzle, got "
                          << Type(type);
  if (type.getRank() != 2 ||
      type.getAllocShape().take_back(2) != type.getShape())
    return wgmmaError(op) << "shared operands must be whole 2-D tiles (or "
                             "one buffer of a multi-buffered allocation), got "
                          << Type(type);
  SharedOperand operand;
  operand.base = base;
  operand.swizzle = swizzle;
  operand.elementBytes = type.getElementByteWidth();
  // The contiguous dimension is 1 unless `transposed`.
  unsigned contiguous = layout.getTransposed() ? 0 : 1;
  operand.kContiguous = contiguous == kDim;
  operand.outer = type.getShape()[1 - contiguous];
  int64_t inner = type.getShape()[contiguous];
  if (inner * operand.elementBytes < swizzle)
    return wgmmaError(op) << "the tile's contiguous extent (" << inner
                          << " elements) is narrower than its " << swizzle
                          << "-byte swizzle";
  uint64_t sbo = 8 * uint64_t(swizzle);
  uint64_t lbo = operand.kContiguous ? 16 : uint64_t(operand.outer) * swizzle;
  if ((lbo >> 4) >= (1u << 14) || (sbo >> 4) >= (1u << 14))
    return wgmmaError(op) << "the tile is too large for a matrix descriptor";
  operand.constantBits = ((lbo >> 4) << 16) | ((sbo >> 4) << 32) |
                         (uint64_t(getSwizzleMode(swizzle)) << 62);
  return operand;
}

/// The descriptor of `operand` starting at byte `offset` (i32) into it.
/// It is the descriptor of the operand's first byte plus `offset >> 4`:
/// shared addresses are below 256 KiB (the 14-bit field of address >> 4
/// covers the whole shared window), so the sum never carries out of the
/// field, and the first byte's descriptor is the same value at every K
/// step, which leaves one add per instruction in the loop.
static Value buildDescriptor(OpBuilder &b, Location loc,
                             const SharedOperand &operand, Value offset) {
  Value address =
      LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), operand.base);
  Value start = LLVM::ZExtOp::create(
      b, loc, b.getI64Type(),
      LLVM::LShrOp::create(b, loc, address, i32Constant(b, loc, 4)));
  Value first = LLVM::OrOp::create(
      b, loc, start,
      i64Constant(b, loc, static_cast<int64_t>(operand.constantBits)));
  Value units = LLVM::ZExtOp::create(
      b, loc, b.getI64Type(),
      LLVM::LShrOp::create(b, loc, offset, i32Constant(b, loc, 4)));
  return LLVM::AddOp::create(b, loc, first, units);
}

/// The origin (i32 row, column) of this thread's warp group in the
/// accumulator: the contribution of the warp bits above the group's own.
static std::pair<Value, Value> getWarpGroupOrigin(OpBuilder &b, Location loc,
                                                  const LinearLayout &acc) {
  Value warp = getThreadIds(b, loc).warp;
  Value origin[2] = {i32Constant(b, loc, 0), i32Constant(b, loc, 0)};
  ArrayRef<Coordinate> bases = acc.getBases(LinearLayout::Warp);
  for (unsigned bit = kGroupWarpBits; bit < bases.size(); ++bit)
    for (unsigned d = 0; d < 2; ++d) {
      if (bases[bit][d] == 0)
        continue;
      Value set = LLVM::AndOp::create(
          b, loc, LLVM::LShrOp::create(b, loc, warp, i32Constant(b, loc, bit)),
          i32Constant(b, loc, 1));
      origin[d] = LLVM::AddOp::create(
          b, loc, origin[d],
          LLVM::MulOp::create(b, loc, set, i32Constant(b, loc, bases[bit][d])));
    }
  return {origin[0], origin[1]};
}

/// Checks that the accumulator layout hands each thread whole m64nN
/// instruction fragments (it does by construction; this guards against a
/// layout edited by hand or by a plugin).
static std::optional<std::string> checkAccumulator(const LinearLayout &acc,
                                                   unsigned instrN) {
  ArrayRef<Coordinate> regs = acc.getBases(LinearLayout::Register);
  ArrayRef<Coordinate> lanes = acc.getBases(LinearLayout::Lane);
  ArrayRef<Coordinate> warps = acc.getBases(LinearLayout::Warp);
  auto is = [](const Coordinate &c, int64_t r, int64_t col) {
    return c[0] == r && c[1] == col;
  };
  unsigned fragmentBits = llvm::Log2_32(instrN / 2);
  bool ok = regs.size() >= fragmentBits && is(regs[0], 0, 1) &&
            is(regs[1], 8, 0) && lanes.size() == 5 && is(lanes[0], 0, 2) &&
            is(lanes[1], 0, 4) && is(lanes[2], 1, 0) && is(lanes[3], 2, 0) &&
            is(lanes[4], 4, 0) && warps.size() >= kGroupWarpBits &&
            is(warps[0], 16, 0) && is(warps[1], 32, 0);
  for (unsigned bit = 2; ok && bit < fragmentBits; ++bit)
    ok = is(regs[bit], 0, int64_t(8) << (bit - 2));
  if (!ok)
    return std::string("the accumulator layout is not made of whole wgmma "
                       "m64n") +
           std::to_string(instrN) + " fragments";
  return std::nullopt;
}

/// The wgmma form of one (A, B, accumulator) element-type triple.
namespace {
struct WgmmaKind {
  StringRef aType, bType; // PTX operand types
  bool integer;           // .s32 accumulator, no imm-scale-a/b
  bool transposable;      // imm-trans-a/b exist (16-bit types only)
  int64_t instrK;
};
} // namespace

static StringRef getPtxType(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "tf32";
  if (isa<Float8E4M3FNType>(type))
    return "e4m3";
  if (isa<Float8E5M2Type>(type))
    return "e5m2";
  if (type.isInteger(8))
    return "s8";
  return "";
}

/// What wgmma runs for `a` x `b` into `acc`, or a reason it cannot.
static FailureOr<WgmmaKind> getWgmmaKind(WarpGroupDotOp op, Type a, Type b,
                                         Type acc) {
  WgmmaKind kind;
  kind.aType = getPtxType(a);
  kind.bType = getPtxType(b);
  bool fp8 = (kind.aType == "e4m3" || kind.aType == "e5m2") &&
             (kind.bType == "e4m3" || kind.bType == "e5m2");
  bool sameType = a == b && !kind.aType.empty();
  kind.integer = a.isInteger(8);
  kind.transposable = a.isF16() || a.isBF16();
  bool ok =
      (sameType || fp8) && (kind.integer ? acc.isInteger(32) : acc.isF32());
  if (!ok)
    return wgmmaError(op)
           << "wgmma has no form for " << a << " x " << b << " -> " << acc
           << " (lowered: f16, bf16, f32 as tf32, e4m3/e5m2 into f32; i8 "
              "into i32)";
  if (a.isF32() && op.getInputPrecision() != tt::InputPrecision::TF32)
    return wgmmaError(op) << "f32 operands run as tf32 only "
                             "(inputPrecision = tf32)";
  kind.instrK = kInstrKBytes * 8 / a.getIntOrFloatBitWidth();
  return kind;
}

/// One 32-bit A register of wgmma: `elements` (4 / 2 / 1 of 8 / 16 / 32
/// bits), lowest K first.
static Value packRegister(OpBuilder &b, Location loc,
                          ArrayRef<Value> elements) {
  Type type = elements.front().getType();
  if (elements.size() == 1)
    return type.isInteger(32) ? elements.front()
                              : LLVM::BitcastOp::create(b, loc, b.getI32Type(),
                                                        elements.front());
  auto vectorType = VectorType::get({int64_t(elements.size())}, type);
  Value vector = LLVM::PoisonOp::create(b, loc, vectorType);
  for (auto [i, element] : llvm::enumerate(elements))
    vector = LLVM::InsertElementOp::create(b, loc, vector, element,
                                           i32Constant(b, loc, i));
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), vector);
}

/// One wgmma instruction: `acc` (instrN / 2 f32 or s32 registers) += A x
/// B, with A from `aDesc` (i64) or the four i32 registers `aRegs`; with
/// `overwrite`, acc = A x B (scale-d = 0: `acc` is not read).
static SmallVector<Value> emitWgmma(OpBuilder &b, Location loc,
                                    ArrayRef<Value> acc, Value aDesc,
                                    ArrayRef<Value> aRegs, Value bDesc,
                                    unsigned instrN, const WgmmaKind &kind,
                                    bool transB, bool overwrite) {
  unsigned n = acc.size();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "{\n.reg .pred p;\nsetp.ne.b32 p, $" << (n + (aDesc ? 2 : 5))
     << ", 0;\nwgmma.mma_async.sync.aligned.m64n" << instrN << "k"
     << kind.instrK << (kind.integer ? ".s32." : ".f32.") << kind.aType << "."
     << kind.bType << " {";
  for (unsigned i = 0; i < n; ++i)
    os << (i ? ", " : "") << "$" << i;
  os << "}, ";
  unsigned next = n;
  if (aDesc) {
    os << "$" << next++ << ", ";
  } else {
    os << "{$" << next << ", $" << next + 1 << ", $" << next + 2 << ", $"
       << next + 3 << "}, ";
    next += 4;
  }
  // scale-d, then imm-scale-a/b (floating-point forms), then imm-trans-a
  // (only for a shared A, always K-major here) and imm-trans-b (16-bit
  // forms only).
  os << "$" << next++ << ", p";
  if (!kind.integer)
    os << ", 1, 1";
  if (kind.transposable) {
    if (aDesc)
      os << ", 0";
    os << ", " << (transB ? 1 : 0);
  }
  os << ";\n}";

  std::string constraints;
  for (unsigned i = 0; i < n; ++i)
    constraints += kind.integer ? "=r," : "=f,";
  if (aDesc)
    constraints += "l,";
  else
    constraints += "r,r,r,r,";
  constraints += "l,r";
  for (unsigned i = 0; i < n; ++i)
    constraints += "," + std::to_string(i);

  SmallVector<Value> operands;
  if (aDesc)
    operands.push_back(aDesc);
  else
    llvm::append_range(operands, aRegs);
  operands.push_back(bDesc);
  operands.push_back(i32Constant(b, loc, overwrite ? 0 : 1)); // scale-d
  llvm::append_range(operands, acc);
  SmallVector<Type> fields(n, acc.front().getType());
  Value result = inlinePtx(
      b, loc, LLVM::LLVMStructType::getLiteral(b.getContext(), fields),
      operands, text, constraints, /*sideEffects=*/true);
  return unpack(b, loc, result);
}

/// Whether `value` is a constant all of whose elements are zero (a dot
/// that starts from `tl.zeros`): +0.0 floats or integer zeros, splat.
static bool isZeroConstant(Value value) {
  return matchPattern(value, m_PosZeroFloat()) || matchPattern(value, m_Zero());
}

namespace {
struct WarpGroupDotLowering : public OpConversionPattern<WarpGroupDotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WarpGroupDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getUseC())
      return wgmmaError(op) << "a `useC` operand is not lowered yet";
    RankedTensorType accType = op.getD().getType();
    auto mma = cast<NvidiaMmaEncodingAttr>(accType.getEncoding());
    auto bType = cast<MemDescType>(op.getB().getType());
    Type aElement = getElementTypeOrSelf(op.getA().getType());
    if (auto aBuffer = dyn_cast<MemDescType>(op.getA().getType()))
      aElement = aBuffer.getElementType();
    FailureOr<WgmmaKind> kind = getWgmmaKind(
        op, aElement, bType.getElementType(), accType.getElementType());
    if (failed(kind))
      return failure();
    int64_t instrK = kind->instrK;
    std::optional<LinearLayout> acc = getLayout(op, accType);
    if (!acc)
      return failure();
    unsigned instrN = mma.getInstrShape()[1];
    if (std::optional<std::string> why = checkAccumulator(*acc, instrN))
      return wgmmaError(op) << *why;
    int64_t k = bType.getShape()[0];
    if (k % instrK != 0)
      return wgmmaError(op)
             << "K (" << k << ") must be a multiple of " << instrK
             << " (the K of one wgmma for " << kind->aType << ")";

    Location loc = op.getLoc();
    FailureOr<SharedOperand> bShared =
        describeSharedOperand(op, bType, adaptor.getB(), /*kDim=*/0);
    if (failed(bShared))
      return failure();
    if (!kind->transposable && !bShared->kContiguous)
      return wgmmaError(op) << "a " << kind->bType
                            << " B must be K-major in shared memory "
                               "(transposed nvmma_shared): only 16-bit wgmma "
                               "reads a transposed operand";
    std::optional<SharedOperand> aShared;
    std::optional<LinearLayout> aLayout;
    SmallVector<Value> aRegs;
    llvm::DenseMap<std::pair<int64_t, int64_t>, unsigned> aIndex;
    if (auto aType = dyn_cast<MemDescType>(op.getA().getType())) {
      FailureOr<SharedOperand> shared =
          describeSharedOperand(op, aType, adaptor.getA(), /*kDim=*/1);
      if (failed(shared))
        return failure();
      if (!shared->kContiguous)
        return wgmmaError(op) << "a shared A must be K-major (not "
                                 "transposed)";
      aShared = *shared;
    } else {
      aLayout = getLayout(op, cast<RankedTensorType>(op.getA().getType()));
      if (!aLayout)
        return failure();
      aRegs = unpack(rewriter, loc, adaptor.getA());
      unsigned kWidth =
          cast<tpxgpu::DotOperandEncodingAttr>(
              cast<RankedTensorType>(op.getA().getType()).getEncoding())
              .getKWidth();
      if (kWidth * aElement.getIntOrFloatBitWidth() != 32)
        return wgmmaError(op)
               << "a register A of " << aElement << " packs "
               << 32 / aElement.getIntOrFloatBitWidth()
               << " elements per register, got kWidth = " << kWidth;
      for (unsigned r = 0, e = aLayout->getNumRegisters(); r < e; ++r) {
        Coordinate c = aLayout->getContribution(LinearLayout::Register, r);
        aIndex.try_emplace({c[0], c[1]}, r);
      }
    }

    // The operands' writers fenced and barriered in the IR (see the file
    // comment); wgmma.fence orders the accumulator registers.
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);

    auto [groupRow, groupCol] = getWarpGroupOrigin(rewriter, loc, *acc);
    bool zeroC = isZeroConstant(op.getC());
    SmallVector<Value> c = unpack(rewriter, loc, adaptor.getC());
    unsigned perInstr = instrN / 2;
    for (unsigned tile = 0, e = c.size() / perInstr; tile < e; ++tile) {
      Coordinate origin =
          acc->getContribution(LinearLayout::Register, tile * perInstr);
      ArrayRef<Value> tileRegs =
          ArrayRef<Value>(c).slice(tile * perInstr, perInstr);
      SmallVector<Value> current(tileRegs);
      for (int64_t k0 = 0; k0 < k; k0 += instrK) {
        Value bOffset =
            bShared->offsetAt(rewriter, loc, k0, origin[1], groupCol);
        Value bDesc = buildDescriptor(rewriter, loc, *bShared, bOffset);
        Value aDesc;
        SmallVector<Value> aFragment;
        if (aShared) {
          Value aOffset =
              aShared->offsetAt(rewriter, loc, k0, origin[0], groupRow);
          aDesc = buildDescriptor(rewriter, loc, *aShared, aOffset);
        } else {
          auto it = aIndex.find({origin[0], k0});
          if (it == aIndex.end())
            return wgmmaError(op) << "operand A's registers do not hold "
                                     "rows "
                                  << origin[0] << ", K " << k0;
          // Four registers of 32 / bits elements each, consecutive in
          // the layout (mmaV3OperandAToLinear).
          unsigned perRegister = 32 / aElement.getIntOrFloatBitWidth();
          for (unsigned reg = 0; reg < 4; ++reg)
            aFragment.push_back(
                packRegister(rewriter, loc,
                             ArrayRef<Value>(aRegs).slice(
                                 it->second + reg * perRegister, perRegister)));
        }
        // A zero accumulator is not materialized: the first K step
        // overwrites the registers instead of adding to zeros (S = Q K^T).
        bool overwrite = k0 == 0 && zeroC;
        if (overwrite)
          for (Value &reg : current)
            reg = LLVM::PoisonOp::create(rewriter, loc, reg.getType());
        current = emitWgmma(rewriter, loc, current, aDesc, aFragment, bDesc,
                            instrN, *kind,
                            /*transB=*/!bShared->kContiguous, overwrite);
      }
      for (unsigned i = 0; i < perInstr; ++i)
        c[tile * perInstr + i] = current[i];
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    // An async dot's result is read only through a warp_group_dot_wait.
    if (!op.getIsAsync())
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
    Type structType = getTypeConverter()->convertType(accType);
    rewriter.replaceOp(op, pack(rewriter, loc, structType, c));
    return success();
  }
};

/// wgmma.wait_group: at most `pendings` committed groups still run; the
/// results are the inputs (the wait only orders their later reads).
struct WarpGroupDotWaitLowering
    : public OpConversionPattern<tpxgpu::WarpGroupDotWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tpxgpu::WarpGroupDotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, op.getLoc(), op.getPendings());
    rewriter.replaceOp(op, adaptor.getInputs());
    return success();
  }
};
} // namespace

void tpx::gpu_lowering::populateWarpGroupDotPatterns(
    TensorTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<WarpGroupDotLowering, WarpGroupDotWaitLowering>(
      converter, patterns.getContext());
}
