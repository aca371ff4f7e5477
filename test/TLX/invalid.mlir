// Misuse of TLX ops is a verifier error at the op.
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --split-input-file --verify-diagnostics

tt.func @view_out_of_range() {
  %a = tlx.local_alloc : !tlx.buffer<2x16x16xf16>
  %c2 = arith.constant 2 : i32
  // expected-error @+1 {{index 2 is out of range: '!tlx.buffer<2x16x16xf16>' holds 2 buffers}}
  %v = tlx.local_view %a[%c2] : !tlx.buffer<2x16x16xf16> -> !tlx.buffer<16x16xf16>
  tt.return
}

// -----

tt.func @view_shape() {
  %a = tlx.local_alloc : !tlx.buffer<2x16x16xf16>
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{must be a buffer of its trailing dimensions}}
  %v = tlx.local_view %a[%c0] : !tlx.buffer<2x16x16xf16> -> !tlx.buffer<16x8xf16>
  tt.return
}

// -----

tt.func @alloc_rank() {
  // expected-error @+1 {{the leading dimension counts buffers}}
  %a = tlx.local_alloc : !tlx.buffer<16xf16>
  tt.return
}

// -----

tt.func @reuse_too_small() {
  %a = tlx.local_alloc : !tlx.buffer<1x16x16xf16>
  // expected-error @+1 {{reuses 512 bytes}}
  %b = tlx.local_alloc : !tlx.buffer<1x16x16xf32> reuse %a : !tlx.buffer<1x16x16xf16>
  tt.return
}

// -----

tt.func @dot_shapes(%a: tensor<64x16xf16>) {
  %bufs = tlx.local_alloc : !tlx.buffer<1x32x32xf16>
  %c0 = arith.constant 0 : i32
  %b = tlx.local_view %bufs[%c0] : !tlx.buffer<1x32x32xf16> -> !tlx.buffer<32x32xf16>
  %acc = arith.constant dense<0.0> : tensor<64x32xf32>
  // expected-error @+1 {{shapes do not fit: 64x16 @ 32x32 + 64x32}}
  %d = tlx.async_dot %a, %b, %acc : tensor<64x16xf16>, !tlx.buffer<32x32xf16> -> tensor<64x32xf32>
  tt.return
}

// -----

tt.func @dot_types(%a: tensor<64x32xbf16>) {
  %bufs = tlx.local_alloc : !tlx.buffer<1x32x32xf16>
  %c0 = arith.constant 0 : i32
  %b = tlx.local_view %bufs[%c0] : !tlx.buffer<1x32x32xf16> -> !tlx.buffer<32x32xf16>
  %acc = arith.constant dense<0.0> : tensor<64x32xf32>
  // expected-error @+1 {{operands must have one element type, got 'bf16' and 'f16'}}
  %d = tlx.async_dot %a, %b, %acc : tensor<64x32xbf16>, !tlx.buffer<32x32xf16> -> tensor<64x32xf32>
  tt.return
}

// -----

tt.func @async_load_shape(%p: tensor<16x32x!tt.ptr<f16>>) {
  %bufs = tlx.local_alloc : !tlx.buffer<1x32x32xf16>
  %c0 = arith.constant 0 : i32
  %b = tlx.local_view %bufs[%c0] : !tlx.buffer<1x32x32xf16> -> !tlx.buffer<32x32xf16>
  // expected-error @+1 {{do not match the buffer}}
  %t = tlx.async_load %p, %b : tensor<16x32x!tt.ptr<f16>>, !tlx.buffer<32x32xf16>
  tt.return
}

// -----

tt.func @store_type(%v: tensor<32x32xf32>) {
  %bufs = tlx.local_alloc : !tlx.buffer<1x32x32xf16>
  %c0 = arith.constant 0 : i32
  %b = tlx.local_view %bufs[%c0] : !tlx.buffer<1x32x32xf16> -> !tlx.buffer<32x32xf16>
  // expected-error @+1 {{value 'tensor<32x32xf32>' does not match the buffer}}
  tlx.local_store %b, %v : !tlx.buffer<32x32xf16>, tensor<32x32xf32>
  tt.return
}

// -----

tt.func @slice_outside() {
  %bufs = tlx.local_alloc : !tlx.buffer<1x32x32xf16>
  %c0 = arith.constant 0 : i32
  %b = tlx.local_view %bufs[%c0] : !tlx.buffer<1x32x32xf16> -> !tlx.buffer<32x32xf16>
  // expected-error @+1 {{slice [16, 48) of dimension 0 lies outside the source's 32 elements}}
  %s = tlx.local_slice %b {offsets = array<i64: 16, 0>} : !tlx.buffer<32x32xf16> -> !tlx.buffer<32x32xf16>
  tt.return
}

// -----

tt.func @trans_order() {
  %bufs = tlx.local_alloc : !tlx.buffer<1x32x16xf16>
  %c0 = arith.constant 0 : i32
  %b = tlx.local_view %bufs[%c0] : !tlx.buffer<1x32x16xf16> -> !tlx.buffer<32x16xf16>
  // expected-error @+1 {{order must be a permutation of 0..1}}
  %t = tlx.local_trans %b {order = array<i32: 1, 1>} : !tlx.buffer<32x16xf16> -> !tlx.buffer<16x32xf16>
  tt.return
}

