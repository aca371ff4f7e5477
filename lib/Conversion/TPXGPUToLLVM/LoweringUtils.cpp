//===- LoweringUtils.cpp - shared pieces of the SIMT lowering ------------===//
#include "LoweringUtils.h"
#include "ROCDLPrimitives.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

Type gpu_lowering::convertElementType(Type elementType) {
  if (isa<tt::PointerType>(elementType))
    return LLVM::LLVMPointerType::get(elementType.getContext(),
                                      kGlobalAddressSpace);
  // LLVM has no 8-bit float: fp8 values are moved (loaded, stored,
  // staged for wgmma) as their bits.
  if (isa<Float8E4M3FNType, Float8E5M2Type>(elementType))
    return IntegerType::get(elementType.getContext(), 8);
  return elementType;
}

static LowerToLLVMOptions get64BitIndexOptions(MLIRContext *context) {
  LowerToLLVMOptions options(context);
  options.overrideIndexBitwidth(64);
  return options;
}

TensorTypeConverter::TensorTypeConverter(MLIRContext *context)
    : LLVMTypeConverter(context, get64BitIndexOptions(context)) {
  addConversion([](tt::PointerType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), kGlobalAddressSpace);
  });
  // A memdesc is the address of its first element (SharedMemoryPatterns.cpp).
  addConversion([](tpxgpu::MemDescType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), kSharedAddressSpace);
  });
  // A tensor map is read where the launcher put it: the generic address of
  // its kernel parameter (FunctionPatterns.cpp).
  addConversion([](tt::TensorDescType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  // Async tokens only order ops in the IR; the hardware tracks cp.async
  // groups per thread (AsyncCopyPatterns.cpp).
  addConversion([](tpxgpu::AsyncTokenType type) -> Type {
    return IntegerType::get(type.getContext(), 32);
  });
  addConversion([](RankedTensorType type) -> std::optional<Type> {
    if (!type.getEncoding())
      return std::nullopt;
    std::optional<LinearLayout> layout =
        tpxgpu::toLinearLayout(type.getEncoding(), type.getShape());
    if (!layout)
      return std::nullopt;
    SmallVector<Type> fields(layout->getNumRegisters(),
                             convertElementType(type.getElementType()));
    return LLVM::LLVMStructType::getLiteral(type.getContext(), fields);
  });
}

std::optional<LinearLayout> gpu_lowering::getLayout(Operation *op,
                                                    RankedTensorType type) {
  if (!type.getEncoding()) {
    op->emitError("tensor ") << type
                             << " has no layout: run convert-tt-to-tpxgpu "
                                "before convert-tpxgpu-to-nvvm";
    return std::nullopt;
  }
  std::string why;
  std::optional<LinearLayout> layout =
      tpxgpu::toLinearLayout(type.getEncoding(), type.getShape(), &why);
  if (!layout)
    op->emitError("cannot generate code for tensor ") << type << ": " << why;
  return layout;
}

SmallVector<Value> gpu_lowering::unpack(OpBuilder &b, Location loc,
                                        Value lowered) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(lowered.getType());
  if (!structType)
    return {lowered};
  SmallVector<Value> values;
  for (int64_t i = 0, e = structType.getBody().size(); i < e; ++i)
    values.push_back(LLVM::ExtractValueOp::create(b, loc, lowered, i));
  return values;
}

Value gpu_lowering::pack(OpBuilder &b, Location loc, Type structType,
                         ValueRange values) {
  Value result = LLVM::UndefOp::create(b, loc, structType);
  for (auto [i, value] : llvm::enumerate(values))
    result = LLVM::InsertValueOp::create(b, loc, result, value,
                                         static_cast<int64_t>(i));
  return result;
}

Value gpu_lowering::i32Constant(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(static_cast<int32_t>(v)));
}

Value gpu_lowering::i64Constant(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                  b.getI64IntegerAttr(v));
}

/// The op whose region the builder inserts into (patterns build inside the
/// function they rewrite).
static Operation *getInsertionAnchor(OpBuilder &b) {
  Block *block = b.getInsertionBlock();
  return block ? block->getParentOp() : nullptr;
}

bool gpu_lowering::targetsAMD(OpBuilder &b) {
  Operation *anchor = getInsertionAnchor(b);
  return anchor && tpxgpu::isAMDModule(anchor);
}

