// tlx-lower-to-tpxgpu: TLX on sm_90a as tpxgpu ops, after
// convert-tt-to-tpxgpu has given the tensors layouts. Buffers read by an
// async dot are nvmma_shared (A K-major, B N-contiguous), other buffers
// padded; copies are cp.async in the pointers' layout; dots are async
// wgmma; waits are wgmma / cp.async waits; barriers and proxy fences
// follow the hazards between threads.
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --split-input-file --convert-tt-to-tpxgpu="num-warps=4" --tlx-lower-to-tpxgpu --mlir-print-debuginfo=false | FileCheck %s

// A two-stage GEMM: copies of the next tile start after the dot that read
// its buffer is retired.
// CHECK: #shared = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func @gemm
// CHECK: %[[A:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<2x128x64xf16, #shared, mutable>
// CHECK: %[[B:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<2x64x128xf16, #shared, mutable>
// CHECK: %[[A0:.*]] = tpxgpu.memdesc_index %[[A]][%{{.*}}] : !tpxgpu.memdesc<2x128x64xf16, #shared, mutable> -> !tpxgpu.memdesc<128x64xf16, #shared, mutable, alloc_shape = 2x128x64>
// CHECK: %[[B0:.*]] = tpxgpu.memdesc_index %[[B]]
// No reads yet: no barrier before the first copies.
// CHECK-NOT: tpxgpu.barrier
// CHECK: %[[T0:.*]] = tpxgpu.async_copy_global_to_local %{{.*}}, %[[A0]] : tensor<128x64x!tt.ptr<f16>, #blocked{{[0-9]*}}>
// CHECK: %[[T1:.*]] = tpxgpu.async_copy_global_to_local %{{.*}}, %[[B0]] mask %{{.*}} : tensor<64x128x!tt.ptr<f16>, #blocked{{[0-9]*}}>
// CHECK: tpxgpu.async_commit_group tokens %[[T0]], %[[T1]]
// The accumulator is carried in the wgmma layout.
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<128x128xf32, #mma>)
// The wait makes the copies visible to every thread and to wgmma's proxy.
// CHECK:   tpxgpu.async_wait num = 0
// CHECK-NEXT:   tpxgpu.fence_async_shared
// CHECK-NEXT:   tpxgpu.barrier
// CHECK:   %[[D:.*]] = tpxgpu.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC]] async {{.*}}: !tpxgpu.memdesc<128x64xf16, #shared, mutable, alloc_shape = 2x128x64>, !tpxgpu.memdesc<64x128xf16, #shared, mutable, alloc_shape = 2x64x128> -> tensor<128x128xf32, #mma>
// CHECK:   %[[DW:.*]] = tpxgpu.warp_group_dot_wait %[[D]] pendings = 0 : tensor<128x128xf32, #mma>
// The other warps may still read the buffer the copies refill (WAR).
// CHECK:   tpxgpu.barrier
// CHECK-NEXT:   tpxgpu.async_copy_global_to_local
// CHECK-NOT:    tpxgpu.barrier
// CHECK:   tpxgpu.async_copy_global_to_local
// CHECK:   scf.yield %[[DW]]
// Copies still in flight are drained before the buffers' bytes are reused.
// CHECK: %[[LAST:.*]] = tpxgpu.async_commit_group{{$}}
// CHECK-NEXT: tpxgpu.async_wait %[[LAST]] num = 0
// CHECK-NEXT: tpxgpu.fence_async_shared
// CHECK-NEXT: tpxgpu.barrier
// CHECK: %[[OUT:.*]] = tpxgpu.warp_group_dot_wait %{{.*}} pendings = 0 : tensor<128x128xf32, #mma>
// CHECK: tpxgpu.convert_layout %[[OUT]] : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked{{[0-9]*}}>
// CHECK-NOT: tlx.
// CHECK-NOT: unrealized_conversion_cast
tt.func @gemm(%ap: tensor<128x64x!tt.ptr<f16>>, %bp: tensor<64x128x!tt.ptr<f16>>, %bmask: tensor<64x128xi1>, %n: i32) -> tensor<128x128xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %a = tlx.local_alloc : !tlx.buffer<2x128x64xf16>
  %b = tlx.local_alloc : !tlx.buffer<2x64x128xf16>
  %a0 = tlx.local_view %a[%c0] : !tlx.buffer<2x128x64xf16> -> !tlx.buffer<128x64xf16>
  %b0 = tlx.local_view %b[%c0] : !tlx.buffer<2x64x128xf16> -> !tlx.buffer<64x128xf16>
  %t0 = tlx.async_load %ap, %a0 : tensor<128x64x!tt.ptr<f16>>, !tlx.buffer<128x64xf16>
  %t1 = tlx.async_load %bp, %b0 mask %bmask : tensor<64x128x!tt.ptr<f16>>, !tlx.buffer<64x128xf16>
  %g0 = tlx.async_commit_group %t0, %t1
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32>) : i32 {
    %s = arith.remsi %i, %c2 : i32
    %as = tlx.local_view %a[%s] : !tlx.buffer<2x128x64xf16> -> !tlx.buffer<128x64xf16>
    %bs = tlx.local_view %b[%s] : !tlx.buffer<2x64x128xf16> -> !tlx.buffer<64x128xf16>
    %w = tlx.async_wait_group 0
    %d = tlx.async_dot %as, %bs, %acc : !tlx.buffer<128x64xf16>, !tlx.buffer<64x128xf16> -> tensor<128x128xf32>
    %dw = tlx.async_dot_wait 0, %d : tensor<128x128xf32>
    %next = arith.addi %i, %c1 : i32
    %ns = arith.remsi %next, %c2 : i32
    %an = tlx.local_view %a[%ns] : !tlx.buffer<2x128x64xf16> -> !tlx.buffer<128x64xf16>
    %bn = tlx.local_view %b[%ns] : !tlx.buffer<2x64x128xf16> -> !tlx.buffer<64x128xf16>
    %t2 = tlx.async_load %ap, %an : tensor<128x64x!tt.ptr<f16>>, !tlx.buffer<128x64xf16>
    %t3 = tlx.async_load %bp, %bn : tensor<64x128x!tt.ptr<f16>>, !tlx.buffer<64x128xf16>
    %g = tlx.async_commit_group %t2, %t3
    scf.yield %dw : tensor<128x128xf32>
  }
  %out = tlx.async_dot_wait 0, %r : tensor<128x128xf32>
  tt.return %out : tensor<128x128xf32>
}

