// What tlx-lower-to-tt cannot lower is an error at the op.
// RUN: not tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --tlx-lower-to-tt --split-input-file 2>&1 | FileCheck %s

tt.func @carried_transposed_view(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<1x16x8xf16>
  %v = tlx.local_view %bufs[%c0] : !tlx.buffer<1x16x8xf16> -> !tlx.buffer<16x8xf16>
  %t = tlx.local_trans %v {order = array<i32: 1, 0>} : !tlx.buffer<16x8xf16> -> !tlx.buffer<8x16xf16>
  // CHECK: [[@LINE+1]]:{{.*}} error: 'scf.for' op takes a transposed or sliced TLX view, which cannot be carried through control flow
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %t) -> (!tlx.buffer<8x16xf16>) : i32 {
    scf.yield %x : !tlx.buffer<8x16xf16>
  }
  tt.return
}

// -----

tt.func @reinterpret_transposed() {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<1x16x8xf16>
  %v = tlx.local_view %bufs[%c0] : !tlx.buffer<1x16x8xf16> -> !tlx.buffer<16x8xf16>
  %t = tlx.local_trans %v {order = array<i32: 1, 0>} : !tlx.buffer<16x8xf16> -> !tlx.buffer<8x16xf16>
  // CHECK: [[@LINE+1]]:{{.*}} error: 'tlx.local_reinterpret' op of a transposed or sliced view is not supported
  %r = tlx.local_reinterpret %t : !tlx.buffer<8x16xf16> -> !tlx.buffer<8x8xi32>
  tt.return
}

// -----

tt.func @expect_mismatch(%desc: !tt.tensordesc<tensor<16x16xf16>>, %i: i32) {
  %bufs = tlx.local_alloc : !tlx.buffer<2x16x16xf16>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bytes = arith.constant 1000 : i32
  %bar = tlx.barrier_view %bars[%c0] : !tlx.mbarriers<1>
  // CHECK: [[@LINE+1]]:{{.*}} error: 'tlx.barrier_expect_bytes' op expects 1000 bytes, but the TMA copies signalling this barrier deliver 1024
  tlx.barrier_expect_bytes %bar, %bytes
  %b0 = tlx.local_view %bufs[%c0] : !tlx.buffer<2x16x16xf16> -> !tlx.buffer<16x16xf16>
  %b1 = tlx.local_view %bufs[%c1] : !tlx.buffer<2x16x16xf16> -> !tlx.buffer<16x16xf16>
  tlx.async_descriptor_load %desc[%i, %i], %b0, %bar : !tt.tensordesc<tensor<16x16xf16>>, !tlx.buffer<16x16xf16>
  tlx.async_descriptor_load %desc[%i, %i], %b1, %bar : !tt.tensordesc<tensor<16x16xf16>>, !tlx.buffer<16x16xf16>
  tt.return
}

// -----

// A cluster's programs find each other's buffers by their allocations at
// the kernel's start.
module attributes {"tpxgpu.cluster-dims" = array<i32: 2, 1, 1>} {
  tt.func public @allocation_in_a_branch(%c: i1) {
    scf.if %c {
      // CHECK: [[@LINE+1]]:{{.*}} error: 'tlx.local_alloc' op below the top level of a kernel launched in clusters
      %buf = tlx.local_alloc : !tlx.buffer<1x16xf32>
    }
    tt.return
  }
}
