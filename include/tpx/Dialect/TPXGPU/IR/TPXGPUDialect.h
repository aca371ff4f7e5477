//===- TPXGPUDialect.h - the tpxgpu dialect ---------------------*- C++ -*-===//
#ifndef TPX_DIALECT_TPXGPU_IR_TPXGPUDIALECT_H
#define TPX_DIALECT_TPXGPU_IR_TPXGPUDIALECT_H

#include "mlir/IR/Dialect.h"
#include "tpx/Dialect/TT/IR/TTDialect.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h.inc"

#endif // TPX_DIALECT_TPXGPU_IR_TPXGPUDIALECT_H
