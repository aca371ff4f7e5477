// convert-tt-to-tpxgpu inside tpxgpu.warp_specialize: each partition's
// tensors get layouts over the partition's own warps (num_warps[i]: 2, 1
// and 8 here, none equal to the module's), also in what the partition
// nests (an scf.for) and in the layouts a tt.dot picks (an mma over 8
// warps); the code before and after the op keeps the module's warps.
// Two module sizes show which layouts follow the option and which do not:
// the partitions' are the same under num-warps=4 and num-warps=16.
// The layout verifier (warps per partition) checks the result as well.
// RUN: tpx-opt %s --convert-tt-to-tpxgpu=num-warps=4 -mlir-print-debuginfo=false | FileCheck %s --check-prefixes=CHECK,W4
// RUN: tpx-opt %s --convert-tt-to-tpxgpu=num-warps=16 -mlir-print-debuginfo=false | FileCheck %s --check-prefixes=CHECK,W16

// W4-DAG: #[[OUT:[a-z_0-9]+]] = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// W16-DAG: #[[OUT:[a-z_0-9]+]] = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [16], order = [0]}>
// CHECK-DAG: #[[P0:[a-z_0-9]+]] = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK-DAG: #[[P1:[a-z_0-9]+]] = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-DAG: #[[P2:[a-z_0-9]+]] = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// CHECK-DAG: #[[P2_2D:[a-z_0-9]+]] = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-DAG: #[[MMA:[a-z_0-9]+]] = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
// CHECK-DAG: #[[DOT_A:[a-z_0-9]+]] = #tpxgpu.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>

// W4: module attributes {"tpxgpu.num-warps" = 4 : i32
// W16: module attributes {"tpxgpu.num-warps" = 16 : i32
// CHECK-LABEL: tt.func public @ws
// Before the op: the module's warps.
// CHECK: %[[PRE:.*]] = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #[[OUT]]>
// CHECK: tpxgpu.warp_specialize num_warps = [2, 1, 8] warp_starts = [0, 2, 8] num_regs = [0, 0, 0] {
// Partition 0: two warps, the reduction's operand too.
// CHECK-NEXT: tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #[[P0]]>
// CHECK-NEXT: arith.sitofp %{{.*}} : tensor<2048xi32, #[[P0]]> to tensor<2048xf32, #[[P0]]>
// CHECK: }) : (tensor<2048xf32, #[[P0]]>) -> f32
// CHECK: }, {
// Partition 1: one warp, through the loop's iter_args and body.
// CHECK-NEXT: tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #[[P1]]>
// CHECK: scf.for {{.*}} -> (tensor<2048xi32, #[[P1]]>)
// CHECK-NEXT: tt.splat %{{.*}} : i32 -> tensor<2048xi32, #[[P1]]>
// CHECK-NEXT: arith.addi %{{.*}}, %{{.*}} : tensor<2048xi32, #[[P1]]>
// CHECK-NEXT: scf.yield %{{.*}} : tensor<2048xi32, #[[P1]]>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<2048x!tt.ptr<f32>, #[[P1]]>
// CHECK-NEXT: }, {
// Partition 2: eight warps (more than the module's 4), its dot's mma too.
// CHECK-NEXT: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #[[P2]]>
// CHECK: arith.addi %{{.*}}, %{{.*}} : tensor<64x64xi32, #[[P2_2D]]>
// CHECK: tpxgpu.convert_layout %{{.*}} -> tensor<64x64xf16, #[[DOT_A]]>
// CHECK: tt.dot %{{.*}} -> tensor<64x64xf32, #[[MMA]]>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>, #[[P2_2D]]>
// CHECK-NEXT: }
// After the op: the module's warps again.
// CHECK-NEXT: %[[POST:.*]] = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #[[OUT]]>
// CHECK-NEXT: arith.addi %[[PRE]], %[[POST]] : tensor<2048xi32, #[[OUT]]>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<2048x!tt.ptr<f32>, #[[OUT]]>
// CHECK-NEXT: tt.return
module {
  tt.func public @ws(%out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
    %c1 = arith.constant 1 : i32
    %pre = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
    %m = arith.addi %n, %c1 : i32
    tpxgpu.warp_specialize num_warps = [2, 1, 8] warp_starts = [0, 2, 8] num_regs = [0, 0, 0] {
      %r = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
      %f = arith.sitofp %r : tensor<2048xi32> to tensor<2048xf32>
      %s = "tt.reduce"(%f) ({
      ^bb0(%x: f32, %y: f32):
        %c = arith.addf %x, %y : f32
        tt.reduce.return %c : f32
      }) {axis = 0 : i32} : (tensor<2048xf32>) -> f32
      tt.store %out, %s : !tt.ptr<f32>
      tpxgpu.warp_yield
    }, {
      %r = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
      %c0 = arith.constant 0 : i32
      %v = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> (tensor<2048xi32>) : i32 {
        %mm = tt.splat %m : i32 -> tensor<2048xi32>
        %x = arith.addi %acc, %mm : tensor<2048xi32>
        scf.yield %x : tensor<2048xi32>
      }
      %f = arith.sitofp %v : tensor<2048xi32> to tensor<2048xf32>
      %p = tt.splat %out : !tt.ptr<f32> -> tensor<2048x!tt.ptr<f32>>
      %q = tt.addptr %p, %r : tensor<2048x!tt.ptr<f32>>, tensor<2048xi32>
      tt.store %q, %f : tensor<2048x!tt.ptr<f32>>
      tpxgpu.warp_yield
    }, {
      %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
      %e0 = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %e1 = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %b0 = tt.broadcast %e0 : tensor<64x1xi32> -> tensor<64x64xi32>
      %b1 = tt.broadcast %e1 : tensor<1x64xi32> -> tensor<64x64xi32>
      %o = arith.addi %b0, %b1 : tensor<64x64xi32>
      %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
      %qa = tt.addptr %pa, %o : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
      %la = tt.load %qa : tensor<64x64x!tt.ptr<f16>>
      %z = arith.constant dense<0.0> : tensor<64x64xf32>
      %d = tt.dot %la, %la, %z : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
      %po = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
      %qo = tt.addptr %po, %o : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
      tt.store %qo, %d : tensor<64x64x!tt.ptr<f32>>
      tpxgpu.warp_yield
    }
    %post = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
    %sum = arith.addi %pre, %post : tensor<2048xi32>
    %fs = arith.sitofp %sum : tensor<2048xi32> to tensor<2048xf32>
    %ps = tt.splat %out : !tt.ptr<f32> -> tensor<2048x!tt.ptr<f32>>
    %qs = tt.addptr %ps, %sum : tensor<2048x!tt.ptr<f32>>, tensor<2048xi32>
    tt.store %qs, %fs : tensor<2048x!tt.ptr<f32>>
    tt.return
  }
}
