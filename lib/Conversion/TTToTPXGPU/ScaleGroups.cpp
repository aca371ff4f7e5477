//===- ScaleGroups.cpp - loads multiplied by group-wise scales ------------===//
#include "ScaleGroups.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::tpxgpu;

/// The dimension of `value` (a tensor) along which it is constant in groups
/// and the group size: `value` is reshape(broadcast(expand_dims(x))) where
/// the reshape merges dimensions (j, j + 1) and the broadcast widens j + 1,
/// possibly transposed after.
static std::optional<ScaleGroups> getBroadcastGroups(Value value) {
  SmallVector<int32_t> order;
  if (auto trans = value.getDefiningOp<tt::TransOp>()) {
    llvm::append_range(order, trans.getOrder());
    value = trans.getSrc();
  }
  auto reshape = value.getDefiningOp<tt::ReshapeOp>();
  if (!reshape)
    return std::nullopt;
  auto broadcast = reshape.getSrc().getDefiningOp<tt::BroadcastOp>();
  if (!broadcast)
    return std::nullopt;
  ArrayRef<int64_t> wide = broadcast.getType().getShape();
  ArrayRef<int64_t> narrow = broadcast.getSrc().getType().getShape();
  ArrayRef<int64_t> merged = reshape.getType().getShape();
  if (wide.size() != merged.size() + 1)
    return std::nullopt;
  for (unsigned j = 0; j < merged.size(); ++j) {
    // Merged dimension j = wide (j, j + 1), the other ones unchanged.
    bool others = true;
    for (unsigned k = 0; k < merged.size(); ++k)
      if (k != j && merged[k] != wide[k < j ? k : k + 1])
        others = false;
    if (!others || merged[j] != wide[j] * wide[j + 1] ||
        narrow[j + 1] != 1 || wide[j + 1] == 1)
      continue;
    unsigned dim = j;
    if (!order.empty())
      dim = llvm::find(order, int32_t(j)) - order.begin();
    return ScaleGroups{dim, wide[j + 1]};
  }
  return std::nullopt;
}

std::optional<ScaleGroups> tpx::getScaleGroups(tt::LoadOp load) {
  Value value = load.getResult();
  if (!isa<RankedTensorType>(value.getType()))
    return std::nullopt;
  while (value.hasOneUse()) {
    Operation *user = *value.getUsers().begin();
    if (isa<tt::FpToFpOp, tt::BitcastOp, arith::ExtFOp, arith::TruncFOp,
            arith::SIToFPOp, arith::UIToFPOp>(user)) {
      value = user->getResult(0);
      continue;
    }
    auto mul = dyn_cast<arith::MulFOp>(user);
    if (!mul)
      return std::nullopt;
    return getBroadcastGroups(mul.getLhs() == value ? mul.getRhs()
                                                    : mul.getLhs());
  }
  return std::nullopt;
}

BlockedEncodingAttr tpx::keepScaleGroupsInThreads(BlockedEncodingAttr layout,
                                                  ArrayRef<int64_t> shape,
                                                  ScaleGroups groups) {
  unsigned d = groups.dim;
  if (d >= shape.size())
    return layout;
  SmallVector<unsigned> sizePerThread(layout.getSizePerThread());
  int64_t covered = int64_t(sizePerThread[d]) * layout.getThreadsPerWarp()[d] *
                    layout.getWarpsPerCTA()[d];
  if (shape[d] <= covered || shape[d] % covered)
    return layout;
  int64_t elements = sizePerThread[d] * (shape[d] / covered);
  if (elements > groups.size || groups.size % elements)
    return layout;
  sizePerThread[d] = static_cast<unsigned>(elements);
  return BlockedEncodingAttr::get(layout.getContext(), sizePerThread,
                                  layout.getThreadsPerWarp(),
                                  layout.getWarpsPerCTA(), layout.getOrder());
}
