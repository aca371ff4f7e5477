//===- ReduceScanUtils.h - pieces shared by the reduce and scan lowering --===//
//
// Internal to ReducePatterns.cpp and ScanPatterns.cpp. Both reason about a
// layout in which every nonzero basis steps along one dimension by a power
// of two and no two nonzero bases are equal ("unit bases"; every layout
// toLinearLayout builds has this form). Then the layout is injective up to
// zero bases, and each basis either moves along the reduction/scan axis or
// moves the rest of the coordinate, never both: the registers, lanes and
// warps split cleanly into the ones that walk along the axis and the ones
// that choose the line (the coordinate off the axis).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_CONVERSION_TPXGPUTOLLVM_REDUCESCANUTILS_H
#define TPX_LIB_CONVERSION_TPXGPUTOLLVM_REDUCESCANUTILS_H

#include "LoweringUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <optional>
#include <string>

namespace tpx::gpu_lowering::reduce_scan {

using InDim = LinearLayout::InDim;

/// Why `layout` does not have unit bases (see the file comment), if it
/// does not.
inline std::optional<std::string> checkUnitBases(const LinearLayout &layout) {
  llvm::SmallVector<Coordinate> seen;
  for (InDim in : {InDim::Register, InDim::Lane, InDim::Warp})
    for (const Coordinate &basis : layout.getBases(in)) {
      auto isNonzero = [](int64_t value) { return value != 0; };
      auto count = llvm::count_if(basis, isNonzero);
      if (count == 0)
        continue;
      if (count > 1 || !llvm::isPowerOf2_64(*llvm::find_if(basis, isNonzero)))
        return std::string("a layout basis steps along several dimensions "
                           "or by a non-power of two");
      if (llvm::is_contained(seen, basis))
        return std::string("two layout bits hold the same element");
      seen.push_back(basis);
    }
  return std::nullopt;
}

/// `coordinate` without its `axis` entry.
inline Coordinate dropAxis(llvm::ArrayRef<int64_t> coordinate, unsigned axis) {
  Coordinate result(coordinate.begin(), coordinate.end());
  result.erase(result.begin() + axis);
  return result;
}

/// The registers of one line (fixed coordinate off the axis) in a thread.
struct RegisterGroup {
  /// The register contribution off the axis, shared by the group.
  Coordinate key;
  /// One register per element, by increasing axis coordinate.
  llvm::SmallVector<unsigned> registers;
};

/// Groups the registers of `layout` (unit bases) by line. A register with a
/// set zero-basis bit repeats the element of the one with that bit clear
/// (with unit bases only zero bases repeat an element) and is left out.
inline llvm::SmallVector<RegisterGroup>
groupRegisters(const LinearLayout &layout, unsigned axis) {
  unsigned duplicates = layout.getReplicationMask(InDim::Register);
  llvm::SmallVector<RegisterGroup> groups;
  llvm::SmallVector<int64_t> axisOf;
  for (unsigned reg = 0, e = layout.getNumRegisters(); reg < e; ++reg) {
    Coordinate contribution = layout.getContribution(InDim::Register, reg);
    axisOf.push_back(contribution[axis]);
    if (reg & duplicates)
      continue;
    Coordinate key = dropAxis(contribution, axis);
    auto *it = llvm::find_if(
        groups, [&](const RegisterGroup &group) { return group.key == key; });
    if (it == groups.end()) {
      groups.push_back({key, {}});
      it = std::prev(groups.end());
    }
    it->registers.push_back(reg);
  }
  for (RegisterGroup &group : groups)
    llvm::stable_sort(group.registers, [&](unsigned a, unsigned b) {
      return axisOf[a] < axisOf[b];
    });
  return groups;
}

/// combine(lhs, rhs) through a tt.reduce/tt.scan region: its arguments are
/// the N accumulators, then the N new values.
inline llvm::SmallVector<mlir::Value> combine(mlir::OpBuilder &b,
                                              mlir::Region &region,
                                              mlir::ValueRange lhs,
                                              mlir::ValueRange rhs) {
  llvm::SmallVector<mlir::Value> args(lhs.begin(), lhs.end());
  args.append(rhs.begin(), rhs.end());
  return inlineCombineRegion(b, region, args);
}

/// `select(condition, a, other)` element-wise.
inline llvm::SmallVector<mlir::Value>
selectAll(mlir::OpBuilder &b, mlir::Location loc, mlir::Value condition,
          mlir::ValueRange a, mlir::ValueRange other) {
  llvm::SmallVector<mlir::Value> result;
  for (auto [x, y] : llvm::zip_equal(a, other))
    result.push_back(
        mlir::LLVM::SelectOp::create(b, loc, condition, x, y).getResult());
  return result;
}

/// Runs `shuffle` on `value`; an i1 travels as an i32 (the shuffle helpers
/// promise 8- to 64-bit values).
inline mlir::Value
shuffleValue(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
             llvm::function_ref<mlir::Value(mlir::Value)> shuffle) {
  if (!value.getType().isInteger(1))
    return shuffle(value);
  mlir::Value wide = mlir::LLVM::ZExtOp::create(b, loc, b.getI32Type(), value);
  return mlir::LLVM::TruncOp::create(b, loc, b.getI1Type(), shuffle(wide));
}

/// The type a value of `type` is kept as in shared memory: an i1 as a byte,
/// as getSharedElementBytes counts it.
inline mlir::Type getStorageType(mlir::Type type) {
  if (type.isInteger(1))
    return mlir::IntegerType::get(type.getContext(), 8);
  return type;
}

/// Element `index` (i32) of an array of `type` at `base` in shared memory.
inline mlir::Value getSharedElementPtr(mlir::OpBuilder &b, mlir::Location loc,
                                       mlir::Value base, mlir::Type type,
                                       mlir::Value index) {
  return mlir::LLVM::GEPOp::create(b, loc, base.getType(), getStorageType(type),
                                   base, mlir::ValueRange{index});
}

/// `base` advanced by `bytes`.
inline mlir::Value offsetBytes(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value base, uint64_t bytes) {
  return mlir::LLVM::GEPOp::create(
      b, loc, base.getType(), b.getI8Type(), base,
      llvm::ArrayRef<mlir::LLVM::GEPArg>{static_cast<int32_t>(bytes)});
}

inline void storeShared(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value value, mlir::Value ptr) {
  if (value.getType().isInteger(1))
    value = mlir::LLVM::ZExtOp::create(b, loc, b.getI8Type(), value);
  mlir::LLVM::StoreOp::create(b, loc, value, ptr);
}

inline mlir::Value loadShared(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Type type, mlir::Value ptr) {
  mlir::Value value =
      mlir::LLVM::LoadOp::create(b, loc, getStorageType(type), ptr);
  if (type.isInteger(1))
    value = mlir::LLVM::TruncOp::create(b, loc, type, value);
  return value;
}

/// Byte offsets of one array of `count` elements per type in `types`, each
/// aligned for its element, and the total size.
inline llvm::SmallVector<uint64_t>
layOutArrays(llvm::ArrayRef<mlir::Type> types, int64_t count,
             uint64_t &totalBytes) {
  llvm::SmallVector<uint64_t> offsets;
  totalBytes = 0;
  for (mlir::Type type : types) {
    unsigned elementBytes = getSharedElementBytes(type);
    totalBytes = llvm::alignTo(totalBytes, elementBytes);
    offsets.push_back(totalBytes);
    totalBytes += count * elementBytes;
  }
  return offsets;
}

/// The i32 whose bit j is the bit `bits[j]` of the i32 `value`.
inline mlir::Value gatherBits(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value value,
                              llvm::ArrayRef<unsigned> bits) {
  mlir::Value result = i32Constant(b, loc, 0);
  for (auto [j, bit] : llvm::enumerate(bits)) {
    mlir::Value shifted =
        mlir::LLVM::LShrOp::create(b, loc, value, i32Constant(b, loc, bit));
    mlir::Value one =
        mlir::LLVM::AndOp::create(b, loc, shifted, i32Constant(b, loc, 1));
    mlir::Value placed =
        mlir::LLVM::ShlOp::create(b, loc, one, i32Constant(b, loc, j));
    result = mlir::LLVM::OrOp::create(b, loc, result, placed);
  }
  return result;
}

/// The row-major index (i32) of each group's line among the lines of the
/// tensor: `lineShape` is the shape without the axis (all 0 when empty).
inline llvm::SmallVector<mlir::Value>
getLineIndices(mlir::OpBuilder &b, mlir::Location loc,
               const LinearLayout &layout, unsigned axis,
               llvm::ArrayRef<RegisterGroup> groups, const ThreadIds &ids,
               llvm::ArrayRef<int64_t> lineShape) {
  if (lineShape.empty())
    return llvm::SmallVector<mlir::Value>(groups.size(),
                                          i32Constant(b, loc, 0));
  llvm::SmallVector<mlir::Value> threadCoordinate =
      getThreadCoordinate(b, loc, layout, ids);
  llvm::SmallVector<mlir::Value> indices;
  for (const RegisterGroup &group : groups) {
    llvm::SmallVector<mlir::Value> coordinate = getElementCoordinate(
        b, loc, layout, group.registers.front(), threadCoordinate);
    coordinate.erase(coordinate.begin() + axis);
    indices.push_back(linearize(b, loc, coordinate, lineShape));
  }
  return indices;
}

/// The number of register fields of a lowered tensor value (1 for a value
/// that is not a struct).
inline unsigned getNumFields(mlir::Type lowered) {
  if (auto structType = llvm::dyn_cast<mlir::LLVM::LLVMStructType>(lowered))
    return structType.getBody().size();
  return 1;
}

/// Per-operand shared-memory arrays of [slot][line] elements through which
/// warps hand partial results (one slot per warp position along the axis,
/// one line per output element of the axis), and each register group's
/// line index.
struct SlotArrays {
  llvm::SmallVector<mlir::Value> arrays;
  llvm::SmallVector<mlir::Value> lines;
  llvm::SmallVector<mlir::Type> elementTypes;
  int64_t numLines = 1;

