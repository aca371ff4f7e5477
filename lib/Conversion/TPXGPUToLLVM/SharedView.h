//===- SharedView.h - addressing memdescs in the NVVM lowering -*- C++ -*-===//
//
// A lowered memdesc is an `!llvm.ptr<3>` (SharedMemoryPatterns.cpp says
// the convention); SharedView pairs it with the allocation's address map so
// that the patterns writing or reading shared memory (local_* and async
// copies) compute element addresses and access widths the same way.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_CONVERSION_TPXGPUTOLLVM_SHAREDVIEW_H
#define TPX_LIB_CONVERSION_TPXGPUTOLLVM_SHAREDVIEW_H

#include "LoweringUtils.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUSharedLayout.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace tpx::gpu_lowering {
using mlir::ArrayRef;
using mlir::FailureOr;
using mlir::Location;
using mlir::OpBuilder;
using tpxgpu::MemDescType;
using tpxgpu::SharedLayout;
namespace LLVM = mlir::LLVM;

/// LLVM arithmetic on i32 for SharedLayout::emitByteOffset, folding the
/// constant operands the offset function produces (zero rows, unit
/// strides) so the emitted code stays small.
struct LLVMOffsetOps {
  using Value = mlir::Value;
  OpBuilder &b;
  Location loc;

  std::optional<int64_t> constantOf(Value v) {
    if (auto c = v.getDefiningOp<LLVM::ConstantOp>())
      if (auto attr = mlir::dyn_cast<mlir::IntegerAttr>(c.getValue()))
        return attr.getInt();
    return std::nullopt;
  }
  Value constant(int64_t v) { return i32Constant(b, loc, v); }
  Value add(Value x, Value y) {
    auto cx = constantOf(x), cy = constantOf(y);
    if (cx && cy)
      return constant(*cx + *cy);
    if (cx && *cx == 0)
      return y;
    if (cy && *cy == 0)
      return x;
    return LLVM::AddOp::create(b, loc, x, y);
  }
  Value mul(Value x, int64_t c) {
    if (auto cx = constantOf(x))
      return constant(*cx * c);
    if (c == 1)
      return x;
    if (c == 0)
      return constant(0);
    return LLVM::MulOp::create(b, loc, x, constant(c));
  }
  Value shr(Value x, unsigned s) {
    if (auto cx = constantOf(x))
      return constant(*cx >> s);
    return s ? LLVM::LShrOp::create(b, loc, x, constant(s)) : x;
  }
  Value shl(Value x, unsigned s) {
    if (auto cx = constantOf(x))
      return constant(*cx << s);
    return s ? LLVM::ShlOp::create(b, loc, x, constant(s)) : x;
  }
  Value mask(Value x, int64_t m) {
    if (auto cx = constantOf(x))
      return constant(*cx & m);
    if (m == 0)
      return constant(0);
    return LLVM::AndOp::create(b, loc, x, constant(m));
  }
  Value bitXor(Value x, Value y) {
    auto cx = constantOf(x), cy = constantOf(y);
    if (cx && cy)
      return constant(*cx ^ *cy);
    if (cx && *cx == 0)
      return y;
    if (cy && *cy == 0)
      return x;
    return LLVM::XOrOp::create(b, loc, x, y);
  }
};

/// A memdesc as the lowering sees it: its address map and pointer.
struct SharedView {
  SharedLayout layout;
  MemDescType type;
  mlir::Value pointer;

  /// The address of view element `coordinate` (i32 values).
  mlir::Value address(OpBuilder &b, Location loc,
                      ArrayRef<mlir::Value> coordinate) const {
    llvm::SmallVector<mlir::Value> full;
    unsigned dropped = layout.getAllocShape().size() - coordinate.size();
    for (unsigned d = 0; d < dropped; ++d)
      full.push_back(i32Constant(b, loc, 0));
    full.append(coordinate.begin(), coordinate.end());
    LLVMOffsetOps ops{b, loc};
    mlir::Value offset = layout.emitByteOffset(ops, full);
    return LLVM::GEPOp::create(b, loc, pointer.getType(), b.getI8Type(),
                               pointer, ArrayRef<LLVM::GEPArg>{offset});
  }
  /// The byte distance from register 0's element to register `reg`'s in
  /// layout `regs` (of this view's shape) when it is the same in every
  /// thread, checked over all lanes and warps. NVMMA swizzles XOR only
  /// address bits the register part leaves alone (rows 8 apart share their
  /// swizzle), so a thread's copies are then one address plus constants,
  /// which the backend folds into immediate offsets.
  std::optional<int64_t> getConstantDistance(const LinearLayout &regs,
                                             unsigned reg) const;
  /// The address of register `reg`'s element of `regs` in this thread
  /// (`thread`: getThreadCoordinate): register 0's address plus the
  /// constant distance where there is one, else its own address. `first`
  /// caches register 0's address across calls (null before the first).
  mlir::Value registerAddress(OpBuilder &b, Location loc,
                              const LinearLayout &regs, unsigned reg,
                              ArrayRef<mlir::Value> thread,
                              mlir::Value &first) const;
  /// The view dimension that is contiguous in memory, if the view has it.
  std::optional<unsigned> contiguousDim() const {
    unsigned dropped = layout.getAllocShape().size() - type.getRank();
    unsigned dim = layout.getContiguousDim();
    if (dim < dropped)
      return std::nullopt;
    return dim - dropped;
  }
};

/// The view of `memdesc` (lowered to `pointer`); an error on `op` when its
/// layout has no address map.
FailureOr<SharedView> getView(mlir::Operation *op, mlir::Value memdesc,
                              mlir::Value pointer);

/// Elements per access: a run of registers that hold consecutive elements
/// along the contiguous dimension and are consecutive in memory, at most 16
/// bytes, and aligned to its size.
unsigned getAccessWidth(const SharedView &view, const LinearLayout &regs,
                        unsigned bytes);

/// The byte stride between rows of a padded layout must keep accesses of
/// `width` elements aligned; shrink until it does.
unsigned alignToRows(const SharedView &view, unsigned width, unsigned bytes);

/// gfx950's transposing LDS reads (ds_read_b64_tr_b16,
/// AMDTransposedReads.cpp): the dimension the registers of `to` run along
/// when they can be read from `view` with them, else nothing (another chip,
/// not 16-bit elements, or a layout not made of 4 x 16 blocks).
std::optional<unsigned> getTransposedReadDim(mlir::Operation *op,
                                             const SharedView &view,
                                             const LinearLayout &to,
                                             mlir::Type element);
/// Reads every register of `to` from `view` with them.
llvm::SmallVector<mlir::Value>
loadWithTransposedReads(mlir::OpBuilder &b, mlir::Location loc,
                        const SharedView &view, const LinearLayout &to,
                        mlir::Type element, unsigned readDim,
                        const ThreadIds &ids);

/// What both vendors' async-copy lowerings check first: a zero (or no)
/// `other`, an addressable destination, a layout without replication
/// across threads (each owner would copy the element). The view and the
/// source's layout, or an error at `op` (AsyncCopyPatterns.cpp).
struct AsyncCopyOperands {
  SharedView view;
  LinearLayout layout;
};
FailureOr<AsyncCopyOperands>
getAsyncCopyOperands(mlir::Operation *op, mlir::Value other,
                     mlir::Value memdesc, mlir::Value loweredDst,
                     mlir::RankedTensorType srcType);

} // namespace tpx::gpu_lowering

#endif // TPX_LIB_CONVERSION_TPXGPUTOLLVM_SHAREDVIEW_H
