// RUN: tpx-opt %s -split-input-file | FileCheck %s

// The facts passes hand on, in their valid forms, verify and print back
// (invalid.mlir has the rejected forms).

// CHECK: module attributes {"tpxgpu.block-threads" = 128 : i32, tpxgpu.codegen = "simt", "tpxgpu.shared-bytes" = 0 : i64}
module attributes {tpxgpu.codegen = "simt", "tpxgpu.block-threads" = 128 : i32, "tpxgpu.shared-bytes" = 0 : i64} {
  tt.func @k(%p: tensor<64x!tt.ptr<f32>>) {
    // CHECK: tt.load %{{.*}} {tpxgpu.contiguity = array<i64: 4>}
    %v = tt.load %p {tpxgpu.contiguity = array<i64: 4>} : tensor<64x!tt.ptr<f32>>
    // CHECK: arith.constant {"tpxgpu.shared-offset" = 256 : i64}
    %c = arith.constant {"tpxgpu.shared-offset" = 256 : i64} 0 : i32
    tt.return
  }
}

// -----

// CHECK: tpxgpu.codegen = "scalar"
module attributes {tpxgpu.codegen = "scalar", "tpxgpu.block-threads" = 1 : i32} {
}
