//===- TTOps.cpp - generated tt op definitions ----------------------------===//
//
// The op classes generated from TTOps.td. Verifiers and custom builders live
// in files named after the op families (TTShapeOps.cpp, TTMemoryOps.cpp, ...).
//
//===----------------------------------------------------------------------===//
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "tpx/Dialect/TT/IR/TTOps.cpp.inc"
