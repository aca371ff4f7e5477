//===- TLXLowerToTT.cpp - tlx-lower-to-tt: TLX as plain TTIR --------------===//
//
// The CPU runs a program (thread block) as one thread, so TLX's semantics
// there are those of a program that waits for every async operation at
// once: an async copy is a load followed by a store into the buffer, a
// commit or wait group does nothing, an async dot is a tt.dot whose result
// is ready at once. That is exactly TLX's contract (a buffer is read only
// after the wait that completes its copy, a dot's result only after its
// wait), so every correct TLX program computes the same values.
//
// Buffers become memory on the program's stack (an llvm.alloca in the
// function's entry block) addressed through `!tt.ptr<T, 3>`; the CPU target's
// tt lowering does the rest. A buffer value carries its element strides:
// local_trans permutes them, local_slice offsets the pointer. The strides
// are compile-time facts recovered from the chain of views; a transposed or
// sliced view may therefore not be carried through control flow (it would
// lose them), which is diagnosed.
//
//===----------------------------------------------------------------------===//
#include "TLXLowerToTT.h"
#include "TLXTasks.h"
#include "TLXToTTCommon.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::tlx;

Value tpx::tlx::allocateLocalMemory(OpBuilder &b, Operation *op, Type pointer,
                                    int64_t bytes) {
  auto function = op->getParentOfType<FunctionOpInterface>();
  if (!function || function.getFunctionBody().empty())
    return {};
  Location loc = op->getLoc();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&function.getFunctionBody().front());
  Value size = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                        b.getI64IntegerAttr(bytes));
  auto llvmPointer = LLVM::LLVMPointerType::get(b.getContext());
  Value memory = LLVM::AllocaOp::create(b, loc, llvmPointer, b.getI8Type(),
                                        size, /*alignment=*/64);
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), memory);
  // In a cluster, peers address this memory: recorded at the program's
  // start, in the same order in every program.
  if (tpxgpu::getModuleClusterSize(op) > 1)
    tt::CallOp::create(b, loc, TypeRange{}, kClusterRegister,
                       ValueRange{address, size}, nullptr, nullptr);
  return tt::IntToPtrOp::create(b, loc, pointer, address);
}

namespace {
struct LocalAllocLowering : TLXPattern<LocalAllocOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type pointer = getTypeConverter()->convertType(op.getType());
    Location loc = op.getLoc();
    if (Value reuse = adaptor.getReuse()) {
      rewriter.replaceOpWithNewOp<tt::BitcastOp>(op, pointer, reuse);
      return success();
    }
    Value base = allocateLocalMemory(rewriter, op, pointer,
                                     op.getType().getSizeInBytes());
    if (!base)
      return rewriter.notifyMatchFailure(op, "not inside a function");
    rewriter.replaceOp(op, base);
    return success();
  }
};

struct LocalViewLowering : TLXPattern<LocalViewOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(LocalViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, getIndexedPointer(rewriter, op.getLoc(), adaptor.getBuffers(),
                              adaptor.getIndex(),
                              strides.get(op.getBuffers()).front()));
    return success();
  }
};

struct LocalTransLowering : TLXPattern<LocalTransOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(LocalTransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The same first element; only the strides (known statically) change.
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct LocalSliceLowering : TLXPattern<LocalSliceOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(LocalSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int64_t> source = strides.get(op.getSrc());
    int64_t offset = 0;
    for (auto [dim, start] : llvm::enumerate(op.getOffsets()))
      offset += start * source[dim];
    rewriter.replaceOpWithNewOp<tt::AddPtrOp>(
        op, adaptor.getSrc().getType(), adaptor.getSrc(),
        getI32Constant(rewriter, op.getLoc(), offset));
    return success();
  }
};

struct LocalReinterpretLowering : TLXPattern<LocalReinterpretOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(LocalReinterpretOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type pointer = getTypeConverter()->convertType(op.getType());
    if (pointer == adaptor.getSrc().getType())
      rewriter.replaceOp(op, adaptor.getSrc());
    else
      rewriter.replaceOpWithNewOp<tt::BitcastOp>(op, pointer, adaptor.getSrc());
    return success();
  }
};

struct LocalLoadLowering : TLXPattern<LocalLoadOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, load(rewriter, op.getLoc(), op.getBuffer(), adaptor.getBuffer()));
    return success();
  }
};

