//===- MemoryPatterns.cpp - global loads, stores and atomics --------------===//
//
// Masked accesses are predicated PTX instructions (inline asm) on NVIDIA, so
// a masked lane neither touches memory nor branches; on AMD they are
// branches around plain accesses (ROCDLPrimitives.h), which become exec
// masking. Elements several threads hold
// (replicated layouts) are stored and updated by one owner only; loads are
// done by every holder.
//
// Loads and stores move up to 16 bytes per instruction when the registers
// of a thread hold consecutive elements whose addresses the AxisInfo
// analysis proves consecutive, aligned to the whole vector and under one
// mask value (`tpxgpu.contiguity`, from tpxgpu-annotate-contiguity in the
// ttgir stage); otherwise one element per instruction.
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"
#include "ROCDLPrimitives.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

namespace {

/// How an element of a type travels through a PTX register: the register
/// class (constraint letter), the integer type of that register and the
/// width moved to or from memory.
struct PtxRegister {
  char constraint;
  Type registerType;
  unsigned memoryBits;
};

static std::optional<PtxRegister> getPtxRegister(Type type) {
  MLIRContext *context = type.getContext();
  unsigned bits =
      isa<LLVM::LLVMPointerType>(type)
          ? 64
          : (type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 0);
  if (bits == 1)
    bits = 8; // i1 is a byte in memory
  switch (bits) {
  case 8:
  case 16:
    return PtxRegister{'h', IntegerType::get(context, 16), bits};
  case 32:
    return PtxRegister{'r', IntegerType::get(context, 32), 32};
  case 64:
    return PtxRegister{'l', IntegerType::get(context, 64), 64};
  default:
    return std::nullopt;
  }
}

/// The value of `type` as the PTX register's integer.
static Value toRegister(OpBuilder &b, Location loc, Value value,
                        const PtxRegister &reg) {
  Type type = value.getType();
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::PtrToIntOp::create(b, loc, reg.registerType, value);
  if (!type.isInteger())
    value = LLVM::BitcastOp::create(
        b, loc, b.getIntegerType(type.getIntOrFloatBitWidth()), value);
  if (value.getType() != reg.registerType)
    value = LLVM::ZExtOp::create(b, loc, reg.registerType, value);
  return value;
}

static Value fromRegister(OpBuilder &b, Location loc, Value value, Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(b, loc, type, value);
  if (type.isInteger(1))
    return nonZero(b, loc, value);
  unsigned bits = type.getIntOrFloatBitWidth();
  if (value.getType().getIntOrFloatBitWidth() != bits)
    value = LLVM::TruncOp::create(b, loc, b.getIntegerType(bits), value);
  if (!type.isInteger())
    value = LLVM::BitcastOp::create(b, loc, type, value);
  return value;
}

/// Registers of an optional lowered operand (or `count` nulls).
static SmallVector<Value> unpackOptional(OpBuilder &b, Location loc,
                                         Value lowered, unsigned count) {
  if (!lowered)
    return SmallVector<Value>(count, Value());
  SmallVector<Value> values = unpack(b, loc, lowered);
  if (values.size() == 1 && count > 1)
    values.assign(count, values.front());
  return values;
}

static Value andPredicates(OpBuilder &b, Location loc, Value a, Value c) {
  if (!a)
    return c;
  if (!c)
    return a;
  return LLVM::AndOp::create(b, loc, a, c);
}

/// The layout of a tensor-typed value, none for scalars; false on error.
static bool getOptionalLayout(Operation *op, Type type,
                              std::optional<LinearLayout> &layout) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    layout = getLayout(op, tensor);
    return layout.has_value();
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Vector accesses
//===----------------------------------------------------------------------===//

/// The widest access PTX has for ld/st.global on sm_90.
static constexpr unsigned kMaxVectorBytes = 16;

/// A group of `width` registers holding consecutive elements, moved as
/// `words` PTX registers of `wordBits` each (elements narrower than a word
/// share one, wider ones span several).
struct VectorAccess {
  unsigned width;
  unsigned elementBits;
  unsigned wordBits;
  unsigned words;

  VectorAccess(unsigned width, unsigned elementBits)
      : width(width), elementBits(elementBits) {
    unsigned bits = width * elementBits;
    wordBits = std::min(bits, 32u);
    words = bits / wordBits;
  }
  unsigned getBytes() const { return width * elementBits / 8; }
  char getConstraint() const { return wordBits == 32 ? 'r' : 'h'; }
};

} // namespace

