//===- TTTransforms.h - TTIR -> TTIR passes ---------------------*- C++ -*-===//
#ifndef TPX_DIALECT_TT_TRANSFORMS_TTTRANSFORMS_H
#define TPX_DIALECT_TT_TRANSFORMS_TTTRANSFORMS_H

#include "tpx/Dialect/TT/IR/TTDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Pass/Pass.h"

namespace tpx {

#define GEN_PASS_DECL
#include "tpx/Dialect/TT/Transforms/TTTransforms.h.inc"

#define GEN_PASS_REGISTRATION
#include "tpx/Dialect/TT/Transforms/TTTransforms.h.inc"

} // namespace tpx

#endif // TPX_DIALECT_TT_TRANSFORMS_TTTRANSFORMS_H
