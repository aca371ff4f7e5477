//===- TTToCPUCommon.cpp - shared pieces of the tt -> CPU lowering --------===//
#include "TTToCPUCommon.h"

#include "tpx/Conversion/TTToCPU/TTToCPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::cpu;

/// float8 values are bytes in memory and in tensors on the host: LLVM has no
/// 8-bit float type. tt.fp_to_fp converts them in software.
static Type convertElementType(Type type) {
  MLIRContext *context = type.getContext();
  if (isa<tt::PointerType>(type))
    return IntegerType::get(context, 64);
  if (auto floatType = dyn_cast<FloatType>(type))
    if (floatType.getWidth() == 8)
      return IntegerType::get(context, 8);
  return type;
}

CPUTypeConverter::CPUTypeConverter(MLIRContext *context) {
  addConversion([](Type type) { return type; });
  addConversion([](FloatType type) { return convertElementType(type); });
  addConversion([](RankedTensorType type) -> Type {
    return RankedTensorType::get(type.getShape(),
                                 convertElementType(type.getElementType()));
  });
  addConversion([context](tt::PointerType type, SmallVectorImpl<Type> &results)
                    -> std::optional<LogicalResult> {
    Type i64 = IntegerType::get(context, 64);
    results.push_back(i64);
    if (auto block = dyn_cast<RankedTensorType>(type.getPointeeType())) {
      Type i32 = IntegerType::get(context, 32);
      results.append(block.getRank(), i64); // shape
      results.append(block.getRank(), i64); // strides
      results.append(block.getRank(), i32); // offsets
    }
    return success();
  });
  addConversion([context](tt::TensorDescType type,
                          SmallVectorImpl<Type> &results)
                    -> std::optional<LogicalResult> {
    Type i64 = IntegerType::get(context, 64);
    Type i32 = IntegerType::get(context, 32);
    int64_t rank = type.getBlockType().getRank();
    results.push_back(i64);
    results.append(rank, i32); // shape
    results.append(rank, i64); // strides
    return success();
  });
}

BlockPointerParts BlockPointerParts::fromValues(ValueRange parts,
                                                unsigned rank) {
  assert(parts.size() == 1 + 3 * rank && "malformed block pointer parts");
  BlockPointerParts result;
  result.base = parts[0];
  result.shape.assign(parts.begin() + 1, parts.begin() + 1 + rank);
  result.strides.assign(parts.begin() + 1 + rank, parts.begin() + 1 + 2 * rank);
  result.offsets.assign(parts.begin() + 1 + 2 * rank, parts.end());
  return result;
}

SmallVector<Value> BlockPointerParts::flatten() const {
  SmallVector<Value> values = {base};
  values.append(shape.begin(), shape.end());
  values.append(strides.begin(), strides.end());
  values.append(offsets.begin(), offsets.end());
  return values;
}

TensorDescParts TensorDescParts::fromValues(ValueRange parts, unsigned rank) {
  assert(parts.size() == 1 + 2 * rank && "malformed tensor descriptor parts");
  TensorDescParts result;
  result.base = parts[0];
  result.shape.assign(parts.begin() + 1, parts.begin() + 1 + rank);
  result.strides.assign(parts.begin() + 1 + rank, parts.end());
  return result;
}

SmallVector<Value> tpx::cpu::buildLoopNest(OpBuilder &builder, Location loc,
                                           ArrayRef<int64_t> shape,
                                           ValueRange initValues,
                                           LoopNestBody body) {
  if (shape.empty())
    return body(builder, loc, ValueRange(), initValues);
  SmallVector<Value> lbs, ubs, steps;
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  for (int64_t size : shape) {
    lbs.push_back(zero);
    ubs.push_back(arith::ConstantIndexOp::create(builder, loc, size));
    steps.push_back(one);
  }
  scf::LoopNest nest = scf::buildLoopNest(
      builder, loc, lbs, ubs, steps, initValues,
      [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange args) {
        return scf::ValueVector(body(b, l, ivs, args));
      });
  return SmallVector<Value>(nest.results.begin(), nest.results.end());
}

Value tpx::cpu::buildFromElements(
    OpBuilder &builder, Location loc, Type type,
    function_ref<Value(OpBuilder &, Location, ValueRange)> elementFn) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return elementFn(builder, loc, ValueRange());
  Value init = createEmptyTensor(builder, loc, tensorType);
  return buildLoopNest(
      builder, loc, tensorType.getShape(), {init},
      [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange iter) {
        Value element = elementFn(b, l, ivs);
        return SmallVector<Value>{
            tensor::InsertOp::create(b, l, element, iter[0], ivs)};
      })[0];
}

