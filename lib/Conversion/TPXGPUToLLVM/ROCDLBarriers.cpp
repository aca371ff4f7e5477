//===- ROCDLBarriers.cpp - mbarriers and named barriers in LDS on AMD -----===//
#include "ROCDLBarriers.h"
#include "LoweringUtils.h"
#include "ROCDLPrimitives.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

namespace {
constexpr StringLiteral kScope = "workgroup";
constexpr int64_t kPendingMask = 0xFFFF;
constexpr int64_t kTxMask = 0xFFFFFF, kTxSign = 0x800000;
constexpr unsigned kCountShift = 16, kTxShift = 32, kPhaseShift = 63;
constexpr unsigned kWaveSize = 64;
constexpr int64_t kNamedPhaseBit = int64_t(1) << 31;
} // namespace

static Value i64Const(OpBuilder &b, Location loc, int64_t v) {
  return i64Constant(b, loc, v);
}

static Value wordPointer(OpBuilder &b, Location loc, Value table, Value index,
                         Type element) {
  return LLVM::GEPOp::create(b, loc, table.getType(), element, table,
                             ArrayRef<LLVM::GEPArg>{index});
}

/// The calling thread is the elected one: tid.x == 0 (a partition's first
/// thread once warp_specialize is lowered), and `pred` where given.
static Value isElected(OpBuilder &b, Location loc, Value pred) {
  Value first =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                           getThreadIdX(b, loc), i32Constant(b, loc, 0));
  return pred ? LLVM::AndOp::create(b, loc, first, pred) : first;
}

/// `update(old)` applied to the word at `pointer` atomically by one
/// compare-and-swap loop (acq_rel at workgroup scope); returns the old
/// value the successful exchange replaced.
static Value
compareAndSwapLoop(OpBuilder &b, Location loc, Value pointer, Type type,
                   function_ref<Value(OpBuilder &, Location, Value)> update) {
  Value initial = LLVM::LoadOp::create(
      b, loc, type, pointer, /*alignment=*/type.getIntOrFloatBitWidth() / 8,
      /*isVolatile=*/false, /*isNonTemporal=*/false, /*isInvariant=*/false,
      /*isInvariantGroup=*/false, LLVM::AtomicOrdering::monotonic, kScope);
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{type, type}, ValueRange{initial},
      [&](OpBuilder &before, Location loc, ValueRange args) {
        Value old = args[0];
        Value next = update(before, loc, old);
        auto exchange = LLVM::AtomicCmpXchgOp::create(
            before, loc, pointer, old, next, LLVM::AtomicOrdering::acq_rel,
            LLVM::AtomicOrdering::acquire, kScope);
        Value seen = LLVM::ExtractValueOp::create(before, loc, exchange, 0);
        Value done = LLVM::ExtractValueOp::create(before, loc, exchange, 1);
        Value retry = LLVM::XOrOp::create(
            before, loc, done,
            LLVM::ConstantOp::create(before, loc, before.getI1Type(),
                                     before.getBoolAttr(true)));
        scf::ConditionOp::create(before, loc, retry, ValueRange{seen, old});
      },
      [&](OpBuilder &after, Location loc, ValueRange args) {
        scf::YieldOp::create(after, loc, args[0]);
      });
  return loop.getResult(1);
}

/// Spins (with s_sleep) while `stillWaiting(word)` holds for the word at
/// `pointer`, read by acquire loads.
static void
spinWhile(OpBuilder &b, Location loc, Value pointer, Type type,
          function_ref<Value(OpBuilder &, Location, Value)> stillWaiting) {
  scf::WhileOp::create(
      b, loc, TypeRange{}, ValueRange{},
      [&](OpBuilder &before, Location loc, ValueRange) {
        Value word = LLVM::LoadOp::create(
            before, loc, type, pointer, type.getIntOrFloatBitWidth() / 8, false,
            false, false, false, LLVM::AtomicOrdering::acquire, kScope);
        scf::ConditionOp::create(before, loc, stillWaiting(before, loc, word),
                                 ValueRange{});
      },
      [&](OpBuilder &after, Location loc, ValueRange) {
        // Lets the waves being waited for issue.
        ROCDL::SSleepOp::create(after, loc, 1);
        scf::YieldOp::create(after, loc);
      });
}

