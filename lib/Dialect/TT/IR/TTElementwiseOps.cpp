//===- TTElementwiseOps.cpp - casts, math, external calls, dots, print ----===//
#include "tpx/Dialect/TT/IR/TTOps.h"

#include "mlir/IR/Matchers.h"
#include "tpx/Support/InlineAsmOperands.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tpx::tt;

/// Shapes of two pointer/scalar/tensor types must agree (scalars have none).
static LogicalResult verifySameShape(Operation *op, Type a, Type b) {
  if (isa<RankedTensorType>(a) != isa<RankedTensorType>(b) ||
      getShapeOrEmpty(a) != getShapeOrEmpty(b))
    return op->emitOpError("operand type ")
           << a << " and result type " << b << " must have the same shape";
  return success();
}

LogicalResult tpx::tt::verifySameShapeElementwise(Operation *op) {
  Value reference = op->getNumResults()    ? op->getResult(0)
                    : op->getNumOperands() ? op->getOperand(0)
                                           : Value();
  if (!reference)
    return success();
  Type refType = reference.getType();
  StringRef refKind = op->getNumResults() ? "result #0" : "operand #0";
  auto check = [&](Value value, StringRef kind,
                   unsigned index) -> LogicalResult {
    Type type = value.getType();
    if (isa<RankedTensorType>(type) == isa<RankedTensorType>(refType) &&
        getShapeOrEmpty(type) == getShapeOrEmpty(refType))
      return success();
    return op->emitOpError()
           << kind << " #" << index << " (" << type << ") and " << refKind
           << " (" << refType << ") must have the same shape";
  };
  for (OpOperand &operand : op->getOpOperands())
    if (failed(check(operand.get(), "operand", operand.getOperandNumber())))
      return failure();
  for (OpResult result : op->getResults())
    if (failed(check(result, "result", result.getResultNumber())))
      return failure();
  return success();
}

/// Width in bits of a scalar; pointers are 64 bits wide.
static unsigned bitWidthOf(Type scalar) {
  if (isa<PointerType>(scalar))
    return 64;
  return scalar.getIntOrFloatBitWidth();
}

LogicalResult IntToPtrOp::verify() {
  return verifySameShape(*this, getSrc().getType(), getType());
}

LogicalResult PtrToIntOp::verify() {
  return verifySameShape(*this, getSrc().getType(), getType());
}

LogicalResult BitcastOp::verify() {
  Type src = getSrc().getType(), dst = getType();
  if (failed(verifySameShape(*this, src, dst)))
    return failure();
  Type srcElem = getElementTypeOrSelf(src), dstElem = getElementTypeOrSelf(dst);
  // Pointers count as 64-bit values, as in Triton (ptr <-> i64 is legal).
  if (bitWidthOf(srcElem) != bitWidthOf(dstElem))
    return emitOpError("source element ")
           << srcElem << " (" << bitWidthOf(srcElem) << " bits) and result "
           << "element " << dstElem << " (" << bitWidthOf(dstElem)
           << " bits) differ in width";
  return success();
}

LogicalResult FpToFpOp::verify() {
  Type src = getSrc().getType(), dst = getType();
  if (failed(verifySameShape(*this, src, dst)))
    return failure();
  auto srcElem = cast<FloatType>(getElementTypeOrSelf(src));
  auto dstElem = cast<FloatType>(getElementTypeOrSelf(dst));
  if (srcElem == dstElem)
    return emitOpError("converts ") << srcElem << " to itself";
  // Only a conversion to fewer bits needs an explicit rounding mode; Triton
  // accepts same-width conversions (fp8 <-> fp8, f16 <-> bf16) without one,
  // so rejecting them here would refuse TTIR Triton prints.
  if (dstElem.getWidth() < srcElem.getWidth() && !getRounding())
    return emitOpError("narrowing ")
           << srcElem << " to " << dstElem
           << " needs a rounding mode (`, rounding = rtne` or `rtz`)";
  return success();
}

LogicalResult ExternElementwiseOp::verify() {
  for (Value src : getSrcs())
    if (failed(verifySameShape(*this, src.getType(), getType())))
      return failure();
  if (getSymbol().empty())
    return emitOpError("needs a non-empty 'symbol'");
  return success();
}

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // An impure external function may read and write any global memory.
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
}

unsigned tpx::tt::getInlineAsmElementsPerOperand(Type elementType,
                                                 int64_t packedElement) {
  if (packedElement <= 1 || !elementType.isIntOrFloat() ||
      elementType.getIntOrFloatBitWidth() >= 32)
    return 1;
  return std::min<int64_t>(32 / elementType.getIntOrFloatBitWidth(),
                           packedElement);
}

unsigned tpx::tt::getInlineAsmOperandsPerPack(Type elementType,
                                              int64_t packedElement) {
  int64_t pack = std::max<int64_t>(packedElement, 1);
  return llvm::divideCeil(pack,
                          getInlineAsmElementsPerOperand(elementType, pack));
}

