//===- TTToTPXGPUPass.cpp - the convert-tt-to-tpxgpu pass -----------------===//
//
// Gives every ranked tensor of a TTIR module a tpxgpu distributed layout.
// There is no type converter: one walk in program order visits each op after
// the definitions of its operands (loop-carried values get their types at the
// loop, before the body is visited), decides the layouts the op needs for its
// operands and produces for its results, converts operands that do not match
// with tpxgpu.convert_layout, and sets the result types in place. Region ops
// (scf.for/while/if, tt.reduce/scan) are handled at their boundaries.
//
//===----------------------------------------------------------------------===//
#include "ScaleGroups.h"

#include "tpx/Analysis/AxisInfo.h"
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPU.h"
#include "tpx/Conversion/TTToTPXGPU/WarpGroupDots.h"

#include "tpx/Dialect/TPXGPU/IR/SIMTLoweringInterface.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/TypeSwitch.h"

namespace tpx {
#define GEN_PASS_DEF_CONVERTTTTOTPXGPU
#include "tpx/Conversion/TTToTPXGPU/TTToTPXGPUPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;
using namespace tpx::tpxgpu;

/// Dialects whose ops the pass knows how to place: TTIR is made of these.
/// An op of another dialect that carries tensors is reported, not guessed at.
static bool isKnownDialect(Operation *op) {
  StringRef ns = op->getName().getDialectNamespace();
  return ns == "tt" || ns == "arith" || ns == "math" || ns == "scf" ||
         ns == "ub";
}

static bool hasTensors(Operation *op) {
  auto isTensor = [](Type type) { return isa<RankedTensorType>(type); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

/// Layouts other ops may take over as they are: blocked and slices of it.
/// MMA accumulators and dot operands only live right around a tt.dot.
static bool isPlainLayout(Attribute layout) {
  return isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr>(layout);
}

namespace {
class LayoutAssigner {
public:
  LayoutAssigner(MLIRContext *context, unsigned numWarps,
                 unsigned threadsPerWarp, StringRef chip)
      : context(context), numWarps(numWarps), threadsPerWarp(threadsPerWarp),
        chip(chip.str()) {}

  LogicalResult run(ModuleOp module);

  /// The dimensions of `pointers` fastest first for coalescing: by the
  /// AxisInfo contiguity of the addresses, the last dimension first unless
  /// another one is strictly more contiguous. Empty for the row-major
  /// default.
  SmallVector<unsigned> getCoalescedOrder(Value pointers) const;

private:
  LogicalResult checkInput(ModuleOp module);
  LogicalResult processFunc(tt::FuncOp func);
  LogicalResult processBlock(Block &block);
  LogicalResult processOp(Operation *op);

  LogicalResult processFor(scf::ForOp op);
  LogicalResult processWhile(scf::WhileOp op);
  LogicalResult processIf(scf::IfOp op);
  LogicalResult processWarpSpecialize(WarpSpecializeOp op);
  LogicalResult processReduce(tt::ReduceOp op);
  LogicalResult processScan(tt::ScanOp op);
  Attribute placeSourcesInFirstLayout(Operation *op, ValueRange srcs);
  LogicalResult processDot(tt::DotOp op);
  void processExpandDims(tt::ExpandDimsOp op);
  void processJoin(tt::JoinOp op);
  void processSplit(tt::SplitOp op);
  void processBroadcast(tt::BroadcastOp op);
  void processMakeRange(tt::MakeRangeOp op);
  LogicalResult processConstant(arith::ConstantOp op);
  void processElementwise(Operation *op);
  void processMemoryAccess(Operation *op);
  void placeAllDefault(Operation *op);
  void processCompanionOperand(Operation *op);
  void bracketPluginOp(Operation *op);

  Attribute getDefaultLayout(RankedTensorType type) const {
    return getDefaultBlockedLayout(context, type.getShape(),
                                   type.getElementType(), numWarps,
                                   threadsPerWarp);
  }
  static RankedTensorType withLayout(Type type, Attribute layout) {
    auto tensor = cast<RankedTensorType>(type);
    return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                                 layout);
  }
  /// Sets every tensor result of `op` to its default layout.
  void setDefaultResults(Operation *op) {
    for (Value result : op->getResults())
      if (auto tensor = dyn_cast<RankedTensorType>(result.getType()))
        result.setType(withLayout(tensor, getDefaultLayout(tensor)));
  }
  /// Makes operand `index` of `user` carry `layout`, converting before
  /// `user` when the value has another one.
  void convertOperand(Operation *user, unsigned index, Attribute layout) {
    Value value = user->getOperand(index);
    auto type = withLayout(value.getType(), layout);
    if (value.getType() == type)
      return;
    OpBuilder builder(user);
    Value converted =
        ConvertLayoutOp::create(builder, user->getLoc(), type, value);
    user->setOperand(index, converted);
  }
  void convertOperandToType(Operation *user, unsigned index, Type type) {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      convertOperand(user, index, tensor.getEncoding());
  }

  MLIRContext *context;
  unsigned numWarps;
  /// The GPU compiled for (empty: NVIDIA, as before targets were named).
  std::string chip;
  unsigned threadsPerWarp;
  /// The contiguity of the TTIR's addresses, computed before any layout.
  std::optional<AxisInfoResults> axisInfo;
};

} // namespace

/// Rejects what the pass cannot place before anything changes, naming the
/// op: tensors that already carry an encoding (the input is not TTIR, or the
/// pass ran twice) and shapes tpxgpu layouts cannot describe.
LogicalResult LayoutAssigner::checkInput(ModuleOp module) {
  auto check = [&](Operation *op, Type type) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return success();
    if (tensor.getEncoding())
      return op->emitError("convert-tt-to-tpxgpu: '")
             << op->getName() << "' has a tensor that already carries a "
             << "layout (" << type << "); the pass expects TTIR";
    if (tensor.getRank() == 0 ||
        llvm::any_of(tensor.getShape(), [](int64_t size) {
          return size <= 0 || !llvm::isPowerOf2_64(size);
        }))
      return op->emitError("convert-tt-to-tpxgpu: cannot place '")
             << op->getName() << "': tpxgpu layouts need tensors of rank >= 1 "
             << "with power-of-two dimensions, got " << type;
    return success();
  };
  WalkResult result = module.walk([&](Operation *op) {
    // A declaration has no block arguments to check; its signature does.
    if (auto func = dyn_cast<tt::FuncOp>(op))
      for (Type type : llvm::concat<const Type>(func.getArgumentTypes(),
                                                func.getResultTypes()))
        if (failed(check(op, type)))
          return WalkResult::interrupt();
    for (Type type : op->getOperandTypes())
      if (failed(check(op, type)))
        return WalkResult::interrupt();
    for (Type type : op->getResultTypes())
      if (failed(check(op, type)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Type type : block.getArgumentTypes())
          if (failed(check(op, type)))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult LayoutAssigner::run(ModuleOp module) {
  if (failed(checkInput(module)))
    return failure();
  axisInfo.emplace(module);
  if (!axisInfo->converged())
    axisInfo.reset(); // row-major layouts everywhere: correct, maybe slower
  Builder builder(context);
  module->setAttr(TPXGPUDialect::kNumWarpsAttrName,
                  builder.getI32IntegerAttr(numWarps));
  module->setAttr(TPXGPUDialect::kThreadsPerWarpAttrName,
                  builder.getI32IntegerAttr(threadsPerWarp));
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto func = dyn_cast<tt::FuncOp>(op)) {
      if (failed(processFunc(func)))
        return failure();
    } else if (hasTensors(&op) || op.getNumRegions() != 0) {
      return op.emitError("convert-tt-to-tpxgpu: cannot place '")
             << op.getName() << "' at module level; expected tt.func";
    }
  }
  return success();
}

/// Kernels take scalars and pointers; a device function that takes or
/// returns tensors gets the default layouts in its signature, which its
/// callers convert to (see tt.call in processOp).
LogicalResult LayoutAssigner::processFunc(tt::FuncOp func) {
  FunctionType type = func.getFunctionType();
  auto place = [&](Type t) -> Type {
    if (auto tensor = dyn_cast<RankedTensorType>(t))
      return withLayout(tensor, getDefaultLayout(tensor));
    return t;
  };
  SmallVector<Type> inputs, results;
  llvm::transform(type.getInputs(), std::back_inserter(inputs), place);
  llvm::transform(type.getResults(), std::back_inserter(results), place);
  func.setFunctionType(FunctionType::get(context, inputs, results));
  if (func.isExternal())
    return success();
  for (BlockArgument arg : func.getBody().front().getArguments())
    arg.setType(place(arg.getType()));
  for (Block &block : func.getBody())
    if (failed(processBlock(block)))
      return failure();
  return success();
}

LogicalResult LayoutAssigner::processBlock(Block &block) {
  // Conversions are inserted before the op being placed (and after a
  // tt.dot), never where the iterator has yet to go, so early increment
  // visits exactly the original ops.
  for (Operation &op : llvm::make_early_inc_range(block))
    if (failed(processOp(&op)))
      return failure();
  return success();
}

LogicalResult LayoutAssigner::processOp(Operation *op) {
  // Terminators of scf regions are placed by their parent, which knows the
  // types the region must produce.
  if (isa<scf::YieldOp, scf::ConditionOp, ConvertLayoutOp>(op))
    return success();
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return processFor(forOp);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return processWhile(whileOp);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return processIf(ifOp);
  if (auto split = dyn_cast<WarpSpecializeOp>(op))
    return processWarpSpecialize(split);
  if (auto reduce = dyn_cast<tt::ReduceOp>(op))
    return processReduce(reduce);
  if (auto scan = dyn_cast<tt::ScanOp>(op))
    return processScan(scan);
  if (auto dot = dyn_cast<tt::DotOp>(op))
    return processDot(dot);
  if (auto expand = dyn_cast<tt::ExpandDimsOp>(op)) {
    processExpandDims(expand);
    return success();
  }
  if (auto broadcast = dyn_cast<tt::BroadcastOp>(op)) {
    processBroadcast(broadcast);
    return success();
  }
  if (auto join = dyn_cast<tt::JoinOp>(op)) {
    processJoin(join);
    return success();
  }
  if (auto split = dyn_cast<tt::SplitOp>(op)) {
    processSplit(split);
    return success();
  }
  if (auto range = dyn_cast<tt::MakeRangeOp>(op)) {
    processMakeRange(range);
    return success();
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return processConstant(constant);
  if (auto ret = dyn_cast<tt::ReturnOp>(op)) {
    auto func = ret->getParentOfType<tt::FuncOp>();
    for (auto [index, type] : llvm::enumerate(func.getResultTypes()))
      convertOperandToType(op, index, type);
    return success();
  }
  if (isa<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp, tt::AtomicCASOp>(op)) {
    processMemoryAccess(op);
    return success();
  }
  // Callees have default signatures (processFunc).
  if (isa<tt::CallOp>(op)) {
    placeAllDefault(op);
    return success();
  }
  if (isa<tt::CatOp, tt::GatherOp, tt::HistogramOp>(op)) {
    processCompanionOperand(op);
    return success();
  }

  if (!hasTensors(op)) {
    // Scalar code; its regions (tt.map_elementwise bodies, scalar scf)
    // may still hold tensors.
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (failed(processBlock(block)))
          return failure();
    return success();
  }
  if (!isKnownDialect(op) && op->getNumRegions() == 0 &&
      getSIMTLoweringInterface(op)) {
    bracketPluginOp(op);
    return success();
  }
  // tt.map_elementwise's body works on scalars; it is placed like any
  // elementwise op.
  if (!isKnownDialect(op) ||
      (op->getNumRegions() != 0 && !isa<tt::MapElementwiseOp>(op)))
    return op->emitError("convert-tt-to-tpxgpu: cannot place the tensor "
                         "layouts of '")
           << op->getName() << "'; the pass knows tt, arith, math, ub and "
           << "scf (for, while, if) ops";

  // Elementwise: every tensor operand and result has one shape.
  std::optional<ArrayRef<int64_t>> shape;
  bool sameShape = true;
  for (Type type :
       llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      continue;
    if (!shape)
      shape = tensor.getShape();
    else if (*shape != tensor.getShape())
      sameShape = false;
  }
  if (sameShape) {
    processElementwise(op);
    return success();
  }
  // Shape ops without a layout relation the pass exploits (trans, reshape,
  // descriptor ops, dot_scaled): the operands stay as they are and the
  // results start in the default layout.
  setDefaultResults(op);
  return success();
}

/// tt.cat, tt.gather and tt.histogram keep their source's layout (the SIMT
/// lowering moves their data through shared memory anyway), but one
/// operand goes element for element with another tensor and must share
/// its layout: cat's rhs with its lhs (the verifier wants equal types),
/// gather's indices with the result (register r of both is one element),
/// histogram's mask with its source. Results start in the default layout,
/// except that a gather's takes its indices' when that is a plain one,
/// which saves converting them.
void LayoutAssigner::processCompanionOperand(Operation *op) {
  setDefaultResults(op);
  if (auto cat = dyn_cast<tt::CatOp>(op)) {
    convertOperandToType(op, 1, cat.getLhs().getType());
  } else if (auto gather = dyn_cast<tt::GatherOp>(op)) {
    Attribute indices = gather.getIndices().getType().getEncoding();
    if (isPlainLayout(indices))
      gather.getResult().setType(withLayout(gather.getType(), indices));
    convertOperandToType(op, 1, gather.getType());
  } else if (auto histogram = dyn_cast<tt::HistogramOp>(op)) {
    if (histogram.getMask())
      convertOperandToType(op, 1, histogram.getSrc().getType());
  }
}

/// Accesses through a tensor of pointers are coalesced in the default
/// layout of the pointers; the mask, the other/stored values and the loaded
/// result are element-for-element companions of the pointers and must share
/// their layout (the tt verifiers insist). Through a block pointer there is
/// no pointer tensor and the result takes its own default layout.
SmallVector<unsigned> LayoutAssigner::getCoalescedOrder(Value pointers) const {
  auto type = dyn_cast<RankedTensorType>(pointers.getType());
  if (!axisInfo || !type || type.getRank() < 2)
    return {};
  AxisInfo info = axisInfo->getAxisInfo(pointers);
  unsigned rank = type.getRank();
  if (info.getRank() != rank)
    return {};
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < rank; ++i)
    order.push_back(rank - 1 - i);
  // Stable: among equally contiguous dimensions the later one stays first.
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return info.contiguity[a] > info.contiguity[b];
  });
  if (order.front() == rank - 1)
    return {};
  return order;
}

void LayoutAssigner::processMemoryAccess(Operation *op) {
  auto pointers = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!pointers) {
    placeAllDefault(op);
    return;
  }
  SmallVector<unsigned> order = getCoalescedOrder(op->getOperand(0));
  // A tensor smaller than a vector per thread spreads over every thread
  // (at least one element each, as Triton's coalescing does) rather than
  // leaving threads replicas of others. For loads after stores this is
  // correctness, not only speed: a replica in another warp would load an
  // element before its owner's store of it lands. Atomics, run one element
  // at a time in its owner, get more threads to run them (256 bins on 128
  // threads: two each, not four on 64) -- unless their old values are
  // used, which would be converted back for their users.
  unsigned maxVector = 0;
  auto atomic = isa<tt::AtomicRMWOp, tt::AtomicCASOp>(op);
  if (!atomic || op->use_empty())
    maxVector = static_cast<unsigned>(std::max<int64_t>(
        1, pointers.getNumElements() / (int64_t(numWarps) * threadsPerWarp)));
  Attribute layout =
      order.empty() && !maxVector
          ? getDefaultLayout(pointers)
          : getDefaultBlockedLayout(context, pointers.getShape(),
                                    pointers.getElementType(), numWarps,
                                    threadsPerWarp, order, maxVector);
  // A dot_scaled operand: each thread's elements in as few scale groups
  // as the layout allows (ScaleGroups.h).
  if (auto load = dyn_cast<tt::LoadOp>(op))
    if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout))
      if (std::optional<ScaleGroups> groups = getScaleGroups(load))
        layout =
            keepScaleGroupsInThreads(blocked, pointers.getShape(), *groups);
  for (OpOperand &operand : op->getOpOperands())
    if (isa<RankedTensorType>(operand.get().getType()))
      convertOperand(op, operand.getOperandNumber(), layout);
  for (Value result : op->getResults())
    if (isa<RankedTensorType>(result.getType()))
      result.setType(withLayout(result.getType(), layout));
}