unsigned gpu_lowering::getWarpSize(OpBuilder &b) {
  Operation *anchor = getInsertionAnchor(b);
  return anchor ? tpxgpu::getModuleThreadsPerWarp(anchor)
                : tpxgpu::TPXGPUDialect::kDefaultThreadsPerWarp;
}

Value gpu_lowering::getThreadIdX(OpBuilder &b, Location loc) {
  if (targetsAMD(b))
    return rocdl::getThreadIdX(b, loc);
  return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
}

ThreadIds gpu_lowering::getThreadIds(OpBuilder &b, Location loc) {
  Value tid = getThreadIdX(b, loc);
  unsigned warpSize = getWarpSize(b);
  return {LLVM::AndOp::create(b, loc, tid, i32Constant(b, loc, warpSize - 1)),
          LLVM::LShrOp::create(b, loc, tid,
                               i32Constant(b, loc, llvm::Log2_32(warpSize)))};
}

SmallVector<Value> gpu_lowering::getThreadCoordinate(OpBuilder &b, Location loc,
                                                     const LinearLayout &layout,
                                                     const ThreadIds &ids) {
  SmallVector<Value> coordinate;
  for (unsigned d = 0; d < layout.getRank(); ++d) {
    Value acc = i32Constant(b, loc, 0);
    for (auto [in, id] : {std::pair(LinearLayout::Lane, ids.lane),
                          std::pair(LinearLayout::Warp, ids.warp)}) {
      for (auto [bit, basis] : llvm::enumerate(layout.getBases(in))) {
        if (basis[d] == 0)
          continue;
        // ((id >> bit) & 1) * basis: the basis when the bit is set.
        Value set = LLVM::AndOp::create(
            b, loc, LLVM::LShrOp::create(b, loc, id, i32Constant(b, loc, bit)),
            i32Constant(b, loc, 1));
        Value term =
            LLVM::MulOp::create(b, loc, set, i32Constant(b, loc, basis[d]));
        acc = LLVM::XOrOp::create(b, loc, acc, term);
      }
    }
    coordinate.push_back(acc);
  }
  return coordinate;
}

SmallVector<Value>
gpu_lowering::getElementCoordinate(OpBuilder &b, Location loc,
                                   const LinearLayout &layout, unsigned reg,
                                   ArrayRef<Value> threadCoordinate) {
  Coordinate part = layout.getContribution(LinearLayout::Register, reg);
  SmallVector<Value> coordinate;
  for (auto [value, thread] : llvm::zip_equal(part, threadCoordinate))
    coordinate.push_back(
        value == 0
            ? thread
            : LLVM::XOrOp::create(b, loc, thread, i32Constant(b, loc, value)));
  return coordinate;
}

Value gpu_lowering::getUniqueOwnerPredicate(OpBuilder &b, Location loc,
                                            const LinearLayout &layout,
                                            const ThreadIds &ids) {
  Value predicate;
  for (auto [in, id] : {std::pair(LinearLayout::Lane, ids.lane),
                        std::pair(LinearLayout::Warp, ids.warp)}) {
    unsigned mask = layout.getReplicationMask(in);
    if (!mask)
      continue;
    Value bits = LLVM::AndOp::create(b, loc, id, i32Constant(b, loc, mask));
    Value zero = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, bits,
                                      i32Constant(b, loc, 0));
    predicate = predicate ? LLVM::AndOp::create(b, loc, predicate, zero) : zero;
  }
  return predicate;
}

Value gpu_lowering::getOwnerPredicate(
    OpBuilder &b, Location loc, Operation *op,
    const std::optional<LinearLayout> &layout) {
  if (!layout)
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                getThreadIdX(b, loc), i32Constant(b, loc, 0));
  ThreadIds ids = getThreadIds(b, loc);
  Value owner = getUniqueOwnerPredicate(b, loc, *layout, ids);
  unsigned moduleWarps = tpxgpu::getModuleNumWarps(op);
  Operation *kernel = op->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  if (op->getParentOfType<tpxgpu::WarpSpecializeOp>() || !kernel ||
      tpxgpu::getBlockWarps(kernel) <= moduleWarps)
    return owner;
  Value ownWarp =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, ids.warp,
                           i32Constant(b, loc, moduleWarps));
  return owner ? LLVM::AndOp::create(b, loc, owner, ownWarp).getResult()
               : ownWarp;
}

