//===- CombinePatterns.cpp - reduce, scan, map_elementwise, histogram -----===//
//
// Ops with combine regions become loops that apply a copy of the region to
// scalars. Reductions run sequentially along the axis; the GPU combines in
// a tree, which the corpus tolerances allow for.
//
//===----------------------------------------------------------------------===//
#include "TTToCPUCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::cpu;

namespace {

/// Clones the single-block `region` with its arguments bound to `args` and
/// returns the operands of its terminator.
static SmallVector<Value> applyRegion(OpBuilder &b, Region &region,
                                      ValueRange args) {
  Block &block = region.front();
  IRMapping mapping;
  mapping.map(block.getArguments(), args);
  for (Operation &op : block.without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> results;
  for (Value v : block.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

/// Like applyRegion, for a region of any number of blocks (a
/// tt.map_elementwise body may branch with cf ops): the blocks are cloned
/// into an scf.execute_region, whose entry block jumps to the clone of the
/// original entry with `args`, and every `Terminator` becomes a branch to
/// an exit block that yields the values. convert-scf-to-cf later inlines the region in place.
/// Ops are cloned one by one through `b` so that a conversion rewriter sees
/// them; blocks are cloned in region order, which dominance follows.
template <typename Terminator>
static SmallVector<Value> applyMultiBlockRegion(OpBuilder &b, Location loc,
                                                Region &region,
                                                ValueRange args) {
  SmallVector<Type> resultTypes;
  for (Block &block : region)
    if (auto ret = dyn_cast<Terminator>(block.getTerminator())) {
      resultTypes.assign(ret->getOperandTypes().begin(),
                         ret->getOperandTypes().end());
      break;
    }
  auto exec = scf::ExecuteRegionOp::create(b, loc, resultTypes);
  OpBuilder::InsertionGuard guard(b);
  Region &body = exec.getRegion();
  Block *jump = b.createBlock(&body);
  IRMapping mapping;
  for (Block &block : region) {
    SmallVector<Location> locs;
    for (BlockArgument arg : block.getArguments())
      locs.push_back(arg.getLoc());
    Block *clone =
        b.createBlock(&body, body.end(), block.getArgumentTypes(), locs);
    mapping.map(&block, clone);
    mapping.map(block.getArguments(), clone->getArguments());
  }
  // Bufferization wants a single scf.yield: every return jumps to one exit
  // block that yields its arguments.
  Block *exit = b.createBlock(&body, body.end(), resultTypes,
                              SmallVector<Location>(resultTypes.size(), loc));
  scf::YieldOp::create(b, loc, exit->getArguments());
  b.setInsertionPointToEnd(jump);
  cf::BranchOp::create(b, loc, mapping.lookup(&region.front()), args);
  for (Block &block : region) {
    b.setInsertionPointToEnd(mapping.lookup(&block));
    for (Operation &op : block) {
      if (auto ret = dyn_cast<Terminator>(op)) {
        SmallVector<Value> values;
        for (Value v : ret->getOperands())
          values.push_back(mapping.lookupOrDefault(v));
        cf::BranchOp::create(b, ret.getLoc(), exit, values);
        continue;
      }
      b.clone(op, mapping);
    }
  }
  return SmallVector<Value>(exec.getResults());
}

/// `ivs` with `axisIndex` inserted at position `axis`.
static SmallVector<Value> withAxis(ValueRange ivs, int64_t axis,
                                   Value axisIndex) {
  SmallVector<Value> at(ivs.begin(), ivs.end());
  at.insert(at.begin() + axis, axisIndex);
  return at;
}

struct ReduceOpLowering : public OpConversionPattern<tt::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t axis = op.getAxis();
    ValueRange srcs = adaptor.getSrcs();
    auto srcType = cast<RankedTensorType>(srcs.front().getType());
    int64_t extent = srcType.getDimSize(axis);
    SmallVector<int64_t> outer(srcType.getShape());
    outer.erase(outer.begin() + axis);

    // Reduce the line through `ivs` (outer coordinates) along the axis.
    auto reduceLine = [&](OpBuilder &b, Location l, ValueRange ivs) {
      Value zero = arith::ConstantIndexOp::create(b, l, 0);
      SmallVector<Value> first;
      for (Value src : srcs)
        first.push_back(tensor::ExtractOp::create(b, l, src,
                                                  withAxis(ivs, axis, zero)));
      if (extent == 1)
        return first;
      Value one = arith::ConstantIndexOp::create(b, l, 1);
      Value end = arith::ConstantIndexOp::create(b, l, extent);
      auto loop = scf::ForOp::create(
          b, l, one, end, one, first,
          [&](OpBuilder &lb, Location ll, Value k, ValueRange acc) {
            SmallVector<Value> args(acc.begin(), acc.end());
            for (Value src : srcs)
              args.push_back(tensor::ExtractOp::create(
                  lb, ll, src, withAxis(ivs, axis, k)));
            scf::YieldOp::create(lb, ll,
                                 applyRegion(lb, op.getCombineOp(), args));
          });
      return SmallVector<Value>(loop.getResults());
    };

    if (outer.empty()) {
      rewriter.replaceOp(op, reduceLine(rewriter, loc, ValueRange()));
      return success();
    }
    SmallVector<Value> inits;
    for (Type type : op.getResultTypes())
      inits.push_back(createEmptyTensor(
          rewriter, loc,
          cast<RankedTensorType>(getTypeConverter()->convertType(type))));
    SmallVector<Value> results = buildLoopNest(
        rewriter, loc, outer, inits,
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange iter) {
          SmallVector<Value> values = reduceLine(b, l, ivs);
          SmallVector<Value> next;
          for (auto [v, t] : llvm::zip(values, iter))
            next.push_back(tensor::InsertOp::create(b, l, v, t, ivs));
          return next;
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct ScanOpLowering : public OpConversionPattern<tt::ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t axis = op.getAxis();
    bool reverse = op.getReverse();
    ValueRange srcs = adaptor.getSrcs();
    auto srcType = cast<RankedTensorType>(srcs.front().getType());
    int64_t extent = srcType.getDimSize(axis);
    SmallVector<int64_t> outer(srcType.getShape());
    outer.erase(outer.begin() + axis);

    SmallVector<Value> inits;
    for (Value src : srcs)
      inits.push_back(createEmptyTensor(
          rewriter, loc, cast<RankedTensorType>(src.getType())));
    SmallVector<Value> results = buildLoopNest(
        rewriter, loc, outer, inits,
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange iter) {
          // Position of step k along the axis (from the end if reversed).
          auto position = [&](OpBuilder &pb, Location pl, Value k) -> Value {
            if (!reverse)
              return k;
            Value last = arith::ConstantIndexOp::create(pb, pl, extent - 1);
            return arith::SubIOp::create(pb, pl, last, k);
          };
          Value zero = arith::ConstantIndexOp::create(b, l, 0);
          Value start = position(b, l, zero);
          SmallVector<Value> acc, tensors;
          for (auto [src, out] : llvm::zip(srcs, iter)) {
            Value v = tensor::ExtractOp::create(b, l, src,
                                                withAxis(ivs, axis, start));
            acc.push_back(v);
            tensors.push_back(tensor::InsertOp::create(
                b, l, v, out, withAxis(ivs, axis, start)));
          }
          if (extent == 1)
            return tensors;
          SmallVector<Value> carried = acc;
          carried.append(tensors);
          size_t n = srcs.size();
          Value one = arith::ConstantIndexOp::create(b, l, 1);
          Value end = arith::ConstantIndexOp::create(b, l, extent);
          auto loop = scf::ForOp::create(
              b, l, one, end, one, carried,
              [&](OpBuilder &lb, Location ll, Value k, ValueRange state) {
                Value pos = position(lb, ll, k);
                SmallVector<Value> args(state.take_front(n));
                for (Value src : srcs)
                  args.push_back(tensor::ExtractOp::create(
                      lb, ll, src, withAxis(ivs, axis, pos)));
                SmallVector<Value> next =
                    applyRegion(lb, op.getCombineOp(), args);
                SmallVector<Value> yielded = next;
                for (auto [v, t] : llvm::zip(next, state.drop_front(n)))
                  yielded.push_back(tensor::InsertOp::create(
                      lb, ll, v, t, withAxis(ivs, axis, pos)));
                scf::YieldOp::create(lb, ll, yielded);
              });
          return SmallVector<Value>(loop.getResults().drop_front(n));
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// tt.map_elementwise: the scalar region runs on `pack` consecutive
/// elements (row-major) of every source at a time.
struct MapElementwiseOpLowering
    : public OpConversionPattern<tt::MapElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::MapElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t pack = op.getPack();
    auto shapeType = cast<RankedTensorType>(op.getSrcs().front().getType());
    int64_t count = shapeType.getNumElements();
    if (count % pack != 0)
      return op.emitOpError("element count is not a multiple of pack");
    SmallVector<Value> flatSrcs;
    for (Value src : adaptor.getSrcs()) {
      auto type = cast<RankedTensorType>(src.getType());
      flatSrcs.push_back(reshapeTensor(
          rewriter, loc, src,
          RankedTensorType::get({count}, type.getElementType())));
    }
    SmallVector<RankedTensorType> resultTypes;
    SmallVector<Value> inits;
    for (Type type : op.getResultTypes()) {
      auto converted =
          cast<RankedTensorType>(getTypeConverter()->convertType(type));
      resultTypes.push_back(converted);
      inits.push_back(createEmptyTensor(
          rewriter, loc,
          RankedTensorType::get({count}, converted.getElementType())));
    }
    SmallVector<Value> flatResults = buildLoopNest(
        rewriter, loc, {count / pack}, inits,
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange iter) {
          Value base = arith::MulIOp::create(
              b, l, ivs[0], arith::ConstantIndexOp::create(b, l, pack));
          SmallVector<Value> positions;
          for (int64_t p = 0; p < pack; ++p)
            positions.push_back(arith::AddIOp::create(
                b, l, base, arith::ConstantIndexOp::create(b, l, p)));
          SmallVector<Value> args;
          for (Value src : flatSrcs)
            for (Value pos : positions)
              args.push_back(tensor::ExtractOp::create(b, l, src, pos));
          SmallVector<Value> values =
              op.getScalarOp().hasOneBlock()
                  ? applyRegion(b, op.getScalarOp(), args)
                  : applyMultiBlockRegion<tt::MapElementwiseReturnOp>(
                        b, l, op.getScalarOp(), args);
          SmallVector<Value> next(iter.begin(), iter.end());
          for (size_t r = 0; r < next.size(); ++r)
            for (int64_t p = 0; p < pack; ++p)
              next[r] = tensor::InsertOp::create(b, l, values[r * pack + p],
                                                 next[r], positions[p]);
          return next;
        });
    SmallVector<Value> results;
    for (auto [flat, type] : llvm::zip(flatResults, resultTypes))
      results.push_back(reshapeTensor(rewriter, loc, flat, type));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// tt.histogram: counts of each value in [0, bins); values outside (and
/// masked-off ones) are not counted.
struct HistogramOpLowering : public OpConversionPattern<tt::HistogramOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    Type element = type.getElementType();
    int64_t bins = type.getDimSize(0);
    Value zeros = arith::ConstantOp::create(
        rewriter, loc, type,
        DenseElementsAttr::get(type, rewriter.getZeroAttr(element)));
    Value mask = adaptor.getMask();
    Value src = adaptor.getSrc();
    Value result = buildLoopNest(
        rewriter, loc, op.getSrc().getType().getShape(), {zeros},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange iter) {
          Value v = tensor::ExtractOp::create(b, l, src, ivs);
          Value v64 = v.getType().isInteger(64)
                          ? v
                          : arith::ExtSIOp::create(b, l, b.getI64Type(), v)
                                .getResult();
          Value ok = arith::AndIOp::create(
              b, l,
              arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::sge, v64,
                  arith::ConstantIntOp::create(b, l, b.getI64Type(), 0)),
              arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::slt, v64,
                  arith::ConstantIntOp::create(b, l, b.getI64Type(), bins)));
          if (mask)
            ok = arith::AndIOp::create(b, l, ok,
                                       extractElement(b, l, mask, ivs));
          auto ifOp = scf::IfOp::create(
              b, l, ok,
              [&](OpBuilder &tb, Location tl) {
                Value bin = arith::IndexCastOp::create(tb, tl,
                                                       tb.getIndexType(), v64);
                Value count = tensor::ExtractOp::create(tb, tl, iter[0], bin);
                Value inc = arith::AddIOp::create(
                    tb, tl, count,
                    arith::ConstantIntOp::create(tb, tl, element, 1));
                scf::YieldOp::create(
                    tb, tl,
                    ValueRange{tensor::InsertOp::create(tb, tl, inc, iter[0],
                                                        bin)});
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, iter[0]);
              });
          return SmallVector<Value>{ifOp.getResult(0)};
        })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tpx::cpu::populateCombinePatterns(CPUTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<ReduceOpLowering, ScanOpLowering, MapElementwiseOpLowering,
               HistogramOpLowering>(converter, patterns.getContext());
}