/// An op of a dialect that lowers itself on the SIMT path after this pass
/// (SIMTLoweringInterface.h) keeps its unencoded tensor types, which its
/// verifiers know: each tensor operand is cast from the layout its producer
/// has, each tensor result to its default layout for its users. The
/// dialect's pass replaces the op and both casts.
void LayoutAssigner::bracketPluginOp(Operation *op) {
  OpBuilder builder(op);
  for (OpOperand &operand : op->getOpOperands()) {
    auto tensor = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!tensor || !tensor.getEncoding())
      continue;
    auto plain =
        RankedTensorType::get(tensor.getShape(), tensor.getElementType());
    operand.set(UnrealizedConversionCastOp::create(builder, op->getLoc(),
                                                   TypeRange{plain},
                                                   ValueRange{operand.get()})
                    .getResult(0));
  }
  builder.setInsertionPointAfter(op);
  for (Value result : op->getResults()) {
    auto tensor = dyn_cast<RankedTensorType>(result.getType());
    if (!tensor)
      continue;
    auto placed = UnrealizedConversionCastOp::create(
        builder, op->getLoc(),
        TypeRange{withLayout(tensor, getDefaultLayout(tensor))},
        ValueRange{result});
    result.replaceAllUsesExcept(placed.getResult(0), placed);
  }
}