bool gpu_lowering::isCanonicalRegister(const LinearLayout &layout,
                                       unsigned reg) {
  return (reg & layout.getReplicationMask(LinearLayout::Register)) == 0;
}

Value gpu_lowering::getSharedMemoryBase(OpBuilder &b, Location loc,
                                        Operation *user, uint64_t bytes) {
  // tpxgpu-allocate-shared-memory places buffers and scratch; an op it did
  // not place (a module that skipped it) uses the start of the memory.
  uint64_t offset = 0;
  if (auto placed = user->getAttrOfType<IntegerAttr>(
          tpxgpu::TPXGPUDialect::kSharedOffsetAttrName))
    offset = placed.getInt();
  auto module = user->getParentOfType<ModuleOp>();
  auto recorded = module->getAttrOfType<IntegerAttr>(
      tpxgpu::TPXGPUDialect::kSharedBytesAttrName);
  if (!recorded || recorded.getInt() < static_cast<int64_t>(offset + bytes))
    module->setAttr(tpxgpu::TPXGPUDialect::kSharedBytesAttrName,
                    b.getI64IntegerAttr(static_cast<int64_t>(offset + bytes)));
  // The global itself is created by the pass before the conversion starts
  // (patterns may not add ops outside the op they rewrite).
  auto pointer =
      LLVM::LLVMPointerType::get(b.getContext(), kSharedAddressSpace);
  Value base = LLVM::AddressOfOp::create(b, loc, pointer, kSharedMemorySymbol);
  if (offset == 0)
    return base;
  return LLVM::GEPOp::create(
      b, loc, pointer, b.getI8Type(), base,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)});
}

void gpu_lowering::emitBarrier(OpBuilder &b, Location loc) {
  if (targetsAMD(b))
    return rocdl::emitBarrier(b, loc);
  NVVM::Barrier0Op::create(b, loc);
}

/// The value as 32-bit words (lowest first), and the inverse.
static SmallVector<Value> toWords(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  if (isa<LLVM::LLVMPointerType>(type))
    value = LLVM::PtrToIntOp::create(b, loc, i64, value), type = i64;
  unsigned bits = type.getIntOrFloatBitWidth();
  Type asInt = b.getIntegerType(bits);
  if (!type.isInteger())
    value = LLVM::BitcastOp::create(b, loc, asInt, value);
  if (bits < 32)
    return {LLVM::ZExtOp::create(b, loc, i32, value)};
  if (bits == 32)
    return {value};
  Value low = LLVM::TruncOp::create(b, loc, i32, value);
  Value high = LLVM::TruncOp::create(
      b, loc, i32,
      LLVM::LShrOp::create(b, loc, value, i64Constant(b, loc, 32)));
  return {low, high};
}

static Value fromWords(OpBuilder &b, Location loc, ArrayRef<Value> words,
                       Type type) {
  Type i64 = b.getI64Type();
  bool pointer = isa<LLVM::LLVMPointerType>(type);
  unsigned bits = pointer ? 64 : type.getIntOrFloatBitWidth();
  Type asInt = b.getIntegerType(bits);
  Value value;
  if (bits < 32)
    value = LLVM::TruncOp::create(b, loc, asInt, words[0]);
  else if (bits == 32)
    value = words[0];
  else
    value = LLVM::OrOp::create(
        b, loc, LLVM::ZExtOp::create(b, loc, i64, words[0]),
        LLVM::ShlOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i64, words[1]),
                            i64Constant(b, loc, 32)));
  if (pointer)
    return LLVM::IntToPtrOp::create(b, loc, type, value);
  if (!type.isInteger())
    return LLVM::BitcastOp::create(b, loc, type, value);
  return value;
}

