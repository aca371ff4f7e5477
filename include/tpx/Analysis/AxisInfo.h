//===- AxisInfo.h - contiguity, divisibility and constancy of values -----===//
//
// Vectorizing a memory access needs facts about the values the TTIR
// computes: are the addresses of neighbouring elements consecutive, and is
// the first of them aligned to the whole vector? Masks need the same kind of
// fact (is the mask the same over a vector?). This analysis derives them on
// MLIR's sparse forward dataflow framework, so that region control flow
// (scf.for/if/while) and CFG branches (cf.br/cond_br) are joined by the
// framework instead of by hand.
//
// The lattice. Every value (a scalar counts as a tensor of shape [1]) gets,
// for each dimension d of its shape, three powers of two:
//
//  * contiguity[d] = c: cut dimension d into runs of c elements starting at
//    indices that are multiples of c; along each run the value grows by one
//    per element (by one pointee element, i.e. `step` bytes, for pointers).
//  * divisibility[d] = D: the first element of every such run is a multiple
//    of D. For pointers D is in bytes (of the address), for integers in
//    units of the value. With c = 1 it holds for every element. Inside a run
//    the element at offset j is only known to be a multiple of
//    gcd(D, j * step): shrinking c shrinks D (getDivisibilityAt).
//  * constancy[d] = k: along runs of k elements starting at multiples of k
//    the value does not change.
//
// A fact for a run length also holds for every smaller power of two, so the
// join (what both sides guarantee, at control-flow merges) takes the smaller
// lengths and the divisibility both give at those lengths. The analysis
// starts optimistic (an uninitialized state, the framework's bottom) and
// only ever joins towards (1, 1, 1), the pessimistic top.
//
// Besides the per-dimension facts a value may be a known integer constant
// (every element equal) and may be known not to be negative; signed
// quotients and remainders need the latter to keep runs intact. Integer
// arithmetic is assumed not to overflow, as Triton assumes for offsets.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_ANALYSIS_AXISINFO_H
#define TPX_ANALYSIS_AXISINFO_H

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace tpx {

class AxisInfo {
public:
  /// The largest divisibility recorded (that of 0); more only risks
  /// overflow.
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 32;

  llvm::SmallVector<int64_t, 4> contiguity;
  llvm::SmallVector<int64_t, 4> divisibility;
  llvm::SmallVector<int64_t, 4> constancy;
  /// Every element equals this (integers only).
  std::optional<int64_t> constant;
  /// No element is negative (as a signed integer).
  bool nonNegative = false;
  /// How far the value moves per element of a contiguous run: the
  /// pointee's bytes for pointers, 1 for integers. The join needs it.
  int64_t step = 1;

  /// The uninitialized state: nothing has reached the value yet.
  AxisInfo() = default;

  bool isUninitialized() const { return contiguity.empty(); }
  unsigned getRank() const { return contiguity.size(); }

  /// Nothing known about a value of `shape`.
  static AxisInfo getPessimistic(llvm::ArrayRef<int64_t> shape,
                                 int64_t step = 1);
  /// Every element equal, a multiple of `divisibility`.
  static AxisInfo getUniform(llvm::ArrayRef<int64_t> shape,
                             int64_t divisibility,
                             std::optional<int64_t> constant, bool nonNegative,
                             int64_t step = 1);
  /// The pessimistic state of a value of `type`, with Triton's hints
  /// (`tt.divisibility`, `tt.contiguity`, `tt.constancy`) when `value` is an
  /// argument of a function that carries them.
  static AxisInfo getEntryState(mlir::Value value);

  /// The divisibility of the first element of every run of `length`
  /// elements along `dim`, for a value that steps by `stepBytes` along its
  /// contiguous runs.
  int64_t getDivisibilityAt(unsigned dim, int64_t length,
                            int64_t stepBytes) const;
  int64_t getDivisibilityAt(unsigned dim, int64_t length) const {
    return getDivisibilityAt(dim, length, step);
  }
  /// The divisibility of every element (as if contiguity were 1).
  int64_t getElementDivisibility(unsigned dim, int64_t stepBytes) const {
    return getDivisibilityAt(dim, 1, stepBytes);
  }

  /// What both `lhs` and `rhs` guarantee; the uninitialized state is the
  /// identity.
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);

  bool operator==(const AxisInfo &other) const;
  bool operator!=(const AxisInfo &other) const { return !(*this == other); }

  /// `contiguity = [..], divisibility = [..], constancy = [..]`.
  void print(llvm::raw_ostream &os) const;
};

/// The lattice element of one value. Joining keeps Triton's argument hints
/// (`tt.divisibility`, `tt.contiguity`, `tt.constancy` on a function's
/// scalar arguments) in force: they are the program's promise, so a
/// private callee's argument that joins what its call sites pass still
/// gets what its hints say.
class AxisInfoLattice : public mlir::dataflow::Lattice<AxisInfo> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AxisInfoLattice)
  using Lattice::Lattice;

  mlir::ChangeResult
  join(const mlir::dataflow::AbstractSparseLattice &rhs) override;
  mlir::ChangeResult join(const AxisInfo &rhs);
};

/// The analysis proper. Load it into a DataFlowSolver together with
/// DeadCodeAnalysis and SparseConstantPropagation (the framework needs them
/// to know which blocks and region successors are live), or use
/// AxisInfoResults, which does that.
class AxisInfoAnalysis
    : public mlir::dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  mlir::LogicalResult
  visitOperation(mlir::Operation *op,
                 llvm::ArrayRef<const AxisInfoLattice *> operands,
                 llvm::ArrayRef<AxisInfoLattice *> results) override;

  void
  visitNonControlFlowArguments(mlir::Operation *op,
                               const mlir::RegionSuccessor &successor,
                               llvm::ArrayRef<AxisInfoLattice *> argLattices,
                               unsigned firstIndex) override;

  void setToEntryState(AxisInfoLattice *lattice) override;
};

/// The analysis run to a fixpoint over `root` and everything nested in it.
class AxisInfoResults {
public:
  explicit AxisInfoResults(mlir::Operation *root);

  /// Whether the solver reached a fixpoint (it fails only on malformed IR).
  bool converged() const { return solved; }

  /// The facts of `value`; pessimistic for values the analysis never
  /// reached (dead code).
  AxisInfo getAxisInfo(mlir::Value value) const;

private:
  mlir::DataFlowSolver solver;
  bool solved = false;
};

} // namespace tpx

#endif // TPX_ANALYSIS_AXISINFO_H