// -----

// expected-error @+1 {{buffer dimensions must be positive}}
tt.func @bad_type(%b: !tlx.buffer<0x16xf16>) {
  tt.return
}

// -----

tt.func @regs() {
  tlx.async_tasks {
    // expected-error @+1 {{num_regs 20 is outside what the hardware allows}}
    tlx.async_task attributes {numWarps = 4 : i32, numRegs = 20 : i32} {
    }
  }
  tt.return
}

// -----

tt.func @overlap() {
  tlx.async_tasks {
    tlx.async_task attributes {numWarps = 4 : i32, warpGroupStartId = 4 : i32} {
    }
    // expected-error @+1 {{warps [6, 10) overlap another task's [4, 8)}}
    tlx.async_task attributes {numWarps = 4 : i32, warpGroupStartId = 6 : i32} {
    }
  }
  tt.return
}

// -----

tt.func @replica_outside() {
  // expected-error @+1 {{is only meaningful inside a tlx.async_task}}
  %r = tlx.async_task_replica_id
  tt.return
}

// -----

tt.func @barrier_index() {
  %b = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %c2 = arith.constant 2 : i32
  // expected-error @+1 {{index 2 is out of range: there are 2 barriers}}
  %v = tlx.barrier_view %b[%c2] : !tlx.mbarriers<2>
  tt.return
}

// -----

tt.func @tma_block(%desc: !tt.tensordesc<tensor<16x32xf16>>, %i: i32) {
  %bufs = tlx.local_alloc : !tlx.buffer<1x16x16xf16>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %c0 = arith.constant 0 : i32
  %b = tlx.local_view %bufs[%c0] : !tlx.buffer<1x16x16xf16> -> !tlx.buffer<16x16xf16>
  // expected-error @+1 {{descriptor block 'tensor<16x32xf16>' does not match the buffer}}
  tlx.async_descriptor_load %desc[%i, %i], %b, %bars : !tt.tensordesc<tensor<16x32xf16>>, !tlx.buffer<16x16xf16>
  tt.return
}

// -----

tt.func @default_replicated() {
  tlx.async_tasks {
    // expected-error @+1 {{the default task cannot be replicated}}
    tlx.async_task attributes {isDefault, replicate = 2 : i32} {
    }
  }
  tt.return
}

// -----

tt.func @thread_id_axis() -> i32 {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint}}
  %t = tlx.thread_id 3
  tt.return %t : i32
}

// -----

// A peer CTA's barrier, and multicasts, need a kernel launched in clusters.
tt.func @remote_without_clusters(%r: i32) {
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %c0 = arith.constant 0 : i32
  %b = tlx.barrier_view %bars[%c0] : !tlx.mbarriers<1>
  // expected-error @+1 {{remote_cta_rank needs a kernel launched in thread-block clusters}}
  tlx.barrier_arrive %b, 1 cta %r
  tt.return
}

// -----

module attributes {"tpxgpu.cluster-dims" = array<i32: 2, 1, 1>} {
  tt.func @rank_out_of_range() {
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %b = tlx.barrier_view %bars[%c0] : !tlx.mbarriers<1>
    // expected-error @+1 {{remote_cta_rank 2 names no CTA of a cluster of 2}}
    tlx.barrier_arrive %b, 1 cta %c2
    tt.return
  }
}

// -----

tt.func @multicast_without_clusters(%base: !tt.ptr<f16>, %n: i32, %stride: i64) {
  %c1_i64 = arith.constant 1 : i64
  %desc = tt.make_tensor_descriptor %base, [%n, %n], [%stride, %c1_i64] : <f16>, <tensor<16x16xf16>>
  %buf = tlx.local_alloc : !tlx.buffer<16x16xf16>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %b = tlx.barrier_view %bars[%c0] : !tlx.mbarriers<1>
  // expected-error @+1 {{multicast mask needs a kernel launched in thread-block clusters}}
  tlx.async_descriptor_load %desc[%c0, %c0], %buf, %b multicast %c1 : !tt.tensordesc<tensor<16x16xf16>>, !tlx.buffer<16x16xf16>
  tt.return
}

// -----

module attributes {"tpxgpu.cluster-dims" = array<i32: 2, 1, 1>} {
  tt.func @empty_mask(%base: !tt.ptr<f16>, %n: i32, %stride: i64) {
    %c1_i64 = arith.constant 1 : i64
    %desc = tt.make_tensor_descriptor %base, [%n, %n], [%stride, %c1_i64] : <f16>, <tensor<16x16xf16>>
    %buf = tlx.local_alloc : !tlx.buffer<16x16xf16>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %b = tlx.barrier_view %bars[%c0] : !tlx.mbarriers<1>
    // expected-error @+1 {{multicast mask 4 names no CTA of a cluster of 2}}
    tlx.async_descriptor_load %desc[%c0, %c0], %buf, %b multicast %c4 : !tt.tensordesc<tensor<16x16xf16>>, !tlx.buffer<16x16xf16>
    tt.return
  }
}

// -----

tt.func @cluster_barrier_in_a_task() {
  tlx.async_tasks {
    tlx.async_task attributes {isDefault} {
      // expected-error @+1 {{inside an async task: every thread of every CTA of the cluster must reach a cluster barrier}}
      tlx.cluster_barrier
    }
  }
  tt.return
}
