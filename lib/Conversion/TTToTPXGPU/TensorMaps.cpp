//===- TensorMaps.cpp - which tensor descriptors use TMA ------------------===//
#include "tpx/Conversion/TTToTPXGPU/TensorMaps.h"

#include "tpx/Dialect/TPXGPU/IR/SIMTLoweringInterface.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::tpxgpu;

/// The index of the public function argument `value` is (or sign-extends),
/// or -1 for a
/// positive integer constant (in `constant`), or nullopt for anything else.
static std::optional<int64_t> getSource(Value value, tt::FuncOp kernel,
                                        int64_t &constant) {
  // An i32 argument widened to an i64 stride (Triton's front end does this
  // for `strides=[K, 1]`): the launcher reads the argument's value.
  if (auto ext = value.getDefiningOp<arith::ExtSIOp>())
    value = ext.getIn();
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (arg.getOwner() == &kernel.getBody().front())
      return arg.getArgNumber();
  APInt bits;
  if (matchPattern(value, m_ConstantInt(&bits)) && bits.isStrictlyPositive()) {
    constant = bits.getSExtValue();
    return -1;
  }
  return std::nullopt;
}

/// True when `extent` elements of `bytes` bytes are known to fill whole
/// 16-byte chunks: a constant, or an argument whose tt.divisibility says
/// so. TMA stores write whole 16-byte chunks of the innermost dimension, so
/// a row ending inside one would be written past its end (the hardware's
/// rule; Triton documents the same overwrite).
static bool isWholeChunks(Value extent, tt::FuncOp kernel, int64_t bytes) {
  int64_t constant = 0;
  std::optional<int64_t> source = getSource(extent, kernel, constant);
  if (!source)
    return false;
  int64_t divisor = constant;
  if (*source >= 0) {
    auto divisibility =
        kernel.getArgAttrOfType<IntegerAttr>(*source, "tt.divisibility");
    divisor = divisibility ? divisibility.getInt() : 1;
  }
  return (divisor * bytes) % 16 == 0;
}

/// True when `value` (an integer) is known to be non-negative: a
/// non-negative constant, a program id or count, a sum, product, quotient,
/// minimum of such values (a remainder of one, a maximum with one), or the
/// induction variable of a loop that starts at one and steps up. Kernel
/// arguments are not: a size may be negative as far as the compiler knows. A
/// TMA store at a negative coordinate faults (an illegal instruction, where a
/// load fills with padding), so a descriptor is stored by TMA only at offsets
/// known to be non-negative.
static bool isKnownNonNegative(Value value, unsigned depth = 0) {
  if (depth > 8)
    return false;
  APInt bits;
  if (matchPattern(value, m_ConstantInt(&bits)))
    return !bits.isNegative();
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg != loop.getInductionVar())
      return false;
    APInt step;
    return matchPattern(loop.getStep(), m_ConstantInt(&step)) &&
           step.isStrictlyPositive() &&
           isKnownNonNegative(loop.getLowerBound(), depth + 1);
  }
  Operation *op = value.getDefiningOp();
  if (isa<tt::GetProgramIdOp, tt::GetNumProgramsOp>(op))
    return true;
  // A remainder has the sign of its dividend; a maximum is at least its
  // non-negative operand.
  if (auto rem = dyn_cast<arith::RemSIOp>(op))
    return isKnownNonNegative(rem.getLhs(), depth + 1);
  if (auto max = dyn_cast<arith::MaxSIOp>(op))
    return isKnownNonNegative(max.getLhs(), depth + 1) ||
           isKnownNonNegative(max.getRhs(), depth + 1);
  if (isa<arith::AddIOp, arith::MulIOp, arith::DivSIOp, arith::DivUIOp,
          arith::MinSIOp, arith::ExtSIOp, arith::ExtUIOp>(op))
    return llvm::all_of(op->getOperands(), [&](Value operand) {
      return isKnownNonNegative(operand, depth + 1);
    });
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return isKnownNonNegative(select.getTrueValue(), depth + 1) &&
           isKnownNonNegative(select.getFalseValue(), depth + 1);
  return false;
}