void LayoutAssigner::placeAllDefault(Operation *op) {
  for (OpOperand &operand : op->getOpOperands())
    if (auto tensor = dyn_cast<RankedTensorType>(operand.get().getType()))
      convertOperand(op, operand.getOperandNumber(), getDefaultLayout(tensor));
  setDefaultResults(op);
}

/// True when `value` is a broadcast of a smaller tensor, seen through
/// reshapes, conversions and elementwise ops of such values and splat
/// constants: tpxgpu-remove-layout-conversions recomputes it in another
/// layout from the small tensor, so converting it costs little.
static bool isStretched(Value value, unsigned depth = 0) {
  Operation *def = value.getDefiningOp();
  if (!def || depth > 16)
    return false;
  if (isa<tt::BroadcastOp>(def))
    return true;
  if (isa<tt::ReshapeOp, tt::TransOp, ConvertLayoutOp>(def))
    return isStretched(def->getOperand(0), depth + 1);
  if (!def->hasTrait<OpTrait::Elementwise>() || !isMemoryEffectFree(def))
    return false;
  bool stretched = false;
  for (Value operand : def->getOperands()) {
    if (!isa<RankedTensorType>(operand.getType()))
      continue;
    auto constant = operand.getDefiningOp<arith::ConstantOp>();
    auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                          : DenseElementsAttr();
    if (dense && dense.isSplat())
      continue;
    if (!isStretched(operand, depth + 1))
      return false;
    stretched = true;
  }
  return stretched;
}