/// How many registers, starting at each multiple of the result, one access
/// can move: the largest power of two `v` such that
///  * register bits 0..log2(v)-1 step by 1, 2, 4, ... along one dimension d,
///    and no other register, lane or warp bit moves within such a group, so
///    the group holds coordinates c, c+1, ..., c+v-1 along d with c a
///    multiple of v;
///  * v is at most what `tpxgpu.contiguity` (tpxgpu-annotate-contiguity)
///    records for d: consecutive pointers, the group's first address aligned
///    to the whole access, one mask value.
/// Returns 1 when `op` carries no such attribute.
unsigned gpu_lowering::getVectorWidth(Operation *op, const LinearLayout &layout,
                                      unsigned elementBytes) {
  auto contiguity = op->getAttrOfType<DenseI64ArrayAttr>(
      tpxgpu::TPXGPUDialect::kContiguityAttrName);
  unsigned rank = layout.getRank();
  if (!contiguity || contiguity.size() != rank)
    return 1;
  ArrayRef<Coordinate> registers = layout.getBases(LinearLayout::Register);
  auto isStepAlong = [&](const Coordinate &basis, unsigned dim,
                         int64_t amount) {
    for (unsigned d = 0; d < rank; ++d)
      if (basis[d] != (d == dim ? amount : 0))
        return false;
    return true;
  };
  std::optional<unsigned> dim;
  for (unsigned d = 0; d < rank && !registers.empty(); ++d)
    if (isStepAlong(registers[0], d, 1))
      dim = d;
  if (!dim)
    return 1;

  unsigned bits = 0;
  while (bits < registers.size() &&
         (2u << bits) * elementBytes <= kMaxVectorBytes &&
         isStepAlong(registers[bits], *dim, int64_t(1) << bits))
    ++bits;
  int64_t width = int64_t(1) << bits;
  // What holds for runs of the recorded length holds for every shorter
  // power of two (the pass records powers of two; the dialect only asks
  // for positive entries, so a hand-written 6 gives 4).
  int64_t allowed = contiguity[*dim];
  while (width > 1 && width > allowed)
    width /= 2;

  // Every other basis must leave the low bits of d alone, or the group's
  // first register would not hold its lowest coordinate.
  auto keepsGroups = [&](unsigned groupBits) {
    int64_t low = (int64_t(1) << groupBits) - 1;
    for (unsigned i = groupBits; i < registers.size(); ++i)
      if (registers[i][*dim] & low)
        return false;
    for (auto in : {LinearLayout::Lane, LinearLayout::Warp})
      for (const Coordinate &basis : layout.getBases(in))
        if (basis[*dim] & low)
          return false;
    return true;
  };
  while (width > 1 && !keepsGroups(llvm::Log2_64(width)))
    width /= 2;
  return width < 1 ? 1 : static_cast<unsigned>(width);
}