std::string tpxgpu::whyNotTMA(tt::MakeTensorDescOp desc) {
  RankedTensorType block =
      cast<tt::TensorDescType>(desc.getType()).getBlockType();
  if (block.getRank() != 2)
    return "a block that is not 2-D";
  Type element = block.getElementType();
  if (!element.isIntOrFloat())
    return "elements of this type";
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
    return "elements of this width";
  if (block.getShape()[0] > 256)
    return "a block of more than 256 rows";
  if (block.getShape()[1] * bits / 8 < 16)
    return "a block row narrower than 16 bytes";
  auto kernel = desc->getParentOfType<tt::FuncOp>();
  if (!kernel || !kernel.isPublic())
    return "a descriptor made outside the kernel function";
  int64_t constant;
  auto base = dyn_cast<BlockArgument>(desc.getBase());
  if (!base || base.getOwner() != &kernel.getBody().front())
    return "a base that is not a kernel argument";
  for (Value v : llvm::concat<Value>(desc.getShape(), desc.getStrides()))
    if (!getSource(v, kernel, constant))
      return "a shape or stride that is neither a kernel argument nor a "
             "constant";
  if (getSource(desc.getStrides().back(), kernel, constant) != -1 ||
      constant != 1)
    return "an innermost stride that is not the constant 1";
  bool storeSafe = isWholeChunks(desc.getShape().back(), kernel,
                                 element.getIntOrFloatBitWidth() / 8);
  for (Operation *user : desc->getUsers()) {
    if (auto load = dyn_cast<tt::DescriptorLoadOp>(user)) {
      if (load.getType().getShape() != block.getShape())
        return "a load of part of the block";
      continue;
    }
    if (auto store = dyn_cast<tt::DescriptorStoreOp>(user)) {
      if (store.getSrc().getType().getShape() != block.getShape())
        return "a store of part of the block";
      if (!storeSafe)
        return "a store to a tensor whose rows may end inside a 16-byte "
               "chunk (a TMA store would write past them)";
      if (!llvm::all_of(store.getIndices(),
                        [](Value index) { return isKnownNonNegative(index); }))
        return "a store at offsets that may be negative (a TMA store "
               "faults on them)";
      continue;
    }
    // A plugin dialect that lowers its own ops on the SIMT path (TLX's
    // async_descriptor_load) takes the tensor map for its uses itself.
    if (getSIMTLoweringInterface(user))
      continue;
    return "a descriptor used by '" + user->getName().getStringRef().str() +
           "'";
  }
  return "";
}

unsigned tpxgpu::getTMASwizzleBytes(int64_t rowBytes) {
  for (unsigned swizzle : {128u, 64u, 32u})
    if (rowBytes >= swizzle)
      return swizzle;
  return 0;
}

TensorMapAttr tpxgpu::getTensorMap(tt::MakeTensorDescOp desc) {
  RankedTensorType block =
      cast<tt::TensorDescType>(desc.getType()).getBlockType();
  auto kernel = desc->getParentOfType<tt::FuncOp>();
  Type element = block.getElementType();
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  int64_t rowBytes = block.getShape()[1] * bytes;
  unsigned swizzle = getTMASwizzleBytes(rowBytes);
  int64_t boxInner = swizzle ? swizzle / bytes : block.getShape()[1];
  SmallVector<int64_t> shapeArgs, shapeValues, strideArgs, strideValues;
  auto record = [&](ValueRange values, SmallVectorImpl<int64_t> &args,
                    SmallVectorImpl<int64_t> &consts) {
    for (Value v : values) {
      int64_t constant = 0;
      int64_t arg = *getSource(v, kernel, constant);
      args.push_back(arg);
      consts.push_back(arg == -1 ? constant : 0);
    }
  };
  record(desc.getShape(), shapeArgs, shapeValues);
  record(desc.getStrides(), strideArgs, strideValues);
  return TensorMapAttr::get(desc.getContext(),
                            cast<BlockArgument>(desc.getBase()).getArgNumber(),
                            shapeArgs, shapeValues, strideArgs, strideValues,
                            {block.getShape()[0], boxInner}, element, swizzle,
                            desc.getPadding() == tt::PaddingOption::PAD_NAN);
}

Value tpxgpu::getOrAddTensorMapArgument(tt::MakeTensorDescOp desc) {
  MLIRContext *context = desc.getContext();
  TensorMapAttr mapAttr = getTensorMap(desc);
  auto kernel = desc->getParentOfType<tt::FuncOp>();
  StringRef name = TPXGPUDialect::kTensorMapAttrName;
  // Descriptors with the same map share an argument.
  for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i)
    if (kernel.getArgAttr(i, name) == mapAttr)
      return kernel.getArgument(i);
  auto boxType = tt::TensorDescType::get(
      context,
      RankedTensorType::get(mapAttr.getBox(), mapAttr.getElementType()));
  unsigned index = kernel.getNumArguments();
  NamedAttribute attr(StringAttr::get(context, name), mapAttr);
  // Appending an argument to a function with a body cannot fail.
  (void)kernel.insertArgument(
      index, boxType, DictionaryAttr::get(context, {attr}), desc.getLoc());
  return kernel.getArgument(index);
}