/// Where an elementwise op whose operands disagree meets: the plain layout
/// of its first operand that is not a broadcast when another is one, else
/// `fallback`. (Walked only on disagreement: isStretched looks back through
/// the operands' producers.)
static Attribute getMeetingLayout(Operation *op, Attribute fallback) {
  Attribute unstretched;
  bool anyStretched = false;
  for (Value operand : op->getOperands()) {
    auto tensor = dyn_cast<RankedTensorType>(operand.getType());
    if (!tensor)
      continue;
    if (isStretched(operand))
      anyStretched = true;
    else if (!unstretched && isPlainLayout(tensor.getEncoding()))
      unstretched = tensor.getEncoding();
  }
  return anyStretched && unstretched ? unstretched : fallback;
}

void LayoutAssigner::processElementwise(Operation *op) {
  // Take the operands' layout when they agree on a plain one, so chains of
  // elementwise ops need no conversions. Otherwise meet in the plain layout
  // of the first operand that is not a broadcast (dot_scaled's scales
  // times a loaded operand: the scales, not the operand, are converted), or
  // failing that in the default layout of the first tensor operand.
  Attribute common;
  RankedTensorType first;
  bool agree = true;
  for (Value operand : op->getOperands()) {
    auto tensor = dyn_cast<RankedTensorType>(operand.getType());
    if (!tensor)
      continue;
    if (!first) {
      first = tensor;
      common = tensor.getEncoding();
    } else if (tensor.getEncoding() != common) {
      agree = false;
    }
  }
  if (!first) {
    // Only results are tensors (splat, constants built by other ops).
    setDefaultResults(op);
    return;
  }
  Attribute layout = agree && isPlainLayout(common)
                         ? common
                         : getMeetingLayout(op, getDefaultLayout(first));
  // Inline asm and map_elementwise with pack > 1 see a thread's consecutive
  // registers together. Small tensors spread one element per thread
  // (processMemoryAccess) would leave every pack padded; a layout of
  // full vectors keeps neighbouring elements in one pack, as on the CPU.
  unsigned pack = 1;
  if (auto asmOp = dyn_cast<tt::ElementwiseInlineAsmOp>(op))
    pack = asmOp.getPackedElement();
  else if (auto map = dyn_cast<tt::MapElementwiseOp>(op))
    pack = map.getPack();
  if (pack > 1) {
    SmallVector<unsigned> perThread =
        getElemsPerThread(layout, first.getShape());
    if (perThread.empty() || perThread.back() % pack != 0) {
      auto vectors = getDefaultBlockedLayout(
          context, first.getShape(), first.getElementType(), numWarps,
          threadsPerWarp, /*fastest=*/{}, /*maxVector=*/0);
      if (vectors.getSizePerThread().back() % pack == 0)
        layout = vectors;
    }
  }
  for (OpOperand &operand : op->getOpOperands())
    if (isa<RankedTensorType>(operand.get().getType()))
      convertOperand(op, operand.getOperandNumber(), layout);
  for (Value result : op->getResults())
    if (isa<RankedTensorType>(result.getType()))
      result.setType(withLayout(result.getType(), layout));
}