struct LocalStoreLowering : TLXPattern<LocalStoreOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tt::StoreOp::create(
        rewriter, loc,
        getPointers(rewriter, loc, op.getBuffer(), adaptor.getBuffer()),
        adaptor.getValue(), Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncLoadLowering : TLXPattern<AsyncLoadOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(AsyncLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value mask = adaptor.getMask(), other = adaptor.getOther();
    // Masked-off elements of an async copy are zero-filled (cp.async with
    // a source size of 0), unlike a plain load's undefined ones.
    if (mask && !other)
      other = getZeros(
          rewriter, loc,
          RankedTensorType::get(op.getBuffer().getType().getShape(),
                                op.getBuffer().getType().getElementType()));
    Value value = tt::LoadOp::create(
        rewriter, loc, adaptor.getPtrs(), mask, other, ArrayRef<int32_t>{},
        /*padding=*/nullptr, op.getCache(), op.getEvict(), op.getIsVolatile());
    tt::StoreOp::create(
        rewriter, loc,
        getPointers(rewriter, loc, op.getBuffer(), adaptor.getBuffer()), value,
        Value());
    rewriter.replaceOp(op, getI32Constant(rewriter, loc, 0));
    return success();
  }
};

/// Commit and wait groups: every copy has completed when it was issued.
template <typename Op> struct TokenLowering : TLXPattern<Op> {
  using TLXPattern<Op>::TLXPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, getI32Constant(rewriter, op.getLoc(), 0));
    return success();
  }
};

struct AsyncDotLowering : TLXPattern<AsyncDotOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(AsyncDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto operand = [&](Value original, Value converted) {
      return isa<BufferType>(original.getType())
                 ? load(rewriter, loc, original, converted)
                 : converted;
    };
    Value a = operand(op.getA(), adaptor.getA());
    Value b = operand(op.getB(), adaptor.getB());
    Value c = adaptor.getC();
    if (Value useAcc = adaptor.getUseAcc())
      c = arith::SelectOp::create(
          rewriter, loc, useAcc, c,
          getZeros(rewriter, loc, cast<RankedTensorType>(c.getType())));
    rewriter.replaceOpWithNewOp<tt::DotOp>(op, c.getType(), a, b, c,
                                           op.getInputPrecision(),
                                           op.getMaxNumImpreciseAcc());
    return success();
  }
};

struct AsyncDotWaitLowering : TLXPattern<AsyncDotWaitOp> {
  using TLXPattern::TLXPattern;
  LogicalResult
  matchAndRewrite(AsyncDotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInputs());
    return success();
  }
};
} // namespace