MemDescType tpxgpu::getTMABlockBufferType(TensorMapAttr map,
                                          ArrayRef<int64_t> block,
                                          bool mutableMemory) {
  Type element = map.getElementType();
  auto layout = NvmmaSharedEncodingAttr::get(
      element.getContext(), map.getSwizzle(), /*transposed=*/false,
      element.getIntOrFloatBitWidth());
  return MemDescType::get(block, element, layout, mutableMemory);
}

MemDescType tpxgpu::getMBarrierType(MLIRContext *context) {
  auto layout = SwizzledSharedEncodingAttr::get(context, 1, 1, 1, {0});
  return MemDescType::get({1}, IntegerType::get(context, 64), layout);
}

Value tpxgpu::createMBarriers(OpBuilder &b, Location loc, int64_t count,
                              unsigned arriveCount) {
  MemDescType one = getMBarrierType(b.getContext());
  auto type = MemDescType::get({count, 1}, one.getElementType(),
                               one.getEncoding(), /*mutableMemory=*/true);
  Value barriers = LocalAllocOp::create(b, loc, type, Value());
  for (int64_t k = 0; k < count; ++k) {
    Value index = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(k));
    InitBarrierOp::create(b, loc, getMBarrierView(b, loc, barriers, index),
                          arriveCount);
  }
  FenceAsyncSharedOp::create(b, loc);
  BarrierOp::create(b, loc);
  return barriers;
}

Value tpxgpu::getMBarrierView(OpBuilder &b, Location loc, Value barriers,
                              Value index) {
  auto all = cast<MemDescType>(barriers.getType());
  auto type = MemDescType::get({1}, all.getElementType(), all.getEncoding(),
                               /*mutableMemory=*/true, all.getShape());
  return MemDescIndexOp::create(b, loc, type, barriers, index);
}

/// Calls `copy(box, coords)` for each box of the block in `buffer`: box k
/// covers columns [k * w, (k + 1) * w), at that offset in the buffer and in
/// the coordinates. A block that is itself a static window of a buffer
/// (tlx's local_slice) is split into windows of that buffer, as the NVVM
/// lowering addresses windows of whole buffers only.
template <typename CopyFn>
static void forEachBox(OpBuilder &b, Location loc, Value buffer,
                       TensorMapAttr map, ValueRange indices, CopyFn copy) {
  auto type = cast<MemDescType>(buffer.getType());
  int64_t width = map.getBox()[1];
  Value whole = buffer;
  SmallVector<int64_t> origin = {0, 0};
  if (auto window = buffer.getDefiningOp<MemDescSubviewOp>();
      window && window.getOffsets().empty() && type.getShape()[1] != width) {
    whole = window.getSrc();
    origin = llvm::to_vector(window.getStaticOffsets());
  }
  for (int64_t column = 0; column < type.getShape()[1]; column += width) {
    Value box = buffer;
    SmallVector<Value> coords(indices);
    if (type.getShape()[1] != width) {
      auto view = MemDescType::get(
          {type.getShape()[0], width}, type.getElementType(),
          type.getEncoding(), type.getMutableMemory(), type.getAllocShape());
      box = MemDescSubviewOp::create(
          b, loc, view, whole, ValueRange(),
          b.getDenseI64ArrayAttr({origin[0], origin[1] + column}));
      if (column) {
        Value offset = arith::ConstantIntOp::create(b, loc, column, 32);
        coords[1] = arith::AddIOp::create(b, loc, coords[1], offset);
      }
    }
    copy(box, coords);
  }
}

void tpxgpu::emitTMALoads(OpBuilder &b, Location loc, Value map,
                          TensorMapAttr mapAttr, Value buffer,
                          ValueRange indices, Value barrier, Value pred,
                          tt::CacheModifier cache, tt::EvictionPolicy evict,
                          Value multicast) {
  forEachBox(
      b, loc, buffer, mapAttr, indices, [&](Value box, ValueRange coords) {
        AsyncTMACopyGlobalToLocalOp::create(b, loc, map, coords, barrier, box,
                                            pred, multicast, cache, evict);
      });
}

void tpxgpu::emitTMAStores(OpBuilder &b, Location loc, Value map,
                           TensorMapAttr mapAttr, Value buffer,
                           ValueRange indices) {
  forEachBox(b, loc, buffer, mapAttr, indices,
             [&](Value box, ValueRange coords) {
               AsyncTMACopyLocalToGlobalOp::create(b, loc, map, coords, box);
             });
}
