// The tlx dialect prints what it parses (and parses what it prints).
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --mlir-print-debuginfo=false | FileCheck %s
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s | tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so --mlir-print-debuginfo=false | FileCheck %s

// CHECK-LABEL: tt.func @buffers
tt.func @buffers(%ptrs: tensor<64x32x!tt.ptr<f16>>, %mask: tensor<64x32xi1>, %i: i32) {
  // CHECK: %[[A:.*]] = tlx.local_alloc : <3x64x32xf16>
  %a = tlx.local_alloc : !tlx.buffer<3x64x32xf16>
  // CHECK: tlx.local_alloc : <2x32x32xi32> reuse %[[A]] : !tlx.buffer<3x64x32xf16>
  %r = tlx.local_alloc : !tlx.buffer<2x32x32xi32> reuse %a : !tlx.buffer<3x64x32xf16>
  // CHECK: %[[V:.*]] = tlx.local_view %[[A]][%{{.*}}] : <3x64x32xf16> -> <64x32xf16>
  %v = tlx.local_view %a[%i] : !tlx.buffer<3x64x32xf16> -> !tlx.buffer<64x32xf16>
  // CHECK: tlx.local_trans %[[V]] {order = array<i32: 1, 0>} : <64x32xf16> -> <32x64xf16>
  %t = tlx.local_trans %v {order = array<i32: 1, 0>} : !tlx.buffer<64x32xf16> -> !tlx.buffer<32x64xf16>
  // CHECK: tlx.local_slice %[[V]] {offsets = array<i64: 32, 0>} : <64x32xf16> -> <32x32xf16>
  %s = tlx.local_slice %v {offsets = array<i64: 32, 0>} : !tlx.buffer<64x32xf16> -> !tlx.buffer<32x32xf16>
  // CHECK: tlx.local_reinterpret %[[V]] : <64x32xf16> -> <32x32xi32>
  %x = tlx.local_reinterpret %v : !tlx.buffer<64x32xf16> -> !tlx.buffer<32x32xi32>
  // CHECK: %[[T0:.*]] = tlx.async_load %{{.*}}, %[[V]] mask %{{.*}} cacheModifier = cg : tensor<64x32x!tt.ptr<f16>>, <64x32xf16>
  %t0 = tlx.async_load %ptrs, %v mask %mask cacheModifier = cg : tensor<64x32x!tt.ptr<f16>>, !tlx.buffer<64x32xf16>
  // CHECK: %[[G:.*]] = tlx.async_commit_group %[[T0]]
  %g = tlx.async_commit_group %t0
  // CHECK: %[[W:.*]] = tlx.async_wait_group 1, %[[G]]
  %w = tlx.async_wait_group 1, %g
  // CHECK: tlx.async_wait_group 0{{ *$}}
  %w0 = tlx.async_wait_group 0
  // CHECK: tlx.local_load %[[V]] token %[[W]] : <64x32xf16> -> tensor<64x32xf16>
  %l = tlx.local_load %v token %w : !tlx.buffer<64x32xf16> -> tensor<64x32xf16>
  // CHECK: tlx.local_store %[[V]], %{{.*}} : <64x32xf16>, tensor<64x32xf16>
  tlx.local_store %v, %l : !tlx.buffer<64x32xf16>, tensor<64x32xf16>
  tt.return
}

// CHECK-LABEL: tt.func @dots
tt.func @dots(%a: tensor<64x16xf16>, %use: i1) {
  %bufs = tlx.local_alloc : !tlx.buffer<2x16x32xf16>
  %c0 = arith.constant 0 : i32
  %b = tlx.local_view %bufs[%c0] : !tlx.buffer<2x16x32xf16> -> !tlx.buffer<16x32xf16>
  %acc = arith.constant dense<0.0> : tensor<64x32xf32>
  // CHECK: tlx.async_dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x16xf16>, !tlx.buffer<16x32xf16> -> tensor<64x32xf32>
  %d = tlx.async_dot %a, %b, %acc : tensor<64x16xf16>, !tlx.buffer<16x32xf16> -> tensor<64x32xf32>
  // CHECK: tlx.async_dot %{{.*}}, %{{.*}}, %{{.*}} use_acc %{{.*}} {inputPrecision = 2 : i32}
  %e = tlx.async_dot %a, %b, %d use_acc %use {inputPrecision = 2 : i32} : tensor<64x16xf16>, !tlx.buffer<16x32xf16> -> tensor<64x32xf32>
  // CHECK: tlx.async_dot_wait 0, %{{.*}}, %{{.*}} : tensor<64x32xf32>, tensor<64x32xf32>
  %r:2 = tlx.async_dot_wait 0, %d, %e : tensor<64x32xf32>, tensor<64x32xf32>
  tt.return
}
