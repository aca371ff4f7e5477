// The lowering of tpxgpu.warp_specialize (WarpSpecializeLowering.cpp and
// the kernel's launch size in FunctionPatterns.cpp / TPXGPUToNVVMPass.cpp):
//  - the block has the warps the partitions reach when that is more than
//    the module's (nvvm.reqntid and tpxgpu.block-threads);
//  - bar.sync 0 (nvvm.barrier0) before and after the op, and none left
//    inside: each partition is a branch taken where the warp id
//    (tid.x / 32) is in [start, start + num_warps);
//  - in a partition from warp w > 0, tid.x counts from its first thread
//    (tid.x - 32 w); its barriers (tpxgpu.barrier, and those a tt.reduce
//    across warps puts around its shared memory) become
//    `bar.sync id, num_warps * 32` on an id of its own: 15, 14, ... down,
//    skipping ids that the kernel's own nvvm.barrier / nvvm.barrier.arrive
//    name as constants, and counting on across the ops of a function;
//  - num_regs: setmaxnreg (nvvm.setmaxregister) to them at the partition's
//    start and back to the launch registers at its end, with nvvm.maxnreg
//    = the launch registers: min(256, 65536 / block threads rounded down to
//    a multiple of 8); partitions of whole warp groups without num_regs
//    share what is left of the block's budget (block threads x launch
//    registers), at most 256; other warps keep the launch registers.
// The errors (registers or barrier ids run out) are in
// warp-specialize-invalid.mlir.
// RUN: tpx-opt %s -split-input-file --convert-tpxgpu-to-nvvm -mlir-print-debuginfo=false | FileCheck %s

// A TLX-like producer/consumer split over three warp groups (12 warps, 384
// threads: 65536 / 384 = 170, 168 registers a thread at launch, a budget
// of 384 x 168 = 64512). Partition 1 asks for 240 and partition 2 for 40;
// partition 0, without num_regs, gets (64512 - 128 x 240 - 128 x 40) / 128
// = 224: the whole budget is used. The kernel's own barriers take ids 15
// (nvvm.barrier, arith.constant) and 13 (nvvm.barrier.arrive,
// llvm.mlir.constant), so the partitions get 14, 12 and 11.

