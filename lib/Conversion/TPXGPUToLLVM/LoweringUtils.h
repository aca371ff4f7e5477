//===- LoweringUtils.h - shared pieces of the SIMT lowering (NVVM, ROCDL) ===//
//
// A tensor in a distributed layout becomes, in each thread, an
// `!llvm.struct<(T, T, ...)>` with one field per register of its linear
// layout (TPXGPULinearLayout.h): field r holds the element
// layout.apply(r, lane, warp). Patterns unpack operands into one Value per
// register, compute, and pack results. Everything that needs data from
// other threads goes through warp shuffles or the kernel's dynamic shared
// memory (scratch placed by tpxgpu-allocate-shared-memory, between
// barriers). tpxgpu.convert_layout itself only renames registers here: one
// that needs shared memory is local_alloc / local_load by then
// (tpxgpu-lower-layout-conversions).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_CONVERSION_TPXGPUTOLLVM_LOWERINGUTILS_H
#define TPX_LIB_CONVERSION_TPXGPUTOLLVM_LOWERINGUTILS_H

#include "tpx/Conversion/TPXGPUToLLVM/TPXGPUToLLVM.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPULinearLayout.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tpx::gpu_lowering {

using tpxgpu::Coordinate;
using tpxgpu::LinearLayout;

/// The symbol of the kernel's dynamic shared memory array.
inline constexpr llvm::StringLiteral kSharedMemorySymbol = "tpx_shared_memory";
/// Address spaces of NVPTX; AMDGPU numbers global memory and LDS alike.
inline constexpr unsigned kGlobalAddressSpace = 1;
inline constexpr unsigned kSharedAddressSpace = 3;

/// The type converter of the lowering: tensors in distributed layouts to
/// structs of registers, tt pointers to `!llvm.ptr<1>`, index to i64.
class TensorTypeConverter : public mlir::LLVMTypeConverter {
public:
  explicit TensorTypeConverter(mlir::MLIRContext *context);
};

/// The linear layout of a tensor type; emits an error at `op` (naming the
/// reason) when the layout is missing or unsupported.
std::optional<LinearLayout> getLayout(mlir::Operation *op,
                                      mlir::RankedTensorType type);

/// The scalar type a tensor element lowers to (pointer -> !llvm.ptr<1>).
mlir::Type convertElementType(mlir::Type elementType);

/// One Value per register of a lowered tensor (a struct) or {value} for a
/// scalar.
llvm::SmallVector<mlir::Value> unpack(mlir::OpBuilder &b, mlir::Location loc,
                                      mlir::Value lowered);
/// The struct of `structType` holding `values` in order.
mlir::Value pack(mlir::OpBuilder &b, mlir::Location loc, mlir::Type structType,
                 mlir::ValueRange values);

/// The number of registers of a lowered value (1 for scalars).
unsigned getNumRegisters(mlir::Type lowered);
/// Applies `build(registerIndex, operandsOfThatRegister)` to every register
/// of `op`'s operands (lowered; a scalar serves every register) and
/// replaces `op` (one result) with the packed results.
mlir::LogicalResult replacePerRegister(
    mlir::Operation *op, mlir::ValueRange operands,
    const mlir::TypeConverter &converter,
    mlir::ConversionPatternRewriter &rewriter,
    llvm::function_ref<mlir::Value(unsigned, llvm::ArrayRef<mlir::Value>)>
        build);