/// A range consumed only by expand_dims along one axis (the usual
/// `offs[:, None]`) starts in the slice layout the expand_dims needs, so no
/// conversion is needed there.
void LayoutAssigner::processMakeRange(tt::MakeRangeOp op) {
  Attribute layout;
  for (Operation *user : op->getUsers()) {
    auto expand = dyn_cast<tt::ExpandDimsOp>(user);
    if (!expand) {
      layout = {};
      break;
    }
    Attribute parent = getDefaultLayout(expand.getType());
    Attribute slice =
        SliceEncodingAttr::get(context, expand.getAxisAttr().getInt(), parent);
    if (layout && layout != slice) {
      layout = {};
      break;
    }
    layout = slice;
  }
  if (!layout)
    layout = getDefaultLayout(op.getType());
  op.getResult().setType(withLayout(op.getType(), layout));
}

LogicalResult LayoutAssigner::processConstant(arith::ConstantOp op) {
  auto tensor = dyn_cast<RankedTensorType>(op.getType());
  if (!tensor)
    return success();
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense)
    return op.emitError("convert-tt-to-tpxgpu: cannot place a tensor "
                        "constant whose value is not a dense elements "
                        "attribute: ")
           << op.getValue();
  RankedTensorType type = withLayout(tensor, getDefaultLayout(tensor));
  op.setValueAttr(dense.reshape(type));
  op.getResult().setType(type);
  return success();
}

