// RUN: tpx-opt %s -split-input-file --convert-tpxgpu-to-nvvm --canonicalize --cse -mlir-print-debuginfo=false | FileCheck %s

// mbarriers and TMA copies (BarrierTMAPatterns.cpp): thread 0 initialises,
// expects, invalidates and issues the copies; every thread waits. The
// tensor map is a 128-byte __grid_constant__ parameter that keeps its
// tpxgpu.tensor_map for the artifact.

#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bs = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#map = #tpxgpu.tensor_map<base = 0, shape_args = [1, 1], shape_values = [0, 0], stride_args = [-1, -1], stride_values = [64, 1], box = [64, 64], element_type = f16, swizzle = 128, nan = false>

// CHECK-LABEL: llvm.func @tma(
// CHECK-SAME: %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %[[MAP:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant, tpxgpu.tensor_map = #tpxgpu.tensor_map<
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]]
// CHECK: llvm.inline_asm has_side_effects "@$0 mbarrier.init.shared::cta.b64 [$1], 1;", "b,r" %[[FIRST]]
// CHECK: "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], 8192;", "b,r"
// CHECK: %[[M:.*]] = llvm.ptrtoint %[[MAP]] : !llvm.ptr to i64
// CHECK: "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$4, $3}], [$5];", "b,r,l,r,r,r" %{{.*}}, %{{.*}}, %[[M]], %{{.*}}, %{{.*}}, %{{.*}}
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 done, [$1], $2;
// CHECK: "@$0 mbarrier.inval.shared::cta.b64 [$1];"
// CHECK: "@$0 cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [$1, {$3, $2}], [$4];\0A@$0 cp.async.bulk.commit_group;", "b,l,r,r,r"
// CHECK: "cp.async.bulk.wait_group.read 0;"
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func public @tma(%base: !tt.ptr<f16>, %m: i32, %i: i32, %d: !tt.tensordesc<tensor<64x64xf16>> {tpxgpu.tensor_map = #map}) {
    %buf = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<64x64xf16, #nv, mutable>
    %bar = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 8192 : i64} : !tpxgpu.memdesc<1xi64, #bs, mutable>
    tpxgpu.init_barrier %bar, 1 : !tpxgpu.memdesc<1xi64, #bs, mutable>
    tpxgpu.barrier_expect %bar, 8192 : !tpxgpu.memdesc<1xi64, #bs, mutable>
    tpxgpu.async_tma_copy_global_to_local %d[%i, %m] %buf, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tpxgpu.memdesc<1xi64, #bs, mutable> -> !tpxgpu.memdesc<64x64xf16, #nv, mutable>
    %c0 = arith.constant 0 : i32
    tpxgpu.wait_barrier %bar, %c0 : !tpxgpu.memdesc<1xi64, #bs, mutable>
    tpxgpu.inval_barrier %bar : !tpxgpu.memdesc<1xi64, #bs, mutable>
    tpxgpu.async_tma_copy_local_to_global %d[%i, %m] %buf : !tt.tensordesc<tensor<64x64xf16>>, !tpxgpu.memdesc<64x64xf16, #nv, mutable>
    tpxgpu.async_tma_store_wait pendings = 0
    tt.return
  }
}