namespace {

static VectorType getWordVectorType(OpBuilder &b, const VectorAccess &access) {
  return VectorType::get({static_cast<int64_t>(access.words)},
                         b.getIntegerType(access.wordBits));
}

/// The elements of a group as a vector of words (lowest element in the
/// lowest bits, as little-endian memory has them).
static Value packGroup(OpBuilder &b, Location loc, ArrayRef<Value> elements,
                       const VectorAccess &access) {
  auto type = VectorType::get({static_cast<int64_t>(access.width)},
                              b.getIntegerType(access.elementBits));
  Value vector = LLVM::UndefOp::create(b, loc, type);
  for (auto [i, element] : llvm::enumerate(elements))
    vector = LLVM::InsertElementOp::create(b, loc, vector,
                                           toMemoryInteger(b, loc, element),
                                           i32Constant(b, loc, i));
  VectorType wordVectorType = getWordVectorType(b, access);
  if (wordVectorType == type)
    return vector;
  return LLVM::BitcastOp::create(b, loc, wordVectorType, vector);
}

static SmallVector<Value> unpackGroup(OpBuilder &b, Location loc, Value words,
                                      const VectorAccess &access,
                                      Type element) {
  auto type = VectorType::get({static_cast<int64_t>(access.width)},
                              b.getIntegerType(access.elementBits));
  Value vector = words.getType() == type
                     ? words
                     : LLVM::BitcastOp::create(b, loc, type, words);
  SmallVector<Value> elements;
  for (unsigned i = 0; i < access.width; ++i)
    elements.push_back(fromMemoryInteger(
        b, loc,
        LLVM::ExtractElementOp::create(b, loc, vector, i32Constant(b, loc, i)),
        element));
  return elements;
}

/// `{ $first, $first+1, ... }` (or `$first` for one word).
static std::string getOperandList(unsigned first, unsigned count) {
  if (count == 1)
    return llvm::formatv("${0}", first).str();
  std::string list = "{ ";
  for (unsigned i = 0; i < count; ++i)
    list += llvm::formatv("{0}${1}", i ? ", " : "", first + i).str();
  return list + " }";
}

static std::string getVectorSuffix(const VectorAccess &access) {
  std::string suffix =
      access.words == 1 ? "" : llvm::formatv(".v{0}", access.words).str();
  return suffix + llvm::formatv(".b{0}", access.wordBits).str();
}

/// One load of a group through `pointer` (its first element's address).
/// Masked off, the group takes `others` (zero when there are none).
static SmallVector<Value> loadGroup(OpBuilder &b, Location loc, Value pointer,
                                    Value mask, ArrayRef<Value> others,
                                    const VectorAccess &access, Type element,
                                    bool isVolatile) {
  VectorType wordVectorType = getWordVectorType(b, access);
  if (!mask) {
    Value words = LLVM::LoadOp::create(b, loc, wordVectorType, pointer,
                                       access.getBytes(), isVolatile);
    return unpackGroup(b, loc, words, access, element);
  }
  Type wordType = b.getIntegerType(access.wordBits);
  if (targetsAMD(b)) {
    Value otherWords =
        others.front()
            ? packGroup(b, loc, others, access)
            : LLVM::ConstantOp::create(b, loc, wordVectorType,
                                       b.getZeroAttr(wordVectorType));
    Value words = rocdl::loadWhere(b, loc, wordVectorType, pointer, mask,
                                   otherWords, access.getBytes(), isVolatile);
    return unpackGroup(b, loc, words, access, element);
  }
  SmallVector<Value> operands = {pointer, mask};
  if (others.front()) {
    Value packed = packGroup(b, loc, others, access);
    for (unsigned i = 0; i < access.words; ++i)
      operands.push_back(LLVM::ExtractElementOp::create(
          b, loc, packed, i32Constant(b, loc, i)));
  } else {
    for (unsigned i = 0; i < access.words; ++i)
      operands.push_back(LLVM::ConstantOp::create(
          b, loc, wordType, b.getIntegerAttr(wordType, 0)));
  }
  // Outputs $0..$n-1, then the address, the predicate and the words to
  // take when the predicate is false.
  unsigned n = access.words;
  std::string asmText =
      llvm::formatv("@${0} ld.global{1} {2}, [ ${3} ];", n + 1,
                    getVectorSuffix(access), getOperandList(0, n), n);
  for (unsigned i = 0; i < n; ++i)
    asmText += llvm::formatv("\n\t@!${0} mov.b{1} ${2}, ${3};", n + 1,
                             access.wordBits, i, n + 2 + i)
                   .str();
  std::string constraints;
  for (unsigned i = 0; i < n; ++i)
    constraints += llvm::formatv("={0},", access.getConstraint()).str();
  constraints += "l,b";
  for (unsigned i = 0; i < n; ++i)
    constraints += llvm::formatv(",{0}", access.getConstraint()).str();

  Type resultType =
      n == 1 ? wordType
             : LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                SmallVector<Type>(n, wordType));
  // A side effect to LLVM, like the plain loads' memory read: a pure asm
  // could move above a store to the same address in this thread (and read
  // what was there before it).
  Value loaded = inlinePtx(b, loc, resultType, operands, asmText, constraints,
                           /*sideEffects=*/true);
  Value words = LLVM::UndefOp::create(b, loc, wordVectorType);
  for (unsigned i = 0; i < n; ++i) {
    Value word =
        n == 1 ? loaded : LLVM::ExtractValueOp::create(b, loc, loaded, i);
    words = LLVM::InsertElementOp::create(b, loc, words, word,
                                          i32Constant(b, loc, i));
  }
  return unpackGroup(b, loc, words, access, element);
}

