// tlx-lower-to-tt: TLX for a target that runs a program as one thread.
// Buffers live on the stack as shared-memory pointers (address space 3),
// copies are load + store, dots are tt.dot, waits vanish.
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --tlx-lower-to-tt --split-input-file --mlir-print-debuginfo=false | FileCheck %s


// CHECK-LABEL: tt.func @pipeline
// The allocation is hoisted to the entry block: 2 x 16 x 8 f16 = 512 bytes.
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(512 : i64) : i64
// CHECK: %[[MEM:.*]] = llvm.alloca %[[BYTES]] x i8 {alignment = 64 : i64}
// CHECK: %[[ADDR:.*]] = llvm.ptrtoint %[[MEM]]
// CHECK: %[[BASE:.*]] = tt.int_to_ptr %[[ADDR]] : i64 -> !tt.ptr<f16, 3>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = {{.*}}) -> (tensor<16x16xf32>)
// local_view: base + index * 128 elements.
// CHECK:   %[[OFF:.*]] = arith.muli %{{.*}}, %c128_i32
// CHECK:   %[[VIEW:.*]] = tt.addptr %[[BASE]], %[[OFF]] : !tt.ptr<f16, 3>, i32
// The async copy: a load with zero-filled masked-off elements, stored into
// the buffer row-major (stride 8).
// CHECK:   %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x8xf16>
// CHECK:   %[[DATA:.*]] = tt.load %{{.*}}, %{{.*}}, %[[ZERO]] : tensor<16x8x!tt.ptr<f16>>
// CHECK:   arith.constant dense<8> : tensor<16x8xi32>
// CHECK:   tt.splat %[[VIEW]] : !tt.ptr<f16, 3> -> tensor<16x8x!tt.ptr<f16, 3>>
// CHECK:   tt.store %{{.*}}, %[[DATA]] : tensor<16x8x!tt.ptr<f16, 3>>
// CHECK-NOT: tlx.
// The dot reads both operands from their buffers; the transposed B view
// has strides (1, 8).
// CHECK:   %[[A:.*]] = tt.load %{{.*}} : tensor<16x8x!tt.ptr<f16, 3>>
// CHECK:   %[[B:.*]] = tt.load %{{.*}} : tensor<8x16x!tt.ptr<f16, 3>>
// CHECK:   %[[D:.*]] = tt.dot %[[A]], %[[B]], %[[ACC]], inputPrecision = tf32 : tensor<16x8xf16> * tensor<8x16xf16> -> tensor<16x16xf32>
// CHECK:   scf.yield %[[D]]
tt.func @pipeline(%ptrs: tensor<16x8x!tt.ptr<f16>>, %mask: tensor<16x8xi1>, %n: i32) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc0 = arith.constant dense<0.0> : tensor<16x16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<16x16xf32>) : i32 {
    %bufs = tlx.local_alloc : !tlx.buffer<2x16x8xf16>
    %v = tlx.local_view %bufs[%i] : !tlx.buffer<2x16x8xf16> -> !tlx.buffer<16x8xf16>
    %t = tlx.async_load %ptrs, %v mask %mask : tensor<16x8x!tt.ptr<f16>>, !tlx.buffer<16x8xf16>
    %g = tlx.async_commit_group %t
    %w = tlx.async_wait_group 0, %g
    %bt = tlx.local_trans %v {order = array<i32: 1, 0>} : !tlx.buffer<16x8xf16> -> !tlx.buffer<8x16xf16>
    %d = tlx.async_dot %v, %bt, %acc : !tlx.buffer<16x8xf16>, !tlx.buffer<8x16xf16> -> tensor<16x16xf32>
    %dw = tlx.async_dot_wait 0, %d : tensor<16x16xf32>
    scf.yield %dw : tensor<16x16xf32>
  }
  tt.return %r : tensor<16x16xf32>
}

// -----

// A buffer carried through a loop becomes a carried pointer.
// CHECK-LABEL: tt.func @carried
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!tt.ptr<f32, 3>)
// use_acc false at run time ignores the accumulator.
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf32>
tt.func @carried(%n: i32, %use: i1, %x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<2x16x16xf32>
  %v0 = tlx.local_view %bufs[%c0] : !tlx.buffer<2x16x16xf32> -> !tlx.buffer<16x16xf32>
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%v = %v0) -> (!tlx.buffer<16x16xf32>) : i32 {
    tlx.local_store %v, %x : !tlx.buffer<16x16xf32>, tensor<16x16xf32>
    %next = tlx.local_view %bufs[%i] : !tlx.buffer<2x16x16xf32> -> !tlx.buffer<16x16xf32>
    scf.yield %next : !tlx.buffer<16x16xf32>
  }
  %d = tlx.async_dot %last, %last, %x use_acc %use : !tlx.buffer<16x16xf32>, !tlx.buffer<16x16xf32> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}
