//===- TTDialect.td - the tt dialect (Triton's TTIR contract) -------------===//
//
// The `tt` dialect reads and prints TTIR exactly as Triton 3.6 does: the same
// op names, types, attributes and printed syntax. It is written for tpx from
// the published syntax and semantics of TTIR.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_DIALECT_TT_IR_TTDIALECT_TD
#define TPX_DIALECT_TT_IR_TTDIALECT_TD

include "mlir/IR/OpBase.td"

def TT_Dialect : Dialect {
  let name = "tt";
  let cppNamespace = "::tpx::tt";
  let summary = "Tile-level tensor programs (TTIR compatible)";
  let description = [{
    Programs over blocks (tiles) of data, one program instance per grid
    point. Tensors are immutable values; memory is reached through `!tt.ptr`
    pointers, tensors of pointers, block pointers and tensor descriptors.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::ub::UBDialect",
  ];
  let useDefaultTypePrinterParser = 1;
  // `tt.divisibility` and friends on function arguments are checked here.
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

#endif // TPX_DIALECT_TT_IR_TTDIALECT_TD