LogicalResult ElementwiseInlineAsmOp::verify() {
  int64_t pack = getPackedElement();
  if (pack < 1)
    return emitOpError("packed_element must be at least 1, got ") << pack;
  if (getNumResults() == 0)
    return emitOpError("must produce at least one result");
  ArrayRef<int64_t> shape = getShapeOrEmpty((*this)->getResult(0).getType());
  auto checkShape = [&](Type type) -> LogicalResult {
    if (getShapeOrEmpty(type) != shape)
      return emitOpError("all operands and results must have the same shape");
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      if (tensor.getNumElements() % pack != 0)
        return emitOpError("tensor of ")
               << tensor.getNumElements()
               << " elements is not a multiple of packed_element " << pack;
    return success();
  };
  for (Type type : getResultTypes())
    if (failed(checkShape(type)))
      return failure();
  for (Type type : getArgs().getTypes())
    if (failed(checkShape(type)))
      return failure();
  // The assembly's operands are the results, then the arguments, each
  // taking getInlineAsmOperandsPerPack of them (one with packed_element =
  // 1); LLVM aborts on a `$N` past them, so it is an error here.
  unsigned operands = 0;
  for (Type type :
       llvm::concat<const Type>(getResultTypes(), getArgs().getTypes()))
    operands += getInlineAsmOperandsPerPack(getElementTypeOrSelf(type), pack);
  unsigned constrained = 0;
  for (StringRef constraint : llvm::split(getConstraints(), ','))
    if (!constraint.trim().starts_with("~"))
      ++constrained;
  if (constrained != operands) {
    InFlightDiagnostic diag =
        emitOpError("constraints \"")
        << getConstraints() << "\" describe " << constrained << " operand"
        << (constrained == 1 ? "" : "s") << ", but the op has "
        << getNumResults() << " result" << (getNumResults() == 1 ? "" : "s")
        << " and " << getArgs().size() << " argument"
        << (getArgs().size() == 1 ? "" : "s");
    if (pack > 1)
      diag << ", which take " << operands << " assembly operands with "
           << "packed_element = " << pack << " (one per 32-bit register of "
           << "each pack for types narrower than 32 bits, one per element "
           << "otherwise)";
    return diag;
  }
  if (auto bad = findBadAsmOperandReference(getAsmString(), operands))
    return emitOpError("assembly refers to operand $")
           << (*bad == ~0u ? std::string("<huge>") : std::to_string(*bad))
           << ", but it has " << operands << " operand"
           << (operands == 1 ? "" : "s") << " ($0 to $" << operands - 1
           << ": the results, then the arguments)";
  return success();
}

void ElementwiseInlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

/// Checks a[..., M, K] x b[..., K, N] -> d[..., M, N]; `checkK` is off for
/// scaled dots whose operands may pack two fp4 values per byte along K.
static LogicalResult verifyMatmulShapes(Operation *op, RankedTensorType a,
                                        RankedTensorType b, RankedTensorType d,
                                        bool checkK) {
  int64_t rank = a.getRank();
  if (rank != 2 && rank != 3)
    return op->emitOpError("operands must be 2-D (or batched 3-D), got rank ")
           << rank;
  if (b.getRank() != rank || d.getRank() != rank)
    return op->emitOpError("operands and result must all have rank ") << rank;
  int64_t m = a.getDimSize(rank - 2), k = a.getDimSize(rank - 1);
  int64_t kb = b.getDimSize(rank - 2), n = b.getDimSize(rank - 1);
  if (checkK && k != kb)
    return op->emitOpError("reduction dimensions differ: a is ")
           << a << " and b is " << b;
  if (d.getDimSize(rank - 2) != m || d.getDimSize(rank - 1) != n)
    return op->emitOpError("result ")
           << d << " must be " << m << "x" << n << " (a's rows by b's columns)";
  if (rank == 3 && (a.getDimSize(0) != b.getDimSize(0) ||
                    a.getDimSize(0) != d.getDimSize(0)))
    return op->emitOpError("batch dimensions of operands and result differ");
  return success();
}

LogicalResult DotOp::verify() {
  auto a = getA().getType(), b = getB().getType(), d = getD().getType();
  if (failed(verifyMatmulShapes(*this, a, b, d, /*checkK=*/true)))
    return failure();
  Type ea = a.getElementType(), eb = b.getElementType();
  Type ed = d.getElementType();
  if (isa<FloatType>(ea) != isa<FloatType>(eb))
    return emitOpError("operands must both be floating point or both integer, "
                       "got ")
           << ea << " and " << eb;
  if (isa<FloatType>(ea) != isa<FloatType>(ed))
    return emitOpError("accumulator ")
           << ed << " must be "
           << (isa<FloatType>(ea) ? "floating point" : "integer")
           << " like the operands";
  if (!isa<FloatType>(ea) && ea != eb)
    return emitOpError("integer operands must have the same type, got ")
           << ea << " and " << eb;
  return success();
}

LogicalResult DotScaledOp::verify() {
  auto a = getA().getType(), b = getB().getType(), d = getD().getType();
  if (a.getRank() != 2)
    return emitOpError("operands must be 2-D");
  return verifyMatmulShapes(*this, a, b, d, /*checkK=*/false);
}

LogicalResult PrintOp::verify() {
  if (getIsSigned().size() != getArgs().size())
    return emitOpError("isSigned has ")
           << getIsSigned().size() << " entries but there are "
           << getArgs().size() << " arguments";
  return success();
}

bool tpx::tt::isZeroConstant(Value value) {
  Attribute attr;
  if (!value || !matchPattern(value, m_Constant(&attr)))
    return false;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (!dense.isSplat())
      return false;
    attr = dense.getSplatValue<Attribute>();
  }
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValue().isPosZero();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getValue().isZero();
  return false;
}
