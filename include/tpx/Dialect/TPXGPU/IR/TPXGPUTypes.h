//===- TPXGPUTypes.h - tpxgpu types -----------------------------*- C++ -*-===//
#ifndef TPX_DIALECT_TPXGPU_IR_TPXGPUTYPES_H
#define TPX_DIALECT_TPXGPU_IR_TPXGPUTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.h.inc"

#endif // TPX_DIALECT_TPXGPU_IR_TPXGPUTYPES_H
