//===- Float8Encoding.h - f32 to float8 bits in integer arithmetic -*- C++ -*-//
#ifndef TPX_CONVERSION_FLOAT8ENCODING_H
#define TPX_CONVERSION_FLOAT8ENCODING_H

#include "mlir/IR/Builders.h"

namespace tpx {

/// Encodes the scalar f32 `value` as the i8 bits of the float8 `type`
/// (f8E4M3FN or f8E5M2) with arith ops: rounding to nearest even or toward
/// zero, saturating finite overflow to the largest finite value (rtz keeps
/// an infinity where the format has one), every NaN to the canonical
/// positive NaN, as the GPU's cvt.rn.satfinite does for rtne.
mlir::Value encodeFloat8(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::Value value, mlir::FloatType type,
                         bool towardZero);

/// The value of each of the 256 codes of the float8 `type`, as f32.
llvm::SmallVector<float> getFloat8Values(mlir::FloatType type);

} // namespace tpx

#endif // TPX_CONVERSION_FLOAT8ENCODING_H
