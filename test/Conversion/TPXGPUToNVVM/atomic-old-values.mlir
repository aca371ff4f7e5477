// The old values of an atomic on fewer elements than the block has threads:
// each element's owner runs the atomic, stores its old value at the
// element's place in scratch, and after a barrier every thread holding the
// element (its replicas in other lanes and warps) loads it.
// RUN: tpx-opt %s --convert-tt-to-tpxgpu=num-warps=4 --tpxgpu-lower-layout-conversions --tpxgpu-allocate-shared-memory --convert-tpxgpu-to-nvvm -mlir-print-debuginfo=false | FileCheck %s

// 16 i32 elements: 64 bytes of scratch, and 64 more to convert the old
// values to the store's layout (one element a thread: stores spread).
// CHECK: "tpxgpu.shared-bytes" = 128 : i64
// CHECK-LABEL: llvm.func @small_used
// CHECK: atom.acq_rel.gpu.global.exch.b32
// CHECK: nvvm.barrier0
// CHECK: "@$2 st.shared.b32 [ $0 ], $1;"
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: st.global
tt.func public @small_used(%p: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
  %pp = tt.addptr %ps, %r : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
  %old = tt.atomic_rmw exch, acq_rel, gpu, %pp, %r : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>) -> tensor<16xi32>
  %os = tt.splat %out : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
  %op = tt.addptr %os, %r : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
  tt.store %op, %old : tensor<16x!tt.ptr<i32>>
  tt.return
}
