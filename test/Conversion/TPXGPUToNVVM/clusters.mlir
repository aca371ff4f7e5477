// RUN: tpx-opt %s -split-input-file --convert-tpxgpu-to-nvvm --canonicalize --cse -mlir-print-debuginfo=false | FileCheck %s

// Thread-block clusters (BarrierTMAPatterns.cpp): the CTA's rank, the
// cluster-wide barrier and mbarrier-init fence, an arrival on a peer CTA's
// barrier (mapa, then a release at cluster scope) and a TMA load
// multicast to the CTAs of a mask.

#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bs = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#map = #tpxgpu.tensor_map<base = 0, shape_args = [1, 1], shape_values = [0, 0], stride_args = [-1, -1], stride_values = [64, 1], box = [64, 64], element_type = f16, swizzle = 128, nan = false>

// CHECK-LABEL: llvm.func @cluster(
// CHECK: %[[MASK:.*]] = arith.constant 3 : i16
// CHECK: %[[RANK:.*]] = llvm.inline_asm "mov.u32 $0, %cluster_ctarank;", "=r"
// CHECK: "@$0 mbarrier.init.shared::cta.b64 [$1], 2;"
// CHECK: "fence.mbarrier_init.release.cluster;"
// CHECK: "barrier.cluster.arrive;\0Abarrier.cluster.wait;"
// CHECK: %[[PEER:.*]] = arith.xori %[[RANK]]
// CHECK: %[[REMOTE:.*]] = llvm.inline_asm "mapa.shared::cluster.u32 $0, $1, $2;", "=r,r,r" %{{.*}}, %[[PEER]]
// CHECK: "@$0 mbarrier.arrive.release.cluster.shared::cluster.b64 _, [$1], 1;", "b,r" %{{.*}}, %[[REMOTE]]
// CHECK: "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [$1], [$2, {$4, $3}], [$5], $6;", "b,r,l,r,r,r,h" {{.*}}, %[[MASK]]
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32, "tpxgpu.cluster-dims" = array<i32: 2, 1, 1>} {
  tt.func public @cluster(%base: !tt.ptr<f16>, %m: i32, %i: i32, %d: !tt.tensordesc<tensor<64x64xf16>> {tpxgpu.tensor_map = #map}) {
    %rank = tpxgpu.cluster_cta_rank : i32
    %buf = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<64x64xf16, #nv, mutable>
    %bar = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 8192 : i64} : !tpxgpu.memdesc<1xi64, #bs, mutable>
    tpxgpu.init_barrier %bar, 2 : !tpxgpu.memdesc<1xi64, #bs, mutable>
    tpxgpu.fence_mbarrier_init
    tpxgpu.cluster_barrier
    %one = arith.constant 1 : i32
    %peer = arith.xori %rank, %one : i32
    tpxgpu.arrive_barrier %bar, 1 cta %peer : !tpxgpu.memdesc<1xi64, #bs, mutable>
    %mask = arith.constant 3 : i16
    tpxgpu.async_tma_copy_global_to_local %d[%i, %m] %buf, %bar multicast %mask : !tt.tensordesc<tensor<64x64xf16>>, !tpxgpu.memdesc<1xi64, #bs, mutable> -> !tpxgpu.memdesc<64x64xf16, #nv, mutable>
    tpxgpu.cluster_barrier
    tt.return
  }
}
