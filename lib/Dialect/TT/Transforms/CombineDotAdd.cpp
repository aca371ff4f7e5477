//===- CombineDotAdd.cpp - the tt-combine-dot-add pass --------------------===//
#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/Transforms/TTTransforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tpx {
#define GEN_PASS_DEF_TTCOMBINEDOTADD
#include "tpx/Dialect/TT/Transforms/TTTransforms.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx;

namespace {
/// add(x, dot(a, b, 0)) or add(dot(a, b, 0), x) -> dot(a, b, x).
template <typename AddOp>
struct FoldAddIntoDot : public OpRewritePattern<AddOp> {
  using OpRewritePattern<AddOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp add,
                                PatternRewriter &rewriter) const override {
    for (unsigned i = 0; i < 2; ++i) {
      auto dot = add->getOperand(i).template getDefiningOp<tt::DotOp>();
      Value other = add->getOperand(1 - i);
      if (!dot || !dot->hasOneUse() || !tt::isZeroConstant(dot.getC()) ||
          other.getType() != dot.getType())
        continue;
      rewriter.replaceOpWithNewOp<tt::DotOp>(
          add, dot.getType(), dot.getA(), dot.getB(), other,
          dot.getInputPrecision(), dot.getMaxNumImpreciseAcc());
      rewriter.eraseOp(dot);
      return success();
    }
    return failure();
  }
};

struct CombineDotAdd : public tpx::impl::TTCombineDotAddBase<CombineDotAdd> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldAddIntoDot<arith::AddFOp>, FoldAddIntoDot<arith::AddIOp>>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
