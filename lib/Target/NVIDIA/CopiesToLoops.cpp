//===- CopiesToLoops.cpp - the tpx-nvidia-copies-to-loops pass ------------===//
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace tpx {
#define GEN_PASS_DEF_TPXNVIDIACOPIESTOLOOPS
#include "tpx/Target/NVIDIA/NVIDIAPasses.h.inc"
} // namespace tpx

using namespace mlir;

namespace {
struct CopiesToLoopsPass
    : public tpx::impl::TPXNVIDIACopiesToLoopsBase<CopiesToLoopsPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }
};
} // namespace
