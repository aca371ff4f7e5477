// tpxgpu.warp_specialize on AMD (WarpSpecializeLowering.cpp): partitions
// are ranges of 64-lane wavefronts; the workgroup grows to the partitions'
// wavefronts (4 + 2 + 1 = 7: 448 threads); s_barrier before and after; in
// a partition from wavefront w > 0 the workitem id counts from its first
// thread (id - 64 w); its barriers (tpxgpu.barrier and a cross-wave
// tt.reduce's) are named barrier 16 + k of the LDS table among its
// threads, and a one-wavefront partition needs none. No setmaxnreg exists:
// num_regs is not used on AMD.
// RUN: tpx-opt %s --convert-tpxgpu-to-rocdl --canonicalize -mlir-print-debuginfo=false | FileCheck %s

// CHECK: module attributes {"tpxgpu.block-threads" = 448 : i32
// CHECK-LABEL: llvm.func @tlx(
// CHECK-SAME: rocdl.flat_work_group_size = "448,448", rocdl.kernel, rocdl.reqd_work_group_size = array<i32: 448, 1, 1>
// CHECK: %[[TABLE:.*]] = llvm.mlir.addressof @tpx_named_barriers : !llvm.ptr<3>
// CHECK: rocdl.s.barrier
// CHECK: rocdl.s.barrier
// CHECK: cf.cond_br %{{.*}}, ^[[P0:bb[0-9]+]], ^[[T1:bb[0-9]+]]
// Partition 0, wavefronts 0-3: the reduction's two barriers on word 16.
// CHECK: ^[[P0]]:
// CHECK-NOT: llvm.sub
// CHECK: %[[W16:.*]] = llvm.getelementptr %[[TABLE]][16]
// CHECK: llvm.cmpxchg %[[W16]]
// CHECK: %[[W16B:.*]] = llvm.getelementptr %[[TABLE]][16]
// CHECK: llvm.cmpxchg %[[W16B]]
// CHECK: cf.br ^[[T1]]
// Partition 1, wavefronts 4-5: word 17; workitem ids from 256.
// CHECK: ^[[T1]]:
// CHECK: cf.cond_br %{{.*}}, ^[[P1:bb[0-9]+]], ^[[T2:bb[0-9]+]]
// CHECK: ^[[P1]]:
// CHECK: %[[W17:.*]] = llvm.getelementptr %[[TABLE]][17]
// CHECK: llvm.cmpxchg %[[W17]]
// CHECK: %[[T:.*]] = rocdl.workitem.id.x : i32
// CHECK: llvm.sub %[[T]], %{{.*}} : i32
// CHECK: cf.br ^[[T2]]
// Partition 2, wavefront 6 alone: no barrier.
// CHECK: ^[[T2]]:
// CHECK: cf.cond_br %{{.*}}, ^[[P2:bb[0-9]+]], ^[[END:bb[0-9]+]]
// CHECK: ^[[P2]]:
// CHECK-NOT: llvm.cmpxchg
// CHECK: llvm.sub
// CHECK: ^[[END]]:
// CHECK: rocdl.s.barrier
// CHECK: llvm.return
#b4 = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {
  tt.func public @tlx(%p: !tt.ptr<f32>, %q: !tt.ptr<i32>, %v: i32) {
    tpxgpu.warp_specialize num_warps = [4, 2, 1] warp_starts = [0, 4, 6] num_regs = [0, 0, 0] {
      %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b4>
      %f = arith.sitofp %r : tensor<256xi32, #b4> to tensor<256xf32, #b4>
      %s = "tt.reduce"(%f) ({
      ^bb0(%a: f32, %b: f32):
        %c = arith.addf %a, %b : f32
        tt.reduce.return %c : f32
      }) {axis = 0 : i32} : (tensor<256xf32, #b4>) -> f32
      tt.store %p, %s : !tt.ptr<f32>
      tpxgpu.warp_yield
    }, {
      tpxgpu.barrier
      tt.store %q, %v : !tt.ptr<i32>
      tpxgpu.warp_yield
    }, {
      tpxgpu.barrier
      tt.store %q, %v : !tt.ptr<i32>
      tpxgpu.warp_yield
    }
    tt.return
  }
}
