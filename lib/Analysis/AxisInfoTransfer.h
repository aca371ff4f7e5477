//===- AxisInfoTransfer.h - AxisInfo transfer functions (internal) --------===//
//
// The per-op rules of the AxisInfo analysis, kept apart from the dataflow
// driver (AxisInfo.cpp) so that each file does one thing.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_ANALYSIS_AXISINFOTRANSFER_H
#define TPX_LIB_ANALYSIS_AXISINFOTRANSFER_H

#include "tpx/Analysis/AxisInfo.h"

#include "mlir/IR/Types.h"

#include <optional>

namespace tpx::axis_info {

/// The shape the analysis gives a value: a tensor's, [1] for scalars.
llvm::SmallVector<int64_t, 4> getShape(mlir::Type type);
/// How far a value moves per element of a contiguous run: the pointee's
/// bytes for (tensors of) pointers, 1 for integers.
int64_t getStep(mlir::Type type);
/// The largest power of two dividing `value` (kMaxDivisibility for 0).
int64_t highestPowerOf2Divisor(int64_t value);
/// Clamps every fact to the shape and the lattice's range.
void normalize(AxisInfo &info, llvm::ArrayRef<int64_t> shape);

/// The facts of the single result of `op` from those of its operands (all
/// initialized); std::nullopt where nothing is known (the pessimistic
/// state). The result is normalized and carries the result type's step.
std::optional<AxisInfo> transfer(mlir::Operation *op,
                                 llvm::ArrayRef<const AxisInfo *> operands);

} // namespace tpx::axis_info

#endif // TPX_LIB_ANALYSIS_AXISINFOTRANSFER_H
