// RUN: tpx-opt %s -split-input-file --tpx-nvidia-select-codegen="num-warps=4" 2>&1 | FileCheck %s
// An atomic whose old values are used on fewer elements than the block's
// 128 threads is replicated: its owners hand the old values to the replicas
// through shared memory (atomic-old-values.mlir), so it stays on SIMT.
// CHECK-NOT: does not cover
// CHECK: module attributes {tpxgpu.codegen = "simt"}
module {
  tt.func public @small_used(%p: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
    %pp = tt.addptr %ps, %r : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
    %old = tt.atomic_rmw add, acq_rel, gpu, %pp, %r : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>) -> tensor<16xi32>
    %os = tt.splat %out : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
    %op = tt.addptr %os, %r : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
    tt.store %op, %old : tensor<16x!tt.ptr<i32>>
    tt.return
  }
}

// -----

// Unused old values, or a tensor as large as the block: SIMT.
// CHECK: module attributes {tpxgpu.codegen = "simt"}
module {
  tt.func public @small_unused(%p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
    %pp = tt.addptr %ps, %r : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
    %old = tt.atomic_rmw add, acq_rel, gpu, %pp, %r : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>) -> tensor<16xi32>
    tt.return
  }
}

// -----

// CHECK: module attributes {tpxgpu.codegen = "simt"}
module {
  tt.func public @large_used(%p: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<i32>>, tensor<128xi32>
    %old = tt.atomic_rmw add, acq_rel, gpu, %pp, %r : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
    %os = tt.splat %out : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
    %op = tt.addptr %os, %r : tensor<128x!tt.ptr<i32>>, tensor<128xi32>
    tt.store %op, %old : tensor<128x!tt.ptr<i32>>
    tt.return
  }
}

// -----

// Scalar atomics broadcast their old value through shared memory: SIMT.
// CHECK: module attributes {tpxgpu.codegen = "simt"}
module {
  tt.func public @scalar_used(%p: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %old = tt.atomic_cas acq_rel, gpu, %p, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
    tt.store %out, %old : !tt.ptr<i32>
    tt.return
  }
}