/// expand_dims reads its operand in slice<{dim = axis, parent = L}> and
/// produces L. An operand already in such a slice gives its parent back;
/// otherwise L is the default layout of the result and the operand is
/// converted to the slice.
/// Both operands in the first one's blocked layout (the default where it
/// has another kind); the result holds each pair in one thread's adjacent
/// registers (getJoinedLayout): a register interleaving.
void LayoutAssigner::processJoin(tt::JoinOp op) {
  auto type = op.getLhs().getType();
  auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding());
  if (!blocked)
    blocked = cast<BlockedEncodingAttr>(getDefaultLayout(type));
  convertOperand(op, 0, blocked);
  convertOperand(op, 1, blocked);
  op.getResult().setType(withLayout(op.getType(), getJoinedLayout(blocked)));
}

/// The source with each pair in one thread's adjacent registers (as a join
/// leaves it; else converted to the joined default of the results), whose
/// even and odd registers are the results.
void LayoutAssigner::processSplit(tt::SplitOp op) {
  auto type = op.getSrc().getType();
  auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding());
  BlockedEncodingAttr results = blocked ? getSplitLayout(blocked) : nullptr;
  if (!results) {
    results =
        cast<BlockedEncodingAttr>(getDefaultLayout(op.getOutLHS().getType()));
    convertOperand(op, 0, getJoinedLayout(results));
  }
  for (Value result : op.getResults())
    result.setType(withLayout(result.getType(), results));
}

void LayoutAssigner::processExpandDims(tt::ExpandDimsOp op) {
  unsigned axis = op.getAxisAttr().getInt();
  auto srcType = op.getSrc().getType();
  Attribute parent;
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(srcType.getEncoding());
      slice && slice.getDim() == axis)
    parent = slice.getParent();
  else
    parent = getDefaultLayout(op.getType());
  convertOperand(op, 0, SliceEncodingAttr::get(context, axis, parent));
  op.getResult().setType(withLayout(op.getType(), parent));
}

/// A broadcast keeps the layout across the stretch: the result takes the
/// default layout of its own (full) shape and the small operand is
/// converted to it, which is cheaper than converting the full tensor later
/// for its coalesced users.
void LayoutAssigner::processBroadcast(tt::BroadcastOp op) {
  Attribute layout = getDefaultLayout(op.getType());
  convertOperand(op, 0, layout);
  op.getResult().setType(withLayout(op.getType(), layout));
}

/// A reduction keeps its operands' layout L and produces
/// slice<{dim = axis, parent = L}>; a 1-D reduction produces scalars. The
/// combine region works on scalars and is left alone.
/// The layout of the first of `srcs` (the default one when it has no plain
/// layout), into which every source of `op` is converted.
Attribute LayoutAssigner::placeSourcesInFirstLayout(Operation *op,
                                                    ValueRange srcs) {
  auto first = cast<RankedTensorType>(srcs.front().getType());
  Attribute layout = first.getEncoding();
  if (!isPlainLayout(layout))
    layout = getDefaultLayout(first);
  for (unsigned i = 0, e = srcs.size(); i < e; ++i)
    convertOperand(op, i, layout);
  return layout;
}

LogicalResult LayoutAssigner::processReduce(tt::ReduceOp op) {
  Attribute layout = placeSourcesInFirstLayout(op, op.getSrcs());
  if (cast<RankedTensorType>(op.getSrcs().front().getType()).getRank() > 1) {
    Attribute slice = SliceEncodingAttr::get(context, op.getAxis(), layout);
    for (Value result : op.getResults())
      result.setType(withLayout(result.getType(), slice));
  }
  return processBlock(op.getCombineOp().front());
}

/// A scan keeps its operands' layout.
LogicalResult LayoutAssigner::processScan(tt::ScanOp op) {
  Attribute layout = placeSourcesInFirstLayout(op, op.getSrcs());
  for (Value result : op.getResults())
    result.setType(withLayout(result.getType(), layout));
  return processBlock(op.getCombineOp().front());
}

/// tt.dot reads A and B in dot_op layouts of an MMA accumulator layout and
/// accumulates in that layout; the result is converted back to the default
/// blocked layout right away so that the rest of the kernel (and loops that
/// carry the accumulator) only see plain layouts. The only MMA instruction
/// the code generator emits is mma.sync.m16n8k16 with f16 or bf16 operands
/// (both the same) accumulating in f32, or f16 for f16 operands, so other
/// element types, a K that is not a multiple of 16, and tiles no mma.sync
/// layout fits (not 2-D, not whole 16x8 fragments, 64-lane warps) use a
/// blocked-parent (FMA) dot instead.
/// True when `op` is one of a chain of dots: its A operand is computed
/// from another dot's result, or its result feeds another dot's A operand
/// -- attention's P = softmax(Q K^T) feeding P V.
static bool isChainedDot(tt::DotOp op) {
  return isComputedFromDot(op.getA()) || feedsDotOperandA(op.getResult());
}

