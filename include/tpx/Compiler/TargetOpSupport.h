//===- TargetOpSupport.h - what a target accepts, stage by stage -*- C++
//-*-===//
//
// A kernel is checked against what its target can compile before any pass
// runs, and every MLIR override file is checked the same way for the stage
// it replaces, so that foreign ops fail with an error naming the op and
// the target instead of deep in a lowering or inside LLVM (which would end
// the process). The rules, for every target alike:
//
//   ttir   tt, arith, math, scf, cf and ub ops, ops of dialects that loaded
//          plugins register (their passes lower them), and builtin.module;
//          no tensor of more than 2^20 elements (Triton's limit); no
//          atomics on i1; the kernel (the public function) returns nothing;
//          loops and ifs carrying tensors nested at most 16 deep.
//   ttgir  as ttir, plus tpxgpu (targets with a ttgir stage).
//   llir   the llvm dialect and the target's own (nvvm on NVIDIA, rocdl on
//          AMD; none on the CPU).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_COMPILER_TARGETOPSUPPORT_H
#define TPX_COMPILER_TARGETOPSUPPORT_H

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/Error.h"

namespace tpx {

/// Triton's limit on the elements of one tensor (TRITON_MAX_TENSOR_NUMEL).
constexpr int64_t kMaxTensorElements = int64_t(1) << 20;

/// The deepest nesting of loops and ifs that carry tensors: one-shot
/// bufferization's alias analysis takes time exponential in it (depth 16
/// compiles in about a second, 24 in over a minute).
constexpr unsigned kMaxTensorRegionNesting = 16;

/// Checks that `module` holds only what `stage` of `target` accepts as its
/// input (for ttir: the kernel) or output (an override). Stages without
/// rules (binary ones) accept anything. Each violation is reported as a
/// diagnostic at the op; the error sums them up.
llvm::Error checkTargetOpSupport(mlir::ModuleOp module, llvm::StringRef target,
                                 llvm::StringRef stage);

} // namespace tpx

#endif // TPX_COMPILER_TARGETOPSUPPORT_H