  /// The element of `operand` for register group `group` in `slot` (i32).
  mlir::Value pointer(mlir::OpBuilder &b, mlir::Location loc, unsigned operand,
                      mlir::Value slot, unsigned group) const {
    mlir::Value index = mlir::LLVM::AddOp::create(
        b, loc,
        mlir::LLVM::MulOp::create(b, loc, slot, i32Constant(b, loc, numLines)),
        lines[group]);
    return getSharedElementPtr(b, loc, arrays[operand], elementTypes[operand],
                               index);
  }
};

inline SlotArrays
allocateSlotArrays(mlir::OpBuilder &b, mlir::Location loc, mlir::Operation *op,
                   llvm::ArrayRef<mlir::Type> elementTypes, unsigned numSlots,
                   const LinearLayout &layout, unsigned axis,
                   llvm::ArrayRef<RegisterGroup> groups, const ThreadIds &ids,
                   llvm::ArrayRef<int64_t> lineShape) {
  SlotArrays slots;
  slots.elementTypes.assign(elementTypes.begin(), elementTypes.end());
  for (int64_t size : lineShape)
    slots.numLines *= size;
  uint64_t bytes;
  llvm::SmallVector<uint64_t> offsets =
      layOutArrays(elementTypes, numSlots * slots.numLines, bytes);
  mlir::Value base = getSharedMemoryBase(b, loc, op, bytes);
  for (uint64_t offset : offsets)
    slots.arrays.push_back(offsetBytes(b, loc, base, offset));
  slots.lines = getLineIndices(b, loc, layout, axis, groups, ids, lineShape);
  return slots;
}

/// The one layout of a reduction's or scan's sources; an error at `op` (and
/// none) when they differ or the layout has no linear form.
inline std::optional<LinearLayout> getSourcesLayout(mlir::Operation *op,
                                                    mlir::ValueRange srcs) {
  auto srcType = llvm::cast<mlir::RankedTensorType>(srcs.front().getType());
  for (mlir::Value src : srcs)
    if (llvm::cast<mlir::RankedTensorType>(src.getType()).getEncoding() !=
        srcType.getEncoding()) {
      op->emitOpError("sources in different layouts cannot be lowered to NVVM");
      return std::nullopt;
    }
  return getLayout(op, srcType);
}

} // namespace tpx::gpu_lowering::reduce_scan

#endif // TPX_LIB_CONVERSION_TPXGPUTOLLVM_REDUCESCANUTILS_H