static Value shuffle(OpBuilder &b, Location loc, Value value, Value offset,
                     NVVM::ShflKind kind, int32_t clamp) {
  SmallVector<Value> words = toWords(b, loc, value);
  if (targetsAMD(b)) {
    // ds_bpermute reads any lane: compute the source lane as shfl would
    // (up: lane - delta, or itself below delta; xor: shuffleXor).
    Value lane = getThreadIds(b, loc).lane;
    Value source = offset;
    if (kind == NVVM::ShflKind::up) {
      Value below =
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, lane, offset);
      source = LLVM::SelectOp::create(
          b, loc, below, lane, LLVM::SubOp::create(b, loc, lane, offset));
    }
    for (Value &word : words)
      word = rocdl::readLane(b, loc, word, source);
    return fromWords(b, loc, words, value.getType());
  }
  Value all = i32Constant(b, loc, -1);
  Value clampValue = i32Constant(b, loc, clamp);
  for (Value &word : words)
    word = NVVM::ShflOp::create(b, loc, b.getI32Type(), all, word, offset,
                                clampValue, kind, UnitAttr());
  return fromWords(b, loc, words, value.getType());
}

Value gpu_lowering::shuffleXor(OpBuilder &b, Location loc, Value value,
                               unsigned mask) {
  if (targetsAMD(b)) {
    Value lane = getThreadIds(b, loc).lane;
    SmallVector<Value> words = toWords(b, loc, value);
    for (Value &word : words)
      word = rocdl::xorLanes(b, loc, word, mask, lane);
    return fromWords(b, loc, words, value.getType());
  }
  return shuffle(b, loc, value, i32Constant(b, loc, mask), NVVM::ShflKind::bfly,
                 0x1f);
}

Value gpu_lowering::shuffleUp(OpBuilder &b, Location loc, Value value,
                              unsigned delta) {
  return shuffle(b, loc, value, i32Constant(b, loc, delta), NVVM::ShflKind::up,
                 0);
}

Value gpu_lowering::shuffleIndex(OpBuilder &b, Location loc, Value value,
                                 Value srcLane) {
  return shuffle(b, loc, value, srcLane, NVVM::ShflKind::idx, 0x1f);
}

Value gpu_lowering::linearize(OpBuilder &b, Location loc,
                              ArrayRef<Value> coordinate,
                              ArrayRef<int64_t> shape) {
  Value index = i32Constant(b, loc, 0);
  int64_t stride = 1;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    Value term = stride == 1 ? coordinate[d]
                             : LLVM::MulOp::create(b, loc, coordinate[d],
                                                   i32Constant(b, loc, stride));
    index = LLVM::AddOp::create(b, loc, index, term);
    stride *= shape[d];
  }
  return index;
}

unsigned gpu_lowering::getSharedElementBytes(Type type) {
  if (isa<tt::PointerType, LLVM::LLVMPointerType>(type))
    return 8;
  return std::max(1u, type.getIntOrFloatBitWidth() / 8);
}

Type gpu_lowering::getSharedStorageType(OpBuilder &b, Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return b.getI64Type();
  if (type.isInteger(1))
    return b.getI8Type();
  return type;
}

Value gpu_lowering::toSharedStorage(OpBuilder &b, Location loc, Value value,
                                    Type storage) {
  if (isa<LLVM::LLVMPointerType>(value.getType()))
    return LLVM::PtrToIntOp::create(b, loc, storage, value);
  if (value.getType().isInteger(1))
    return LLVM::ZExtOp::create(b, loc, storage, value);
  return value;
}

Value gpu_lowering::fromSharedStorage(OpBuilder &b, Location loc, Value value,
                                      Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(b, loc, type, value);
  if (type.isInteger(1))
    return LLVM::TruncOp::create(b, loc, type, value);
  return value;
}

