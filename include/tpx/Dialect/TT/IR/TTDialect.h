//===- TTDialect.h - the tt dialect -----------------------------*- C++ -*-===//
#ifndef TPX_DIALECT_TT_IR_TTDIALECT_H
#define TPX_DIALECT_TT_IR_TTDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Dialect.h"

#include "tpx/Dialect/TT/IR/TTDialect.h.inc"

#endif // TPX_DIALECT_TT_IR_TTDIALECT_H
