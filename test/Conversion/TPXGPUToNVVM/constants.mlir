// Tensor constants: a splat is the scalar in every register (fp8 as its i8
// bits); other values are a table in global memory that each register
// reads at its element's row-major index (i1 tables as bytes).
// RUN: tpx-opt %s --convert-tt-to-tpxgpu=num-warps=4 --tpxgpu-lower-layout-conversions --tpxgpu-allocate-shared-memory --convert-tpxgpu-to-nvvm -mlir-print-debuginfo=false | FileCheck %s

// CHECK-DAG: llvm.mlir.global internal constant @tpx_constant{{.*}}(dense<[1, 0, 1, 1]> : tensor<4xi8>) {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<4 x i8>
// CHECK-DAG: llvm.mlir.global internal constant @tpx_constant{{.*}}(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>)
// CHECK-LABEL: llvm.func @tables
// CHECK: llvm.mlir.addressof @tpx_constant
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> i8
// CHECK: llvm.trunc %{{.*}} : i8 to i1
// CHECK: llvm.mlir.constant(56 : i8) : i8
tt.func public @tables(%p: !tt.ptr<f32>, %q: !tt.ptr<i8>, %s: !tt.ptr<f8E4M3FN>) {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %r = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  %re = tt.expand_dims %r {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
  %two = arith.constant dense<2> : tensor<2x1xi32>
  %rows = arith.muli %re, %two : tensor<2x1xi32>
  %rb = tt.broadcast %rows : tensor<2x1xi32> -> tensor<2x2xi32>
  %ce = tt.expand_dims %r {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
  %cb = tt.broadcast %ce : tensor<1x2xi32> -> tensor<2x2xi32>
  %off = arith.addi %rb, %cb : tensor<2x2xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<2x2x!tt.ptr<f32>>
  %pp = tt.addptr %ps, %off : tensor<2x2x!tt.ptr<f32>>, tensor<2x2xi32>
  tt.store %pp, %t : tensor<2x2x!tt.ptr<f32>>
  %b = arith.constant dense<[true, false, true, true]> : tensor<4xi1>
  %r4 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %bi = arith.trunci %r4 : tensor<4xi32> to tensor<4xi8>
  %qs = tt.splat %q : !tt.ptr<i8> -> tensor<4x!tt.ptr<i8>>
  %qp = tt.addptr %qs, %r4 : tensor<4x!tt.ptr<i8>>, tensor<4xi32>
  tt.store %qp, %bi, %b : tensor<4x!tt.ptr<i8>>
  %f8 = arith.constant dense<1.0> : tensor<4xf8E4M3FN>
  %ss = tt.splat %s : !tt.ptr<f8E4M3FN> -> tensor<4x!tt.ptr<f8E4M3FN>>
  %sp = tt.addptr %ss, %r4 : tensor<4x!tt.ptr<f8E4M3FN>>, tensor<4xi32>
  tt.store %sp, %f8 : tensor<4x!tt.ptr<f8E4M3FN>>
  tt.return
}