SmallVector<Value> gpu_lowering::exchangeThroughSharedMemory(
    OpBuilder &b, Location loc, Operation *user, ValueRange values,
    const LinearLayout &from, const LinearLayout &to, Type elementType,
    ArrayRef<int64_t> storageShape, CoordinateMap fromToStorage,
    CoordinateMap toToStorage) {
  Type type = convertElementType(elementType);
  Type storage = getSharedStorageType(b, type);
  int64_t elements = 1;
  for (int64_t size : storageShape)
    elements *= size;
  Value base = getSharedMemoryBase(b, loc, user,
                                   elements * getSharedElementBytes(storage));
  auto address = [&](Value index) {
    return LLVM::GEPOp::create(b, loc, base.getType(), storage, base,
                               ArrayRef<LLVM::GEPArg>{index});
  };
  ThreadIds ids = getThreadIds(b, loc);

  // Earlier readers of the buffer must be done before it is overwritten.
  emitBarrier(b, loc);
  SmallVector<Value> fromThread = getThreadCoordinate(b, loc, from, ids);
  for (unsigned reg = 0, e = from.getNumRegisters(); reg < e; ++reg) {
    if (!isCanonicalRegister(from, reg))
      continue;
    SmallVector<Value> coordinate =
        fromToStorage(getElementCoordinate(b, loc, from, reg, fromThread));
    Value index = linearize(b, loc, coordinate, storageShape);
    LLVM::StoreOp::create(b, loc, toSharedStorage(b, loc, values[reg], storage),
                          address(index));
  }
  emitBarrier(b, loc);

  SmallVector<Value> toThread = getThreadCoordinate(b, loc, to, ids);
  SmallVector<Value> result;
  for (unsigned reg = 0, e = to.getNumRegisters(); reg < e; ++reg) {
    SmallVector<Value> coordinate =
        toToStorage(getElementCoordinate(b, loc, to, reg, toThread));
    Value index = linearize(b, loc, coordinate, storageShape);
    Value loaded = LLVM::LoadOp::create(b, loc, storage, address(index));
    result.push_back(fromSharedStorage(b, loc, loaded, type));
  }
  return result;
}

/// The width of one vector shared-memory access along the last dimension
/// (at most 16 bytes).
static unsigned getVectorWidth(const LinearLayout &layout, unsigned bytes) {
  return layout.getRegisterRun(layout.getRank() - 1, std::max(1u, 16 / bytes));
}

std::optional<unsigned>
gpu_lowering::getLdmatrixOperand(RankedTensorType type) {
  auto operand = dyn_cast<tpxgpu::DotOperandEncodingAttr>(type.getEncoding());
  if (!operand || type.getElementType().getIntOrFloatBitWidth() != 16)
    return std::nullopt;
  auto mma = dyn_cast<tpxgpu::NvidiaMmaEncodingAttr>(operand.getParent());
  if (!mma || mma.getVersion() != 2 || operand.getKWidth() != 2)
    return std::nullopt;
  return operand.getOpIdx();
}

/// Element offset of a coordinate in the conversion buffer: row-major with
/// each row of the last dimension padded by 16 bytes, so that threads
/// reading down a column (MMA operand fragments do) hit different banks.
static Value getPaddedOffset(OpBuilder &b, Location loc,
                             ArrayRef<Value> coordinate,
                             ArrayRef<int64_t> shape, int64_t rowPad) {
  Value index = i32Constant(b, loc, 0);
  int64_t stride = 1;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    Value term = stride == 1 ? coordinate[d]
                             : LLVM::MulOp::create(b, loc, coordinate[d],
                                                   i32Constant(b, loc, stride));
    index = LLVM::AddOp::create(b, loc, index, term);
    stride *= shape[d] + (d == static_cast<int>(shape.size()) - 1 ? rowPad : 0);
  }
  return index;
}

Value SharedTile::address(OpBuilder &b, Location loc, Value index) const {
  return LLVM::GEPOp::create(b, loc, base.getType(), storage, base,
                             ArrayRef<LLVM::GEPArg>{index});
}

SharedTile gpu_lowering::getSharedTile(OpBuilder &b, Location loc,
                                       Operation *op, Type storage,
                                       ArrayRef<int64_t> shape,
                                       int64_t rowPad) {
  SharedTile tile;
  tile.storage = storage;
  tile.bytes = getSharedElementBytes(storage);
  tile.shape.assign(shape.begin(), shape.end());
  tile.rowPad = rowPad;
  int64_t elements = 1;
  for (auto [d, size] : llvm::enumerate(shape))
    elements *= size + (d + 1 == shape.size() ? rowPad : 0);
  tile.base = getSharedMemoryBase(b, loc, op, elements * tile.bytes);
  return tile;
}

/// The padding (elements) added to each row of a staged tensor.
static int64_t getRowPad(ArrayRef<int64_t> shape, unsigned bytes) {
  return shape.size() >= 2 ? std::max<int64_t>(1, 16 / bytes) : 0;
}

