// What tlx-lower-to-tpxgpu does not lower yet is an error naming the op
// (never a silent fall back to the one-thread path).
// RUN: not tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --split-input-file --convert-tt-to-tpxgpu="num-warps=4" --tlx-lower-to-tpxgpu 2>&1 | FileCheck %s
// Before layout assignment there is nothing to lower onto.
// RUN: not tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --split-input-file --tlx-lower-to-tpxgpu 2>&1 | FileCheck %s --check-prefix=NOLAYOUT
// NOLAYOUT: error: tlx-lower-to-tpxgpu: the module has no tensor layouts; run convert-tt-to-tpxgpu first

tt.func @transposed(%x: tensor<16x16xf16>) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<1x16x16xf16>
  %v = tlx.local_view %bufs[%c0] : !tlx.buffer<1x16x16xf16> -> !tlx.buffer<16x16xf16>
  // CHECK: [[@LINE+1]]:{{.*}} error: tlx-lower-to-tpxgpu: 'tlx.local_trans' is not lowered for NVIDIA GPUs yet: a transposed buffer view
  %t = tlx.local_trans %v {order = array<i32: 1, 0>} : !tlx.buffer<16x16xf16> -> !tlx.buffer<16x16xf16>
  tt.return
}

// -----

tt.func @reinterpreted_dot_operand() {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<1x64x32xf32>
  %v = tlx.local_view %bufs[%c0] : !tlx.buffer<1x64x32xf32> -> !tlx.buffer<64x32xf32>
  // CHECK: [[@LINE+1]]:{{.*}} error: tlx-lower-to-tpxgpu: 'tlx.local_reinterpret' is not lowered for NVIDIA GPUs yet: a reinterpreted buffer view used other than by local_load, local_store and async_load
  %a = tlx.local_reinterpret %v : !tlx.buffer<64x32xf32> -> !tlx.buffer<64x64xf16>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tlx.async_dot %a, %a, %acc : !tlx.buffer<64x64xf16>, !tlx.buffer<64x64xf16> -> tensor<64x64xf32>
  tt.return
}

// -----

tt.func @other(%p: tensor<64x64x!tt.ptr<f16>>, %m: tensor<64x64xi1>) {
  %c0 = arith.constant 0 : i32
  %ones = arith.constant dense<1.0> : tensor<64x64xf16>
  %bufs = tlx.local_alloc : !tlx.buffer<1x64x64xf16>
  %v = tlx.local_view %bufs[%c0] : !tlx.buffer<1x64x64xf16> -> !tlx.buffer<64x64xf16>
  // CHECK: [[@LINE+1]]:{{.*}} error: tlx-lower-to-tpxgpu: 'tlx.async_load' is not lowered for NVIDIA GPUs yet: an async_load with a non-zero `other`
  %t = tlx.async_load %p, %v mask %m other %ones : tensor<64x64x!tt.ptr<f16>>, !tlx.buffer<64x64xf16>
  tt.return
}

// -----

tt.func @b_in_registers(%b: tensor<16x32xf16>) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<1x64x16xf16>
  %a = tlx.local_view %bufs[%c0] : !tlx.buffer<1x64x16xf16> -> !tlx.buffer<64x16xf16>
  %acc = arith.constant dense<0.0> : tensor<64x32xf32>
  // CHECK: [[@LINE+1]]:{{.*}} error: tlx-lower-to-tpxgpu: 'tlx.async_dot' is not lowered for NVIDIA GPUs yet: an async_dot whose B is a tensor
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<64x16xf16>, tensor<16x32xf16> -> tensor<64x32xf32>
  tt.return
}

// -----

tt.func @f32_dot() {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<2x64x64xf32>
  %a = tlx.local_view %bufs[%c0] : !tlx.buffer<2x64x64xf32> -> !tlx.buffer<64x64xf32>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  // An ieee f32 dot has no wgmma form (tf32 has, see below).
  // CHECK: [[@LINE+1]]:{{.*}} error: tlx-lower-to-tpxgpu: 'tlx.async_dot' is not lowered for NVIDIA GPUs yet: an async_dot of these element types (wgmma is lowered for f16/bf16, tf32
  %d = tlx.async_dot %a, %a, %acc {inputPrecision = 2 : i32} : !tlx.buffer<64x64xf32>, !tlx.buffer<64x64xf32> -> tensor<64x64xf32>
  tt.return
}

// -----

tt.func @small_tile() {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<1x16x16xf16>
  %a = tlx.local_view %bufs[%c0] : !tlx.buffer<1x16x16xf16> -> !tlx.buffer<16x16xf16>
  %acc = arith.constant dense<0.0> : tensor<16x16xf32>
  // CHECK: [[@LINE+1]]:{{.*}} error: tlx-lower-to-tpxgpu: no wgmma layout holds a 16x16 accumulator with num_warps = 4
  %d = tlx.async_dot %a, %a, %acc : !tlx.buffer<16x16xf16>, !tlx.buffer<16x16xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @carried(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<1x16x16xf16>
  %v = tlx.local_view %bufs[%c0] : !tlx.buffer<1x16x16xf16> -> !tlx.buffer<16x16xf16>
  // CHECK: [[@LINE+1]]:{{.*}} error: tlx-lower-to-tpxgpu: TLX buffers and tokens carried by 'scf.for' are not lowered for NVIDIA GPUs yet
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %v) -> (!tlx.buffer<16x16xf16>) : i32 {
    scf.yield %x : !tlx.buffer<16x16xf16>
  }
  tt.return
}

