//===- FP8Conversion.h - float conversions incl. software float8 -*- C++ -*-===//
#ifndef TPX_LIB_CONVERSION_TTTOCPU_FP8CONVERSION_H
#define TPX_LIB_CONVERSION_TTTOCPU_FP8CONVERSION_H

#include "mlir/IR/Builders.h"

namespace tpx::cpu {

/// Converts scalar `value` from `srcType` to `dstType` on the host. float8
/// values are carried as i8 bit patterns (LLVM has no 8-bit float), so
/// conversions from them decode through a 256-entry table and conversions to
/// them encode in integer arithmetic, rounding to nearest even (or toward
/// zero) and saturating to the largest finite value as the GPU's
/// `satfinite` conversions do. NaN stays NaN.
mlir::Value convertFloat(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::Value value, mlir::FloatType srcType,
                         mlir::FloatType dstType, bool towardZero);

/// Decodes an i8-carried float8 of `type` to f32.
mlir::Value decodeFloat8(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::Value bits, mlir::FloatType type);

} // namespace tpx::cpu

#endif // TPX_LIB_CONVERSION_TTTOCPU_FP8CONVERSION_H
