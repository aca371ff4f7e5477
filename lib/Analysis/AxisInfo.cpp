//===- AxisInfo.cpp - the AxisInfo lattice and its dataflow driver --------===//
//
// The lattice operations and the glue to MLIR's sparse forward dataflow
// framework. The per-op rules live in AxisInfoTransfer.cpp; region and
// branch control flow (scf.for/if/while, cf.br/cond_br, calls) is joined by
// the framework, which is why AxisInfo::join must be a true join: the
// framework only ever joins new facts into a value's state, so a value in a
// loop starts from what enters the loop and loses facts until the
// back-edge no longer changes it.
//
//===----------------------------------------------------------------------===//
#include "tpx/Analysis/AxisInfo.h"

#include "AxisInfoTransfer.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::axis_info;

//===----------------------------------------------------------------------===//
// AxisInfo
//===----------------------------------------------------------------------===//

AxisInfo AxisInfo::getPessimistic(ArrayRef<int64_t> shape, int64_t step) {
  AxisInfo info;
  info.contiguity.assign(shape.size(), 1);
  info.divisibility.assign(shape.size(), 1);
  info.constancy.assign(shape.size(), 1);
  info.step = step;
  return info;
}

AxisInfo AxisInfo::getUniform(ArrayRef<int64_t> shape, int64_t divisibility,
                              std::optional<int64_t> constant, bool nonNegative,
                              int64_t step) {
  AxisInfo info;
  info.contiguity.assign(shape.size(), 1);
  info.divisibility.assign(
      shape.size(), std::clamp<int64_t>(divisibility, 1, kMaxDivisibility));
  info.constancy.assign(shape.begin(), shape.end());
  info.constant = constant;
  info.nonNegative = nonNegative || (constant && *constant >= 0);
  info.step = step;
  return info;
}

int64_t AxisInfo::getDivisibilityAt(unsigned dim, int64_t length,
                                    int64_t stepBytes) const {
  // Runs of `length` starting at multiples of `length`: when they are at
  // least as long as the known runs, each starts a known run; otherwise the
  // start lies inside one, `j * length` steps after the run's start.
  if (length >= contiguity[dim])
    return divisibility[dim];
  int64_t offset = length * stepBytes;
  return std::min(divisibility[dim],
                  offset >= kMaxDivisibility ? kMaxDivisibility : offset);
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (lhs.isUninitialized())
    return rhs;
  if (rhs.isUninitialized())
    return lhs;
  int64_t step = std::max(lhs.step, rhs.step);
  if (lhs.getRank() != rhs.getRank())
    return getPessimistic(SmallVector<int64_t>(lhs.getRank(), 1), step);
  AxisInfo info;
  info.step = step;
  for (unsigned d = 0; d < lhs.getRank(); ++d) {
    // Both sides' facts hold for the shorter runs; what a side says of the
    // start of those runs may be less than of its own (longer) runs.
    int64_t contiguity = std::min(lhs.contiguity[d], rhs.contiguity[d]);
    info.contiguity.push_back(contiguity);
    info.constancy.push_back(std::min(lhs.constancy[d], rhs.constancy[d]));
    info.divisibility.push_back(
        std::min(lhs.getDivisibilityAt(d, contiguity, step),
                 rhs.getDivisibilityAt(d, contiguity, step)));
  }
  if (lhs.constant == rhs.constant)
    info.constant = lhs.constant;
  info.nonNegative = lhs.nonNegative && rhs.nonNegative;
  return info;
}

bool AxisInfo::operator==(const AxisInfo &other) const {
  return contiguity == other.contiguity && divisibility == other.divisibility &&
         constancy == other.constancy && constant == other.constant &&
         nonNegative == other.nonNegative && step == other.step;
}