LogicalResult LayoutAssigner::processDot(tt::DotOp op) {
  auto resultType = op.getType();
  Attribute blocked = getDefaultLayout(resultType);
  Type aElement = op.getA().getType().getElementType();
  Type bElement = op.getB().getType().getElementType();
  Type accElement = resultType.getElementType();
  bool mmaTypes =
      aElement == bElement && (aElement.isF16() || aElement.isBF16()) &&
      (accElement.isF32() || (aElement.isF16() && accElement.isF16()));
  bool mmaK = op.getA().getType().getShape().back() % 16 == 0;
  Attribute accumulator;
  int64_t k = op.getA().getType().getShape().back();
  bool amd = StringRef(chip).starts_with("gfx");
  // CDNA4's 8-bit MFMAs take e4m3 and e5m2 in any pairing, its integer
  // ones i8 x i8 into i32. f32 operands (tf32 or ieee) stay on FMAs at
  // full f32 precision: CDNA4 dropped CDNA3's xf32 MFMAs, and the f32
  // ones (v_mfma_f32_{32x32x2,16x16x4}_f32) are not lowered yet
  // (docs/amd-target.md).
  bool fp8Types = isa<Float8E4M3FNType, Float8E5M2Type>(aElement) &&
                  isa<Float8E4M3FNType, Float8E5M2Type>(bElement);
  bool i8Types = aElement.isInteger(8) && bElement.isInteger(8) &&
                 accElement.isInteger(32);
  if (amd && (((mmaTypes || fp8Types) && accElement.isF32()) || i8Types)) {
    accumulator = chooseAmdMfmaLayout(context, chip, resultType.getShape(), k,
                                      numWarps, isChainedDot(op), aElement);
  } else if (!amd && mmaTypes && mmaK) {
    accumulator =
        chooseNvidiaMmaLayout(context, resultType.getShape(), numWarps,
                              threadsPerWarp, isChainedDot(op));
  }
  Attribute aLayout, bLayout;
  if (auto mfma = dyn_cast_if_present<AmdMfmaEncodingAttr>(accumulator)) {
    unsigned kWidth = getMfmaOperandKWidth(mfma);
    aLayout = DotOperandEncodingAttr::get(context, 0, accumulator, kWidth);
    bLayout = DotOperandEncodingAttr::get(context, 1, accumulator, kWidth);
  } else if (accumulator) {
    aLayout = DotOperandEncodingAttr::get(
        context, 0, accumulator,
        getMmaOperandKWidth(op.getA().getType().getElementType()));
    bLayout = DotOperandEncodingAttr::get(
        context, 1, accumulator,
        getMmaOperandKWidth(op.getB().getType().getElementType()));
  } else {
    accumulator = blocked;
    aLayout = DotOperandEncodingAttr::get(context, 0, blocked, 0);
    bLayout = DotOperandEncodingAttr::get(context, 1, blocked, 0);
  }
  convertOperand(op, 0, aLayout);
  convertOperand(op, 1, bLayout);
  convertOperand(op, 2, accumulator);
  Value result = op.getResult();
  result.setType(withLayout(resultType, accumulator));
  if (accumulator == blocked)
    return success();
  OpBuilder builder(op);
  builder.setInsertionPointAfter(op);
  auto back = ConvertLayoutOp::create(builder, op.getLoc(),
                                      withLayout(resultType, blocked), result);
  result.replaceAllUsesExcept(back, back);
  return success();
}

/// Hopper multiplies 8-bit floats only on wgmma. A dot of them that wgmma
/// cannot run (a tile whole warp groups do not cover, K not a multiple of
/// 32, a batched dot) multiplies their f16 values instead: every e4m3 and
/// e5m2 value is exactly an f16, so the products and sums are those of the
/// fp8 dot, on mma.sync or FMAs. (Triton's Hopper backend widens them the
/// same way off wgmma.)
static void widenFp8DotsOffWarpGroups(ModuleOp module, unsigned numWarps) {
  module.walk([&](tt::DotOp dot) {
    auto isFp8 = [](Value v) {
      return isa<Float8E4M3FNType, Float8E5M2Type>(
          cast<RankedTensorType>(v.getType()).getElementType());
    };
    if ((!isFp8(dot.getA()) && !isFp8(dot.getB())) ||
        tpxgpu::canUseWarpGroupDot(dot, numWarps))
      return;
    OpBuilder b(dot);
    for (unsigned i = 0; i < 2; ++i) {
      Value operand = dot->getOperand(i);
      if (!isFp8(operand))
        continue;
      auto type = cast<RankedTensorType>(operand.getType());
      auto f16 = RankedTensorType::get(type.getShape(), b.getF16Type(),
                                       type.getEncoding());
      dot->setOperand(i, tt::FpToFpOp::create(b, dot.getLoc(), f16, operand,
                                              tt::RoundingModeAttr()));
    }
  });
}

