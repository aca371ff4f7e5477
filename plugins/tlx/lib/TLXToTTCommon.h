//===- TLXToTTCommon.h - what the tlx-lower-to-tt patterns share -*- C++
//-*-===//
//
// Internal to the TLX plugin: the buffers' strides, pointer tensors of a
// buffer's elements and the base of the conversion patterns.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_TLX_TLXTOTTCOMMON_H
#define TPX_TLX_TLXTOTTCOMMON_H

#include "TLX/TLXDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tpx::tlx {
// Internal to the plugin's lowering files, which all work in MLIR's terms.
using namespace mlir;
/// Buffers are shared memory (address space 3, as in Triton's TTIR): the CPU
/// target's bounds checks cover global memory only.
constexpr int kSharedAddressSpace = 3;

using Strides = SmallVector<int64_t, 4>;

inline Strides getRowMajorStrides(ArrayRef<int64_t> shape) {
  Strides strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// Element strides of every buffer value of the module, from the chain of
/// views that made it. Values that are not made by a view op (block
/// arguments) are row-major.
class BufferStrides {
public:
  LogicalResult compute(Operation *root) {
    WalkResult result = root->walk([&](Operation *op) {
      for (Value value : op->getResults())
        if (auto type = dyn_cast<BufferType>(value.getType()))
          if (failed(add(value, type)))
            return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  ArrayRef<int64_t> get(Value buffer) {
    auto it = strides.find(buffer);
    if (it != strides.end())
      return it->second;
    auto type = cast<BufferType>(buffer.getType());
    return strides.try_emplace(buffer, getRowMajorStrides(type.getShape()))
        .first->second;
  }

private:
  LogicalResult add(Value value, BufferType type) {
    Operation *op = value.getDefiningOp();
    Strides result;
    if (auto view = dyn_cast<LocalViewOp>(op)) {
      result.assign(get(view.getBuffers()).drop_front());
    } else if (auto trans = dyn_cast<LocalTransOp>(op)) {
      ArrayRef<int64_t> source = get(trans.getSrc());
      for (int32_t dim : trans.getOrder())
        result.push_back(source[dim]);
    } else if (auto slice = dyn_cast<LocalSliceOp>(op)) {
      result.assign(get(slice.getSrc()));
    } else if (auto reinterpret = dyn_cast<LocalReinterpretOp>(op)) {
      auto source = cast<BufferType>(reinterpret.getSrc().getType());
      if (get(reinterpret.getSrc()) !=
          ArrayRef<int64_t>(getRowMajorStrides(source.getShape())))
        return op->emitOpError("of a transposed or sliced view is not "
                               "supported; reinterpret the whole buffer");
      result = getRowMajorStrides(type.getShape());
    } else {
      result = getRowMajorStrides(type.getShape());
    }
    if (result != ArrayRef<int64_t>(getRowMajorStrides(type.getShape())))
      for (Operation *user : value.getUsers())
        if (!isa<TLXDialect>(user->getDialect()))
          return user->emitOpError("takes a transposed or sliced TLX view, "
                                   "which cannot be carried through control "
                                   "flow or calls on this target; take the "
                                   "view where it is used");
    strides[value] = std::move(result);
    return success();
  }

  DenseMap<Value, Strides> strides;
};

inline Value getI32Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
}

/// `base + index * stride` elements (a view of buffer `index`).
inline Value getIndexedPointer(OpBuilder &b, Location loc, Value base,
                               Value index, int64_t stride) {
  Value offset =
      arith::MulIOp::create(b, loc, index, getI32Constant(b, loc, stride));
  return tt::AddPtrOp::create(b, loc, base.getType(), base, offset);
}

inline Value getZeros(OpBuilder &b, Location loc, RankedTensorType type) {
  return arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
}

/// The tensor of pointers to every element of a buffer at `base` with
/// `strides`: base + sum over d of range(shape[d]) * strides[d].
inline Value getElementPointers(OpBuilder &b, Location loc, Value base,
                                ArrayRef<int64_t> shape,
                                ArrayRef<int64_t> strides) {
  unsigned rank = shape.size();
  Type i32 = b.getI32Type();
  auto full = RankedTensorType::get(shape, i32);
  Value offsets;
  for (unsigned d = 0; d < rank; ++d) {
    if (shape[d] == 1)
      continue;
    Value line =
        tt::MakeRangeOp::create(b, loc, RankedTensorType::get({shape[d]}, i32),
                                0, static_cast<uint32_t>(shape[d]));
    SmallVector<int64_t> current = {shape[d]};
    for (unsigned a = 0; a < rank; ++a) {
      if (a == d)
        continue;
      current.insert(current.begin() + a, 1);
      line =
          tt::ExpandDimsOp::create(b, loc, RankedTensorType::get(current, i32),
                                   line, b.getI32IntegerAttr(a));
    }
    if (rank > 1)
      line = tt::BroadcastOp::create(b, loc, full, line);
    if (strides[d] != 1)
      line = arith::MulIOp::create(
          b, loc, line,
          arith::ConstantOp::create(
              b, loc,
              DenseElementsAttr::get(full, b.getI32IntegerAttr(strides[d]))));
    offsets = offsets ? arith::AddIOp::create(b, loc, offsets, line) : line;
  }
  if (!offsets)
    offsets = getZeros(b, loc, full);
  auto pointers = RankedTensorType::get(shape, base.getType());
  return tt::AddPtrOp::create(
      b, loc, pointers, tt::SplatOp::create(b, loc, pointers, base), offsets);
}

/// What the patterns share: the buffers' strides.
template <typename Op> class TLXPattern : public OpConversionPattern<Op> {
public:
  TLXPattern(const TypeConverter &converter, MLIRContext *context,
             BufferStrides &strides)
      : OpConversionPattern<Op>(converter, context), strides(strides) {}

protected:
  /// Pointers to the elements of `buffer` (the original value; `base` is
  /// its converted pointer).
  Value getPointers(OpBuilder &b, Location loc, Value buffer,
                    Value base) const {
    auto type = cast<BufferType>(buffer.getType());
    return getElementPointers(b, loc, base, type.getShape(),
                              strides.get(buffer));
  }

  Value load(OpBuilder &b, Location loc, Value buffer, Value base) const {
    return tt::LoadOp::create(b, loc, getPointers(b, loc, buffer, base),
                              Value(), Value());
  }

  BufferStrides &strides;
};

/// `bytes` of the program's local memory as a `pointer` (a !tt.ptr in
/// address space 3): an llvm.alloca in the entry block of the function
/// holding `op` (static sizes: an allocation in a loop must not grow the
/// stack every iteration). Null outside a function.
Value allocateLocalMemory(OpBuilder &b, Operation *op, Type pointer,
                          int64_t bytes);

/// The runtime entry that starts a program's tasks.
constexpr const char *kRunTasks = "tpx_cpu_run_tasks";
/// The runtime entry that records local memory for a cluster's peers.
constexpr const char *kClusterRegister = "tpx_cpu_cluster_register";

/// A call of the runtime's cluster barrier at `loc` (its line names it in a
/// deadlock report).
void callClusterBarrier(mlir::OpBuilder &b, mlir::Location loc);

/// Declares the external runtime functions tlx ops on the CPU call (see
/// lib/Runtime/CPUTaskRuntime.cpp); symbol-dce drops the unused ones.
void declareCPURuntime(mlir::ModuleOp module);

/// Barriers, TMA copies, fences and clocks on the CPU.
void populateSyncToTTPatterns(const mlir::TypeConverter &converter,
                              mlir::RewritePatternSet &patterns,
                              BufferStrides &strides);

/// Moves each task of every tlx.async_tasks into a function of its own and
/// starts them concurrently through the CPU runtime (after the other tlx
/// ops were lowered).
mlir::LogicalResult outlineTasks(mlir::ModuleOp module);
} // namespace tpx::tlx

#endif // TPX_TLX_TLXTOTTCOMMON_H