void AxisInfo::print(raw_ostream &os) const {
  if (isUninitialized()) {
    os << "<uninitialized>";
    return;
  }
  auto list = [&](ArrayRef<int64_t> values) {
    os << '[';
    llvm::interleaveComma(values, os);
    os << ']';
  };
  os << "contiguity = ";
  list(contiguity);
  os << ", divisibility = ";
  list(divisibility);
  os << ", constancy = ";
  list(constancy);
}

//===----------------------------------------------------------------------===//
// Hints
//===----------------------------------------------------------------------===//

/// The values of a hint attribute, one per dimension of a rank-`rank`
/// value: Triton writes `dense<16> : tensor<1xi32>` (or one value per
/// dimension) on ops and a plain integer on function arguments. A single
/// value applies to every dimension.
static std::optional<SmallVector<int64_t, 4>> getHint(Attribute attr,
                                                      unsigned rank) {
  SmallVector<int64_t, 4> values;
  if (auto integer = dyn_cast_or_null<IntegerAttr>(attr)) {
    values.push_back(integer.getValue().getSExtValue());
  } else if (auto dense = dyn_cast_or_null<DenseIntElementsAttr>(attr)) {
    for (const APInt &value : dense)
      values.push_back(value.getSExtValue());
  } else if (auto array = dyn_cast_or_null<DenseI64ArrayAttr>(attr)) {
    llvm::append_range(values, array.asArrayRef());
  } else {
    return std::nullopt;
  }
  if (values.size() == 1 && rank > 1)
    values.assign(rank, values.front());
  if (values.size() != rank ||
      llvm::any_of(values, [](int64_t value) { return value <= 0; }))
    return std::nullopt;
  return values;
}

/// Triton's hints are promises of the program (tl.multiple_of,
/// tl.max_contiguous, tl.max_constancy, the launcher's argument
/// specialization): they replace what the analysis derived.
static void applyHints(AxisInfo &info, ArrayRef<int64_t> shape,
                       Attribute divisibility, Attribute contiguity,
                       Attribute constancy) {
  unsigned rank = info.getRank();
  if (auto values = getHint(divisibility, rank))
    for (unsigned d = 0; d < rank; ++d)
      info.divisibility[d] = highestPowerOf2Divisor((*values)[d]);
  if (auto values = getHint(contiguity, rank))
    for (unsigned d = 0; d < rank; ++d)
      info.contiguity[d] = int64_t(1) << llvm::Log2_64((*values)[d]);
  if (auto values = getHint(constancy, rank))
    for (unsigned d = 0; d < rank; ++d)
      info.constancy[d] = int64_t(1) << llvm::Log2_64((*values)[d]);
  normalize(info, shape);
}

/// Applies the hints of `value` when it is a scalar argument of a function
/// that carries them; returns whether it is such an argument.
static bool applyArgumentHints(AxisInfo &info, Value value) {
  // Triton specializes scalar arguments only; what a hint on a tensor
  // argument would mean per dimension is not defined.
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock() ||
      isa<RankedTensorType>(value.getType()))
    return false;
  auto function = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!function || &function.getFunctionBody() != arg.getParentRegion())
    return false;
  unsigned index = arg.getArgNumber();
  Attribute divisibility = function.getArgAttr(index, "tt.divisibility");
  Attribute contiguity = function.getArgAttr(index, "tt.contiguity");
  Attribute constancy = function.getArgAttr(index, "tt.constancy");
  if (!divisibility && !contiguity && !constancy)
    return false;
  applyHints(info, getShape(value.getType()), divisibility, contiguity,
             constancy);
  return true;
}

AxisInfo AxisInfo::getEntryState(Value value) {
  AxisInfo info =
      getPessimistic(getShape(value.getType()), getStep(value.getType()));
  applyArgumentHints(info, value);
  return info;
}

//===----------------------------------------------------------------------===//
// AxisInfoLattice
//===----------------------------------------------------------------------===//

ChangeResult AxisInfoLattice::join(const dataflow::AbstractSparseLattice &rhs) {
  return join(static_cast<const AxisInfoLattice &>(rhs).getValue());
}

