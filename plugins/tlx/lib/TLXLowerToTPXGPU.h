//===- TLXLowerToTPXGPU.h - tlx-lower-to-tpxgpu -----------------*- C++ -*-===//
#ifndef TPX_TLX_TLXLOWERTOTPXGPU_H
#define TPX_TLX_TLXLOWERTOTPXGPU_H

#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace tpx::tlx {
/// Rewrites every tlx op of `module` (whose tensors convert-tt-to-tpxgpu has
/// placed, bracketing the tlx ops' tensors with unrealized casts) into
/// tpxgpu ops for an NVIDIA GPU with wgmma (sm_90a), and places the
/// barriers and proxy fences TLX leaves to the compiler. Emits a diagnostic
/// naming the op and fails on anything not lowered yet.
mlir::LogicalResult lowerToTPXGPU(mlir::ModuleOp module);

/// Places the barriers and proxy fences between the shared-memory accesses
/// of `func` that tlx-lower-to-tpxgpu produced (TLXPlaceBarriers.cpp).
void placeBarriers(tpx::tt::FuncOp func);

/// Why tlx-lower-to-tpxgpu cannot take `op` (a tlx op), or empty. The same
/// check the pass reports as an error.
std::string getUnsupportedReason(mlir::Operation *op);
} // namespace tpx::tlx

#endif // TPX_TLX_TLXLOWERTOTPXGPU_H