/// Writes every element of `values` (in `from`) to `user`'s scratch, with
/// vector stores where the layout allows, between two barriers: the first
/// waits for the scratch's earlier readers, the second makes the stores
/// visible to the loads that follow.
static SharedTile storeToShared(OpBuilder &b, Location loc, Operation *user,
                                ValueRange values, const LinearLayout &from,
                                Type type, const ThreadIds &ids) {
  Type storage = getSharedStorageType(b, type);
  SharedTile tile =
      getSharedTile(b, loc, user, storage, from.getShape(),
                    getRowPad(from.getShape(), getSharedElementBytes(storage)));

  emitBarrier(b, loc);
  unsigned width = getVectorWidth(from, tile.bytes);
  auto vector = VectorType::get({width}, tile.storage);
  SmallVector<Value> thread = getThreadCoordinate(b, loc, from, ids);
  for (unsigned reg = 0, e = from.getNumRegisters(); reg < e; reg += width) {
    if (!isCanonicalRegister(from, reg))
      continue;
    Value index =
        getPaddedOffset(b, loc, getElementCoordinate(b, loc, from, reg, thread),
                        tile.shape, tile.rowPad);
    Value data = LLVM::UndefOp::create(b, loc, vector);
    for (unsigned i = 0; i < width; ++i)
      data = LLVM::InsertElementOp::create(
          b, loc, data, toSharedStorage(b, loc, values[reg + i], tile.storage),
          i32Constant(b, loc, i));
    LLVM::StoreOp::create(b, loc, data, tile.address(b, loc, index),
                          width * tile.bytes);
  }
  emitBarrier(b, loc);
  return tile;
}

/// Reads every register of `to` from the buffer, with vector loads where
/// the layout allows.
static SmallVector<Value> loadFromShared(OpBuilder &b, Location loc,
                                         const SharedTile &tile,
                                         const LinearLayout &to, Type type,
                                         const ThreadIds &ids) {
  unsigned width = getVectorWidth(to, tile.bytes);
  auto vector = VectorType::get({width}, tile.storage);
  SmallVector<Value> thread = getThreadCoordinate(b, loc, to, ids);
  SmallVector<Value> result;
  for (unsigned reg = 0, e = to.getNumRegisters(); reg < e; reg += width) {
    Value index =
        getPaddedOffset(b, loc, getElementCoordinate(b, loc, to, reg, thread),
                        tile.shape, tile.rowPad);
    Value data = LLVM::LoadOp::create(
        b, loc, vector, tile.address(b, loc, index), width * tile.bytes);
    for (unsigned i = 0; i < width; ++i)
      result.push_back(fromSharedStorage(
          b, loc,
          LLVM::ExtractElementOp::create(b, loc, data, i32Constant(b, loc, i)),
          type));
  }
  return result;
}

