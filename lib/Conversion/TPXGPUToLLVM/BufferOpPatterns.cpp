//===- BufferOpPatterns.cpp - AMD buffer loads and stores -----------------===//
//
// tpxgpu.buffer_load / buffer_store become CDNA MUBUF accesses
// (llvm.amdgcn.raw.ptr.buffer.load/store, `buffer_load_dwordx4 ... offen`):
// the base pointer goes into a buffer resource, which the backend keeps in
// four SGPRs, and every lane passes one 32-bit byte offset. The hardware
// checks each offset against the resource's num_records: out of range, a
// load returns zero and a store is dropped. A masked-off lane therefore
// just gets an offset that is out of range, with no branch around the
// access (the scf.if that ROCDLPrimitives' loadWhere builds for tt.load).
//
// As for tt.load (MemoryPatterns.cpp), a thread moves up to 16 bytes per
// instruction where `tpxgpu.contiguity` and the layout allow.
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

namespace {

/// The buffer resource's size in bytes: every offset the conversion pass
/// proved in range is below it, and kOutOfRange is not. It stays below
/// 2^31 so that offsets remain non-negative as i32 values, which the
/// backend relies on when it moves a constant part of an offset into the
/// instruction's immediate field.
constexpr int64_t kNumRecords = tpxgpu::BufferLoadOp::kMaxBytes;
/// The byte offset a masked-off lane gets: at or beyond num_records, so
/// the lane reads zero and writes nothing.
constexpr int64_t kOutOfRange = int64_t(1) << 31;
static_assert(kOutOfRange >= kNumRecords, "masked-off lanes must miss");

/// Word 3 of a gfx9 (GCN5 / CDNA) buffer resource: everything zero (no
/// swizzling, no index stride, no thread-id add, dst_sel and num_format
/// unused by untyped loads) except DATA_FORMAT (bits 15-18) = 4
/// (BUF_DATA_FORMAT_32). gfx9 treats a resource with DATA_FORMAT 0
/// (INVALID) as having no records at all, which would make every access
/// read zero.
constexpr int32_t kGfx9ResourceFlags = 4 << 15;

/// Bits of the intrinsics' aux operand on gfx942/gfx950 (LLVM's
/// IntrinsicsAMDGPU.td): sc0 and sc1 give the coherence scope (sc1 alone:
/// the device, coherent at L2, skipping the CU's vector L1; both: the
/// system), nt marks streaming (non-temporal) data. Bit 31 marks a
/// volatile access for the compiler and is stripped before encoding.
constexpr int32_t kSC0 = 1, kNT = 2, kSC1 = 16, kVolatile = int32_t(1u << 31);

/// The cache-policy bits that give `cache` (PTX's modifiers, as Triton
/// spells them) its meaning on `chip`: ca/wb cache normally; cg keeps data
/// at L2 only; cs streams; cv (loads) and wt (stores) go to memory. Only
/// gfx94x/gfx950 have this encoding; older gfx9 chips get the default
/// policy, as tt.load's lowering gives every load.
static int32_t getCachePolicy(tt::CacheModifier cache, StringRef chip) {
  if (!chip.starts_with("gfx94") && !chip.starts_with("gfx95"))
    return 0;
  switch (cache) {
  case tt::CacheModifier::CG:
    return kSC1;
  case tt::CacheModifier::CS:
    return kNT;
  case tt::CacheModifier::CV:
  case tt::CacheModifier::WT:
    return kSC0 | kSC1;
  default:
    return 0;
  }
}

/// The resource for `base` (`!llvm.ptr<1>`): stride 0 makes it a raw
/// buffer (offsets are plain bytes, checked against num_records alone).
static Value makeResource(OpBuilder &b, Location loc, Value base) {
  Value stride =
      LLVM::ConstantOp::create(b, loc, b.getI16Type(), b.getI16IntegerAttr(0));
  Value records = i64Constant(b, loc, kNumRecords);
  Value flags = i32Constant(b, loc, kGfx9ResourceFlags);
  return ROCDL::MakeBufferRsrcOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 8), base, stride,
      records, flags);
}

/// Bits of one element in memory: i1 is a byte, pointers are 64 bits.
/// 0 for types a buffer access cannot move.
static unsigned getMemoryBits(Type element) {
  if (isa<LLVM::LLVMPointerType>(element))
    return 64;
  if (!element.isIntOrFloat())
    return 0;
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits == 1)
    return 8;
  return bits == 8 || bits == 16 || bits == 32 || bits == 64 ? bits : 0;
}

