//===- ROCDLPrimitives.cpp - what the SIMT lowering builds differently on AMD
//=//
#include "ROCDLPrimitives.h"
#include "LoweringUtils.h"

#include "tpx/Conversion/LLVMAtomics.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

LLVM::AliasScopeAttr rocdl::getAsyncCopyScope(MLIRContext *context) {
  auto domain = LLVM::AliasScopeDomainAttr::get(
      context, StringAttr::get(context, "tpx.async-copies"),
      StringAttr::get(context, "tpx direct-to-LDS copies"));
  return LLVM::AliasScopeAttr::get(
      context, StringAttr::get(context, "tpx.async-copies.lds"), domain,
      StringAttr::get(context, "LDS written by direct-to-LDS copies"));
}

void rocdl::markLDSLoadsApartFromCopies(ModuleOp module) {
  bool hasCopies = false;
  module.walk([&](ROCDL::GlobalLoadLDSOp) { hasCopies = true; });
  if (!hasCopies)
    return;
  auto scopes = ArrayAttr::get(module.getContext(),
                               {getAsyncCopyScope(module.getContext())});
  auto inLDS = [](Value address) {
    auto type = dyn_cast<LLVM::LLVMPointerType>(address.getType());
    return type && type.getAddressSpace() == kSharedAddressSpace;
  };
  module.walk([&](Operation *op) {
    if (auto load = dyn_cast<LLVM::LoadOp>(op); load && inLDS(load.getAddr()))
      load.setNoaliasScopesAttr(scopes);
    // Stores too: a masked-off lane's zeros, and other LDS writes, go to
    // bytes no copy in flight writes (or the program races).
    if (auto store = dyn_cast<LLVM::StoreOp>(op);
        store && inLDS(store.getAddr()))
      store.setNoaliasScopesAttr(scopes);
  });
}

Value rocdl::getThreadIdX(OpBuilder &b, Location loc) {
  return ROCDL::ThreadIdXOp::create(b, loc, b.getI32Type());
}

Value rocdl::getBlockId(OpBuilder &b, Location loc, unsigned axis) {
  Type i32 = b.getI32Type();
  if (axis == 0)
    return ROCDL::BlockIdXOp::create(b, loc, i32);
  if (axis == 1)
    return ROCDL::BlockIdYOp::create(b, loc, i32);
  return ROCDL::BlockIdZOp::create(b, loc, i32);
}

Value rocdl::getGridDim(OpBuilder &b, Location loc, unsigned axis) {
  // __ockl_get_num_groups (linked from the device libraries) returns a
  // size_t; grids of tpx fit in 32 bits per axis.
  Type i64 = b.getI64Type();
  Value count;
  if (axis == 0)
    count = ROCDL::GridDimXOp::create(b, loc, i64);
  else if (axis == 1)
    count = ROCDL::GridDimYOp::create(b, loc, i64);
  else
    count = ROCDL::GridDimZOp::create(b, loc, i64);
  return LLVM::TruncOp::create(b, loc, b.getI32Type(), count);
}

void rocdl::emitBarrier(OpBuilder &b, Location loc) {
  // Only LDS needs ordering (tpxgpu.barrier's contract): this wave's LDS
  // accesses complete (lgkmcnt(0)), then s_barrier. A workgroup-scope
  // fence would also wait for every global load in flight (vmcnt(0)),
  // including prefetched tiles and direct-to-LDS copies whose waits are
  // explicit. The single-thread fences keep LLVM from moving memory
  // accesses across the barrier; the backend treats s_barrier as a
  // scheduling boundary.
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::seq_cst, "singlethread");
  // vmcnt 63 ([3:0], [15:14]) and expcnt 7 ([6:4]): no wait; lgkmcnt 0.
  ROCDL::SWaitcntOp::create(b, loc, 0xF | (0x3 << 14) | (0x7 << 4));
  ROCDL::SBarrierOp::create(b, loc);
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::seq_cst, "singlethread");
}

Value rocdl::readLane(OpBuilder &b, Location loc, Value word,
                      Value sourceLane) {
  // ds_bpermute addresses lanes in bytes and wraps modulo the wavefront.
  Value byteIndex =
      LLVM::ShlOp::create(b, loc, sourceLane, i32Constant(b, loc, 2));
  return ROCDL::DsBpermuteOp::create(b, loc, b.getI32Type(), byteIndex, word);
}