static void ifThen(OpBuilder &b, Location loc, Value condition,
                   function_ref<void(OpBuilder &, Location)> body) {
  scf::IfOp::create(b, loc, condition, [&](OpBuilder &then, Location loc) {
    body(then, loc);
    scf::YieldOp::create(then, loc);
  });
}

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

void rocdl::initMBarrier(OpBuilder &b, Location loc, Value word,
                         unsigned count) {
  Value initial =
      i64Const(b, loc, int64_t(count) | (int64_t(count) << kCountShift));
  storeWhere(b, loc, initial, word, isElected(b, loc, Value()),
             /*alignment=*/8);
}

void rocdl::updateMBarrier(OpBuilder &b, Location loc, Value word,
                           unsigned arrivals, int64_t txBytes, Value pred) {
  ifThen(b, loc, isElected(b, loc, pred), [&](OpBuilder &then, Location l) {
    compareAndSwapLoop(
        then, l, word, then.getI64Type(),
        [&](OpBuilder &b, Location loc, Value old) -> Value {
          auto field = [&](unsigned shift, int64_t mask) {
            Value shifted = shift ? Value(LLVM::LShrOp::create(
                                        b, loc, old, i64Const(b, loc, shift)))
                                  : old;
            return LLVM::AndOp::create(b, loc, shifted, i64Const(b, loc, mask));
          };
          Value pending = LLVM::SubOp::create(b, loc, field(0, kPendingMask),
                                              i64Const(b, loc, arrivals));
          Value count = field(kCountShift, kPendingMask);
          // Sign-extends the 24-bit byte count, then adds this update's.
          Value tx = LLVM::SubOp::create(
              b, loc,
              LLVM::XOrOp::create(b, loc, field(kTxShift, kTxMask),
                                  i64Const(b, loc, kTxSign)),
              i64Const(b, loc, kTxSign));
          tx = LLVM::AddOp::create(b, loc, tx, i64Const(b, loc, txBytes));
          Value phase = LLVM::AndOp::create(
              b, loc, old, i64Const(b, loc, int64_t(1) << kPhaseShift));
          Value zero = i64Const(b, loc, 0);
          Value complete = LLVM::AndOp::create(
              b, loc,
              LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, pending,
                                   zero),
              LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, tx, zero));
          Value countBits =
              LLVM::ShlOp::create(b, loc, count, i64Const(b, loc, kCountShift));
          // Complete: the other parity, every arrival pending again.
          Value nextPhase = LLVM::OrOp::create(
              b, loc,
              LLVM::XOrOp::create(b, loc, phase,
                                  i64Const(b, loc, int64_t(1) << kPhaseShift)),
              LLVM::OrOp::create(b, loc, countBits, count));
          Value sameBits = LLVM::OrOp::create(
              b, loc, countBits,
              LLVM::AndOp::create(b, loc, pending,
                                  i64Const(b, loc, kPendingMask)));
          Value txBits = LLVM::ShlOp::create(
              b, loc,
              LLVM::AndOp::create(b, loc, tx, i64Const(b, loc, kTxMask)),
              i64Const(b, loc, kTxShift));
          Value samePhase = LLVM::OrOp::create(
              b, loc, phase, LLVM::OrOp::create(b, loc, sameBits, txBits));
          return LLVM::SelectOp::create(b, loc, complete, nextPhase, samePhase);
        });
  });
}

void rocdl::waitMBarrier(OpBuilder &b, Location loc, Value word, Value phase,
                         Value pred) {
  Value parity = LLVM::ShlOp::create(
      b, loc,
      LLVM::AndOp::create(b, loc,
                          LLVM::ZExtOp::create(b, loc, b.getI64Type(), phase),
                          i64Const(b, loc, 1)),
      i64Const(b, loc, kPhaseShift));
  auto wait = [&](OpBuilder &b, Location loc) {
    // try_wait.parity: the phase of that parity is done once the current
    // one has the other parity.
    spinWhile(b, loc, word, b.getI64Type(),
              [&](OpBuilder &b, Location loc, Value current) -> Value {
                Value bit = LLVM::AndOp::create(
                    b, loc, current,
                    i64Const(b, loc, int64_t(1) << kPhaseShift));
                return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                            bit, parity);
              });
  };
  if (pred)
    ifThen(b, loc, pred, wait);
  else
    wait(b, loc);
}

//===----------------------------------------------------------------------===//
// Named barriers
//===----------------------------------------------------------------------===//

