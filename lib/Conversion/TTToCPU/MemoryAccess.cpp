//===- MemoryAccess.cpp - scalar loads, stores and atomics on the host ----===//
#include "MemoryAccess.h"
#include "TTToCPUCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tpx::cpu;

Value tpx::cpu::loadElement(OpBuilder &b, Location loc, Value address,
                            Type type, bool isVolatile) {
  Type memoryType = getMemoryType(type);
  Value value =
      LLVM::LoadOp::create(b, loc, memoryType, toLLVMPointer(b, loc, address),
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
    result =
        result ? arith::AndIOp::create(b, loc, result, ok).getResult() : ok;
  }
  return result;
}

Value tpx::cpu::atomicUpdate(OpBuilder &b, Location loc, LLVM::AtomicBinOp kind,
                             Value address, Value value,
                             LLVM::AtomicOrdering order) {
  return LLVM::AtomicRMWOp::create(b, loc, kind, toLLVMPointer(b, loc, address),
                                   value, order);
}

/// bool tpx_cpu_check_access(i64 address, i64 bytes, i32 isWrite,
///                           i32 pidX, i32 pidY, i32 pidZ)
static constexpr const char *kCheckFn = "tpx_cpu_check_access";

/// True when `op` accesses shared memory (address space 3): on the CPU, a
/// program's own buffers (TLX's local_alloc), which lie outside every
/// buffer argument by construction.
static bool accessesSharedMemory(Operation *op) {
  if (op->getNumOperands() == 0)
    return false;
  auto pointer = dyn_cast<tpx::tt::PointerType>(
      getElementTypeOrSelf(op->getOperand(0).getType()));
  return pointer && pointer.getAddressSpace() == 3;
}

Value tpx::cpu::guardAccess(OpBuilder &b, Location loc, Operation *op,
                            Value mask, Value address, int64_t bytes,
                            bool isWrite, bool boundsCheck) {
  if (!boundsCheck || accessesSharedMemory(op) ||
      op->hasAttr(kUncheckedProvenanceAttr))
    return mask;
  auto module = op->getParentOfType<ModuleOp>();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  declareRuntimeFunction(
      b, module, kCheckFn,
      b.getFunctionType({i64, i64, i32, i32, i32, i32}, {b.getI1Type()}));
  SmallVector<Value> grid = getGridArguments(op);
  auto check = [&](OpBuilder &cb, Location l) -> Value {
    return func::CallOp::create(
               cb, l, kCheckFn, TypeRange{cb.getI1Type()},
               ValueRange{address,
                          arith::ConstantIntOp::create(cb, l, i64, bytes),
                          arith::ConstantIntOp::create(cb, l, i32, isWrite),
                          grid[0], grid[1], grid[2]})
        .getResult(0);
  };
  if (!mask)
    return check(b, loc);
  return buildGuarded(b, loc, mask, b.getI1Type(), check,
                      [](OpBuilder &eb, Location l) -> Value {
                        return arith::ConstantIntOp::create(eb, l,
                                                            eb.getI1Type(), 0);
                      });
}
