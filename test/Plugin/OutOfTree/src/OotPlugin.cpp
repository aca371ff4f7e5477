//===- OotPlugin.cpp - An out-of-tree tpx plugin --------------------------===//
//
// Written from docs/plugins.md and the installed SDK headers only. It adds
//
//  1. a pass `oot-op-stats{min-count=N attr=NAME}` (anchored on tt.func) that
//     records how often each op kind occurs in a kernel as a dictionary
//     attribute on the function;
//  2. a dialect `oot` with one op, `%r = oot.axpy %x, %y {alpha = A : f32} :
//     T` (r = A * x + y on floats or tensors of floats), written by hand, and
//     the pass `convert-oot-to-arith` that lowers it to arith;
//  3. a DSL op `axpy(x, y, alpha=1.0)` that front ends build through the C
//     API (tpxBuildDslOp);
//  4. a pipeline extension `oot-lower` that runs convert-oot-to-arith in the
//     `ttir` stage, so kernels using oot.axpy compile and run.
//
//===----------------------------------------------------------------------===//

#include "tpx/Plugin/PluginSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Support/TypeID.h"

#include "llvm/ADT/MapVector.h"

using namespace tpx::plugin;

//===--- The dialect and its op ----------------------------------------===//

namespace oot {

/// %r = oot.axpy %x, %y {alpha = A : E} : T   computes A * x + y.
/// Pure (what ODS spells `Pure`): no memory effects, so unused ones are
/// erased and identical ones merged by canonicalize and cse, and always
/// speculatable, so loop-invariant code motion may hoist it.
class AxpyOp
    : public mlir::Op<
          AxpyOp, mlir::OpTrait::ZeroRegions, mlir::OpTrait::OneResult,
          mlir::OpTrait::OneTypedResult<mlir::Type>::Impl,
          mlir::OpTrait::ZeroSuccessors, mlir::OpTrait::NOperands<2>::Impl,
          mlir::OpTrait::SameOperandsAndResultType,
          mlir::MemoryEffectOpInterface::Trait,
          mlir::ConditionallySpeculatable::Trait,
          mlir::OpTrait::AlwaysSpeculatableImplTrait> {
public:
  using Op::Op;
  static llvm::StringRef getOperationName() { return "oot.axpy"; }
  static llvm::ArrayRef<llvm::StringRef> getAttributeNames() { return {}; }

  /// No effects: the op reads and writes no memory.
  void getEffects(
      llvm::SmallVectorImpl<
          mlir::SideEffects::EffectInstance<mlir::MemoryEffects::Effect>> &) {}

  static void build(mlir::OpBuilder &builder, mlir::OperationState &state,
                    mlir::Value x, mlir::Value y, double alpha) {
    state.addOperands({x, y});
    state.addTypes(x.getType());
    mlir::Type element = mlir::getElementTypeOrSelf(x.getType());
    state.addAttribute("alpha", builder.getFloatAttr(element, alpha));
  }

  static AxpyOp create(mlir::OpBuilder &builder, mlir::Location loc,
                       mlir::Value x, mlir::Value y, double alpha) {
    mlir::OperationState state(loc, getOperationName());
    build(builder, state, x, y, alpha);
    return mlir::cast<AxpyOp>(builder.create(state));
  }

  mlir::FloatAttr getAlpha() {
    return (*this)->getAttrOfType<mlir::FloatAttr>("alpha");
  }

  mlir::LogicalResult verify() {
    mlir::Type element = mlir::getElementTypeOrSelf(getType());
    if (!mlir::isa<mlir::FloatType>(element))
      return emitOpError("operates on floats or tensors of floats, not ")
             << getType();
    mlir::FloatAttr alpha = getAlpha();
    if (!alpha || alpha.getType() != element)
      return emitOpError("needs a float attribute 'alpha' of type ")
             << element;
    return mlir::success();
  }

  static mlir::ParseResult parse(mlir::OpAsmParser &parser,
                                 mlir::OperationState &state) {
    llvm::SmallVector<mlir::OpAsmParser::UnresolvedOperand, 2> operands;
    mlir::Type type;
    if (parser.parseOperandList(operands, 2) ||
        parser.parseOptionalAttrDict(state.attributes) ||
        parser.parseColonType(type) ||
        parser.resolveOperands(operands, type, state.operands))
      return mlir::failure();
    state.addTypes(type);
    return mlir::success();
  }

  void print(mlir::OpAsmPrinter &printer) {
    printer << ' ' << getOperation()->getOperands();
    printer.printOptionalAttrDict((*this)->getAttrs());
    printer << " : " << getType();
  }
};

class OotDialect : public mlir::Dialect {
public:
  explicit OotDialect(mlir::MLIRContext *context)
      : mlir::Dialect(getDialectNamespace(), context,
                      mlir::TypeID::get<OotDialect>()) {
    addOperations<AxpyOp>();
  }
  static llvm::StringRef getDialectNamespace() { return "oot"; }
};

} // namespace oot

