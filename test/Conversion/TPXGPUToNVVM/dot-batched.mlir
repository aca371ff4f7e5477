// A batched (3-D) dot runs on FMAs: a blocked accumulator over
// (batch, M, N) and dot_op operands that share its batch and row (A) or
// column (B) thread parts, each holding the whole K. The default layout of
// 2 x 16 x 8 puts the 4 warps along the batch (two of them replicating),
// so each thread holds 4 results, each a chain of K = 16 FMAs.
// RUN: tpx-opt %s --convert-tt-to-tpxgpu=num-warps=4 --tpxgpu-lower-layout-conversions --tpxgpu-allocate-shared-memory --convert-tpxgpu-to-nvvm -mlir-print-debuginfo=false | FileCheck %s

// CHECK-LABEL: llvm.func @batched
// CHECK-COUNT-64: llvm.intr.fma
// CHECK-NOT: llvm.intr.fma
// CHECK: llvm.return
tt.func public @batched(%a: tensor<2x16x16xf32>, %b: tensor<2x16x8xf32>, %out: !tt.ptr<f32>) {
  %z = arith.constant dense<0.0> : tensor<2x16x8xf32>
  %d = tt.dot %a, %b, %z, inputPrecision = ieee : tensor<2x16x16xf32> * tensor<2x16x8xf32> -> tensor<2x16x8xf32>
  %f = tt.reshape %d : tensor<2x16x8xf32> -> tensor<256xf32>
  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %ps = tt.splat %out : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %pp = tt.addptr %ps, %r : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  tt.store %pp, %f : tensor<256x!tt.ptr<f32>>
  tt.return
}
