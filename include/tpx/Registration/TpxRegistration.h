//===- TpxRegistration.h - dialects and passes tpx tools know ---*- C++ -*-===//
#ifndef TPX_REGISTRATION_TPXREGISTRATION_H
#define TPX_REGISTRATION_TPXREGISTRATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tpx {

/// The tt dialect plus the upstream dialects tpx lowers through: arith, math,
/// scf, cf, ub, func, gpu, llvm, nvvm, nvgpu, rocdl, amdgpu, vector, memref.
void registerTpxDialects(mlir::DialectRegistry &registry);

/// Upstream passes and tpx's own passes, for textual pipelines and flags.
void registerTpxPasses();

} // namespace tpx

#endif // TPX_REGISTRATION_TPXREGISTRATION_H