/// True when the module needs the CPU runtime's tasks, barriers, clock or
/// clusters.
static bool needsCPURuntime(Operation *root) {
  if (tpxgpu::getModuleClusterSize(root) > 1)
    return true;
  return root
      ->walk([](Operation *op) {
        return isa<AllocBarriersOp, AsyncTasksOp, Clock64Op,
                   AsyncDescriptorLoadOp, NamedBarrierOp, ClusterCTARankOp,
                   ClusterBarrierOp>(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// In a cluster the programs' local memory is matched allocation by
/// allocation (tpx_cpu_cluster_map), each recorded once at the program's
/// start: allocations must be at the kernel's top level. The cluster also
/// leaves together (peers may still use this program's memory, which ends
/// with it).
static LogicalResult prepareClusterKernel(ModuleOp module) {
  if (tpxgpu::getModuleClusterSize(module) < 2)
    return success();
  WalkResult result = module.walk([](Operation *op) {
    if (!isa<LocalAllocOp, AllocBarriersOp>(op) ||
        (isa<LocalAllocOp>(op) && cast<LocalAllocOp>(op).getReuse()))
      return WalkResult::advance();
    auto kernel = dyn_cast<tt::FuncOp>(op->getParentOp());
    if (kernel && kernel.isPublic())
      return WalkResult::advance();
    op->emitOpError("below the top level of a kernel launched in clusters: "
                    "a cluster's programs find each other's buffers and "
                    "barriers by their allocations at the kernel's start");
    return WalkResult::interrupt();
  });
  if (result.wasInterrupted())
    return failure();
  insertClusterExitBarriers(module);
  return success();
}

static constexpr int32_t kThreadsPerWarp = 32;

/// A program runs each of its tasks as one thread, standing for the first
/// thread of the task's warps (TLXTaskPlacement.cpp): tlx.thread_id is that
/// thread's, 0 outside tasks and in the default task, and 0 along axes 1
/// and 2 (blocks are one-dimensional). A replicated task's id is its first
/// replica's plus replica id x its threads.
static LogicalResult resolveThreadIds(Operation *root, unsigned numWarps) {
  SmallVector<ThreadIdOp> ids;
  root->walk([&](ThreadIdOp id) { ids.push_back(id); });
  DenseMap<AsyncTaskOp, int32_t> firstThread;
  for (ThreadIdOp id : ids) {
    OpBuilder b(id);
    Location loc = id.getLoc();
    auto task = id->getParentOfType<AsyncTaskOp>();
    if (id.getAxis() != 0 || !task || task.getIsDefault()) {
      id.replaceAllUsesWith(
          arith::ConstantIntOp::create(b, loc, 0, 32).getResult());
      id.erase();
      continue;
    }
    if (!firstThread.count(task)) {
      auto tasks = cast<AsyncTasksOp>(task->getParentOp());
      FailureOr<SmallVector<TaskPartition>> placed =
          placeTasks(tasks, numWarps);
      if (failed(placed))
        return failure();
      for (const TaskPartition &p : *placed)
        if (p.replica == 0)
          firstThread[p.task] = p.start * kThreadsPerWarp;
    }
    Value thread = arith::ConstantIntOp::create(b, loc, firstThread[task], 32);
    if (task.getReplicate() > 1) {
      Value replica = AsyncTaskReplicaIdOp::create(b, loc, b.getI32Type());
      Value stride = arith::ConstantIntOp::create(
          b, loc, *task.getNumWarps() * kThreadsPerWarp, 32);
      thread = arith::AddIOp::create(
          b, loc, thread, arith::MulIOp::create(b, loc, replica, stride));
    }
    id.replaceAllUsesWith(thread);
    id.erase();
  }
  return success();
}

LogicalResult tpx::tlx::lowerToTT(Operation *root, unsigned numWarps) {
  MLIRContext *context = root->getContext();
  auto module = dyn_cast<ModuleOp>(root);
  if (!module)
    return root->emitOpError("tlx-lower-to-tt runs on a module");
  sinkViewSelections(root);
  if (failed(prepareClusterKernel(module)) ||
      failed(checkBarrierExpectations(root)) ||
      failed(resolveThreadIds(root, numWarps)))
    return failure();
  BufferStrides strides;
  if (failed(strides.compute(root)))
    return failure();
  if (needsCPURuntime(root))
    declareCPURuntime(module);

  TypeConverter converter;
  converter.addConversion([](Type type) { return type; });
  converter.addConversion([](BufferType type) -> Type {
    return tt::PointerType::get(type.getElementType(), kSharedAddressSpace);
  });
  converter.addConversion([](AsyncTokenType type) -> Type {
    return IntegerType::get(type.getContext(), 32);
  });
  converter.addConversion([](BarriersType type) -> Type {
    return tt::PointerType::get(IntegerType::get(type.getContext(), 32),
                                kSharedAddressSpace);
  });

  ConversionTarget target(*context);
  target.addIllegalDialect<TLXDialect>();
  // Tasks are outlined once their bodies are lowered; function addresses
  // are resolved in the llir stage (tlx-cpu-resolve-function-addresses).
  target.addLegalOp<AsyncTasksOp, AsyncTaskOp, TaskRegionEndOp,
                    AsyncTaskReplicaIdOp, FunctionAddressOp>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  RewritePatternSet patterns(context);
  patterns
      .add<LocalAllocLowering, LocalViewLowering, LocalTransLowering,
           LocalSliceLowering, LocalReinterpretLowering, LocalLoadLowering,
           LocalStoreLowering, AsyncLoadLowering,
           TokenLowering<AsyncCommitGroupOp>, TokenLowering<AsyncWaitGroupOp>,
           AsyncDotLowering, AsyncDotWaitLowering>(converter, context, strides);
  populateSyncToTTPatterns(converter, patterns, strides);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  if (failed(applyPartialConversion(root, target, std::move(patterns))))
    return failure();
  return outlineTasks(module);
}

LogicalResult tpx::tlx::resolveFunctionAddresses(Operation *root) {
  SmallVector<FunctionAddressOp> ops;
  root->walk([&](FunctionAddressOp op) { ops.push_back(op); });
  for (FunctionAddressOp op : ops) {
    if (!SymbolTable::lookupNearestSymbolFrom<LLVM::LLVMFuncOp>(
            op, op.getCalleeAttr()))
      return op.emitOpError("names ")
             << op.getCalleeAttr()
             << ", which is not an llvm.func (run this pass after "
                "convert-func-to-llvm)";
    OpBuilder b(op);
    Value pointer = LLVM::AddressOfOp::create(
        b, op.getLoc(), LLVM::LLVMPointerType::get(b.getContext()),
        op.getCallee());
    op.replaceAllUsesWith(
        LLVM::PtrToIntOp::create(b, op.getLoc(), b.getI64Type(), pointer)
            .getResult());
    op.erase();
  }
  return success();
}