MLIR_DECLARE_EXPLICIT_TYPE_ID(oot::AxpyOp)
MLIR_DEFINE_EXPLICIT_TYPE_ID(oot::AxpyOp)
MLIR_DECLARE_EXPLICIT_TYPE_ID(oot::OotDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(oot::OotDialect)

//===--- 1. oot-op-stats ------------------------------------------------===//

// Runs once per pipeline that names the pass, before anything runs: a bad
// value is one error, not one per kernel function.
static TpxStatus checkOpStatsOptions(const TpxOptionValues *options, void *,
                                     TpxReporter *reporter) {
  int64_t minCount = getInt(options, "min-count");
  if (minCount < 1)
    return fail(reporter, "option 'min-count' must be at least 1, got " +
                              llvm::Twine(minCount));
  if (getString(options, "attr").empty())
    return fail(reporter, "option 'attr' must not be empty");
  return TPX_SUCCESS;
}

static TpxStatus runOpStats(MlirOperation root, const TpxOptionValues *options,
                            void *, TpxReporter *) {
  int64_t minCount = getInt(options, "min-count");
  llvm::StringRef attrName = getString(options, "attr");
  mlir::Operation *func = unwrap(root); // a tt.func (the anchor)
  llvm::MapVector<llvm::StringRef, int64_t> counts;
  func->walk([&](mlir::Operation *op) {
    if (op != func)
      ++counts[op->getName().getStringRef()];
  });
  mlir::Builder builder(func->getContext());
  llvm::SmallVector<mlir::NamedAttribute> entries;
  for (auto &[name, count] : counts)
    if (count >= minCount)
      entries.push_back(builder.getNamedAttr(name, builder.getI64IntegerAttr(count)));
  func->setAttr(attrName, builder.getDictionaryAttr(entries));
  return TPX_SUCCESS;
}

static const TpxPassOption kStatsOptions[] = {
    {"min-count", "only record op kinds that occur at least this often",
     intValue(1)},
    {"attr", "name of the dictionary attribute to set", stringValue("oot.stats")},
};

//===--- 2. convert-oot-to-arith --------------------------------------===//

static TpxStatus runConvertOotToArith(MlirOperation root,
                                      const TpxOptionValues *, void *,
                                      TpxReporter *reporter) {
  llvm::SmallVector<oot::AxpyOp> axpys;
  unwrap(root)->walk([&](oot::AxpyOp op) { axpys.push_back(op); });
  for (oot::AxpyOp op : axpys) {
    mlir::OpBuilder b(op);
    mlir::Location loc = op.getLoc();
    mlir::Type type = op.getType();
    mlir::TypedAttr alpha = op.getAlpha();
    if (auto shaped = mlir::dyn_cast<mlir::RankedTensorType>(type))
      alpha = mlir::DenseElementsAttr::get(shaped, mlir::Attribute(alpha));
    else if (type != alpha.getType())
      return fail(reporter, "cannot lower oot.axpy on a non-ranked tensor");
    mlir::Value a = mlir::arith::ConstantOp::create(b, loc, alpha);
    mlir::Value ax =
        mlir::arith::MulFOp::create(b, loc, a, op->getOperand(0));
    mlir::Value r = mlir::arith::AddFOp::create(b, loc, ax, op->getOperand(1));
    op->getResult(0).replaceAllUsesWith(r);
    op->erase();
  }
  return TPX_SUCCESS;
}

static const TpxPassInfo kPasses[] = {
    {"oot-op-stats", "Record per-kernel op counts as an attribute",
     /*anchorOp=*/"tt.func", kStatsOptions, 2, runOpStats,
     /*userData=*/nullptr, /*dependentDialects=*/nullptr,
     /*validateOptions=*/checkOpStatsOptions},
    {"convert-oot-to-arith", "Lower the oot dialect to arith",
     /*anchorOp=*/"builtin.module", /*options=*/nullptr, 0,
     runConvertOotToArith, /*userData=*/nullptr,
     dependOn<mlir::arith::ArithDialect>},
};

static const TpxDialectInfo kDialects[] = {
    {"oot", insertDialects<oot::OotDialect>, /*userData=*/nullptr},
};

//===--- 3. The DSL op axpy(x, y, alpha=1.0) -----------------------------===//

static TpxStatus buildAxpy(const TpxBuildContext *where,
                           const MlirValue *operands, size_t numOperands,
                           const TpxKeywordArg *kwargs, size_t numKwargs,
                           MlirValue *results, size_t maxResults,
                           size_t *numResults, void *, TpxReporter *reporter) {
  mlir::Value x = unwrap(operands[0]), y = unwrap(operands[1]);
  if (x.getType() != y.getType())
    return fail(reporter, "axpy: x and y must have the same type");
  if (!mlir::isa<mlir::FloatType>(mlir::getElementTypeOrSelf(x.getType())))
    return fail(reporter, "axpy: operands must be floats or float tensors");
  if (maxResults < 1)
    return fail(reporter, "axpy: no room for the result");
  double alpha = findKeyword(kwargs, numKwargs, "alpha")->floatValue;

  mlir::OpBuilder builder = makeBuilder(where);
  builder.getContext()->getOrLoadDialect<oot::OotDialect>();
  auto op = oot::AxpyOp::create(builder, unwrap(where->location), x, y, alpha);
  results[0] = wrap(op->getResult(0));
  *numResults = 1;
  return TPX_SUCCESS;
}

static const TpxKeywordInfo kAxpyKeywords[] = {
    {"alpha", "the scale of x", /*required=*/0, floatValue(1.0)},
};

static const TpxDslOpInfo kDslOps[] = {
    {"axpy", "alpha * x + y, as oot.axpy", /*numOperands=*/2, kAxpyKeywords, 1,
     buildAxpy, /*userData=*/nullptr},
};

//===--- 4. The pipeline extension oot-lower --------------------------===//

static TpxStatus applyOotLower(const TpxPipelineEditor *editor, void *,
                               TpxReporter *) {
  // Lower oot ops first thing after inlining, so canonicalize and cse of
  // the ttir stage clean up what the conversion creates.
  return editor->insertAfter(editor->opaque, "ttir", "inline",
                             "convert-oot-to-arith");
}

static const TpxPipelineExtensionInfo kExtensions[] = {
    {"oot-lower", "Lower the oot dialect in the ttir stage", applyOotLower,
     nullptr},
};

//===--- The plugin ---------------------------------------------------===//

static const TpxPluginInfo kInfo = {
    TPX_PLUGIN_INFO_HEADER("oot-plugin", "1.0"),
    kPasses,     2, kDialects,   1, kDslOps, 1,
    kExtensions, 1,
};

extern "C" TPX_PLUGIN_EXPORT const TpxPluginInfo *tpxGetPluginInfo(void) {
  return &kInfo;
}