Value rocdl::xorLanes(OpBuilder &b, Location loc, Value word, unsigned mask,
                      Value lane) {
  Type i32 = b.getI32Type();
  if (mask == 1 || mask == 2) {
    // quad_perm: 2-bit source lane per lane of each quad (AMD GCN3 ISA,
    // DPP_CTRL 0x00-0xFF): [1,0,3,2] and [2,3,0,1].
    int32_t quadPerm = mask == 1 ? 0xB1 : 0x4E;
    return ROCDL::DPPUpdateOp::create(b, loc, i32, word, word, quadPerm,
                                      /*rowMask=*/0xF, /*bankMask=*/0xF,
                                      /*boundCtrl=*/true);
  }
  if (mask == 4 || mask == 8 || mask == 16) {
    // ds_swizzle bit mode (offset bit 15 clear): lane = ((lane & and) | or)
    // ^ xor within each 32 lanes; and = 0x1F, or = 0, xor = mask.
    int32_t offset = 0x1F | int32_t(mask) << 10;
    return ROCDL::DsSwizzleOp::create(b, loc, i32, word,
                                      i32Constant(b, loc, offset));
  }
  Value source = LLVM::XOrOp::create(b, loc, lane, i32Constant(b, loc, mask));
  return readLane(b, loc, word, source);
}

Value rocdl::ballot(OpBuilder &b, Location loc, Value predicate) {
  return ROCDL::BallotOp::create(b, loc, b.getI64Type(), predicate);
}

Value rocdl::loadWhere(OpBuilder &b, Location loc, Type type, Value pointer,
                       Value mask, Value other, unsigned alignment,
                       bool isVolatile) {
  auto branch = scf::IfOp::create(
      b, loc, mask,
      [&](OpBuilder &then, Location loc) {
        Value loaded = LLVM::LoadOp::create(then, loc, type, pointer, alignment,
                                            isVolatile);
        scf::YieldOp::create(then, loc, loaded);
      },
      [&](OpBuilder &otherwise, Location loc) {
        scf::YieldOp::create(otherwise, loc, other);
      });
  return branch.getResult(0);
}

void rocdl::storeWhere(OpBuilder &b, Location loc, Value value, Value pointer,
                       Value predicate, unsigned alignment) {
  scf::IfOp::create(b, loc, predicate, [&](OpBuilder &then, Location loc) {
    LLVM::StoreOp::create(then, loc, value, pointer, alignment);
    scf::YieldOp::create(then, loc);
  });
}

/// AMDGPU's synchronization scopes (LLVM AMDGPUUsage): a whole device is
/// the "agent", a block the "workgroup", the empty scope the system.
static StringRef getSyncScope(tt::MemSyncScope scope) {
  switch (scope) {
  case tt::MemSyncScope::GPU:
    return "agent";
  case tt::MemSyncScope::CTA:
    return "workgroup";
  case tt::MemSyncScope::SYSTEM:
    return "";
  }
  return "agent";
}

FailureOr<Value> rocdl::atomicWhere(OpBuilder &b, Location loc, Type type,
                                    Value pointer, Value value, Value compare,
                                    std::optional<tt::RMWOp> kind,
                                    Value predicate, tt::MemSemantic sem,
                                    tt::MemSyncScope scope) {
  std::optional<LLVM::AtomicBinOp> binOp;
  if (!compare) {
    binOp = getLLVMAtomicBinOp(*kind, type);
    if (!binOp)
      return failure();
  }
  LLVM::AtomicOrdering ordering = getLLVMAtomicOrdering(sem);
  StringRef syncScope = getSyncScope(scope);
  auto build = [&](OpBuilder &then, Location loc) -> Value {
    if (compare) {
      // A failed exchange only reads: it may not release.
      LLVM::AtomicOrdering failure = ordering == LLVM::AtomicOrdering::release
                                         ? LLVM::AtomicOrdering::monotonic
                                     : ordering == LLVM::AtomicOrdering::acq_rel
                                         ? LLVM::AtomicOrdering::acquire
                                         : ordering;
      auto exchange = LLVM::AtomicCmpXchgOp::create(
          then, loc, pointer, compare, value, ordering, failure, syncScope);
      return LLVM::ExtractValueOp::create(then, loc, exchange, 0);
    }
    return LLVM::AtomicRMWOp::create(then, loc, *binOp, pointer, value,
                                     ordering, syncScope);
  };
  if (!predicate)
    return build(b, loc);
  Value zero;
  if (isa<LLVM::LLVMPointerType>(type))
    zero = LLVM::ZeroOp::create(b, loc, type);
  else
    zero = LLVM::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  auto branch = scf::IfOp::create(
      b, loc, predicate,
      [&](OpBuilder &then, Location loc) {
        scf::YieldOp::create(then, loc, build(then, loc));
      },
      [&](OpBuilder &otherwise, Location loc) {
        scf::YieldOp::create(otherwise, loc, zero);
      });
  return branch.getResult(0);
}