/// Reads an mma.sync operand with ldmatrix.x4: one instruction gives each
/// lane its registers of four 8x8 matrices, lane l addressing row l % 8 of
/// matrix l / 8. The matrices are ordered like the fragment registers (see
/// TPXGPULinearLayout.cpp): for A (one 16x16 fragment per instruction)
/// a0a1 rows 0-7 / cols 0-7, a2a3 rows 8-15, a4a5 cols 8-15, a6a7 both; for
/// B (stored [K, N], read with .trans; two 16x8 fragments per instruction)
/// b0b1 k 0-7 and b2b3 k 8-15 of each fragment. A lone last B fragment uses
/// .x2.
SmallVector<Value> gpu_lowering::loadMmaOperandWithLdmatrix(
    OpBuilder &b, Location loc, const LinearLayout &to, Type type,
    unsigned opIdx, const ThreadIds &ids, SharedAddressFn addressOf) {
  unsigned fragmentRegs = opIdx == 0 ? 8 : 4;
  unsigned numFragments = to.getNumRegisters() / fragmentRegs;
  // Where each fragment starts for this warp: lane 0's element of its
  // first register.
  ThreadIds warpOnly = {i32Constant(b, loc, 0), ids.warp};
  SmallVector<Value> origin = getThreadCoordinate(b, loc, to, warpOnly);
  Value laneRow = LLVM::AndOp::create(b, loc, ids.lane, i32Constant(b, loc, 7));
  Value matrix = LLVM::LShrOp::create(b, loc, ids.lane, i32Constant(b, loc, 3));
  auto bit = [&](Value v, unsigned i) {
    return LLVM::AndOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, v, i32Constant(b, loc, i)),
        i32Constant(b, loc, 1));
  };
  // Matrix bit 0 steps 8 rows (M for A, K for B); for A bit 1 steps 8
  // columns of K, for B it picks the second fragment.
  Value rowStep =
      LLVM::MulOp::create(b, loc, bit(matrix, 0), i32Constant(b, loc, 8));
  Value colStep =
      LLVM::MulOp::create(b, loc, bit(matrix, 1), i32Constant(b, loc, 8));
  Value secondFragment = LLVM::ICmpOp::create(
      b, loc, LLVM::ICmpPredicate::ne, bit(matrix, 1), i32Constant(b, loc, 0));
  Type i32 = b.getI32Type();
  auto pair = VectorType::get({2}, type);

  SmallVector<Value> result;
  auto load = [&](Value row, Value col, unsigned matrices, bool trans) {
    Value address =
        LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), addressOf(row, col));
    SmallVector<Type> fields(matrices, i32);
    std::string asmText =
        std::string("ldmatrix.sync.aligned.m8n8.x") + std::to_string(matrices) +
        (trans ? ".trans" : "") + ".shared.b16 " +
        (matrices == 4 ? "{$0, $1, $2, $3}, [$4];" : "{$0, $1}, [$2];");
    std::string constraints = matrices == 4 ? "=r,=r,=r,=r,l" : "=r,=r,l";
    Value loaded = inlinePtx(
        b, loc, LLVM::LLVMStructType::getLiteral(b.getContext(), fields),
        {address}, asmText, constraints, /*sideEffects=*/true);
    for (unsigned m = 0; m < matrices; ++m) {
      Value halves = LLVM::BitcastOp::create(
          b, loc, pair, LLVM::ExtractValueOp::create(b, loc, loaded, m));
      for (unsigned h = 0; h < 2; ++h)
        result.push_back(LLVM::ExtractElementOp::create(
            b, loc, halves, i32Constant(b, loc, h)));
    }
  };

  for (unsigned f = 0; f < numFragments;) {
    SmallVector<Value> start =
        getElementCoordinate(b, loc, to, f * fragmentRegs, origin);
    if (opIdx == 0) {
      load(LLVM::AddOp::create(b, loc, start[0],
                               LLVM::AddOp::create(b, loc, laneRow, rowStep)),
           LLVM::AddOp::create(b, loc, start[1], colStep), 4, false);
      ++f;
      continue;
    }
    Value kRow = LLVM::AddOp::create(b, loc, laneRow, rowStep);
    if (f + 1 == numFragments) { // lanes 16-31 repeat lanes 0-15 (ignored)
      load(LLVM::AddOp::create(b, loc, start[0], kRow), start[1], 2, true);
      ++f;
      continue;
    }
    SmallVector<Value> next =
        getElementCoordinate(b, loc, to, (f + 1) * fragmentRegs, origin);
    Value row =
        LLVM::SelectOp::create(b, loc, secondFragment, next[0], start[0]);
    Value col =
        LLVM::SelectOp::create(b, loc, secondFragment, next[1], start[1]);
    load(LLVM::AddOp::create(b, loc, row, kRow), col, 4, true);
    f += 2;
  }
  return result;
}

/// A layout conversion through shared memory with vector accesses where the
/// layouts allow them.
static SmallVector<Value>
convertThroughSharedMemory(OpBuilder &b, Location loc, Operation *user,
                           ValueRange values, const LinearLayout &from,
                           const LinearLayout &to, Type elementType) {
  Type type = convertElementType(elementType);
  ThreadIds ids = getThreadIds(b, loc);
  SharedTile tile = storeToShared(b, loc, user, values, from, type, ids);
  return loadFromShared(b, loc, tile, to, type, ids);
}

std::optional<SmallVector<Value>>
gpu_lowering::renameRegisters(ValueRange values, const LinearLayout &from,
                              const LinearLayout &to) {
  if (from == to)
    return SmallVector<Value>(values);
  if (tpxgpu::conversionNeedsSharedMemory(from, to))
    return std::nullopt;
  auto identity = [](ArrayRef<int64_t> c) { return Coordinate(c); };
  SmallVector<Value> result;
  for (unsigned reg : *from.getRegisterMapFrom(to, identity))
    result.push_back(values[reg]);
  return result;
}

