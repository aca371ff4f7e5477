// mbarriers and named barriers on AMD (ROCDLBarriers.cpp): words of LDS
// updated by compare-and-swap loops. The mbarrier's i64: pending arrivals
// [0, 16), arrivals per phase [16, 32), pending transaction bytes as a
// 24-bit signed count [32, 56), the phase's parity at bit 63.
// RUN: tpx-opt %s -split-input-file --convert-tpxgpu-to-rocdl --canonicalize -mlir-print-debuginfo=false | FileCheck %s

// init_barrier 2 stores count 2 and 2 pending: (2 << 16) | 2 = 131074, by
// workitem 0 only. Every update is one lane's CAS loop, workgroup scope.
// CHECK-LABEL: llvm.func @mbarrier(
// CHECK-DAG: %[[INIT:.*]] = llvm.mlir.constant(131074 : i64) : i64
// CHECK-DAG: %[[BASE:.*]] = llvm.mlir.addressof @tpx_shared_memory : !llvm.ptr<3>
// CHECK: %[[TID:.*]] = rocdl.workitem.id.x : i32
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]]
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: llvm.store %[[INIT]], %[[BASE]] {alignment = 8 : i64} : i64, !llvm.ptr<3>
// barrier_expect: workitem 0 where %pred holds; the phase completes when
// both counts reach zero (parity flipped, the counts restored).
// CHECK: %[[ELECT:.*]] = llvm.and %{{.*}}, %arg0 : i1
// CHECK: scf.if %[[ELECT]] {
// CHECK: scf.while
// CHECK: llvm.cmpxchg %[[BASE]], %{{.*}}, %{{.*}} syncscope("workgroup") acq_rel acquire : !llvm.ptr<3>, i64
// arrive_barrier, barrier_complete_tx: the same loop.
// CHECK-COUNT-2: llvm.cmpxchg %[[BASE]], %{{.*}}, %{{.*}} syncscope("workgroup") acq_rel acquire : !llvm.ptr<3>, i64
// wait_barrier: every thread spins on an acquire load of the word until
// bit 63 differs from the phase waited for, s_sleep between tries.
// CHECK: scf.while
// CHECK: llvm.load %[[BASE]] atomic syncscope("workgroup") acquire {alignment = 8 : i64} : !llvm.ptr<3> -> i64
// CHECK: rocdl.s.sleep 1
// CHECK-NOT: llvm.cmpxchg
// CHECK: llvm.return
#bs = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {
  tt.func public @mbarrier(%pred: i1, %phase: i32) {
    %bar = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<1xi64, #bs, mutable>
    tpxgpu.init_barrier %bar, 2 : !tpxgpu.memdesc<1xi64, #bs, mutable>
    tpxgpu.barrier_expect %bar, 8192, %pred : !tpxgpu.memdesc<1xi64, #bs, mutable>
    tpxgpu.arrive_barrier %bar, 1 : !tpxgpu.memdesc<1xi64, #bs, mutable>
    tpxgpu.barrier_complete_tx %bar, 8192 : !tpxgpu.memdesc<1xi64, #bs, mutable>
    tpxgpu.wait_barrier %bar, %phase : !tpxgpu.memdesc<1xi64, #bs, mutable>
    tpxgpu.inval_barrier %bar : !tpxgpu.memdesc<1xi64, #bs, mutable>
    tt.return
  }
}

// -----

// A module without named barriers has no table.
// CHECK-NOT: tpx_named_barriers
// CHECK-LABEL: llvm.func @plain
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {
  tt.func public @plain() {
    tpxgpu.barrier
    tt.return
  }
}

// -----

// Named barriers: a 32-word LDS table, zeroed by workitems 0-31 at kernel
// entry (then s_barrier); the id is masked to the program's 16; lane 0 of
// each wavefront adds 64 arrivals by CAS, the one reaching the count flips
// bit 31 and restarts it; the others spin on the parity (readlane of lane
// 0's old word). arrive_only skips the spin.
// CHECK: llvm.mlir.global internal @tpx_named_barriers() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<32 x i32>
// CHECK-LABEL: llvm.func @named(
// CHECK: %[[TABLE:.*]] = llvm.mlir.addressof @tpx_named_barriers : !llvm.ptr<3>
// CHECK: %[[T:.*]] = rocdl.workitem.id.x : i32
// CHECK: %[[ZERO:.*]] = llvm.icmp "ult" %[[T]], %{{.*}} : i32
// CHECK: scf.if %[[ZERO]] {
// CHECK: llvm.store
// CHECK: rocdl.s.barrier
// CHECK: %[[ID:.*]] = llvm.and %arg0, %{{.*}} : i32
// CHECK: %[[WORD:.*]] = llvm.getelementptr %[[TABLE]][%[[ID]]]
// CHECK: llvm.urem %{{.*}}, %{{.*}} : i32
// CHECK: llvm.cmpxchg %[[WORD]], %{{.*}}, %{{.*}} syncscope("workgroup") acq_rel acquire : !llvm.ptr<3>, i32
// CHECK: rocdl.readlane
// CHECK: llvm.load %[[WORD]] atomic syncscope("workgroup") acquire
// CHECK: rocdl.s.sleep 1
// CHECK: llvm.cmpxchg
// CHECK-NOT: rocdl.s.sleep
// CHECK: llvm.return
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {
  tt.func public @named(%id: i32) {
    %c128 = arith.constant 128 : i32
    tpxgpu.named_barrier %id, %c128
    tpxgpu.named_barrier %id, %c128 arrive_only
    tt.return
  }
}
