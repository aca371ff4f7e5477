//===- TTAttrs.h - tt enum attributes ---------------------------*- C++ -*-===//
#ifndef TPX_DIALECT_TT_IR_TTATTRS_H
#define TPX_DIALECT_TT_IR_TTATTRS_H

#include "mlir/IR/BuiltinAttributes.h"

#include "tpx/Dialect/TT/IR/TTAttrs.h.inc"

#endif // TPX_DIALECT_TT_IR_TTATTRS_H
