//===- TLXLowerToTPXGPU.h - tlx-lower-to-tpxgpu -----------------*- C++ -*-===//
#ifndef TPX_TLX_TLXLOWERTOTPXGPU_H
#define TPX_TLX_TLXLOWERTOTPXGPU_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace tpx::tlx {
/// Rewrites every tlx op of `module` (whose tensors convert-tt-to-tpxgpu has
/// placed, bracketing the tlx ops' tensors with unrealized casts) into
/// tpxgpu ops for an NVIDIA GPU with wgmma (sm_90a), and places the
/// barriers and proxy fences TLX leaves to the compiler. Emits a diagnostic
/// naming the op and fails on anything not lowered yet.
mlir::LogicalResult lowerToTPXGPU(mlir::ModuleOp module);

/// Why tlx-lower-to-tpxgpu cannot take `op` (a tlx op), or empty. The same
/// check the pass reports as an error.
std::string getUnsupportedReason(mlir::Operation *op);
} // namespace tpx::tlx

#endif // TPX_TLX_TLXLOWERTOTPXGPU_H
