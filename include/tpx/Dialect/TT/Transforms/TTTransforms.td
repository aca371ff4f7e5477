//===- TTTransforms.td - TTIR -> TTIR passes --------------------------------===//
#ifndef TPX_DIALECT_TT_TRANSFORMS_TD
#define TPX_DIALECT_TT_TRANSFORMS_TD

include "mlir/Pass/PassBase.td"

def TTReplacePoison : Pass<"tt-replace-poison", "::mlir::ModuleOp"> {
  let summary = "Replace ub.poison with zero constants";
  let description = [{
    Triton's front end writes `ub.poison` for values that are never defined
    on some path (a loop-carried variable first assigned inside the loop,
    say). Any value is a correct refinement of poison; this pass picks zero
    (null for pointers), so that no backend needs a lowering of `ub.poison`
    for scalars, tensors and pointers alike. Runs in the `ttir` stage.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::tpx::tt::TTDialect"];
}

def TTCombineDotAdd : Pass<"tt-combine-dot-add", "::mlir::ModuleOp"> {
  let summary = "Fold an addition into the accumulator of a dot that starts from zero";
  let description = [{
    `x + tt.dot(a, b, 0)` (either operand order, `arith.addf` or
    `arith.addi`) becomes `tt.dot(a, b, x)` when the dot has no other use:
    the product accumulates onto x directly, as Triton's own TTIR combine
    does, so the tensor cores' accumulator can carry x (attention's
    `acc * alpha + dot(p, v)`) instead of a separate add and a layout
    conversion per iteration. The float form reassociates the sum (x is
    added first instead of last), within what `tt.dot` promises about its
    accumulation order. Runs in the NVIDIA `ttir` stage.
  }];
}

#endif // TPX_DIALECT_TT_TRANSFORMS_TD