ChangeResult AxisInfoLattice::join(const AxisInfo &rhs) {
  // What the call sites of a private function pass is joined into its
  // arguments by the framework, bypassing the entry state; the hints still
  // replace what they speak about.
  AxisInfo before = getValue();
  AxisInfo joined = AxisInfo::join(before, rhs);
  if (!joined.isUninitialized())
    applyArgumentHints(joined, getAnchor());
  if (joined == before)
    return ChangeResult::NoChange;
  getValue() = std::move(joined);
  return ChangeResult::Change;
}

//===----------------------------------------------------------------------===//
// AxisInfoAnalysis
//===----------------------------------------------------------------------===//

void AxisInfoAnalysis::setToEntryState(AxisInfoLattice *lattice) {
  propagateIfChanged(
      lattice, lattice->join(AxisInfo::getEntryState(lattice->getAnchor())));
}

LogicalResult
AxisInfoAnalysis::visitOperation(Operation *op,
                                 ArrayRef<const AxisInfoLattice *> operands,
                                 ArrayRef<AxisInfoLattice *> results) {
  // An operand nothing has reached yet (a loop's back-edge value on the
  // first visit of the body, say) would only make the result look worse
  // than it is; the framework visits again once it is set.
  SmallVector<const AxisInfo *> infos;
  for (const AxisInfoLattice *operand : operands) {
    if (operand->getValue().isUninitialized())
      return success();
    infos.push_back(&operand->getValue());
  }
  std::optional<AxisInfo> info = transfer(op, infos);
  for (AxisInfoLattice *result : results) {
    Type type = result->getAnchor().getType();
    SmallVector<int64_t, 4> shape = getShape(type);
    AxisInfo resultInfo =
        info ? *info : AxisInfo::getPessimistic(shape, getStep(type));
    applyHints(resultInfo, shape, op->getDiscardableAttr("tt.divisibility"),
               op->getDiscardableAttr("tt.contiguity"),
               op->getDiscardableAttr("tt.constancy"));
    propagateIfChanged(result, result->join(resultInfo));
  }
  return success();
}

void AxisInfoAnalysis::visitNonControlFlowArguments(
    Operation *op, const RegionSuccessor &successor,
    ArrayRef<AxisInfoLattice *> argLattices, unsigned firstIndex) {
  auto loop = dyn_cast<scf::ForOp>(op);
  if (!loop || successor.getSuccessor() != &loop.getRegion() || firstIndex != 1)
    return SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
        op, successor, argLattices, firstIndex);
  // The induction variable is lb + i * step: a multiple of whatever divides
  // both (and not negative when neither is).
  ProgramPoint *point = getProgramPointAfter(op);
  const AxisInfo &lower =
      getLatticeElementFor(point, loop.getLowerBound())->getValue();
  const AxisInfo &step =
      getLatticeElementFor(point, loop.getStep())->getValue();
  if (lower.isUninitialized() || step.isUninitialized())
    return;
  AxisInfo iv = AxisInfo::getPessimistic({1});
  iv.divisibility[0] = std::min(lower.getElementDivisibility(0, 1),
                                step.getElementDivisibility(0, 1));
  iv.nonNegative = lower.nonNegative && step.nonNegative;
  propagateIfChanged(argLattices.front(), argLattices.front()->join(iv));
}

//===----------------------------------------------------------------------===//
// AxisInfoResults
//===----------------------------------------------------------------------===//

AxisInfoResults::AxisInfoResults(Operation *root) {
  // The framework needs both: dead-code analysis decides which blocks and
  // region successors are live, and it asks constant propagation for the
  // conditions of branches.
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<AxisInfoAnalysis>();
  solved = mlir::succeeded(solver.initializeAndRun(root));
}

AxisInfo AxisInfoResults::getAxisInfo(Value value) const {
  const auto *lattice = solver.lookupState<AxisInfoLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return AxisInfo::getPessimistic(getShape(value.getType()),
                                    getStep(value.getType()));
  return lattice->getValue();
}