Value tpx::cpu::mapElementwise(
    OpBuilder &builder, Location loc, Type resultType, ValueRange inputs,
    function_ref<Value(OpBuilder &, Location, ValueRange)> scalarFn) {
  auto tensorType = dyn_cast<RankedTensorType>(resultType);
  if (!tensorType)
    return scalarFn(builder, loc, inputs);
  int64_t rank = tensorType.getRank();
  MLIRContext *context = builder.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
  AffineMap scalarMap = AffineMap::get(rank, 0, context);
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(isa<RankedTensorType>(input.getType()) ? identity
                                                          : scalarMap);
  maps.push_back(identity);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init = createEmptyTensor(builder, loc, tensorType);
  auto generic = linalg::GenericOp::create(
      builder, loc, TypeRange{tensorType}, inputs, ValueRange{init}, maps,
      iterators, [&](OpBuilder &b, Location l, ValueRange args) {
        Value result = scalarFn(b, l, args.drop_back());
        linalg::YieldOp::create(b, l, result);
      });
  return generic.getResult(0);
}

Value tpx::cpu::extractElement(OpBuilder &builder, Location loc, Value value,
                               ValueRange ivs) {
  if (!isa<RankedTensorType>(value.getType()))
    return value;
  return tensor::ExtractOp::create(builder, loc, value, ivs);
}

Value tpx::cpu::createEmptyTensor(OpBuilder &builder, Location loc,
                                  RankedTensorType type) {
  return tensor::EmptyOp::create(builder, loc, type.getShape(),
                                 type.getElementType());
}

int64_t tpx::cpu::getElementByteSize(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (isa<tt::PointerType>(element))
    return 8;
  if (auto block = dyn_cast<RankedTensorType>(element))
    return getElementByteSize(block.getElementType());
  return std::max<int64_t>(1, (element.getIntOrFloatBitWidth() + 7) / 8);
}

Value tpx::cpu::toLLVMPointer(OpBuilder &builder, Location loc,
                              Value address) {
  auto ptrType = LLVM::LLVMPointerType::get(builder.getContext());
  return LLVM::IntToPtrOp::create(builder, loc, ptrType, address);
}

Value tpx::cpu::indexToInt(OpBuilder &builder, Location loc, Value index,
                           Type intType) {
  return arith::IndexCastOp::create(builder, loc, intType, index);
}

Type tpx::cpu::getMemoryType(Type type) {
  if (type.isInteger(1))
    return IntegerType::get(type.getContext(), 8);
  return convertElementType(type);
}

Value tpx::cpu::createZero(OpBuilder &builder, Location loc, Type type) {
  return arith::ConstantOp::create(builder, loc, type,
                                   builder.getZeroAttr(type));
}

/// Reassociation that groups all `rank` dims into one (empty for rank 0).
static SmallVector<ReassociationIndices> allInOne(int64_t rank) {
  if (rank == 0)
    return {};
  ReassociationIndices group;
  for (int64_t i = 0; i < rank; ++i)
    group.push_back(i);
  return {group};
}

Value tpx::cpu::reshapeTensor(OpBuilder &builder, Location loc, Value tensor,
                              RankedTensorType type) {
  auto srcType = cast<RankedTensorType>(tensor.getType());
  if (srcType.getShape() == type.getShape())
    return tensor;
  int64_t count = type.getNumElements();
  Value flat = tensor;
  auto flatType = RankedTensorType::get({count}, srcType.getElementType());
  if (srcType.getRank() == 0)
    flat = tensor::ExpandShapeOp::create(builder, loc, flatType, tensor,
                                         ArrayRef<ReassociationIndices>{});
  else if (srcType.getRank() > 1)
    flat = tensor::CollapseShapeOp::create(builder, loc, flatType, tensor,
                                           allInOne(srcType.getRank()));
  if (type.getRank() == 1)
    return flat;
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(builder, loc, type, flat,
                                           ArrayRef<ReassociationIndices>{});
  return tensor::ExpandShapeOp::create(builder, loc, type, flat,
                                       allInOne(type.getRank()));
}

SmallVector<Value> tpx::cpu::getGridArguments(Operation *op) {
  auto fn = op->getParentOfType<FunctionOpInterface>();
  Block &entry = fn.getFunctionBody().front();
  auto args = entry.getArguments().take_back(kCPUGridArgCount);
  return SmallVector<Value>(args.begin(), args.end());
}

void tpx::cpu::declareRuntimeFunction(OpBuilder &b, ModuleOp module,
                                      StringRef name, FunctionType type) {
  if (module.lookupSymbol(name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
}
