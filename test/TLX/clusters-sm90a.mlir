// Thread-block clusters on sm_90a (tlx-lower-to-tpxgpu): after its
// barriers' inits every CTA publishes them to the cluster and waits for
// the others; a copy into a local_slice of a buffer is a TMA copy per box
// into windows of that buffer, multicast to the mask's CTAs; an arrival
// on a peer CTA's barrier keeps its rank; the cluster leaves together.
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --split-input-file --convert-tt-to-tpxgpu="num-warps=4" --tlx-lower-to-tpxgpu --mlir-print-debuginfo=false | FileCheck %s

// CHECK-LABEL: tt.func public @multicast
// CHECK: tpxgpu.init_barrier
// CHECK: tpxgpu.fence_mbarrier_init
// CHECK-NEXT: tpxgpu.cluster_barrier
// CHECK: %[[RANK:.*]] = tpxgpu.cluster_cta_rank : i32
// CHECK: %[[BUF:.*]] = tpxgpu.memdesc_index %{{.*}} : !tpxgpu.memdesc<1x64x256xf16
// CHECK: %[[MASK:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK: %[[BOX0:.*]] = tpxgpu.memdesc_subview %[[BUF]] [0, 128] : !tpxgpu.memdesc<64x256xf16, #shared, mutable, alloc_shape = 1x64x256> -> !tpxgpu.memdesc<64x64xf16, #shared, mutable, alloc_shape = 1x64x256>
// CHECK: tpxgpu.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %[[BOX0]], %{{.*}} multicast %[[MASK]]
// CHECK: %[[BOX1:.*]] = tpxgpu.memdesc_subview %[[BUF]] [0, 192]
// CHECK: tpxgpu.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %[[BOX1]], %{{.*}} multicast %[[MASK]]
// CHECK: tpxgpu.arrive_barrier %{{.*}}, 1 cta %[[RANK]]
// The program's own cluster barrier, then the exit's.
// CHECK: tpxgpu.cluster_barrier
// CHECK-NEXT: tpxgpu.cluster_barrier
// CHECK-NEXT: tt.return
module attributes {"tpxgpu.cluster-dims" = array<i32: 2, 1, 1>} {
  tt.func public @multicast(%base: !tt.ptr<f16>, %n: i32, %stride: i64) {
    %c1_i64 = arith.constant 1 : i64
    %desc = tt.make_tensor_descriptor %base, [%n, %n], [%stride, %c1_i64] : <f16>, <tensor<64x128xf16>>
    %bufs = tlx.local_alloc : !tlx.buffer<1x64x256xf16>
    %full = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : i32
    %rank = tlx.cluster_cta_rank
    %f = tlx.barrier_view %full[%c0] : !tlx.mbarriers<1>
    %b = tlx.local_view %bufs[%c0] : !tlx.buffer<1x64x256xf16> -> !tlx.buffer<64x256xf16>
    %half = tlx.local_slice %b {offsets = array<i64: 0, 128>} : !tlx.buffer<64x256xf16> -> !tlx.buffer<64x128xf16>
    tlx.async_descriptor_load %desc[%c0, %n], %half, %f multicast %c3 : !tt.tensordesc<tensor<64x128xf16>>, !tlx.buffer<64x128xf16>
    tlx.barrier_arrive %f, 1 cta %rank
    tlx.cluster_barrier
    tt.return
  }
}

// -----

// A view an if picks (`if rank == 0: half = local_slice(...) else: ...`)
// is used in each arm: the copy moves into both (TLXBufferSelections.cpp),
// each arm's copy writing its own half of the buffer.
// CHECK-LABEL: tt.func public @picked_half
// CHECK: %[[RANK:.*]] = tpxgpu.cluster_cta_rank : i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[RANK]]
// CHECK: scf.if %[[FIRST]] {
// CHECK:   tpxgpu.memdesc_subview %{{.*}} [0, 0] : {{.*}} -> !tpxgpu.memdesc<64x64xf16
// CHECK:   tpxgpu.async_tma_copy_global_to_local {{.*}} multicast
// CHECK:   tpxgpu.memdesc_subview %{{.*}} [0, 64] : {{.*}} -> !tpxgpu.memdesc<64x64xf16
// CHECK:   tpxgpu.async_tma_copy_global_to_local {{.*}} multicast
// CHECK: } else {
// CHECK:   tpxgpu.memdesc_subview %{{.*}} [0, 128] : {{.*}} -> !tpxgpu.memdesc<64x64xf16
// CHECK:   tpxgpu.async_tma_copy_global_to_local {{.*}} multicast
// CHECK:   tpxgpu.memdesc_subview %{{.*}} [0, 192] : {{.*}} -> !tpxgpu.memdesc<64x64xf16
// CHECK:   tpxgpu.async_tma_copy_global_to_local {{.*}} multicast
// CHECK: }
module attributes {"tpxgpu.cluster-dims" = array<i32: 2, 1, 1>} {
  tt.func public @picked_half(%base: !tt.ptr<f16>, %n: i32, %stride: i64) {
    %c1_i64 = arith.constant 1 : i64
    %desc = tt.make_tensor_descriptor %base, [%n, %n], [%stride, %c1_i64] : <f16>, <tensor<64x128xf16>>
    %bufs = tlx.local_alloc : !tlx.buffer<1x64x256xf16>
    %full = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : i32
    %c128 = arith.constant 128 : i32
    %rank = tlx.cluster_cta_rank
    %f = tlx.barrier_view %full[%c0] : !tlx.mbarriers<1>
    %b = tlx.local_view %bufs[%c0] : !tlx.buffer<1x64x256xf16> -> !tlx.buffer<64x256xf16>
    %first = arith.cmpi eq, %rank, %c0 : i32
    %half = scf.if %first -> !tlx.buffer<64x128xf16> {
      %s = tlx.local_slice %b {offsets = array<i64: 0, 0>} : !tlx.buffer<64x256xf16> -> !tlx.buffer<64x128xf16>
      scf.yield %s : !tlx.buffer<64x128xf16>
    } else {
      %s = tlx.local_slice %b {offsets = array<i64: 0, 128>} : !tlx.buffer<64x256xf16> -> !tlx.buffer<64x128xf16>
      scf.yield %s : !tlx.buffer<64x128xf16>
    }
    // Computed after the if: the copy still reads it in both arms.
    %col = arith.muli %rank, %c128 : i32
    tlx.async_descriptor_load %desc[%c0, %col], %half, %f multicast %c3 : !tt.tensordesc<tensor<64x128xf16>>, !tlx.buffer<64x128xf16>
    tt.return
  }
}