// CHECK: module attributes {"tpxgpu.block-threads" = 384 : i32
// CHECK-LABEL: llvm.func @tlx(
// CHECK-SAME: attributes {nvvm.kernel, nvvm.maxnreg = 168 : i32, nvvm.reqntid = array<i32: 384, 1, 1>}
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK-NEXT: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[WARP:.*]] = llvm.udiv %[[TID]], %[[C32]] : i32
// Partition 0: warps 0..3.
// CHECK-NEXT: %[[E0:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: %[[LT0:.*]] = llvm.icmp "ult" %[[WARP]], %[[E0]] : i32
// CHECK-NEXT: %[[S0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[GE0:.*]] = llvm.icmp "uge" %[[WARP]], %[[S0]] : i32
// CHECK-NEXT: %[[IN0:.*]] = llvm.and %[[GE0]], %[[LT0]] : i1
// CHECK-NEXT: cf.cond_br %[[IN0]], ^[[P0:bb[0-9]+]], ^[[T1:bb[0-9]+]]
// CHECK: ^[[P0]]:
// CHECK-NEXT: nvvm.setmaxregister increase 224
// The reduction over four warps: barrier 14 of 128 threads around its
// shared memory; tid.x as it is (the partition starts at thread 0).
// CHECK-NOT: llvm.sub
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[N0:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-NEXT: %[[ID0:.*]] = llvm.mlir.constant(14 : i32) : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID0]] number_of_threads = %[[N0]]
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NOT: llvm.sub
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[N0B:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-NEXT: %[[ID0B:.*]] = llvm.mlir.constant(14 : i32) : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID0B]] number_of_threads = %[[N0B]]
// CHECK-NOT: llvm.sub
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[TID0:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: llvm.icmp "eq" %[[TID0]], %{{.*}} : i32
// CHECK: st.global.b32
// CHECK-NEXT: nvvm.setmaxregister decrease 168
// CHECK-NEXT: cf.br ^[[T1]]
// Partition 1: warps 4..7, from thread 128.
// CHECK-NEXT: ^[[T1]]:
// CHECK-NEXT: %[[E1:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-NEXT: %[[LT1:.*]] = llvm.icmp "ult" %[[WARP]], %[[E1]] : i32
// CHECK-NEXT: %[[S1:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: %[[GE1:.*]] = llvm.icmp "uge" %[[WARP]], %[[S1]] : i32
// CHECK-NEXT: %[[IN1:.*]] = llvm.and %[[GE1]], %[[LT1]] : i1
// CHECK-NEXT: cf.cond_br %[[IN1]], ^[[P1:bb[0-9]+]], ^[[T2:bb[0-9]+]]
// CHECK-NEXT: ^[[P1]]:
// CHECK-NEXT: nvvm.setmaxregister increase 240
// CHECK-NEXT: %[[N1:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-NEXT: %[[ID1:.*]] = llvm.mlir.constant(12 : i32) : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID1]] number_of_threads = %[[N1]]
// CHECK-NEXT: %[[ZERO1:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[TID1:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[FIRST1:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-NEXT: %[[REL1:.*]] = llvm.sub %[[TID1]], %[[FIRST1]] : i32
// CHECK-NEXT: %[[ONE1:.*]] = llvm.icmp "eq" %[[REL1]], %[[ZERO1]] : i32
// CHECK-NEXT: st.global.b32{{.*}}%[[ONE1]]
// CHECK-NEXT: nvvm.setmaxregister decrease 168
// CHECK-NEXT: cf.br ^[[T2]]
// Partition 2: warps 8..11, from thread 256, down to 40 registers.
// CHECK-NEXT: ^[[T2]]:
// CHECK-NEXT: %[[E2:.*]] = llvm.mlir.constant(12 : i32) : i32
// CHECK-NEXT: %[[LT2:.*]] = llvm.icmp "ult" %[[WARP]], %[[E2]] : i32
// CHECK-NEXT: %[[S2:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-NEXT: %[[GE2:.*]] = llvm.icmp "uge" %[[WARP]], %[[S2]] : i32
// CHECK-NEXT: %[[IN2:.*]] = llvm.and %[[GE2]], %[[LT2]] : i1
// CHECK-NEXT: cf.cond_br %[[IN2]], ^[[P2:bb[0-9]+]], ^[[END:bb[0-9]+]]
// CHECK-NEXT: ^[[P2]]:
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK-NEXT: %[[ZERO2:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[TID2:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[FIRST2:.*]] = llvm.mlir.constant(256 : i32) : i32
// CHECK-NEXT: %[[REL2:.*]] = llvm.sub %[[TID2]], %[[FIRST2]] : i32
// CHECK-NEXT: %[[ONE2:.*]] = llvm.icmp "eq" %[[REL2]], %[[ZERO2]] : i32
// CHECK-NEXT: st.global.b32{{.*}}%[[ONE2]]
// CHECK-NEXT: %[[N2:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-NEXT: %[[ID2:.*]] = llvm.mlir.constant(11 : i32) : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID2]] number_of_threads = %[[N2]]
// CHECK-NEXT: nvvm.setmaxregister increase 168
// CHECK-NEXT: cf.br ^[[END]]
// CHECK-NEXT: ^[[END]]:
// CHECK-NEXT: cf.br ^[[AFTER:bb[0-9]+]]
// CHECK-NEXT: ^[[AFTER]]:
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: llvm.return

#b4 = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func public @tlx(%p: !tt.ptr<f32>, %q: !tt.ptr<i32>, %v: i32) {
    %c15 = arith.constant 15 : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c13 = llvm.mlir.constant(13 : i32) : i32
    nvvm.barrier id = %c15 number_of_threads = %c64
    nvvm.barrier.arrive id = %c13 number_of_threads = %c64
    tpxgpu.warp_specialize num_warps = [4, 4, 4] warp_starts = [0, 4, 8] num_regs = [0, 240, 40] {
      %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b4>
      %f = arith.sitofp %r : tensor<128xi32, #b4> to tensor<128xf32, #b4>
      %s = "tt.reduce"(%f) ({
      ^bb0(%a: f32, %b: f32):
        %c = arith.addf %a, %b : f32
        tt.reduce.return %c : f32
      }) {axis = 0 : i32} : (tensor<128xf32, #b4>) -> f32
      tt.store %p, %s : !tt.ptr<f32>
      tpxgpu.warp_yield
    }, {
      tpxgpu.barrier
      tt.store %q, %v : !tt.ptr<i32>
      tpxgpu.warp_yield
    }, {
      tt.store %q, %v : !tt.ptr<i32>
      tpxgpu.barrier
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

// Registers where some warps are not whole warp groups: the one warp of
// partition 1 and the idle warps 5..7 keep the launch's 168 (no
// setmaxregister); partition 0 would get (64512 - 128 x 40 - 4 x 32 x 168)
// / 128 = 296 but setmaxnreg stops at 256. Barrier ids 15, 14, 13 (no
// kernel barriers), of 128, 32 and 128 threads.

// CHECK: module attributes {"tpxgpu.block-threads" = 384 : i32
// CHECK-LABEL: llvm.func @partial(
// CHECK-SAME: attributes {nvvm.kernel, nvvm.maxnreg = 168 : i32, nvvm.reqntid = array<i32: 384, 1, 1>}
// CHECK: cf.cond_br %{{.*}}, ^[[P0:bb[0-9]+]], ^[[T1:bb[0-9]+]]
// CHECK-NEXT: ^[[P0]]:
// CHECK-NEXT: nvvm.setmaxregister increase 256
// CHECK-NEXT: %[[N0:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-NEXT: %[[ID0:.*]] = llvm.mlir.constant(15 : i32) : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID0]] number_of_threads = %[[N0]]
// CHECK-NEXT: nvvm.setmaxregister decrease 168
// CHECK-NEXT: cf.br ^[[T1]]
// CHECK-NEXT: ^[[T1]]:
// CHECK-NEXT: llvm.mlir.constant(5 : i32)
// CHECK: llvm.mlir.constant(4 : i32)
// CHECK: cf.cond_br %{{.*}}, ^[[P1:bb[0-9]+]], ^[[T2:bb[0-9]+]]
// CHECK-NEXT: ^[[P1]]:
// CHECK-NEXT: %[[N1:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT: %[[ID1:.*]] = llvm.mlir.constant(14 : i32) : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID1]] number_of_threads = %[[N1]]
// CHECK-NEXT: cf.br ^[[T2]]
// CHECK-NEXT: ^[[T2]]:
// CHECK: cf.cond_br %{{.*}}, ^[[P2:bb[0-9]+]], ^{{bb[0-9]+}}
// CHECK-NEXT: ^[[P2]]:
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK-NEXT: %[[N2:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-NEXT: %[[ID2:.*]] = llvm.mlir.constant(13 : i32) : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID2]] number_of_threads = %[[N2]]
// CHECK-NEXT: nvvm.setmaxregister increase 168
// CHECK-NEXT: cf.br
// CHECK-NOT: setmaxregister
// CHECK: llvm.return
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func public @partial() {
    tpxgpu.warp_specialize num_warps = [4, 1, 4] warp_starts = [0, 4, 8] num_regs = [0, 0, 40] {
      tpxgpu.barrier
      tpxgpu.warp_yield
    }, {
      tpxgpu.barrier
      tpxgpu.warp_yield
    }, {
      tpxgpu.barrier
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

// Partitions within the module's 8 warps (they end at warp 6): the block
// stays at 256 threads, not 192. No num_regs: no setmaxregister and no
// nvvm.maxnreg. Partition 1's barrier counts its 64 threads, and its tid.x
// counts from thread 128.

// CHECK: module attributes {"tpxgpu.block-threads" = 256 : i32
// CHECK-LABEL: llvm.func @module_larger(
// CHECK-SAME: attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256, 1, 1>}
// CHECK-NEXT: nvvm.barrier0
// CHECK-NOT: setmaxregister
// CHECK: llvm.icmp "ult" %[[WARP:.*]], %{{.*}} : i32
// CHECK: %[[E1:.*]] = llvm.mlir.constant(6 : i32) : i32
// CHECK-NEXT: llvm.icmp "ult" %[[WARP]], %[[E1]] : i32
// CHECK-NEXT: %[[S1:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: llvm.icmp "uge" %[[WARP]], %[[S1]] : i32
// CHECK: %[[N1:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-NEXT: %[[ID1:.*]] = llvm.mlir.constant(14 : i32) : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID1]] number_of_threads = %[[N1]]
// CHECK: %[[TID1:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[FIRST1:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-NEXT: llvm.sub %[[TID1]], %[[FIRST1]] : i32
// CHECK-NOT: setmaxregister
// CHECK: nvvm.barrier0
// CHECK-NEXT: llvm.return
module attributes {"tpxgpu.num-warps" = 8 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func public @module_larger(%q: !tt.ptr<i32>, %v: i32) {
    tpxgpu.warp_specialize num_warps = [4, 2] warp_starts = [0, 4] num_regs = [0, 0] {
      tpxgpu.barrier
      tpxgpu.warp_yield
    }, {
      tpxgpu.barrier
      tt.store %q, %v : !tt.ptr<i32>
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

// Two ops in one kernel: the block is as large as the larger one needs (5
// warps, 160 threads), the barrier ids count on (15, 14, then 13), and the
// code between them runs on every warp with the whole block's bar.sync 0
// (tpxgpu.barrier there stays nvvm.barrier0) and tid.x as it is.

// CHECK: module attributes {"tpxgpu.block-threads" = 160 : i32
// CHECK-LABEL: llvm.func @two_ops(
// CHECK-SAME: attributes {nvvm.kernel, nvvm.reqntid = array<i32: 160, 1, 1>}
// CHECK-NEXT: nvvm.barrier0
// CHECK: %[[ID0:.*]] = llvm.mlir.constant(15 : i32) : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID0]]
// CHECK: %[[ID1:.*]] = llvm.mlir.constant(14 : i32) : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID1]]
// CHECK-NEXT: cf.br ^[[END:bb[0-9]+]]
// CHECK-NEXT: ^[[END]]:
// CHECK-NEXT: cf.br ^[[AFTER:bb[0-9]+]]
// CHECK-NEXT: ^[[AFTER]]:
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: nvvm.barrier0
// CHECK-NOT: llvm.sub
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK-NOT: llvm.sub
// CHECK: st.global.b32
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[WARP:.*]] = llvm.udiv %[[TID]], %[[C32]] : i32
// CHECK-NEXT: %[[E:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.icmp "ult" %[[WARP]], %[[E]] : i32
// CHECK: %[[N2:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT: %[[ID2:.*]] = llvm.mlir.constant(13 : i32) : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID2]] number_of_threads = %[[N2]]
// CHECK: nvvm.barrier0
// CHECK-NEXT: llvm.return
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func public @two_ops(%q: !tt.ptr<i32>, %v: i32) {
    tpxgpu.warp_specialize num_warps = [4, 1] warp_starts = [0, 4] num_regs = [0, 0] {
      tpxgpu.barrier
      tpxgpu.warp_yield
    }, {
      tpxgpu.barrier
      tpxgpu.warp_yield
    }
    tpxgpu.barrier
    tt.store %q, %v : !tt.ptr<i32>
    tpxgpu.warp_specialize num_warps = [1] warp_starts = [0] num_regs = [0] {
      tpxgpu.barrier
      tpxgpu.warp_yield
    }
    tt.return
  }
}
