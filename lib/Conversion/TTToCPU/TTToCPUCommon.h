//===- TTToCPUCommon.h - shared pieces of the tt -> CPU lowering -*- C++ -*-===//
//
// Internal to lib/Conversion/TTToCPU. The lowering keeps tensors as tensors
// (bufferized later by upstream passes) and turns every tt pointer into an
// i64 address, so that tensors of pointers are tensors of integers, which
// bufferize like any other tensor.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_CONVERSION_TTTOCPU_TTTOCPUCOMMON_H
#define TPX_LIB_CONVERSION_TTTOCPU_TTTOCPUCOMMON_H

#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tpx::cpu {

/// tt types to host types: `!tt.ptr<T>` -> i64; tensors keep their shape
/// with converted elements; a block pointer becomes (base i64, shape i64 x r,
/// strides i64 x r, offsets i32 x r); a tensor descriptor becomes
/// (base i64, shape i32 x r, strides i64 x r).
class CPUTypeConverter : public mlir::TypeConverter {
public:
  explicit CPUTypeConverter(mlir::MLIRContext *context);
};

/// The scalar parts of a converted block pointer.
struct BlockPointerParts {
  mlir::Value base;
  llvm::SmallVector<mlir::Value> shape, strides, offsets;
  static BlockPointerParts fromValues(mlir::ValueRange parts, unsigned rank);
  llvm::SmallVector<mlir::Value> flatten() const;
};

/// The scalar parts of a converted tensor descriptor.
struct TensorDescParts {
  mlir::Value base;
  llvm::SmallVector<mlir::Value> shape, strides;
  static TensorDescParts fromValues(mlir::ValueRange parts, unsigned rank);
};

/// Body of a loop nest: given induction variables and the current iteration
/// values, returns the next iteration values.
using LoopNestBody = llvm::function_ref<llvm::SmallVector<mlir::Value>(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange ivs,
    mlir::ValueRange iterValues)>;

/// Builds a perfect scf.for nest over the static `shape` carrying
/// `initValues`; returns the values after the last iteration. A rank-0 shape
/// runs the body once.
llvm::SmallVector<mlir::Value> buildLoopNest(mlir::OpBuilder &builder,
                                             mlir::Location loc,
                                             llvm::ArrayRef<int64_t> shape,
                                             mlir::ValueRange initValues,
                                             LoopNestBody body);

/// The value of `type` whose element at `ivs` is `elementFn(ivs)`: for a
/// tensor a loop nest inserting each element in row-major order (side
/// effects of `elementFn` happen once per element, in order); for a scalar
/// `elementFn` with no indices.
mlir::Value buildFromElements(
    mlir::OpBuilder &builder, mlir::Location loc, mlir::Type type,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::ValueRange ivs)>
        elementFn);

/// Applies `scalarFn` elementwise. With a tensor `resultType` this builds a
/// linalg.generic over `inputs` (tensors of that shape or scalars, which are
/// broadcast); with a scalar type it calls `scalarFn` on the scalars.
mlir::Value mapElementwise(
    mlir::OpBuilder &builder, mlir::Location loc, mlir::Type resultType,
    mlir::ValueRange inputs,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::ValueRange)>
        scalarFn);

/// The element of `value` at `ivs` (tensor.extract), or `value` itself if it
/// is a scalar.
mlir::Value extractElement(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value value, mlir::ValueRange ivs);

/// tensor.empty of the given tensor type (without encoding).
mlir::Value createEmptyTensor(mlir::OpBuilder &builder, mlir::Location loc,
                              mlir::RankedTensorType type);

/// Size in bytes of one element of `type` as it lives in memory.
int64_t getElementByteSize(mlir::Type type);

/// Converts an i64 address into an `!llvm.ptr`.
mlir::Value toLLVMPointer(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Value address);

/// Creates index constants / converts an index to i64 or i32.
mlir::Value indexToInt(mlir::OpBuilder &builder, mlir::Location loc,
                       mlir::Value index, mlir::Type intType);

/// The memory type used to load/store an element of `type`: float8 types
/// live in memory as i8.
mlir::Type getMemoryType(mlir::Type type);

/// The zero of a scalar integer, float or (i64) pointer type.
mlir::Value createZero(mlir::OpBuilder &builder, mlir::Location loc,
                       mlir::Type type);

/// Options of the lowering that patterns need.
/// On a memory access whose pointer may come from an integer or from
/// memory (PointerProvenance.cpp): the bounds check, which knows the buffer
/// arguments only, skips it.
constexpr const char *kUncheckedProvenanceAttr = "tpx.unchecked-provenance";

/// Marks the accesses of `module` the bounds check cannot judge.
void markUncheckedAccesses(mlir::ModuleOp module);

struct CPULoweringOptions {
  /// Guard every element access with a runtime bounds check.
  bool boundsCheck = false;
};

/// A conversion pattern that knows the lowering options.
template <typename OpTy>
struct CPUConversionPattern : public mlir::OpConversionPattern<OpTy> {
  CPUConversionPattern(const mlir::TypeConverter &converter,
                       mlir::MLIRContext *context,
                       const CPULoweringOptions &options)
      : mlir::OpConversionPattern<OpTy>(converter, context), options(options) {}
  CPULoweringOptions options;
};

/// The six trailing grid arguments (pid x/y/z, programs x/y/z) of the
/// function enclosing `op`.
llvm::SmallVector<mlir::Value> getGridArguments(mlir::Operation *op);

/// Declares the runtime function `name` of `type` in the module of `op`'s
/// builder insertion point, once.
void declareRuntimeFunction(mlir::OpBuilder &builder, mlir::ModuleOp module,
                            llvm::StringRef name, mlir::FunctionType type);

// Pattern groups, one per op family.
void populateFunctionPatterns(CPUTypeConverter &converter,
                              mlir::RewritePatternSet &patterns);
void populateElementwisePatterns(CPUTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
void populateShapePatterns(CPUTypeConverter &converter,
                           mlir::RewritePatternSet &patterns);
void populateMemoryPatterns(CPUTypeConverter &converter,
                            mlir::RewritePatternSet &patterns,
                            const CPULoweringOptions &options);
void populateBlockPointerPatterns(CPUTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns,
                                  const CPULoweringOptions &options);
void populateDotPatterns(CPUTypeConverter &converter,
                         mlir::RewritePatternSet &patterns);
void populateCombinePatterns(CPUTypeConverter &converter,
                             mlir::RewritePatternSet &patterns);
void populateDebugPatterns(CPUTypeConverter &converter,
                           mlir::RewritePatternSet &patterns);

} // namespace tpx::cpu

#endif // TPX_LIB_CONVERSION_TTTOCPU_TTTOCPUCOMMON_H

namespace tpx::cpu {
/// Reshapes a tensor to `type` (same element count, row-major order):
/// collapses to 1-D and expands to the target shape as needed.
mlir::Value reshapeTensor(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Value tensor, mlir::RankedTensorType type);
} // namespace tpx::cpu