// -----

// Buffers no dot reads are padded (16 bytes after each row). A read after
// a write needs a barrier (RAW), a write after a read too (WAR), also over
// a loop's back edge.
// CHECK: #shared = #tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>
// CHECK-LABEL: tt.func @hazards
// CHECK: %[[BUF:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<1x64x64xf16, #shared, mutable>
// CHECK: %[[V:.*]] = tpxgpu.memdesc_index %[[BUF]]
// CHECK-NOT: tpxgpu.barrier
// CHECK: tpxgpu.local_store %{{.*}}, %[[V]]
// CHECK-NEXT: tpxgpu.barrier
// CHECK-NEXT: tpxgpu.local_load %[[V]]
// CHECK: scf.for
// The store at the end of the previous iteration (RAW over the back edge).
// CHECK-NEXT:   tpxgpu.barrier
// CHECK-NEXT:   tpxgpu.local_load %[[V]]
// The load just before, in other threads (WAR).
// CHECK-NEXT:   tpxgpu.barrier
// CHECK-NEXT:   tpxgpu.local_store %{{.*}}, %[[V]]
// CHECK-NEXT:   scf.yield
tt.func @hazards(%x: tensor<64x64xf16>, %n: i32) -> tensor<64x64xf16> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %buf = tlx.local_alloc : !tlx.buffer<1x64x64xf16>
  %v = tlx.local_view %buf[%c0] : !tlx.buffer<1x64x64xf16> -> !tlx.buffer<64x64xf16>
  tlx.local_store %v, %x : !tlx.buffer<64x64xf16>, tensor<64x64xf16>
  %y = tlx.local_load %v : !tlx.buffer<64x64xf16> -> tensor<64x64xf16>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %y) -> (tensor<64x64xf16>) : i32 {
    %l = tlx.local_load %v : !tlx.buffer<64x64xf16> -> tensor<64x64xf16>
    tlx.local_store %v, %acc : !tlx.buffer<64x64xf16>, tensor<64x64xf16>
    scf.yield %l : tensor<64x64xf16>
  }
  tt.return %r : tensor<64x64xf16>
}

