//===- ScaledAddPlugin.cpp - Example: a DSL op with a keyword attribute ---===//
//
// `scaled_add(x, y, alpha=0.5)` computes x + alpha * y for float scalars or
// tensors, as a front end calls it through tpxBuildDslOp (the Python DSL
// exposes it as tpx.language.extra.example_scaled_add.scaled_add). The
// result has x's type.
//
//===----------------------------------------------------------------------===//
#include "tpx/Plugin/PluginSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace tpx::plugin;

static TpxStatus buildScaledAdd(const TpxBuildContext *where,
                                const MlirValue *operands, size_t,
                                const TpxKeywordArg *kwargs, size_t numKwargs,
                                MlirValue *results, size_t maxResults,
                                size_t *numResults, void *,
                                TpxReporter *reporter) {
  mlir::Value x = unwrap(operands[0]);
  mlir::Value y = unwrap(operands[1]);
  if (x.getType() != y.getType())
    return fail(reporter, "x and y must have the same type");
  mlir::Type element = mlir::getElementTypeOrSelf(x.getType());
  auto floatType = mlir::dyn_cast<mlir::FloatType>(element);
  if (!floatType)
    return fail(reporter, "x and y must be floats or tensors of floats");
  if (maxResults < 1)
    return fail(reporter, "no room for the result");
  double alpha = findKeyword(kwargs, numKwargs, "alpha")->floatValue;

  mlir::OpBuilder builder = makeBuilder(where);
  mlir::Location loc = unwrap(where->location);
  mlir::TypedAttr alphaAttr = builder.getFloatAttr(floatType, alpha);
  if (auto shaped = mlir::dyn_cast<mlir::ShapedType>(x.getType()))
    alphaAttr = mlir::DenseElementsAttr::get(shaped, alphaAttr);
  mlir::Value scale = mlir::arith::ConstantOp::create(builder, loc, alphaAttr);
  mlir::Value scaled = mlir::arith::MulFOp::create(builder, loc, scale, y);
  mlir::Value sum = mlir::arith::AddFOp::create(builder, loc, x, scaled);
  results[0] = wrap(sum);
  *numResults = 1;
  return TPX_SUCCESS;
}

static const TpxKeywordInfo kKeywords[] = {
    {"alpha", "the scale of y", /*required=*/0, floatValue(0.5)},
};

static const TpxDslOpInfo kOps[] = {{
    "scaled_add",
    "x + alpha * y",
    /*numOperands=*/2,
    kKeywords,
    1,
    buildScaledAdd,
    nullptr,
}};

static const TpxPluginInfo kInfo = {
    TPX_PLUGIN_INFO_HEADER("example-scaled-add", "1.0"),
    nullptr,
    0,
    nullptr,
    0,
    kOps,
    1,
    nullptr,
    0,
};

extern "C" TPX_PLUGIN_EXPORT const TpxPluginInfo *tpxGetPluginInfo(void) {
  return &kInfo;
}
