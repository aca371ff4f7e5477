//===- MemoryAccess.cpp - scalar loads, stores and atomics on the host ----===//
#include "MemoryAccess.h"
#include "TTToCPUCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tpx::cpu;

Value tpx::cpu::loadElement(OpBuilder &b, Location loc, Value address,
                            Type type, bool isVolatile) {
  Type memoryType = getMemoryType(type);
  Value value = LLVM::LoadOp::create(b, loc, memoryType,
                                     toLLVMPointer(b, loc, address),
                                     /*alignment=*/0, isVolatile);
  if (memoryType != type) // i1 stored as a byte: any non-zero byte is true
    value = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                                  createZero(b, loc, memoryType));
  return value;
}

void tpx::cpu::storeElement(OpBuilder &b, Location loc, Value address,
                            Value value) {
  Type memoryType = getMemoryType(value.getType());
  if (memoryType != value.getType())
    value = arith::ExtUIOp::create(b, loc, memoryType, value);
  LLVM::StoreOp::create(b, loc, value, toLLVMPointer(b, loc, address));
}

Value tpx::cpu::buildGuarded(
    OpBuilder &b, Location loc, Value condition, Type type,
    function_ref<Value(OpBuilder &, Location)> then,
    function_ref<Value(OpBuilder &, Location)> otherwise) {
  if (!condition)
    return then(b, loc);
  auto ifOp = scf::IfOp::create(
      b, loc, condition,
      [&](OpBuilder &tb, Location l) {
        scf::YieldOp::create(tb, l, then(tb, l));
      },
      [&](OpBuilder &eb, Location l) {
        scf::YieldOp::create(eb, l, otherwise(eb, l));
      });
  (void)type;
  return ifOp.getResult(0);
}

void tpx::cpu::buildGuardedEffect(
    OpBuilder &b, Location loc, Value condition,
    function_ref<void(OpBuilder &, Location)> body) {
  if (!condition) {
    body(b, loc);
    return;
  }
  scf::IfOp::create(b, loc, condition, [&](OpBuilder &tb, Location l) {
    body(tb, l);
    scf::YieldOp::create(tb, l);
  });
}

Value tpx::cpu::toI64(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isInteger(64))
    return value;
  if (value.getType().isIndex())
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), value);
  return arith::ExtSIOp::create(b, loc, b.getI64Type(), value);
}

Value tpx::cpu::elementAddress(OpBuilder &b, Location loc, Value base,
                               ValueRange indices, ValueRange strides,
                               int64_t elementSize) {
  Type i64 = b.getI64Type();
  Value offset = arith::ConstantIntOp::create(b, loc, i64, 0);
  for (auto [index, stride] : llvm::zip(indices, strides))
    offset = arith::AddIOp::create(
        b, loc, offset,
        arith::MulIOp::create(b, loc, toI64(b, loc, index),
                              toI64(b, loc, stride)));
  Value size = arith::ConstantIntOp::create(b, loc, i64, elementSize);
  return arith::AddIOp::create(b, loc, base,
                               arith::MulIOp::create(b, loc, offset, size));
}

Value tpx::cpu::inBounds(OpBuilder &b, Location loc, ValueRange indices,
                         ValueRange bounds) {
  Value result;
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
  for (auto [index, bound] : llvm::zip(indices, bounds)) {
    Value i = toI64(b, loc, index);
    Value ok = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, i, zero),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i,
                              toI64(b, loc, bound)));
    result = result ? arith::AndIOp::create(b, loc, result, ok).getResult()
                    : ok;
  }
  return result;
}

Value tpx::cpu::atomicUpdate(OpBuilder &b, Location loc,
                             LLVM::AtomicBinOp kind, Value address,
                             Value value, LLVM::AtomicOrdering order) {
  return LLVM::AtomicRMWOp::create(b, loc, kind,
                                   toLLVMPointer(b, loc, address), value,
                                   order);
}