/// Constants.
mlir::Value i32Constant(mlir::OpBuilder &b, mlir::Location loc, int64_t v);
mlir::Value i64Constant(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// Whether the code the builder makes is for an AMD GPU (the enclosing
/// module's tpxgpu.target is gfx...): the few primitives that differ
/// between NVVM and ROCDL (ROCDLPrimitives.h) ask it.
bool targetsAMD(mlir::OpBuilder &b);
/// Threads per warp (wavefront) of the enclosing module: 32 or 64.
unsigned getWarpSize(mlir::OpBuilder &b);

/// This thread's lane and warp (i32), computed from tid.x.
struct ThreadIds {
  mlir::Value lane, warp;
};
ThreadIds getThreadIds(mlir::OpBuilder &b, mlir::Location loc);
/// tid.x as i32.
mlir::Value getThreadIdX(mlir::OpBuilder &b, mlir::Location loc);

/// The part of every element coordinate that depends on the thread: one
/// i32 per dimension, XOR of the lane and warp bases of the set bits.
llvm::SmallVector<mlir::Value> getThreadCoordinate(mlir::OpBuilder &b,
                                                   mlir::Location loc,
                                                   const LinearLayout &layout,
                                                   const ThreadIds &ids);
/// The coordinate (i32 per dimension) of the element in `reg`, given the
/// thread part from getThreadCoordinate.
llvm::SmallVector<mlir::Value>
getElementCoordinate(mlir::OpBuilder &b, mlir::Location loc,
                     const LinearLayout &layout, unsigned reg,
                     llvm::ArrayRef<mlir::Value> threadCoordinate);

/// An i1 that is true in exactly one of the threads holding each element:
/// the lanes and warps whose replicated bits are zero. Null when nothing is
/// replicated across threads.
mlir::Value getUniqueOwnerPredicate(mlir::OpBuilder &b, mlir::Location loc,
                                    const LinearLayout &layout,
                                    const ThreadIds &ids);
/// Which thread acts for the elements of a value (stores, atomics, prints,
/// asserts): the unique owner of each element of a tensor in `layout`,
/// thread 0 for a scalar (no layout). Around a tpxgpu.warp_specialize that
/// needs more warps than the module's, the warps beyond the module's repeat
/// the first ones' elements: only the module's warps act. Null when every
/// thread acts.
mlir::Value getOwnerPredicate(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Operation *op,
                              const std::optional<LinearLayout> &layout);
/// True when `reg` is the first register holding its element (registers
/// with zero bases duplicate others).
bool isCanonicalRegister(const LinearLayout &layout, unsigned reg);

/// The start (`!llvm.ptr<3>`) of `user`'s bytes in the kernel's dynamic
/// shared memory: its `tpxgpu.shared-offset` (buffer or scratch, from
/// tpxgpu-allocate-shared-memory; 0 without one), and a record that the
/// kernel needs at least offset + `bytes` of it.
mlir::Value getSharedMemoryBase(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Operation *user, uint64_t bytes);
/// bar.sync 0 (AMD: s_barrier between workgroup fences): every thread of
/// the CTA (in a tpxgpu.warp_specialize
/// partition, lowerWarpSpecializations makes it the partition's barrier).
void emitBarrier(mlir::OpBuilder &b, mlir::Location loc);

/// Lowers the tpxgpu.warp_specialize ops the conversion left (their
/// partitions already lowered) to branches on the warp id
/// (WarpSpecializeLowering.cpp).
mlir::LogicalResult lowerWarpSpecializations(mlir::ModuleOp module);

/// `value` of the lane `lane ^ mask` (any 8..64-bit scalar or pointer).
mlir::Value shuffleXor(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value, unsigned mask);
/// `value` of lane `lane - delta` (lanes below `delta` get their own).
mlir::Value shuffleUp(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                      unsigned delta);
/// `value` of lane `srcLane` (an i32 value).
mlir::Value shuffleIndex(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value value, mlir::Value srcLane);

/// Two 16-bit values as the 32-bit register an MMA operand is made of:
/// `low` (the lower K or N index) in bits 0-15.
mlir::Value packHalves(mlir::OpBuilder &b, mlir::Location loc, mlir::Value low,
                       mlir::Value high);

/// Row-major linear index of a coordinate (i32 values) in `shape`.
mlir::Value linearize(mlir::OpBuilder &b, mlir::Location loc,
                      llvm::ArrayRef<mlir::Value> coordinate,
                      llvm::ArrayRef<int64_t> shape);

/// The bytes one element of `type` occupies in shared memory (i1 as a
/// byte, pointers as 8).
unsigned getSharedElementBytes(mlir::Type type);
/// The type a lowered element of `type` is kept as in shared memory: i1 as
/// i8 (a byte is the smallest addressable unit), pointers as i64; and the
/// conversions of a value to and from it.
mlir::Type getSharedStorageType(mlir::OpBuilder &b, mlir::Type type);
mlir::Value toSharedStorage(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value value, mlir::Type storage);
mlir::Value fromSharedStorage(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value value, mlir::Type type);

/// A bool in memory is a byte, and any non-zero byte is true (Triton's
/// semantics for loads through !tt.ptr<i1>).
mlir::Value nonZero(mlir::OpBuilder &b, mlir::Location loc,
                    mlir::Value integer);
/// An element as the integer it is in global memory (i1 as a byte,
/// pointers as i64, floats bitcast), and back.
mlir::Value toMemoryInteger(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value value);
mlir::Value fromMemoryInteger(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value value, mlir::Type type);

/// A tensor staged in an op's scratch in shared memory: row-major, each row
/// (the last dimension) padded by `rowPad` elements of `storage`.
struct SharedTile {
  mlir::Value base;
  mlir::Type storage;
  unsigned bytes = 0;
  llvm::SmallVector<int64_t> shape;
  int64_t rowPad = 0;

  /// The element `index` elements past the base.
  mlir::Value address(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Value index) const;
};
/// The tile of `shape` elements of `storage` (getSharedStorageType) at the
/// start of `op`'s scratch, rows padded by `rowPad`.
SharedTile getSharedTile(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Operation *op, mlir::Type storage,
                         llvm::ArrayRef<int64_t> shape, int64_t rowPad = 0);

/// Moves a tensor between layouts through shared memory: every register of
/// `values` (in `from`) is stored at the row-major index of
/// `fromToStorage(coordinate)` within `storageShape`, and every register of
/// `to` is read back from the row-major index of `toToStorage(coordinate)`.
/// Barriers before and after keep the buffer's other users apart.
/// `fromToStorage` and `toToStorage` map coordinates (as i32 Values).
using CoordinateMap = llvm::function_ref<llvm::SmallVector<mlir::Value>(
    llvm::ArrayRef<mlir::Value>)>;
llvm::SmallVector<mlir::Value> exchangeThroughSharedMemory(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Operation *user,
    mlir::ValueRange values, const LinearLayout &from, const LinearLayout &to,
    mlir::Type elementType, llvm::ArrayRef<int64_t> storageShape,
    CoordinateMap fromToStorage, CoordinateMap toToStorage);

/// Converts `values` from layout `from` to layout `to` (same shape) inside
/// another op's lowering (reductions and scans that regroup registers): a
/// register renaming when every thread already holds what it needs,
/// otherwise through `user`'s scratch shared memory ("barrier, store,
/// barrier, load"). tpxgpu.convert_layout ops do not come here: the ones
/// that need shared memory are local_alloc / local_load in the ttgir stage
/// (tpxgpu-lower-layout-conversions).
llvm::SmallVector<mlir::Value>
convertLayout(mlir::OpBuilder &b, mlir::Location loc, mlir::Operation *user,
              mlir::ValueRange values, const LinearLayout &from,
              const LinearLayout &to, mlir::Type elementType);

/// The registers of `to` taken from `values` (in `from`) when the
/// conversion needs no other thread's data; none otherwise.
std::optional<llvm::SmallVector<mlir::Value>>
renameRegisters(mlir::ValueRange values, const LinearLayout &from,
                const LinearLayout &to);

/// The address (`!llvm.ptr<3>`) of element (row, col) of a 2-D tile in
/// shared memory, for i32 row and column values.
using SharedAddressFn =
    llvm::function_ref<mlir::Value(mlir::Value row, mlir::Value col)>;

/// Reads an mma.sync operand of a 16-bit type (layout `to`, operand
/// `opIdx`: A stored [M, K], B stored [K, N]) with ldmatrix. Every 8
/// consecutive elements of a row that start at a multiple of 8 columns
/// must be 16 contiguous, 16-byte aligned bytes at `addressOf(row, col)`.
llvm::SmallVector<mlir::Value>
loadMmaOperandWithLdmatrix(mlir::OpBuilder &b, mlir::Location loc,
                           const LinearLayout &to, mlir::Type type,
                           unsigned opIdx, const ThreadIds &ids,
                           SharedAddressFn addressOf);

/// opIdx when a tensor of `type` can be read with ldmatrix: an mma.sync
/// (version 2) operand of a 16-bit type.
std::optional<unsigned> getLdmatrixOperand(mlir::RankedTensorType type);

/// How many registers of `layout`, from each multiple of the result, one
/// global access of `op` (a tt.load/tt.store or async copy) may move: a
/// run along one dimension within what its `tpxgpu.contiguity` proves and
/// 16 bytes (MemoryPatterns.cpp); 1 without the attribute.
unsigned getVectorWidth(mlir::Operation *op, const LinearLayout &layout,
                        unsigned elementBytes);

/// Builds the inline-PTX asm op `asmText` with `constraints`, returning its
/// result (null for none).
mlir::Value inlinePtx(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Type resultType, mlir::ValueRange operands,
                      llvm::StringRef asmText, llvm::StringRef constraints,
                      bool sideEffects);

/// Clones the single-block `region` (a tt.reduce/tt.scan combine region)
/// at the insertion point with `args` for its arguments and returns the
/// values its terminator yields.
llvm::SmallVector<mlir::Value> inlineCombineRegion(mlir::OpBuilder &b,
                                                   mlir::Region &region,
                                                   mlir::ValueRange args);

//===----------------------------------------------------------------------===//
// Pattern population (one file each)
//===----------------------------------------------------------------------===//
void populateElementwisePatterns(TensorTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
void populateShapePatterns(TensorTypeConverter &converter,
                           mlir::RewritePatternSet &patterns);
void populateMemoryPatterns(TensorTypeConverter &converter,
                            mlir::RewritePatternSet &patterns);
void populateSharedMemoryPatterns(TensorTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
void populateFloatConversionPatterns(TensorTypeConverter &converter,
                                     mlir::RewritePatternSet &patterns);
void populateBarrierTMAPatterns(TensorTypeConverter &converter,
                                mlir::RewritePatternSet &patterns);
void populateAsyncCopyPatterns(TensorTypeConverter &converter,
                               mlir::RewritePatternSet &patterns);
/// AMD's: direct-to-LDS loads and vmcnt waits (AMDAsyncCopyPatterns.cpp).
void populateAMDAsyncCopyPatterns(TensorTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
/// AMD's buffer loads and stores (BufferOpPatterns.cpp); on NVIDIA the ops
/// are reported as having no lowering.
void populateBufferOpPatterns(TensorTypeConverter &converter,
                              mlir::RewritePatternSet &patterns);
void populateReducePatterns(TensorTypeConverter &converter,
                            mlir::RewritePatternSet &patterns);
void populateScanPatterns(TensorTypeConverter &converter,
                          mlir::RewritePatternSet &patterns);
void populateSharedExchangePatterns(TensorTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
void populateDotPatterns(TensorTypeConverter &converter,
                         mlir::RewritePatternSet &patterns);
void populateWarpGroupDotPatterns(TensorTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
void populateFunctionPatterns(TensorTypeConverter &converter,
                              mlir::RewritePatternSet &patterns);
void populateInlineAsmPatterns(TensorTypeConverter &converter,
                               mlir::RewritePatternSet &patterns);
void populateDebugPatterns(TensorTypeConverter &converter,
                           mlir::RewritePatternSet &patterns);
/// Creates, before the conversion (patterns do not add module-level ops),
/// what the tt.print / tt.assert lowerings refer to: the vprintf and
/// __assertfail declarations and the format, prefix and message strings
/// (DebugPatterns.cpp). Fails, with a diagnostic, when the module uses
/// those names for something else.
mlir::LogicalResult declareDebugSymbols(mlir::ModuleOp module);

} // namespace tpx::gpu_lowering

#endif // TPX_LIB_CONVERSION_TPXGPUTOLLVM_LOWERINGUTILS_H