/// One store of a group through `pointer` where `predicate` (if any) holds.
static void storeGroup(OpBuilder &b, Location loc, Value pointer,
                       Value predicate, ArrayRef<Value> values,
                       const VectorAccess &access) {
  Value packed = packGroup(b, loc, values, access);
  if (!predicate) {
    LLVM::StoreOp::create(b, loc, packed, pointer, access.getBytes());
    return;
  }
  if (targetsAMD(b))
    return rocdl::storeWhere(b, loc, packed, pointer, predicate,
                             access.getBytes());
  unsigned n = access.words;
  SmallVector<Value> operands = {pointer};
  for (unsigned i = 0; i < n; ++i)
    operands.push_back(
        LLVM::ExtractElementOp::create(b, loc, packed, i32Constant(b, loc, i)));
  operands.push_back(predicate);
  // The address, the words, then the predicate.
  std::string asmText =
      llvm::formatv("@${0} st.global{1} [ $0 ], {2};", n + 1,
                    getVectorSuffix(access), getOperandList(1, n));
  std::string constraints = "l";
  for (unsigned i = 0; i < n; ++i)
    constraints += llvm::formatv(",{0}", access.getConstraint()).str();
  constraints += ",b";
  inlinePtx(b, loc, Type(), operands, asmText, constraints,
            /*sideEffects=*/true);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

struct LoadLowering : public OpConversionPattern<tt::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<tt::PointerType>(getElementTypeOrSelf(op.getPtr().getType())) ||
        isa<tt::PointerType>(op.getPtr().getType()) &&
            isa<RankedTensorType>(
                cast<tt::PointerType>(op.getPtr().getType()).getPointeeType()))
      return op.emitError("loads through block pointers are not supported "
                          "by the GPU code generator");
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type element = convertElementType(getElementTypeOrSelf(op.getType()));
    std::optional<PtxRegister> reg = getPtxRegister(element);
    if (!resultType || !reg)
      return op.emitError("cannot load elements of type ") << element;
    std::optional<LinearLayout> layout;
    if (!getOptionalLayout(op, op.getType(), layout))
      return failure();

    SmallVector<Value> pointers = unpack(rewriter, loc, adaptor.getPtr());
    unsigned count = pointers.size();
    SmallVector<Value> masks =
        unpackOptional(rewriter, loc, adaptor.getMask(), count);
    SmallVector<Value> others =
        unpackOptional(rewriter, loc, adaptor.getOther(), count);
    unsigned duplicates =
        layout ? layout->getReplicationMask(LinearLayout::Register) : 0;

    std::string asmText = llvm::formatv(
        "@$2 ld.global.b{0} $0, [ $1 ];\n\t@!$2 mov.b{1} $0, $3;",
        reg->memoryBits, reg->registerType.getIntOrFloatBitWidth());
    std::string constraints =
        llvm::formatv("={0},l,b,{0}", reg->constraint).str();
    unsigned width =
        layout ? getVectorWidth(op, *layout, reg->memoryBits / 8) : 1;
    VectorAccess access(width, reg->memoryBits);
    SmallVector<Value> values;
    for (unsigned r = 0; r < count; r += width) {
      if (r & duplicates) { // the same elements as lower registers
        for (unsigned i = 0; i < width; ++i)
          values.push_back(values[(r + i) & ~duplicates]);
        continue;
      }
      if (width > 1) {
        llvm::append_range(values,
                           loadGroup(rewriter, loc, pointers[r], masks[r],
                                     ArrayRef(others).slice(r, width), access,
                                     element, op.getIsVolatile()));
        continue;
      }
      if (!masks[r]) {
        Type memoryType = element.isInteger(1) ? rewriter.getI8Type() : element;
        Value loaded = LLVM::LoadOp::create(
            rewriter, loc, memoryType, pointers[r],
            /*alignment=*/std::max(1u, reg->memoryBits / 8),
            op.getIsVolatile());
        if (element.isInteger(1))
          loaded = nonZero(rewriter, loc, loaded);
        values.push_back(loaded);
        continue;
      }
      Value other = others[r]
                        ? toRegister(rewriter, loc, others[r], *reg)
                        : LLVM::ConstantOp::create(
                              rewriter, loc, reg->registerType,
                              rewriter.getIntegerAttr(reg->registerType, 0));
      if (targetsAMD(rewriter)) {
        Type memoryType = rewriter.getIntegerType(reg->memoryBits);
        if (memoryType != reg->registerType)
          other = LLVM::TruncOp::create(rewriter, loc, memoryType, other);
        Value loaded = rocdl::loadWhere(
            rewriter, loc, memoryType, pointers[r], masks[r], other,
            std::max(1u, reg->memoryBits / 8), op.getIsVolatile());
        if (memoryType != reg->registerType)
          loaded =
              LLVM::ZExtOp::create(rewriter, loc, reg->registerType, loaded);
        values.push_back(fromRegister(rewriter, loc, loaded, element));
        continue;
      }
      Value loaded =
          inlinePtx(rewriter, loc, reg->registerType,
                    {pointers[r], masks[r], other}, asmText, constraints,
                    /*sideEffects=*/true); // as in loadGroup
      values.push_back(fromRegister(rewriter, loc, loaded, element));
    }
    if (!layout)
      rewriter.replaceOp(op, values.front());
    else
      rewriter.replaceOp(op, pack(rewriter, loc, resultType, values));
    return success();
  }
};

