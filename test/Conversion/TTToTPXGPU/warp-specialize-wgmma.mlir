// wgmma runs on warp groups that start at a multiple of 4 warps: a dot in a
// partition of 4 warps from warp 4 uses it, the same dot in one from warp 2
// keeps mma.sync.
// RUN: tpx-opt %s --convert-tt-to-tpxgpu=num-warps=4 --tpxgpu-use-wgmma -mlir-print-debuginfo=false | FileCheck %s

// CHECK-LABEL: tt.func public @aligned
// CHECK: tpxgpu.warp_group_dot
// CHECK-LABEL: tt.func public @unaligned
// CHECK-NOT: tpxgpu.warp_group_dot
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #{{.*}}>
// CHECK-NOT: tpxgpu.warp_group_dot
tt.func public @aligned(%out: !tt.ptr<f32>) {
  tpxgpu.warp_specialize num_warps = [4, 4] warp_starts = [0, 4] num_regs = [0, 0] {
    tpxgpu.warp_yield
  }, {
    %la = arith.constant dense<1.0> : tensor<64x64xf16>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %d = tt.dot %la, %la, %z : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %s = "tt.reduce"(%d) ({
    ^bb0(%x: f32, %y: f32):
      %m = arith.addf %x, %y : f32
      tt.reduce.return %m : f32
    }) {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<64xf32>
    %t = "tt.reduce"(%s) ({
    ^bb0(%x: f32, %y: f32):
      %m = arith.addf %x, %y : f32
      tt.reduce.return %m : f32
    }) {axis = 0 : i32} : (tensor<64xf32>) -> f32
    tt.store %out, %t : !tt.ptr<f32>
    tpxgpu.warp_yield
  }
  tt.return
}

tt.func public @unaligned(%out: !tt.ptr<f32>) {
  tpxgpu.warp_specialize num_warps = [2, 4] warp_starts = [0, 2] num_regs = [0, 0] {
    tpxgpu.warp_yield
  }, {
    %la = arith.constant dense<1.0> : tensor<64x64xf16>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %d = tt.dot %la, %la, %z : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %s = "tt.reduce"(%d) ({
    ^bb0(%x: f32, %y: f32):
      %m = arith.addf %x, %y : f32
      tt.reduce.return %m : f32
    }) {axis = 0 : i32} : (tensor<64x64xf32>) -> tensor<64xf32>
    %t = "tt.reduce"(%s) ({
    ^bb0(%x: f32, %y: f32):
      %m = arith.addf %x, %y : f32
      tt.reduce.return %m : f32
    }) {axis = 0 : i32} : (tensor<64xf32>) -> f32
    tt.store %out, %t : !tt.ptr<f32>
    tpxgpu.warp_yield
  }
  tt.return
}
