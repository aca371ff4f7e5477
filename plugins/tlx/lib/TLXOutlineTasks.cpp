//===- TLXOutlineTasks.cpp - tlx.async_tasks as concurrent functions ------===//
//
// On the CPU each task of a program runs on a thread of its own. Every
// tlx.async_task region becomes a function `<kernel>__tlx_task<N>` taking
// the values it uses from outside (scalars, pointers, buffers and barriers,
// which are pointers by now) and its replica id; one trampoline
// `<kernel>__tlx_tasks<N>(task, context)` decodes those values from a
// context block of 64-bit slots and calls the task's function. The
// async_tasks op becomes: fill the context, then
// tpx_cpu_run_tasks(number of tasks, address of the trampoline, context),
// which returns when every task has finished.
//
// A task may also use a tensor (or a tensor descriptor) computed outside
// when it can be recomputed from such values by pure ops: the ops are
// cloned into the task. Anything else is an error at the op, as values
// cannot otherwise cross into a task (on a GPU they would live in another
// warp's registers).
//
//===----------------------------------------------------------------------===//
#include "TLXTasks.h"
#include "TLXToTTCommon.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

#include <algorithm>

using namespace mlir;
using namespace tpx;
using namespace tpx::tlx;

/// Values that can travel through a 64-bit context slot.
static bool isScalar(Type type) {
  return type.isIntOrIndexOrFloat() ||
         (isa<tt::PointerType>(type) &&
          !isa<RankedTensorType>(cast<tt::PointerType>(type).getPointeeType()));
}

/// `value` as a 64-bit slot.
static Value encode(OpBuilder &b, Location loc, Value value) {
  Type i64 = b.getI64Type();
  Type type = value.getType();
  if (isa<tt::PointerType>(type))
    return tt::PtrToIntOp::create(b, loc, i64, value);
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, i64, value);
  if (auto floating = dyn_cast<FloatType>(type))
    value = arith::BitcastOp::create(
        b, loc, b.getIntegerType(floating.getWidth()), value);
  if (value.getType().getIntOrFloatBitWidth() < 64)
    value = arith::ExtUIOp::create(b, loc, i64, value);
  return value;
}

/// The inverse of encode.
static Value decode(OpBuilder &b, Location loc, Value slot, Type type) {
  if (isa<tt::PointerType>(type))
    return tt::IntToPtrOp::create(b, loc, type, slot);
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, type, slot);
  unsigned width = type.getIntOrFloatBitWidth();
  Value bits = slot;
  if (width < 64)
    bits = arith::TruncIOp::create(b, loc, b.getIntegerType(width), slot);
  if (isa<FloatType>(type))
    bits = arith::BitcastOp::create(b, loc, type, bits);
  return bits;
}

namespace {
/// One thread's worth of work: a task region and which replica it is.
struct TaskInstance {
  AsyncTaskOp task;
  int32_t replica;
};
} // namespace

