//===- TLXDialect.cpp - tlx dialect, types and verifiers ------------------===//
//
// The verifiers reject misuse at the op that commits it, so a kernel author
// sees the Python line (every op carries it as its location) instead of a
// wrong answer: a view index out of range, a store of the wrong shape, a
// dot on buffers whose shapes or element types do not fit.
//
//===----------------------------------------------------------------------===//
#include "TLX/TLXDialect.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tpx::tlx;

#include "TLX/TLXDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "TLX/TLXTypes.cpp.inc"

#define GET_OP_CLASSES
#include "TLX/TLXOps.cpp.inc"

void TLXDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "TLX/TLXOps.cpp.inc"
      >();
}

void TLXDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "TLX/TLXTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// `<3x64x64xf16>`.
Type BufferType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    shape, elementType);
}

void BufferType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t size : getShape())
    printer << size << 'x';
  printer << getElementType() << '>';
}

LogicalResult BufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty())
    return emitError() << "a buffer needs at least one dimension";
  if (llvm::any_of(shape, [](int64_t size) { return size <= 0; }))
    return emitError() << "buffer dimensions must be positive";
  if (!elementType.isIntOrFloat())
    return emitError() << "buffer elements must be integers or floats, got "
                       << elementType;
  return success();
}

int64_t BufferType::getNumElements() const {
  int64_t count = 1;
  for (int64_t size : getShape())
    count *= size;
  return count;
}