// -----

tt.func @dot_on_slice() {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<1x64x32xf16>
  %v = tlx.local_view %bufs[%c0] : !tlx.buffer<1x64x32xf16> -> !tlx.buffer<64x32xf16>
  %a = tlx.local_slice %v {offsets = array<i64: 0, 0>} : !tlx.buffer<64x32xf16> -> !tlx.buffer<64x16xf16>
  %b = tlx.local_slice %v {offsets = array<i64: 0, 0>} : !tlx.buffer<64x32xf16> -> !tlx.buffer<16x32xf16>
  %acc = arith.constant dense<0.0> : tensor<64x32xf32>
  // CHECK: [[@LINE+1]]:{{.*}} error: tlx-lower-to-tpxgpu: 'tlx.async_dot' is not lowered for NVIDIA GPUs yet: an async_dot on a buffer slice
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<64x16xf16>, !tlx.buffer<16x32xf16> -> tensor<64x32xf32>
  tt.return
}

// -----

// mbarriers are lowered, but the bytes an expect announces must be known
// when the kernel is compiled (mbarrier.arrive.expect_tx takes an
// immediate here).
tt.func @runtime_expect_bytes(%n: i32) {
  %b = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  // CHECK: [[@LINE+1]]:{{.*}} error: tlx-lower-to-tpxgpu: 'tlx.barrier_expect_bytes' is not lowered for NVIDIA GPUs yet: a barrier_expect_bytes of a byte count that is not a compile-time constant
  tlx.barrier_expect_bytes %b, %n
  tt.return
}
// -----

tt.func @tf32_mn_major_b() {
  %c0 = arith.constant 0 : i32
  %abufs = tlx.local_alloc : !tlx.buffer<1x64x32xf32>
  %bbufs = tlx.local_alloc : !tlx.buffer<1x32x64xf32>
  %a = tlx.local_view %abufs[%c0] : !tlx.buffer<1x64x32xf32> -> !tlx.buffer<64x32xf32>
  %b = tlx.local_view %bbufs[%c0] : !tlx.buffer<1x32x64xf32> -> !tlx.buffer<32x64xf32>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  // CHECK: [[@LINE+1]]:{{.*}} error: tlx-lower-to-tpxgpu: 'tlx.async_dot' is not lowered for NVIDIA GPUs yet: an async_dot of 32- or 8-bit operands whose B is not K-major
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<64x32xf32>, !tlx.buffer<32x64xf32> -> tensor<64x64xf32>
  tt.return
}

// -----

// TMA reads through a tensor map the launcher builds from the kernel's
// arguments: a descriptor made from a computed base has none.
tt.func public @tma_from_computed_base(%p: !tt.ptr<f16>, %m: i32) {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %s = arith.constant 64 : i64
  %q = tt.addptr %p, %m : !tt.ptr<f16>, i32
  %d = tt.make_tensor_descriptor %q, [%m, %m], [%s, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
  %bufs = tlx.local_alloc : !tlx.buffer<1x64x64xf16>
  %buf = tlx.local_view %bufs[%c0] : !tlx.buffer<1x64x64xf16> -> !tlx.buffer<64x64xf16>
  %bar = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  // CHECK: [[@LINE+1]]:{{.*}} error: tlx-lower-to-tpxgpu: 'tlx.async_descriptor_load' is not lowered for NVIDIA GPUs yet: a descriptor TMA cannot use: a base that is not a kernel argument
  tlx.async_descriptor_load %d[%c0, %c0], %buf, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16>
  tt.return
}

// -----

tt.func @reinterpreted_rows(%x: tensor<64x64xf16>) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<1x64x64xf16>
  %v = tlx.local_view %bufs[%c0] : !tlx.buffer<1x64x64xf16> -> !tlx.buffer<64x64xf16>
  // CHECK: [[@LINE+1]]:{{.*}} error: tlx-lower-to-tpxgpu: 'tlx.local_reinterpret' is not lowered for NVIDIA GPUs yet: a local_reinterpret that changes the length of a row in bytes
  %r = tlx.local_reinterpret %v : !tlx.buffer<64x64xf16> -> !tlx.buffer<32x128xf16>
  %l = tlx.local_load %r : !tlx.buffer<32x128xf16> -> tensor<32x128xf16>
  tt.return
}

// -----

// In a cluster every CTA waits for the others' barrier inits: all threads
// must reach them.
module attributes {"tpxgpu.cluster-dims" = array<i32: 2, 1, 1>} {
  tt.func @barriers_below_the_top(%c: i1) {
    scf.if %c {
      // CHECK: [[@LINE+1]]:{{.*}} error: tlx-lower-to-tpxgpu: 'tlx.alloc_barriers' is not lowered for NVIDIA GPUs yet: an alloc_barriers below the top level of a kernel launched in clusters
      %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    }
    tt.return
  }
}