// -----

// A in registers (wgmma's dot_op layout) and a run-time use_acc: a false
// flag multiplies by a zero accumulator. B was stored from registers, so
// the dot first fences the stores for wgmma's proxy.
// CHECK: #shared = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func @register_a
// CHECK: tpxgpu.local_store
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #mma>
// CHECK: %[[C:.*]] = arith.select %{{.*}}, %{{.*}}, %[[ZERO]] : tensor<64x32xf32, #mma>
// CHECK: %[[A:.*]] = tpxgpu.convert_layout %{{.*}} -> tensor<64x16xf16, #dot_op>
// CHECK: tpxgpu.fence_async_shared
// CHECK-NEXT: tpxgpu.barrier
// CHECK-NEXT: tpxgpu.warp_group_dot %[[A]], %{{.*}}, %[[C]] async
tt.func @register_a(%a: tensor<64x16xf16>, %b: tensor<16x32xf16>, %use: i1) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<1x16x32xf16>
  %bv = tlx.local_view %bufs[%c0] : !tlx.buffer<1x16x32xf16> -> !tlx.buffer<16x32xf16>
  tlx.local_store %bv, %b : !tlx.buffer<16x32xf16>, tensor<16x32xf16>
  %acc = arith.constant dense<1.0> : tensor<64x32xf32>
  %d = tlx.async_dot %a, %bv, %acc use_acc %use : tensor<64x16xf16>, !tlx.buffer<16x32xf16> -> tensor<64x32xf32>
  %r = tlx.async_dot_wait 0, %d : tensor<64x32xf32>
  tt.return %r : tensor<64x32xf32>
}

// -----

// A slice is a static window of the same allocation; a wait of all groups
// that follows the copies needs no drain.
// CHECK-LABEL: tt.func @slice
// CHECK: %[[V:.*]] = tpxgpu.memdesc_index
// CHECK: tpxgpu.async_copy_global_to_local %{{.*}}, %[[V]]
// CHECK: %[[G:.*]] = tpxgpu.async_commit_group tokens
// CHECK-NEXT: tpxgpu.async_wait %[[G]] num = 0
// CHECK-NEXT: tpxgpu.barrier
// CHECK-NEXT: %[[S:.*]] = tpxgpu.memdesc_subview %[[V]] [0, 32] : !tpxgpu.memdesc<64x64xf16, #shared, mutable, alloc_shape = 1x64x64> -> !tpxgpu.memdesc<64x32xf16, #shared, mutable, alloc_shape = 1x64x64>
// CHECK-NEXT: tpxgpu.local_load %[[S]]
// CHECK-NOT: tpxgpu.async_wait
// CHECK: tt.return
tt.func @slice(%p: tensor<64x64x!tt.ptr<f16>>) -> tensor<64x32xf16> {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<1x64x64xf16>
  %b = tlx.local_view %bufs[%c0] : !tlx.buffer<1x64x64xf16> -> !tlx.buffer<64x64xf16>
  %t = tlx.async_load %p, %b : tensor<64x64x!tt.ptr<f16>>, !tlx.buffer<64x64xf16>
  %g = tlx.async_commit_group %t
  %w = tlx.async_wait_group 0, %g
  %s = tlx.local_slice %b {offsets = array<i64: 0, 32>} : !tlx.buffer<64x64xf16> -> !tlx.buffer<64x32xf16>
  %v = tlx.local_load %s : !tlx.buffer<64x32xf16> -> tensor<64x32xf16>
  tt.return %v : tensor<64x32xf16>
}

// -----

// thread_id: the hardware thread index, read by inline PTX (a partition's
// nvvm tid.x reads count from its first thread).
// CHECK-LABEL: tt.func @thread_ids
// CHECK: llvm.inline_asm "mov.u32 $0, %tid.x;", "=r"  : () -> i32
// CHECK: llvm.inline_asm "mov.u32 $0, %tid.y;", "=r"  : () -> i32
// CHECK: llvm.inline_asm "mov.u32 $0, %tid.z;", "=r"  : () -> i32
// CHECK-NOT: tlx.thread_id
tt.func @thread_ids() -> i32 {
  %x = tlx.thread_id 0
  %y = tlx.thread_id 1
  %z = tlx.thread_id 2
  %xy = arith.addi %x, %y : i32
  %r = arith.addi %xy, %z : i32
  tt.return %r : i32
}

