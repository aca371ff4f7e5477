//===- TLXLowerToTT.h - tlx-lower-to-tt -------------------------*- C++ -*-===//
#ifndef TPX_TLX_TLXLOWERTOTT_H
#define TPX_TLX_TLXLOWERTOTT_H

#include "mlir/IR/Operation.h"

namespace tpx::tlx {
/// Rewrites every tlx op under `root` as tt, arith and llvm ops with the
/// semantics of a program that completes each async operation at once (the
/// CPU target's lowering). Emits a diagnostic and fails on a view that
/// cannot be lowered. `numWarps` is the kernel's (it places the tasks that
/// tlx.thread_id reports).
mlir::LogicalResult lowerToTT(mlir::Operation *root, unsigned numWarps);

/// Replaces each tlx.function_address with the address of its llvm.func
/// (the CPU's task trampolines; after convert-func-to-llvm).
mlir::LogicalResult resolveFunctionAddresses(mlir::Operation *root);
} // namespace tpx::tlx

#endif // TPX_TLX_TLXLOWERTOTT_H
