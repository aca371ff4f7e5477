//===- SIMTLoweringInterface.h - plugin ops on the SIMT path ----*- C++ -*-===//
//
// A dialect that tpx's core does not know (a plugin's) can still take part
// in the SIMT code generator: its own pass, inserted into the `simt`
// pipeline by its pipeline extension right after convert-tt-to-tpxgpu,
// rewrites its ops into tpxgpu ops once every tensor has a layout. The
// dialect says so by registering this interface:
//
//   - the NVIDIA coverage check (findSIMTBlocker) asks it instead of
//     sending every op of the dialect to the one-thread path;
//   - convert-tt-to-tpxgpu leaves the dialect's ops (and their unencoded
//     tensor types, which the ops' verifiers know) as they are and brackets
//     their tensors with `builtin.unrealized_conversion_cast`: an operand is
//     cast from the layout its producer has to the unencoded type, a result
//     from the unencoded type to its default layout, so that the rest of the
//     module carries layouts and the dialect's pass finds both sides.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_DIALECT_TPXGPU_IR_SIMTLOWERINGINTERFACE_H
#define TPX_DIALECT_TPXGPU_IR_SIMTLOWERINGINTERFACE_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectInterface.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/TypeID.h"

#include <string>

namespace tpx::tpxgpu {

class SIMTLoweringDialectInterface
    : public mlir::DialectInterface::Base<SIMTLoweringDialectInterface> {
public:
  SIMTLoweringDialectInterface(mlir::Dialect *dialect) : Base(dialect) {}

  /// Why the SIMT pipeline cannot take `op` (an op of this dialect), to be
  /// named in the driver's remark; empty when the dialect's pass lowers it
  /// there. Types of the dialect are covered wherever their ops are; the
  /// builtin types of the op (tensors, their element types) are still
  /// checked as for any op.
  virtual std::string getUncoveredReason(mlir::Operation *op) const = 0;
};

/// The interface of `op`'s dialect, or null.
inline const SIMTLoweringDialectInterface *
getSIMTLoweringInterface(mlir::Operation *op) {
  mlir::Dialect *dialect = op->getDialect();
  return dialect
             ? dialect->getRegisteredInterface<SIMTLoweringDialectInterface>()
             : nullptr;
}

} // namespace tpx::tpxgpu

MLIR_DECLARE_EXPLICIT_TYPE_ID(tpx::tpxgpu::SIMTLoweringDialectInterface)

#endif // TPX_DIALECT_TPXGPU_IR_SIMTLOWERINGINTERFACE_H