// -----

// TLX's own fence is the proxy fence; it also fences the store for the dot.
// CHECK-LABEL: tt.func @user_fence
// CHECK: tpxgpu.local_store
// CHECK-NEXT: tpxgpu.fence_async_shared
// CHECK-NOT: tpxgpu.fence_async_shared
// CHECK: tpxgpu.barrier
// CHECK-NEXT: tpxgpu.warp_group_dot
tt.func @user_fence(%a: tensor<64x16xf16>, %b: tensor<16x32xf16>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<1x16x32xf16>
  %bv = tlx.local_view %bufs[%c0] : !tlx.buffer<1x16x32xf16> -> !tlx.buffer<16x32xf16>
  %acc = arith.constant dense<0.0> : tensor<64x32xf32>
  tlx.local_store %bv, %b : !tlx.buffer<16x32xf16>, tensor<16x32xf16>
  tlx.fence_async_shared
  %d = tlx.async_dot %a, %bv, %acc : tensor<64x16xf16>, !tlx.buffer<16x32xf16> -> tensor<64x32xf32>
  %r = tlx.async_dot_wait 0, %d : tensor<64x32xf32>
  tt.return %r : tensor<64x32xf32>
}

// -----

// reuse= and local_reinterpret: tpxgpu.memdesc_reinterpret of the bytes
// (of the allocation reused, of the buffer reinterpreted) in the view's own
// padded layout; TLXPlaceBarriers sees through it, so the store into the
// reusing allocation waits for the one into the reused (WAW), and the load
// through the reinterpreted view for the stores (RAW).
// CHECK-LABEL: tt.func private @reuse_and_reinterpret
// CHECK: %[[A:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<2x64x64xf16, #[[PAD8:.*]], mutable>
// CHECK: %[[VA:.*]] = tpxgpu.memdesc_index %[[A]]
// CHECK: tpxgpu.local_store %{{.*}}, %[[VA]]
// CHECK: %[[B:.*]] = tpxgpu.memdesc_reinterpret %[[A]] : !tpxgpu.memdesc<2x64x64xf16, #[[PAD8]], mutable> -> !tpxgpu.memdesc<1x32x64xf32, #[[PAD4:.*]], mutable>
// CHECK: %[[VB:.*]] = tpxgpu.memdesc_index %[[B]]
// CHECK: tpxgpu.barrier
// CHECK: tpxgpu.local_store %{{.*}}, %[[VB]]
// CHECK: %[[R:.*]] = tpxgpu.memdesc_reinterpret %[[VA]] : {{.*}} -> !tpxgpu.memdesc<64x32xf32, #[[PAD4]], mutable>
// CHECK: tpxgpu.barrier
// CHECK: tpxgpu.local_load %[[R]]
tt.func private @reuse_and_reinterpret(%x: tensor<64x64xf16>, %y: tensor<32x64xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : i32
  %a = tlx.local_alloc : !tlx.buffer<2x64x64xf16>
  %va = tlx.local_view %a[%c0] : !tlx.buffer<2x64x64xf16> -> !tlx.buffer<64x64xf16>
  tlx.local_store %va, %x : !tlx.buffer<64x64xf16>, tensor<64x64xf16>
  %b = tlx.local_alloc : !tlx.buffer<1x32x64xf32> reuse %a : !tlx.buffer<2x64x64xf16>
  %vb = tlx.local_view %b[%c0] : !tlx.buffer<1x32x64xf32> -> !tlx.buffer<32x64xf32>
  tlx.local_store %vb, %y : !tlx.buffer<32x64xf32>, tensor<32x64xf32>
  %r = tlx.local_reinterpret %va : !tlx.buffer<64x64xf16> -> !tlx.buffer<64x32xf32>
  %l = tlx.local_load %r : !tlx.buffer<64x32xf32> -> tensor<64x32xf32>
  tt.return %l : tensor<64x32xf32>
}