int64_t BufferType::getSizeInBytes() const {
  return getNumElements() *
         ((getElementType().getIntOrFloatBitWidth() + 7) / 8);
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

LogicalResult LocalAllocOp::verify() {
  BufferType type = getResult().getType();
  if (type.getShape().size() < 2)
    return emitOpError("allocates buffers of rank 1 or more: the leading "
                       "dimension counts buffers, got ")
           << type;
  if (Value reuse = getReuse()) {
    auto reused = cast<BufferType>(reuse.getType());
    if (reused.getSizeInBytes() < type.getSizeInBytes())
      return emitOpError("reuses ")
             << reused.getSizeInBytes() << " bytes (" << reused
             << ") for buffers of " << type.getSizeInBytes() << " bytes ("
             << type << ")";
    if (!reuse.getDefiningOp<LocalAllocOp>())
      return emitOpError("may only reuse another local_alloc's buffers");
  }
  return success();
}

LogicalResult LocalViewOp::verify() {
  BufferType source = getBuffers().getType();
  BufferType result = getResult().getType();
  if (source.getShape().size() < 2 ||
      source.getShape().drop_front() != result.getShape() ||
      source.getElementType() != result.getElementType())
    return emitOpError("of ") << source << " must be a buffer of its trailing "
                              << "dimensions, not " << result;
  if (std::optional<int64_t> index = getConstantIntValue(getIndex())) {
    int64_t value = *index;
    if (value < 0 || value >= source.getShape().front())
      return emitOpError("index ")
             << value << " is out of range: " << source << " holds "
             << source.getShape().front() << " buffers";
  }
  return success();
}

LogicalResult LocalTransOp::verify() {
  ArrayRef<int64_t> shape = getSrc().getType().getShape();
  ArrayRef<int32_t> order = getOrder();
  if (order.size() != shape.size())
    return emitOpError("order has ")
           << order.size() << " entries for a buffer of rank " << shape.size();
  SmallVector<int64_t> permuted;
  SmallVector<bool> seen(shape.size(), false);
  for (int32_t dim : order) {
    if (dim < 0 || dim >= static_cast<int32_t>(shape.size()) || seen[dim])
      return emitOpError("order must be a permutation of 0..")
             << shape.size() - 1;
    seen[dim] = true;
    permuted.push_back(shape[dim]);
  }
  BufferType result = getResult().getType();
  if (result.getShape() != ArrayRef<int64_t>(permuted) ||
      result.getElementType() != getSrc().getType().getElementType())
    return emitOpError("result must be the permuted source buffer");
  return success();
}

LogicalResult LocalSliceOp::verify() {
  BufferType source = getSrc().getType();
  BufferType result = getResult().getType();
  ArrayRef<int64_t> offsets = getOffsets();
  if (offsets.size() != source.getShape().size() ||
      result.getShape().size() != source.getShape().size())
    return emitOpError("offsets and result must have the source's rank ")
           << source.getShape().size();
  if (result.getElementType() != source.getElementType())
    return emitOpError("cannot change the element type (use "
                       "local_reinterpret)");
  for (auto [dim, offset] : llvm::enumerate(offsets))
    if (offset < 0 || offset + result.getShape()[dim] > source.getShape()[dim])
      return emitOpError("slice [")
             << offset << ", " << offset + result.getShape()[dim]
             << ") of dimension " << dim << " lies outside the source's "
             << source.getShape()[dim] << " elements";
  return success();
}

LogicalResult LocalReinterpretOp::verify() {
  BufferType source = getSrc().getType();
  BufferType result = getResult().getType();
  if (result.getSizeInBytes() > source.getSizeInBytes())
    return emitOpError("views ")
           << result.getSizeInBytes() << " bytes (" << result << ") of a "
           << source.getSizeInBytes() << "-byte buffer (" << source << ")";
  return success();
}

/// A tensor that matches the buffer element for element.
static LogicalResult verifyTensorOfBuffer(Operation *op, BufferType buffer,
                                          RankedTensorType tensor,
                                          StringRef what) {
  if (tensor.getShape() != buffer.getShape() ||
      tensor.getElementType() != buffer.getElementType())
    return op->emitOpError() << what << " " << tensor << " does not match the "
                             << "buffer " << buffer;
  return success();
}

LogicalResult LocalLoadOp::verify() {
  return verifyTensorOfBuffer(*this, getBuffer().getType(),
                              getResult().getType(), "result");
}

LogicalResult LocalStoreOp::verify() {
  return verifyTensorOfBuffer(*this, getBuffer().getType(),
                              cast<RankedTensorType>(getValue().getType()),
                              "value");
}

//===----------------------------------------------------------------------===//
// Async copies
//===----------------------------------------------------------------------===//

LogicalResult AsyncLoadOp::verify() {
  auto ptrs = cast<RankedTensorType>(getPtrs().getType());
  BufferType buffer = getBuffer().getType();
  auto pointee =
      cast<tpx::tt::PointerType>(ptrs.getElementType()).getPointeeType();
  if (ptrs.getShape() != buffer.getShape() ||
      pointee != buffer.getElementType())
    return emitOpError("pointers ")
           << ptrs << " do not match the buffer " << buffer;
  if (Value mask = getMask())
    if (cast<RankedTensorType>(mask.getType()).getShape() != ptrs.getShape())
      return emitOpError("mask must have the pointers' shape");
  if (Value other = getOther())
    if (failed(verifyTensorOfBuffer(
            *this, buffer, cast<RankedTensorType>(other.getType()), "other")))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Async dots
//===----------------------------------------------------------------------===//

static ArrayRef<int64_t> getShapeOf(Type type) {
  if (auto buffer = dyn_cast<BufferType>(type))
    return buffer.getShape();
  return cast<RankedTensorType>(type).getShape();
}

static Type getElementTypeOf(Type type) {
  if (auto buffer = dyn_cast<BufferType>(type))
    return buffer.getElementType();
  return cast<RankedTensorType>(type).getElementType();
}

LogicalResult AsyncDotOp::verify() {
  ArrayRef<int64_t> a = getShapeOf(getA().getType());
  ArrayRef<int64_t> b = getShapeOf(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  if (a.size() != 2 || b.size() != 2 || c.getRank() != 2)
    return emitOpError("multiplies 2-D operands");
  if (a[1] != b[0] || c.getShape()[0] != a[0] || c.getShape()[1] != b[1])
    return emitOpError("shapes do not fit: ")
           << a[0] << "x" << a[1] << " @ " << b[0] << "x" << b[1] << " + "
           << c.getShape()[0] << "x" << c.getShape()[1];
  Type aElement = getElementTypeOf(getA().getType());
  Type bElement = getElementTypeOf(getB().getType());
  bool bothFP8 = llvm::isa<Float8E4M3FNType, Float8E5M2Type>(aElement) &&
                 llvm::isa<Float8E4M3FNType, Float8E5M2Type>(bElement);
  if (aElement != bElement && !bothFP8)
    return emitOpError("operands must have one element type, got ")
           << aElement << " and " << bElement;
  if (getD().getType() != c)
    return emitOpError("result must have the accumulator's type ") << c;
  return success();
}

void AsyncDotWaitOp::build(OpBuilder &builder, OperationState &state,
                           int32_t pendings, ValueRange inputs) {
  build(builder, state, inputs.getTypes(), pendings, inputs);
}

LogicalResult AsyncDotWaitOp::verify() {
  if (getInputs().getTypes() != getOutputs().getTypes())
    return emitOpError("results must have the inputs' types");
  return success();
}

//===----------------------------------------------------------------------===//
// mbarriers and TMA
//===----------------------------------------------------------------------===//

LogicalResult BarriersType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t count) {
  if (count <= 0)
    return emitError() << "a barrier allocation holds at least one barrier";
  return success();
}

LogicalResult BarrierViewOp::verify() {
  int64_t count = getBarriers().getType().getCount();
  if (std::optional<int64_t> index = getConstantIntValue(getIndex()))
    if (*index < 0 || *index >= count)
      return emitOpError("index ") << *index << " is out of range: there are "
                                   << count << " barriers";
  return success();
}

/// The descriptor's block is the buffer's shape and element type, and one
/// offset is given per dimension.
static LogicalResult verifyDescriptorCopy(Operation *op, Type descType,
                                          size_t numOffsets,
                                          BufferType buffer) {
  RankedTensorType block =
      cast<tpx::tt::TensorDescType>(descType).getBlockType();
  if (block.getShape() != buffer.getShape() ||
      block.getElementType() != buffer.getElementType())
    return op->emitOpError("descriptor block ")
           << block << " does not match the buffer " << buffer;
  if (numOffsets != block.getShape().size())
    return op->emitOpError("takes ")
           << block.getShape().size() << " offsets, one per dimension, not "
           << numOffsets;
  return success();
}

//===----------------------------------------------------------------------===//
// Thread-block clusters
//===----------------------------------------------------------------------===//

/// A CTA rank (or mask of ranks) only means something in a kernel launched
/// in clusters; a constant one must name CTAs of the cluster.
static LogicalResult verifyClusterOperand(Operation *op, Value value,
                                          StringRef what, bool isMask) {
  unsigned size = tpx::tpxgpu::getModuleClusterSize(op);
  if (size < 2)
    return op->emitOpError()
           << what << " needs a kernel launched in thread-block clusters "
           << "(the launch option ctas_per_cga); this one runs clusters of "
              "one CTA";
  APInt constant;
  if (!matchPattern(value, m_ConstantInt(&constant)))
    return success();
  int64_t v = constant.getSExtValue();
  if (isMask ? (v <= 0 || v >= (int64_t(1) << size)) : (v < 0 || v >= size))
    return op->emitOpError()
           << what << " " << v << " names no CTA of a cluster of " << size;
  return success();
}

LogicalResult BarrierArriveOp::verify() {
  if (Value rank = getRemoteCtaRank())
    return verifyClusterOperand(*this, rank, "remote_cta_rank",
                                /*isMask=*/false);
  return success();
}

LogicalResult ClusterBarrierOp::verify() {
  if ((*this)->getParentOfType<AsyncTaskOp>())
    return emitOpError("inside an async task: every thread of every CTA of "
                       "the cluster must reach a cluster barrier, so it "
                       "belongs outside tlx.async_tasks");
  return success();
}

LogicalResult AsyncDescriptorLoadOp::verify() {
  if (Value mask = getMulticast())
    if (failed(verifyClusterOperand(*this, mask, "multicast mask",
                                    /*isMask=*/true)))
      return failure();
  return verifyDescriptorCopy(*this, getDesc().getType(), getOffsets().size(),
                              getBuffer().getType());
}

LogicalResult AsyncDescriptorStoreOp::verify() {
  return verifyDescriptorCopy(*this, getDesc().getType(), getOffsets().size(),
                              getBuffer().getType());
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

/// Hopper's warp-group register reallocation (setmaxnreg) takes 24 to 256
/// registers per thread in steps of 8.
static bool isValidRegisterCount(int32_t regs) {
  return regs >= 24 && regs <= 256 && regs % 8 == 0;
}

LogicalResult AsyncTaskOp::verify() {
  if (getReplicate() < 1)
    return emitOpError("replicate must be at least 1, got ") << getReplicate();
  if (!getIsDefault() && !getNumWarps())
    return emitOpError("a task other than the default one needs num_warps");
  if (std::optional<int32_t> warps = getNumWarps())
    if (*warps < 1 || (*warps & (*warps - 1)) != 0)
      return emitOpError("num_warps must be a power of two, got ") << *warps;
  if (std::optional<int32_t> regs = getNumRegs())
    if (!isValidRegisterCount(*regs))
      return emitOpError("num_regs ")
             << *regs << " is outside what the hardware allows (24 to 256 "
             << "registers per thread, a multiple of 8)";
  if (getIsDefault() && getWarpGroupStartId())
    return emitOpError("the default task runs on the kernel's warps; it "
                       "takes no warp_group_start_id");
  if (getIsDefault() && getReplicate() != 1)
    return emitOpError("the default task cannot be replicated");
  if ((*this)->getParentOfType<AsyncTaskOp>() != nullptr)
    return emitOpError("tasks cannot be nested");
  return success();
}

LogicalResult AsyncTasksOp::verify() {
  bool sawDefault = false;
  int explicitStarts = 0, nonDefault = 0;
  // Warp ranges [start, start + warps * replicate) of explicitly placed
  // tasks must not overlap.
  SmallVector<std::pair<int64_t, int64_t>> ranges;
  for (Operation &op : getBody().front()) {
    if (isa<TaskRegionEndOp>(op))
      continue;
    auto task = dyn_cast<AsyncTaskOp>(op);
    if (!task)
      return op.emitOpError("is not allowed directly in tlx.async_tasks: it "
                            "holds tlx.async_task regions only");
    if (task.getIsDefault()) {
      if (sawDefault)
        return task.emitOpError("is a second default task");
      sawDefault = true;
      continue;
    }
    ++nonDefault;
    if (std::optional<int32_t> start = task.getWarpGroupStartId()) {
      ++explicitStarts;
      int64_t end = *start + int64_t(*task.getNumWarps()) * task.getReplicate();
      for (auto [otherStart, otherEnd] : ranges)
        if (*start < otherEnd && otherStart < end)
          return task.emitOpError("warps [")
                 << *start << ", " << end << ") overlap another task's ["
                 << otherStart << ", " << otherEnd << ")";
      ranges.push_back({*start, end});
    }
  }
  if (explicitStarts != 0 && explicitStarts != nonDefault)
    return emitOpError("warp_group_start_id must be given for all non-default "
                       "tasks or for none");
  if ((*this)->getParentOfType<AsyncTaskOp>())
    return emitOpError("cannot be nested in a task");
  return success();
}

LogicalResult AsyncTaskReplicaIdOp::verify() {
  if (!(*this)->getParentOfType<AsyncTaskOp>())
    return emitOpError("is only meaningful inside a tlx.async_task");
  return success();
}

//===----------------------------------------------------------------------===//
// Cross-op checks
//===----------------------------------------------------------------------===//

/// Two barrier values name the same barrier: the same value, or views of the
/// same allocation at the same index value.
static bool isSameBarrier(Value a, Value b) {
  if (a == b)
    return true;
  auto viewA = a.getDefiningOp<BarrierViewOp>();
  auto viewB = b.getDefiningOp<BarrierViewOp>();
  return viewA && viewB && viewA.getBarriers() == viewB.getBarriers() &&
         viewA.getIndex() == viewB.getIndex();
}

void tpx::tlx::insertClusterExitBarriers(ModuleOp module) {
  if (tpx::tpxgpu::getModuleClusterSize(module) < 2)
    return;
  module.walk([](tt::FuncOp func) {
    if (!func.isPublic())
      return;
    func.walk([](tt::ReturnOp ret) {
      OpBuilder b(ret);
      ClusterBarrierOp::create(b, ret.getLoc());
    });
  });
}

LogicalResult tpx::tlx::checkBarrierExpectations(Operation *root) {
  SmallVector<BarrierExpectBytesOp> expects;
  SmallVector<AsyncDescriptorLoadOp> copies;
  root->walk([&](Operation *op) {
    if (auto expect = dyn_cast<BarrierExpectBytesOp>(op))
      expects.push_back(expect);
    else if (auto copy = dyn_cast<AsyncDescriptorLoadOp>(op))
      copies.push_back(copy);
  });
  bool ok = true;
  for (BarrierExpectBytesOp expect : expects) {
    std::optional<int64_t> bytes = getConstantIntValue(expect.getBytes());
    if (!bytes)
      continue;
    // Only a phase whose copies all sit beside the expectation is known:
    // copies elsewhere (another block, another barrier value) may add to it,
    // and so may a peer CTA's where the barrier takes multicasts.
    int64_t delivered = 0;
    bool known = true;
    for (AsyncDescriptorLoadOp copy : copies) {
      if (!isSameBarrier(copy.getBarrier(), expect.getBarrier()))
        continue;
      if (copy->getBlock() != expect->getBlock() || copy.getMulticast()) {
        known = false;
        break;
      }
      delivered += copy.getBuffer().getType().getSizeInBytes();
    }
    if (!known || delivered == 0 || delivered == *bytes)
      continue;
    expect.emitOpError("expects ")
        << *bytes << " bytes, but the TMA copies signalling this barrier "
        << "deliver " << delivered
        << ": its phase would never complete (or complete early)";
    ok = false;
  }
  return success(ok);
}