/// Loop-carried values keep the layout of their init: the region argument
/// and the loop result take the init's type, and the yielded value is
/// converted to it at the end of the body.
LogicalResult LayoutAssigner::processFor(scf::ForOp op) {
  for (auto [init, arg, result] :
       llvm::zip(op.getInitArgs(), op.getRegionIterArgs(), op.getResults())) {
    arg.setType(init.getType());
    result.setType(init.getType());
  }
  if (failed(processBlock(*op.getBody())))
    return failure();
  Operation *yield = op.getBody()->getTerminator();
  for (auto [index, arg] : llvm::enumerate(op.getRegionIterArgs()))
    convertOperandToType(yield, index, arg.getType());
  return success();
}

/// The "before" arguments take the inits' types (and the yield of "after"
/// is converted to them); the "after" arguments and the results take the
/// types scf.condition forwards.
LogicalResult LayoutAssigner::processWhile(scf::WhileOp op) {
  Block &before = op.getBefore().front();
  Block &after = op.getAfter().front();
  for (auto [init, arg] : llvm::zip(op.getInits(), before.getArguments()))
    arg.setType(init.getType());
  if (failed(processBlock(before)))
    return failure();
  scf::ConditionOp condition = op.getConditionOp();
  for (auto [value, arg, result] :
       llvm::zip(condition.getArgs(), after.getArguments(), op.getResults())) {
    arg.setType(value.getType());
    result.setType(value.getType());
  }
  if (failed(processBlock(after)))
    return failure();
  Operation *yield = after.getTerminator();
  for (auto [index, arg] : llvm::enumerate(before.getArguments()))
    convertOperandToType(yield, index, arg.getType());
  return success();
}

/// Results take the types the "then" branch yields; the "else" branch is
/// converted to them.
LogicalResult LayoutAssigner::processIf(scf::IfOp op) {
  if (failed(processBlock(*op.thenBlock())))
    return failure();
  if (op.elseBlock() && failed(processBlock(*op.elseBlock())))
    return failure();
  if (op.getNumResults() == 0)
    return success();
  Operation *thenYield = op.thenBlock()->getTerminator();
  Operation *elseYield = op.elseBlock()->getTerminator();
  for (auto [index, result] : llvm::enumerate(op.getResults())) {
    Type type = thenYield->getOperand(index).getType();
    convertOperandToType(elseYield, index, type);
    result.setType(type);
  }
  return success();
}

/// Each partition's tensors get layouts over the partition's own warps.
LogicalResult LayoutAssigner::processWarpSpecialize(WarpSpecializeOp op) {
  unsigned moduleWarps = numWarps;
  auto restore = llvm::make_scope_exit([&] { numWarps = moduleWarps; });
  for (auto [region, warps] : llvm::zip(op.getPartitions(), op.getNumWarps())) {
    numWarps = warps;
    if (failed(processBlock(region.front())))
      return failure();
  }
  return success();
}

namespace {
struct ConvertTTToTPXGPUPass
    : tpx::impl::ConvertTTToTPXGPUBase<ConvertTTToTPXGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (numWarps == 0 || !llvm::isPowerOf2_32(numWarps)) {
      module.emitError("convert-tt-to-tpxgpu: num-warps must be a positive "
                       "power of two, got ")
          << unsigned(numWarps);
      return signalPassFailure();
    }
    if (threadsPerWarp != 32 && threadsPerWarp != 64) {
      module.emitError("convert-tt-to-tpxgpu: threads-per-warp must be 32 "
                       "(NVIDIA) or 64 (AMD CDNA), got ")
          << unsigned(threadsPerWarp);
      return signalPassFailure();
    }
    StringRef chip = target;
    if (!chip.empty()) {
      bool amd = chip.starts_with("gfx");
      if (!amd && !chip.starts_with("sm_")) {
        module.emitError("convert-tt-to-tpxgpu: target must be an NVIDIA "
                         "(sm_<N>) or AMD (gfx<N>) GPU, got '")
            << chip << "'";
        return signalPassFailure();
      }
      // CDNA runs wave64; RDNA's wave32 is not a target of tpx.
      if (threadsPerWarp != (amd ? 64u : 32u)) {
        module.emitError("convert-tt-to-tpxgpu: ")
            << chip << " runs " << (amd ? 64 : 32)
            << " threads per warp, threads-per-warp is "
            << unsigned(threadsPerWarp);
        return signalPassFailure();
      }
      module->setAttr(TPXGPUDialect::kTargetAttrName,
                      StringAttr::get(&getContext(), chip));
    }
    if (threadsPerWarp == 32)
      widenFp8DotsOffWarpGroups(module, numWarps);
    LayoutAssigner assigner(&getContext(), numWarps, threadsPerWarp, chip);
    if (failed(assigner.run(module)))
      signalPassFailure();
  }
};
} // namespace
