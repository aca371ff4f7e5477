//===- AxisInfo.h - contiguity and alignment facts for memory accesses ----===//
//
// The global loads and stores of the SIMT lowering can move several
// registers with one vector instruction only when the addresses of those
// registers are consecutive and the first one is aligned to the whole
// vector. Those are facts about the values the TTIR computes, not about the
// layout, so a small dataflow analysis over the TTIR (before the dialect
// conversion rewrites it) derives them and attaches them to every global
// memory op, where the patterns read them.
//
// The lattice. Every integer or pointer value (a scalar is a tensor of shape
// [1]) gets, for each dimension d of its shape, three powers of two:
//
//  * contiguity[d] = c: cut dimension d into runs of c elements starting at
//    indices that are multiples of c; along each run the value grows by one
//    per element (by one pointee element, i.e. its size in bytes, for
//    pointers). c = 1 says nothing.
//  * divisibility[d] = D: the first element of every such run is a multiple
//    of D (bytes for pointers). With c = 1 that holds for every element.
//    Inside a run, the element at offset j is only known to be a multiple of
//    gcd(D, j * step), which is why shrinking c also shrinks what D means
//    (see AxisInfo::getDivisibilityAt).
//  * constancy[d] = k: along runs of k elements starting at multiples of k
//    the value does not change.
//
// Runs always start at multiples of their length, so a fact for a length
// also holds for any smaller power of two; the meet of two facts (what both
// guarantee, used at control-flow joins) takes the smaller lengths and the
// divisibility both give at the smaller runs. Unknown values get (1, 1, 1),
// the bottom. Besides the per-dimension facts a value may be a known integer
// constant (every element equal) and may be known not to be negative; the
// signed remainder and quotient need the latter to keep runs intact.
//
// Integer arithmetic is assumed not to overflow, as the TTIR's offsets are
// assumed to stay within their type.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_CONVERSION_TPXGPUTONVVM_AXISINFO_H
#define TPX_LIB_CONVERSION_TPXGPUTONVVM_AXISINFO_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Value.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tpx::gpu_lowering {

/// Discardable attributes annotateAxisInfo puts on tt.load, tt.store,
/// tt.atomic_rmw and tt.atomic_cas when their pointer is a tensor: the
/// pointer's facts (DenseI64ArrayAttr, one entry per dimension; the
/// divisibility in bytes) and the constancy of the mask, when there is one.
inline constexpr llvm::StringLiteral kContiguityAttr = "tpx.contiguity";
inline constexpr llvm::StringLiteral kDivisibilityAttr = "tpx.divisibility";
inline constexpr llvm::StringLiteral kConstancyAttr = "tpx.constancy";
inline constexpr llvm::StringLiteral kMaskConstancyAttr = "tpx.mask_constancy";

/// The largest divisibility the analysis records (that of 0); anything
/// larger only risks overflow.
inline constexpr int64_t kMaxDivisibility = int64_t(1) << 32;

struct AxisInfo {
  llvm::SmallVector<int64_t, 4> contiguity;
  llvm::SmallVector<int64_t, 4> divisibility;
  llvm::SmallVector<int64_t, 4> constancy;
  /// Every element equals this (integers only).
  std::optional<int64_t> constant;
  /// No element is negative (as a signed integer).
  bool nonNegative = false;

  unsigned getRank() const { return contiguity.size(); }

  /// Nothing known about a value of `shape`.
  static AxisInfo getPessimistic(llvm::ArrayRef<int64_t> shape);
  /// Every element equal, a multiple of `divisibility`.
  static AxisInfo getUniform(llvm::ArrayRef<int64_t> shape,
                             int64_t divisibility,
                             std::optional<int64_t> constant, bool nonNegative);

  /// The divisibility of the first element of every run of `length`
  /// elements along `dim`, for a value that steps by `step` (bytes of the
  /// pointee for pointers, 1 for integers) along contiguous runs.
  int64_t getDivisibilityAt(unsigned dim, int64_t length, int64_t step) const;
  /// The divisibility of every element (as if contiguity were 1) along `dim`.
  int64_t getElementDivisibility(unsigned dim, int64_t step) const {
    return getDivisibilityAt(dim, 1, step);
  }

  /// What both `a` and `b` guarantee (values of the same shape and step).
  static AxisInfo meet(const AxisInfo &a, const AxisInfo &b, int64_t step);

  bool operator==(const AxisInfo &other) const;
  bool operator!=(const AxisInfo &other) const { return !(*this == other); }
};

/// The analysis over one op (a module or function) and everything nested:
/// a forward walk in program order; loops iterate their bodies until the
/// facts of the loop-carried values stop shrinking.
class AxisInfoAnalysis {
public:
  explicit AxisInfoAnalysis(mlir::Operation *root);

  /// The facts of `value`; pessimistic for values the walk never reached.
  AxisInfo getAxisInfo(mlir::Value value) const;

private:
  void visitRegion(mlir::Region &region);
  void visitBlock(mlir::Block &block);
  void visitOperation(mlir::Operation *op);
  void visitFunction(mlir::Operation *function);
  void visitFor(mlir::Operation *op);
  void visitIf(mlir::Operation *op);
  /// Transfer function of an op without regions of interest.
  void visitSimple(mlir::Operation *op);
  void setPessimistic(mlir::ValueRange values);

  llvm::DenseMap<mlir::Value, AxisInfo> infos;
};

/// Runs the analysis on `module` and attaches kContiguityAttr,
/// kDivisibilityAttr, kConstancyAttr (and kMaskConstancyAttr when masked)
/// to every tt.load, tt.store, tt.atomic_rmw and tt.atomic_cas through a
/// tensor of pointers. Call it on the TTIR-with-layouts before the
/// conversion to NVVM: the memory patterns read the attributes and fall
/// back to one element per instruction where they are missing.
void annotateAxisInfo(mlir::ModuleOp module);

} // namespace tpx::gpu_lowering

#endif // TPX_LIB_CONVERSION_TPXGPUTONVVM_AXISINFO_H