SmallVector<Value>
gpu_lowering::convertLayout(OpBuilder &b, Location loc, Operation *user,
                            ValueRange values, const LinearLayout &from,
                            const LinearLayout &to, Type elementType) {
  if (std::optional<SmallVector<Value>> renamed =
          renameRegisters(values, from, to))
    return *renamed;
  return convertThroughSharedMemory(b, loc, user, values, from, to,
                                    elementType);
}

Value gpu_lowering::inlinePtx(OpBuilder &b, Location loc, Type resultType,
                              ValueRange operands, StringRef asmText,
                              StringRef constraints, bool sideEffects) {
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, resultType ? TypeRange(resultType) : TypeRange(), operands,
      asmText, constraints, sideEffects, /*is_align_stack=*/false,
      LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
      /*operand_attrs=*/nullptr);
  return resultType ? asmOp.getResult(0) : Value();
}

SmallVector<Value> gpu_lowering::inlineCombineRegion(OpBuilder &b,
                                                     Region &region,
                                                     ValueRange args) {
  Block &block = region.front();
  IRMapping mapping;
  mapping.map(block.getArguments(), args);
  for (Operation &op : block.without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> results;
  for (Value v : block.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

Value gpu_lowering::packHalves(OpBuilder &b, Location loc, Value low,
                               Value high) {
  auto pairType = VectorType::get({2}, low.getType());
  Value pair = LLVM::PoisonOp::create(b, loc, pairType);
  pair =
      LLVM::InsertElementOp::create(b, loc, pair, low, i32Constant(b, loc, 0));
  pair =
      LLVM::InsertElementOp::create(b, loc, pair, high, i32Constant(b, loc, 1));
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), pair);
}

unsigned gpu_lowering::getNumRegisters(Type lowered) {
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(lowered))
    return structType.getBody().size();
  return 1;
}

LogicalResult gpu_lowering::replacePerRegister(
    Operation *op, ValueRange operands, const TypeConverter &converter,
    ConversionPatternRewriter &rewriter,
    function_ref<Value(unsigned, ArrayRef<Value>)> build) {
  Type resultType = converter.convertType(op->getResult(0).getType());
  if (!resultType)
    return rewriter.notifyMatchFailure(op, "result type has no lowering");
  Location loc = op->getLoc();
  unsigned count = getNumRegisters(resultType);
  SmallVector<SmallVector<Value>> unpacked;
  for (Value operand : operands) {
    unpacked.push_back(unpack(rewriter, loc, operand));
    // A scalar operand (splat-like use) serves every register.
    if (unpacked.back().size() == 1 && count > 1)
      unpacked.back().assign(count, unpacked.back().front());
    if (unpacked.back().size() != count)
      return rewriter.notifyMatchFailure(op, "operand register counts differ");
  }
  SmallVector<Value> results;
  for (unsigned r = 0; r < count; ++r) {
    SmallVector<Value> args;
    for (auto &values : unpacked)
      args.push_back(values[r]);
    results.push_back(build(r, args));
  }
  if (!isa<LLVM::LLVMStructType>(resultType)) {
    rewriter.replaceOp(op, results.front());
    return success();
  }
  rewriter.replaceOp(op, pack(rewriter, loc, resultType, results));
  return success();
}

Value gpu_lowering::nonZero(OpBuilder &b, Location loc, Value integer) {
  Value zero = LLVM::ConstantOp::create(b, loc, integer.getType(),
                                        b.getIntegerAttr(integer.getType(), 0));
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, integer, zero);
}

Value gpu_lowering::toMemoryInteger(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), value);
  if (type.isInteger(1))
    return LLVM::ZExtOp::create(b, loc, b.getI8Type(), value);
  if (!type.isInteger())
    return LLVM::BitcastOp::create(
        b, loc, b.getIntegerType(type.getIntOrFloatBitWidth()), value);
  return value;
}

Value gpu_lowering::fromMemoryInteger(OpBuilder &b, Location loc, Value value,
                                      Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(b, loc, type, value);
  if (type.isInteger(1))
    return nonZero(b, loc, value);
  if (!type.isInteger())
    return LLVM::BitcastOp::create(b, loc, type, value);
  return value;
}