struct StoreLowering : public OpConversionPattern<tt::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type valueType = op.getValue().getType();
    Type element = convertElementType(getElementTypeOrSelf(valueType));
    std::optional<PtxRegister> reg = getPtxRegister(element);
    if (!reg)
      return op.emitError("cannot store elements of type ") << element;
    if (isa<tt::PointerType>(op.getPtr().getType()) &&
        isa<RankedTensorType>(
            cast<tt::PointerType>(op.getPtr().getType()).getPointeeType()))
      return op.emitError("stores through block pointers are not supported "
                          "by the GPU code generator");
    std::optional<LinearLayout> layout;
    if (!getOptionalLayout(op, valueType, layout))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> pointers = unpack(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values = unpack(rewriter, loc, adaptor.getValue());
    unsigned count = pointers.size();
    SmallVector<Value> masks =
        unpackOptional(rewriter, loc, adaptor.getMask(), count);
    Value owner = getOwnerPredicate(rewriter, loc, op, layout);
    std::string asmText =
        llvm::formatv("@$2 st.global.b{0} [ $0 ], $1;", reg->memoryBits);
    std::string constraints = llvm::formatv("l,{0},b", reg->constraint).str();
    unsigned width =
        layout ? getVectorWidth(op, *layout, reg->memoryBits / 8) : 1;
    VectorAccess access(width, reg->memoryBits);
    for (unsigned r = 0; r < count; r += width) {
      // Replicated registers sit above the group bits: a group is
      // canonical as a whole or not at all.
      if (layout && !isCanonicalRegister(*layout, r))
        continue;
      Value predicate = andPredicates(rewriter, loc, owner, masks[r]);
      if (width > 1) {
        storeGroup(rewriter, loc, pointers[r], predicate,
                   ArrayRef(values).slice(r, width), access);
        continue;
      }
      if (!predicate) {
        Value value = values[r];
        if (element.isInteger(1))
          value =
              LLVM::ZExtOp::create(rewriter, loc, rewriter.getI8Type(), value);
        LLVM::StoreOp::create(rewriter, loc, value, pointers[r],
                              std::max(1u, reg->memoryBits / 8));
        continue;
      }
      Value value = toRegister(rewriter, loc, values[r], *reg);
      if (targetsAMD(rewriter)) {
        Type memoryType = rewriter.getIntegerType(reg->memoryBits);
        if (memoryType != reg->registerType)
          value = LLVM::TruncOp::create(rewriter, loc, memoryType, value);
        rocdl::storeWhere(rewriter, loc, value, pointers[r], predicate,
                          std::max(1u, reg->memoryBits / 8));
        continue;
      }
      inlinePtx(rewriter, loc, Type(), {pointers[r], value, predicate}, asmText,
                constraints, /*sideEffects=*/true);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

static StringRef getSemantic(tt::MemSemantic sem) {
  switch (sem) {
  case tt::MemSemantic::RELAXED:
    return "relaxed";
  case tt::MemSemantic::ACQUIRE:
    return "acquire";
  case tt::MemSemantic::RELEASE:
    return "release";
  case tt::MemSemantic::ACQUIRE_RELEASE:
    return "acq_rel";
  }
  llvm_unreachable("unknown memory semantic");
}

static StringRef getScope(tt::MemSyncScope scope) {
  switch (scope) {
  case tt::MemSyncScope::GPU:
    return "gpu";
  case tt::MemSyncScope::CTA:
    return "cta";
  case tt::MemSyncScope::SYSTEM:
    return "sys";
  }
  llvm_unreachable("unknown memory scope");
}

/// The `op.type` suffix of PTX's atom for a read-modify-write kind on an
/// element type; empty when PTX has no such atomic.
static std::string getAtomicSuffix(tt::RMWOp kind, Type element) {
  unsigned bits = isa<LLVM::LLVMPointerType>(element)
                      ? 64
                      : element.getIntOrFloatBitWidth();
  std::string width = std::to_string(bits);
  bool isFloat = isa<FloatType>(element);
  switch (kind) {
  case tt::RMWOp::AND:
  case tt::RMWOp::OR:
  case tt::RMWOp::XOR:
    if (isFloat || bits < 32)
      return "";
    return (stringifyRMWOp(kind) + ".b" + width).str();
  case tt::RMWOp::ADD:
    return bits < 32 || isFloat ? "" : "add.u" + width;
  case tt::RMWOp::FADD:
    if (element.isF32() || element.isF64())
      return "add.f" + width;
    if (element.isF16())
      return "add.noftz.f16";
    if (element.isBF16())
      return "add.noftz.bf16";
    return "";
  case tt::RMWOp::MAX:
  case tt::RMWOp::MIN:
    // Floats: see getFloatMinMaxAtomics (the signed form is the one for
    // values with a clear sign bit).
    if ((isFloat && bits != 32 && bits != 64) || bits < 32)
      return "";
    return (stringifyRMWOp(kind) + ".s" + width).str();
  case tt::RMWOp::UMAX:
  case tt::RMWOp::UMIN:
    if (isFloat || bits < 32)
      return "";
    return (kind == tt::RMWOp::UMAX ? "max.u" : "min.u") + width;
  case tt::RMWOp::XCHG:
    return bits < 32 ? "" : "exch.b" + width;
  }
  return "";
}

/// PTX has no float min/max atomics; the bits of IEEE floats order as
/// integers do, though, once split by sign: for a value whose sign bit is
/// clear, max is the signed integer max of the bits (every negative float
/// is a negative integer), and for one whose sign bit is set, max is the
/// unsigned integer min (negative floats grow as integers as they fall;
/// every positive one is a smaller unsigned integer). Min is the converse.
/// Returns the atomic for values with the sign bit set, empty for other
/// kinds (the one for the others is getAtomicSuffix's).
static std::string getFloatMinMaxNegativeAtomic(tt::RMWOp kind, Type element) {
  if (!isa<FloatType>(element) ||
      (kind != tt::RMWOp::MAX && kind != tt::RMWOp::MIN))
    return "";
  std::string width = std::to_string(element.getIntOrFloatBitWidth());
  return (kind == tt::RMWOp::MAX ? "min.u" : "max.u") + width;
}

/// Stores the register `value` at `address` in shared memory where
/// `predicate` holds.
static void storeSharedWhere(OpBuilder &b, Location loc, Value value,
                             Value address, Value predicate,
                             const PtxRegister &reg) {
  unsigned bits = reg.registerType.getIntOrFloatBitWidth();
  if (targetsAMD(b))
    return rocdl::storeWhere(b, loc, value, address, predicate, bits / 8);
  inlinePtx(b, loc, Type(), {address, value, predicate},
            llvm::formatv("@$2 st.shared.b{0} [ $0 ], $1;", bits).str(),
            llvm::formatv("r,{0},b", reg.constraint).str(), true);
}

/// Hands the old values `results` of an atomic, valid in the thread that
/// ran it (`owner`; null when every holder did), to every thread holding
/// the element: the owner stores it at the element's place in scratch,
/// and after a barrier every holder loads it.
static SmallVector<Value> shareOldValues(OpBuilder &b, Location loc,
                                         Operation *op,
                                         const LinearLayout &layout,
                                         ArrayRef<int64_t> shape,
                                         ArrayRef<Value> results, Value owner,
                                         const PtxRegister &reg, Type element) {
  Type storage = reg.registerType;
  int64_t elements = 1;
  for (int64_t size : shape)
    elements *= size;
  unsigned bytes = getSharedElementBytes(storage);
  Value base = getSharedMemoryBase(b, loc, op, elements * bytes);
  ThreadIds ids = getThreadIds(b, loc);
  SmallVector<Value> thread = getThreadCoordinate(b, loc, layout, ids);
  SmallVector<Value> addresses;
  for (unsigned r = 0, e = layout.getNumRegisters(); r < e; ++r) {
    Value index = linearize(
        b, loc, getElementCoordinate(b, loc, layout, r, thread), shape);
    addresses.push_back(LLVM::GEPOp::create(
        b, loc, base.getType(), storage, base, ArrayRef<LLVM::GEPArg>{index}));
  }
  Value always =
      LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
  // Earlier readers of the scratch must be done with it.
  emitBarrier(b, loc);
  for (unsigned r = 0, e = layout.getNumRegisters(); r < e; ++r) {
    if (!isCanonicalRegister(layout, r))
      continue;
    storeSharedWhere(b, loc, toRegister(b, loc, results[r], reg), addresses[r],
                     owner ? owner : always, reg);
  }
  emitBarrier(b, loc);
  SmallVector<Value> shared;
  for (Value address : addresses)
    shared.push_back(fromRegister(
        b, loc, LLVM::LoadOp::create(b, loc, storage, address), element));
  return shared;
}

/// Atomics run once per element, in its owner thread. When several threads
/// hold an element and the old value is used, the others get it through
/// shared memory (shareOldValues).
/// `operation` is the PTX atom's suffix (NVIDIA), `kind` the read-modify-
/// write (none: compare-and-swap; AMD builds LLVM atomics from it).
static LogicalResult lowerAtomic(
    Operation *op, Value loweredPtr, ArrayRef<Value> loweredOperands,
    Value loweredMask, StringRef operation, std::optional<tt::RMWOp> kind,
    tt::MemSemantic sem, tt::MemSyncScope scope, const TypeConverter &converter,
    ConversionPatternRewriter &rewriter, StringRef negativeOperation = "") {
  Location loc = op->getLoc();
  Type resultType = op->getResult(0).getType();
  Type element = convertElementType(getElementTypeOrSelf(resultType));
  std::optional<PtxRegister> reg = getPtxRegister(element);
  if (!reg || reg->memoryBits < 16)
    return op->emitError("no atomic for elements of type ") << element;
  std::optional<LinearLayout> layout;
  if (!getOptionalLayout(op, resultType, layout))
    return failure();
  bool resultUsed = !op->getResult(0).use_empty();

  SmallVector<Value> pointers = unpack(rewriter, loc, loweredPtr);
  unsigned count = pointers.size();
  SmallVector<SmallVector<Value>> operands;
  for (Value v : loweredOperands)
    operands.push_back(unpackOptional(rewriter, loc, v, count));
  SmallVector<Value> masks = unpackOptional(rewriter, loc, loweredMask, count);
  Value owner = getOwnerPredicate(rewriter, loc, op, layout);

  // d, [address], operands..., predicate.
  unsigned bits = reg->registerType.getIntOrFloatBitWidth();
  std::string constraints = llvm::formatv("={0},l", reg->constraint);
  std::string sources;
  for (unsigned i = 0; i < operands.size(); ++i) {
    sources += llvm::formatv(", ${0}", i + 2);
    constraints += llvm::formatv(",{0}", reg->constraint);
  }
  constraints += ",b";
  unsigned pred = operands.size() + 2;
  auto atom = [&](StringRef guard, StringRef what) -> std::string {
    return llvm::formatv("@{0} atom.{1}.{2}.global.{3} $0, [ $1 ]{4};\n\t",
                         guard, getSemantic(sem), getScope(scope), what,
                         sources);
  };
  std::string asmText;
  if (negativeOperation.empty()) {
    asmText = atom(llvm::formatv("${0}", pred).str(), operation);
  } else {
    // One of two atomics by the sign of the value ($2's top bit).
    asmText = llvm::formatv("{{\n\t.reg .pred %nonneg, %neg;\n\t"
                            "setp.ge.s{0} %nonneg, $2, 0;\n\t"
                            "setp.lt.s{0} %neg, $2, 0;\n\t"
                            "and.pred %nonneg, %nonneg, ${1};\n\t"
                            "and.pred %neg, %neg, ${1};\n\t",
                            bits, pred);
    asmText += atom("%nonneg", operation) + atom("%neg", negativeOperation);
    asmText += "}\n\t";
  }
  asmText += llvm::formatv("@!${0} mov.b{1} $0, 0;", pred, bits);

  unsigned duplicates =
      layout ? layout->getReplicationMask(LinearLayout::Register) : 0;
  SmallVector<Value> results;
  for (unsigned r = 0; r < count; ++r) {
    if (r & duplicates) {
      results.push_back(results[r & ~duplicates]);
      continue;
    }
    // Every element owned by one thread and no mask: always.
    Value predicate = andPredicates(rewriter, loc, owner, masks[r]);
    if (targetsAMD(rewriter)) {
      // operands: {value} for read-modify-writes, {compare, value} for CAS.
      Value value = operands.back()[r];
      Value compare = operands.size() == 2 ? operands[0][r] : Value();
      FailureOr<Value> old =
          rocdl::atomicWhere(rewriter, loc, element, pointers[r], value,
                             compare, kind, predicate, sem, scope);
      if (failed(old))
        return op->emitError("no AMDGPU atomic for '")
               << stringifyRMWOp(*kind) << "' on " << element;
      results.push_back(*old);
      continue;
    }
    SmallVector<Value> args = {pointers[r]};
    for (auto &values : operands)
      args.push_back(toRegister(rewriter, loc, values[r], *reg));
    if (!predicate)
      predicate = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                           rewriter.getBoolAttr(true));
    args.push_back(predicate);
    Value old = inlinePtx(rewriter, loc, reg->registerType, args, asmText,
                          constraints, /*sideEffects=*/true);
    results.push_back(fromRegister(rewriter, loc, old, element));
  }

  Value result = results.front();
  if (layout) {
    if (resultUsed && (layout->getReplicationMask(LinearLayout::Lane) ||
                       layout->getReplicationMask(LinearLayout::Warp)))
      results = shareOldValues(rewriter, loc, op, *layout,
                               cast<RankedTensorType>(resultType).getShape(),
                               results, owner, *reg, element);
    result = pack(rewriter, loc, converter.convertType(resultType), results);
  } else if (resultUsed) {
    // Thread 0 did the atomic: hand its old value to every thread.
    Type storage = reg->registerType;
    Value base =
        getSharedMemoryBase(rewriter, loc, op, getSharedElementBytes(storage));
    emitBarrier(rewriter, loc);
    storeSharedWhere(rewriter, loc, toRegister(rewriter, loc, result, *reg),
                     base, owner, *reg);
    emitBarrier(rewriter, loc);
    result = fromRegister(rewriter, loc,
                          LLVM::LoadOp::create(rewriter, loc, storage, base),
                          element);
  }
  rewriter.replaceOp(op, result);
  return success();
}

struct AtomicRMWLowering : public OpConversionPattern<tt::AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type element = convertElementType(getElementTypeOrSelf(op.getType()));
    std::string suffix = getAtomicSuffix(op.getAtomicRmwOp(), element);
    if (suffix.empty() && !targetsAMD(rewriter))
      return op.emitError("no PTX atomic for '")
             << stringifyRMWOp(op.getAtomicRmwOp()) << "' on " << element;
    return lowerAtomic(
        op, adaptor.getPtr(), {adaptor.getVal()}, adaptor.getMask(), suffix,
        op.getAtomicRmwOp(), op.getSem(), op.getScope(), *getTypeConverter(),
        rewriter, getFloatMinMaxNegativeAtomic(op.getAtomicRmwOp(), element));
  }
};

struct AtomicCASLowering : public OpConversionPattern<tt::AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type element = convertElementType(getElementTypeOrSelf(op.getType()));
    unsigned bits = isa<LLVM::LLVMPointerType>(element)
                        ? 64
                        : element.getIntOrFloatBitWidth();
    return lowerAtomic(
        op, adaptor.getPtr(), {adaptor.getCmp(), adaptor.getVal()}, Value(),
        "cas.b" + std::to_string(bits), std::nullopt, op.getSem(),
        op.getScope(), *getTypeConverter(), rewriter);
  }
};

} // namespace

void gpu_lowering::populateMemoryPatterns(TensorTypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns
      .add<LoadLowering, StoreLowering, AtomicRMWLowering, AtomicCASLowering>(
          converter, patterns.getContext());
}
