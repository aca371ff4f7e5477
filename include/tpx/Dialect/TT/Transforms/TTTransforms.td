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

#endif // TPX_DIALECT_TT_TRANSFORMS_TD