static LogicalResult outline(AsyncTasksOp tasks, ModuleOp module,
                             unsigned &counter) {
  auto kernel = tasks->getParentOfType<tt::FuncOp>();
  if (!kernel)
    return tasks.emitOpError("must be inside a function");
  Location loc = tasks.getLoc();
  MLIRContext *context = module.getContext();
  Type i32 = IntegerType::get(context, 32), i64 = IntegerType::get(context, 64);

  SmallVector<AsyncTaskOp> regions;
  for (Operation &op : tasks.getBody().front())
    if (auto task = dyn_cast<AsyncTaskOp>(op))
      regions.push_back(task);
  // The default task first: it runs on the program's own thread.
  std::stable_partition(regions.begin(), regions.end(),
                        [](AsyncTaskOp task) { return task.getIsDefault(); });

  // Each task region as a function of its captures and its replica id.
  SetVector<Value> shared;
  SmallVector<std::pair<tt::FuncOp, SmallVector<Value>>> functions;
  OpBuilder moduleBuilder(context);
  moduleBuilder.setInsertionPointToEnd(module.getBody());
  for (AsyncTaskOp task : regions) {
    if (failed(rematerializeCaptures(task, isScalar,
                                     "scalars, pointers, buffers, barriers")))
      return failure();
    SetVector<Value> used;
    getUsedValuesDefinedAbove(task.getBody(), used);
    SmallVector<Value> captures(used.begin(), used.end());
    shared.insert(captures.begin(), captures.end());
    SmallVector<Type> inputs;
    for (Value v : captures)
      inputs.push_back(v.getType());
    inputs.push_back(i32);
    std::string name = (kernel.getName() + "__tlx_task" + llvm::Twine(counter) +
                        "_" + llvm::Twine(functions.size()))
                           .str();
    auto func = tt::FuncOp::create(moduleBuilder, task.getLoc(), name,
                                   moduleBuilder.getFunctionType(inputs, {}));
    func.setPrivate();
    Block *entry = func.addEntryBlock();
    IRMapping mapping;
    for (auto [value, arg] : llvm::zip(captures, entry->getArguments()))
      mapping.map(value, arg);
    OpBuilder b = OpBuilder::atBlockEnd(entry);
    for (Operation &op : task.getBody().front().without_terminator())
      b.clone(op, mapping);
    tt::ReturnOp::create(b, task.getLoc(), ValueRange{});
    Value replica = entry->getArguments().back();
    func.walk([&](AsyncTaskReplicaIdOp id) {
      id.replaceAllUsesWith(replica);
      id.erase();
    });
    functions.push_back({func, captures});
  }

  // The trampoline: decode the context, call task `task`'s function.
  SmallVector<TaskInstance> instances;
  for (auto [index, task] : llvm::enumerate(regions))
    for (int32_t r = 0; r < task.getReplicate(); ++r)
      instances.push_back({task, r});
  std::string trampolineName =
      (kernel.getName() + "__tlx_tasks" + llvm::Twine(counter)).str();
  auto trampoline =
      tt::FuncOp::create(moduleBuilder, loc, trampolineName,
                         moduleBuilder.getFunctionType({i32, i64}, {}));
  trampoline.setPrivate();
  {
    Block *entry = trampoline.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockEnd(entry);
    auto slotType = tt::PointerType::get(i64, kSharedAddressSpace);
    Value base =
        tt::IntToPtrOp::create(b, loc, slotType, entry->getArgument(1));
    DenseMap<Value, Value> decoded;
    for (auto [i, value] : llvm::enumerate(shared)) {
      Value slot = tt::AddPtrOp::create(b, loc, slotType, base,
                                        getI32Constant(b, loc, i));
      Value bits = tt::LoadOp::create(b, loc, slot, Value(), Value());
      decoded[value] = decode(b, loc, bits, value.getType());
    }
    SmallVector<int64_t> cases;
    for (size_t i = 0; i < instances.size(); ++i)
      cases.push_back(i);
    Value which = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                             entry->getArgument(0));
    auto dispatch = scf::IndexSwitchOp::create(b, loc, TypeRange{}, which,
                                               cases, cases.size());
    b.createBlock(&dispatch.getDefaultRegion());
    scf::YieldOp::create(b, loc);
    for (auto [i, instance] : llvm::enumerate(instances)) {
      size_t which = llvm::find(regions, instance.task) - regions.begin();
      auto &[func, captures] = functions[which];
      b.createBlock(&dispatch.getCaseRegions()[i]);
      SmallVector<Value> args;
      for (Value v : captures)
        args.push_back(decoded[v]);
      args.push_back(getI32Constant(b, loc, instance.replica));
      tt::CallOp::create(b, loc, TypeRange{}, func.getName(), args, nullptr,
                         nullptr);
      scf::YieldOp::create(b, loc);
    }
    b.setInsertionPointAfter(dispatch);
    tt::ReturnOp::create(b, loc, ValueRange{});
  }

  // The site: fill the context and start the tasks.
  OpBuilder b(tasks);
  auto slotType = tt::PointerType::get(i64, kSharedAddressSpace);
  Value contextBase = allocateLocalMemory(
      b, tasks, slotType, 8 * std::max<int64_t>(1, shared.size()));
  for (auto [i, value] : llvm::enumerate(shared)) {
    Value slot = tt::AddPtrOp::create(b, loc, slotType, contextBase,
                                      getI32Constant(b, loc, i));
    tt::StoreOp::create(b, loc, slot, encode(b, loc, value), Value());
  }
  Value address = FunctionAddressOp::create(
      b, loc, i64, FlatSymbolRefAttr::get(trampoline.getNameAttr()));
  tt::CallOp::create(
      b, loc, TypeRange{}, kRunTasks,
      ValueRange{getI32Constant(b, loc, instances.size()), address,
                 tt::PtrToIntOp::create(b, loc, i64, contextBase)},
      nullptr, nullptr);
  tasks.erase();
  ++counter;
  return success();
}

LogicalResult tpx::tlx::outlineTasks(ModuleOp module) {
  SmallVector<AsyncTasksOp> all;
  module.walk([&](AsyncTasksOp tasks) { all.push_back(tasks); });
  unsigned counter = 0;
  for (AsyncTasksOp tasks : all)
    if (failed(outline(tasks, module, counter)))
      return failure();
  return success();
}