LLVM::GlobalOp rocdl::declareNamedBarrierTable(ModuleOp module) {
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto type = LLVM::LLVMArrayType::get(b.getI32Type(), kNamedBarrierTableSize);
  auto table =
      LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/false,
                             LLVM::Linkage::Internal, kNamedBarrierTableSymbol,
                             Attribute(), /*alignment=*/4, kSharedAddressSpace);
  // LDS has no initial values: an undef initializer (zeroed by the kernel).
  Block *init = b.createBlock(&table.getInitializerRegion());
  b.setInsertionPointToStart(init);
  LLVM::ReturnOp::create(b, module.getLoc(),
                         LLVM::UndefOp::create(b, module.getLoc(), type));
  return table;
}

static Value getTable(OpBuilder &b, Location loc) {
  return LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), kSharedAddressSpace),
      rocdl::kNamedBarrierTableSymbol);
}

void rocdl::finishNamedBarrierTable(ModuleOp module) {
  auto table = module.lookupSymbol<LLVM::GlobalOp>(kNamedBarrierTableSymbol);
  if (!table)
    return;
  bool used = false;
  module.walk([&](LLVM::AddressOfOp address) {
    used |= address.getGlobalName() == kNamedBarrierTableSymbol;
  });
  if (!used) {
    table.erase();
    return;
  }
  module.walk([&](LLVM::LLVMFuncOp func) {
    if (!func->hasAttr(ROCDL::ROCDLDialect::getKernelFuncAttrName()) ||
        func.isExternal())
      return;
    OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
    Location loc = func.getLoc();
    Value tid = getThreadIdX(b, loc);
    Value inTable =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, tid,
                             i32Constant(b, loc, kNamedBarrierTableSize));
    storeWhere(b, loc, i32Constant(b, loc, 0),
               wordPointer(b, loc, getTable(b, loc), tid, b.getI32Type()),
               inTable, /*alignment=*/4);
    emitBarrier(b, loc);
  });
}

void rocdl::emitNamedBarrier(OpBuilder &b, Location loc, Value id, Value count,
                             bool arriveOnly) {
  Type i32 = b.getI32Type();
  Value word = wordPointer(b, loc, getTable(b, loc), id, i32);
  Value lane = LLVM::URemOp::create(b, loc, getThreadIdX(b, loc),
                                    i32Constant(b, loc, kWaveSize));
  Value leader = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, lane,
                                      i32Constant(b, loc, 0));
  // The wavefront's one arrival counts its 64 threads; its old word says
  // which phase it arrived in.
  auto arrival = scf::IfOp::create(
      b, loc, leader,
      [&](OpBuilder &then, Location l) {
        Value old = compareAndSwapLoop(
            then, l, word, i32,
            [&](OpBuilder &b, Location loc, Value old) -> Value {
              Value phase = LLVM::AndOp::create(
                  b, loc, old, i32Constant(b, loc, kNamedPhaseBit));
              Value arrived = LLVM::AddOp::create(
                  b, loc,
                  LLVM::AndOp::create(b, loc, old,
                                      i32Constant(b, loc, kNamedPhaseBit - 1)),
                  i32Constant(b, loc, kWaveSize));
              Value complete = LLVM::ICmpOp::create(
                  b, loc, LLVM::ICmpPredicate::uge, arrived, count);
              Value next = LLVM::XOrOp::create(
                  b, loc, phase, i32Constant(b, loc, kNamedPhaseBit));
              return LLVM::SelectOp::create(
                  b, loc, complete, next,
                  LLVM::OrOp::create(b, loc, phase, arrived));
            });
        scf::YieldOp::create(then, l, old);
      },
      [&](OpBuilder &otherwise, Location l) {
        scf::YieldOp::create(otherwise, l, i32Constant(otherwise, l, 0));
      });
  if (arriveOnly)
    return;
  // Lane 0 of each wavefront is its leader (warps of a partition start at
  // multiples of 64 threads).
  Value arrivedIn = ROCDL::ReadlaneOp::create(b, loc, i32, arrival.getResult(0),
                                              i32Constant(b, loc, 0));
  Value phase = LLVM::AndOp::create(b, loc, arrivedIn,
                                    i32Constant(b, loc, kNamedPhaseBit));
  spinWhile(b, loc, word, i32,
            [&](OpBuilder &b, Location loc, Value current) -> Value {
              Value bit = LLVM::AndOp::create(
                  b, loc, current, i32Constant(b, loc, kNamedPhaseBit));
              return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, bit,
                                          phase);
            });
}