/// The type one access of `bits` moves: an integer up to a dword, dwords
/// beyond (buffer_load_dwordx2/x4).
static Type getAccessType(OpBuilder &b, unsigned bits) {
  if (bits <= 32)
    return b.getIntegerType(bits);
  return VectorType::get({bits / 32}, b.getI32Type());
}

/// The elements of a group as one access' value (lowest element in the
/// lowest bits, as little-endian memory has them).
static Value packGroup(OpBuilder &b, Location loc, ArrayRef<Value> elements,
                       unsigned elementBits) {
  Type accessType = getAccessType(b, elements.size() * elementBits);
  if (elements.size() == 1 && accessType == b.getIntegerType(elementBits))
    return toMemoryInteger(b, loc, elements.front());
  auto vectorType = VectorType::get({static_cast<int64_t>(elements.size())},
                                    b.getIntegerType(elementBits));
  Value vector = LLVM::UndefOp::create(b, loc, vectorType);
  for (auto [i, element] : llvm::enumerate(elements))
    vector = LLVM::InsertElementOp::create(b, loc, vector,
                                           toMemoryInteger(b, loc, element),
                                           i32Constant(b, loc, i));
  if (vectorType == accessType)
    return vector;
  return LLVM::BitcastOp::create(b, loc, accessType, vector);
}

static SmallVector<Value> unpackGroup(OpBuilder &b, Location loc, Value loaded,
                                      unsigned width, unsigned elementBits,
                                      Type element) {
  if (width == 1 && loaded.getType() == b.getIntegerType(elementBits))
    return {fromMemoryInteger(b, loc, loaded, element)};
  auto vectorType = VectorType::get({static_cast<int64_t>(width)},
                                    b.getIntegerType(elementBits));
  Value vector = loaded.getType() == vectorType
                     ? loaded
                     : LLVM::BitcastOp::create(b, loc, vectorType, loaded);
  SmallVector<Value> elements;
  for (unsigned i = 0; i < width; ++i)
    elements.push_back(fromMemoryInteger(
        b, loc,
        LLVM::ExtractElementOp::create(b, loc, vector, i32Constant(b, loc, i)),
        element));
  return elements;
}

/// The byte offset of element offset `offset`, or kOutOfRange where
/// `predicate` (if any) is false.
static Value getByteOffset(OpBuilder &b, Location loc, Value offset,
                           unsigned elementBytes, Value predicate) {
  Value bytes = elementBytes == 1
                    ? offset
                    : LLVM::MulOp::create(b, loc, offset,
                                          i32Constant(b, loc, elementBytes));
  if (!predicate)
    return bytes;
  return LLVM::SelectOp::create(
      b, loc, predicate, bytes,
      i32Constant(b, loc, static_cast<int32_t>(kOutOfRange)));
}

/// Registers of an optional lowered tensor operand (or nulls).
static SmallVector<Value> unpackOptional(OpBuilder &b, Location loc,
                                         Value lowered, unsigned count) {
  if (!lowered)
    return SmallVector<Value>(count, Value());
  return unpack(b, loc, lowered);
}

/// Whether `other` is all +0 (the bits an out-of-range load returns), so
/// masked-off lanes need no select.
static bool isZeroFill(Value other) {
  return !other || matchPattern(other, m_Zero()) ||
         matchPattern(other, m_PosZeroFloat());
}

/// Buffer ops exist on AMD only; the lowering checks it at each op, with
/// the module's chip.
static LogicalResult checkTarget(Operation *op, OpBuilder &b) {
  if (!targetsAMD(b))
    return op->emitError("'")
           << op->getName()
           << "' is an AMD (CDNA) buffer access; it has no NVIDIA lowering";
  StringRef chip = tpxgpu::getModuleTarget(op);
  if (!chip.starts_with("gfx9"))
    return op->emitError("'")
           << op->getName() << "' needs a gfx9 (CDNA) buffer resource; " << chip
           << " has another descriptor format";
  return success();
}

struct BufferLoadLowering : public OpConversionPattern<tpxgpu::BufferLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::BufferLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTarget(op, rewriter)))
      return failure();
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Type resultType = getTypeConverter()->convertType(type);
    Type element = convertElementType(type.getElementType());
    unsigned elementBits = getMemoryBits(element);
    if (!resultType || elementBits == 0)
      return op.emitError("cannot load elements of type ")
             << type.getElementType() << " with a buffer load";
    std::optional<LinearLayout> layout = getLayout(op, type);
    if (!layout)
      return failure();

    SmallVector<Value> offsets = unpack(rewriter, loc, adaptor.getOffsets());
    unsigned count = offsets.size();
    SmallVector<Value> masks =
        unpackOptional(rewriter, loc, adaptor.getMask(), count);
    bool selectOthers = !isZeroFill(op.getOther());
    SmallVector<Value> others = unpackOptional(
        rewriter, loc, selectOthers ? adaptor.getOther() : Value(), count);
    unsigned elementBytes = elementBits / 8;
    unsigned width = getVectorWidth(op, *layout, elementBytes);
    unsigned duplicates = layout->getReplicationMask(LinearLayout::Register);

    Value resource = makeResource(rewriter, loc, adaptor.getBase());
    Value soffset = i32Constant(rewriter, loc, 0);
    int32_t policy = getCachePolicy(op.getCache(), tpxgpu::getModuleTarget(op));
    if (op.getIsVolatile())
      policy |= kVolatile;
    Value aux = i32Constant(rewriter, loc, policy);
    Type accessType = getAccessType(rewriter, width * elementBits);

    SmallVector<Value> values;
    for (unsigned r = 0; r < count; r += width) {
      if (r & duplicates) { // the same elements as lower registers
        for (unsigned i = 0; i < width; ++i)
          values.push_back(values[(r + i) & ~duplicates]);
        continue;
      }
      Value offset =
          getByteOffset(rewriter, loc, offsets[r], elementBytes, masks[r]);
      Value loaded = ROCDL::RawPtrBufferLoadOp::create(
          rewriter, loc, accessType, resource, offset, soffset, aux,
          /*alias_scopes=*/nullptr, /*noalias_scopes=*/nullptr,
          /*tbaa=*/nullptr);
      SmallVector<Value> group =
          unpackGroup(rewriter, loc, loaded, width, elementBits, element);
      // The contiguity keeps one mask value per group; masked-off groups
      // read zero, and take `other` only where it is not zero.
      if (masks[r] && selectOthers)
        for (unsigned i = 0; i < width; ++i)
          group[i] = LLVM::SelectOp::create(rewriter, loc, masks[r], group[i],
                                            others[r + i]);
      llvm::append_range(values, group);
    }
    rewriter.replaceOp(op, pack(rewriter, loc, resultType, values));
    return success();
  }
};

struct BufferStoreLowering : public OpConversionPattern<tpxgpu::BufferStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tpxgpu::BufferStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTarget(op, rewriter)))
      return failure();
    Location loc = op.getLoc();
    RankedTensorType type = op.getValue().getType();
    Type element = convertElementType(type.getElementType());
    unsigned elementBits = getMemoryBits(element);
    if (elementBits == 0)
      return op.emitError("cannot store elements of type ")
             << type.getElementType() << " with a buffer store";
    std::optional<LinearLayout> layout = getLayout(op, type);
    if (!layout)
      return failure();

    SmallVector<Value> values = unpack(rewriter, loc, adaptor.getValue());
    SmallVector<Value> offsets = unpack(rewriter, loc, adaptor.getOffsets());
    unsigned count = offsets.size();
    SmallVector<Value> masks =
        unpackOptional(rewriter, loc, adaptor.getMask(), count);
    // Elements several threads hold are written by one of them.
    Value owner = getOwnerPredicate(rewriter, loc, op, layout);
    unsigned elementBytes = elementBits / 8;
    unsigned width = getVectorWidth(op, *layout, elementBytes);

    Value resource = makeResource(rewriter, loc, adaptor.getBase());
    Value soffset = i32Constant(rewriter, loc, 0);
    Value aux =
        i32Constant(rewriter, loc,
                    getCachePolicy(op.getCache(), tpxgpu::getModuleTarget(op)));
    for (unsigned r = 0; r < count; r += width) {
      // Replicated registers sit above the group bits: a group is
      // canonical as a whole or not at all.
      if (!isCanonicalRegister(*layout, r))
        continue;
      Value predicate = masks[r];
      if (owner)
        predicate = predicate
                        ? LLVM::AndOp::create(rewriter, loc, owner, predicate)
                              .getResult()
                        : owner;
      Value offset =
          getByteOffset(rewriter, loc, offsets[r], elementBytes, predicate);
      Value data = packGroup(rewriter, loc, ArrayRef(values).slice(r, width),
                             elementBits);
      ROCDL::RawPtrBufferStoreOp::create(rewriter, loc, data, resource, offset,
                                         soffset, aux,
                                         /*alias_scopes=*/nullptr,
                                         /*noalias_scopes=*/nullptr,
                                         /*tbaa=*/nullptr);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void gpu_lowering::populateBufferOpPatterns(TensorTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<BufferLoadLowering, BufferStoreLowering>(converter,
                                                        patterns.getContext());
}
