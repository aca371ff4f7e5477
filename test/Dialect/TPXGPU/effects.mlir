// RUN: tpx-opt %s -canonicalize -cse -mlir-print-debuginfo=false | FileCheck %s

// Folding and memory effects as seen by generic passes: views and layout
// conversions are pure, loads only read shared memory, and the ops that
// order asynchronous work are never dropped or merged.

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #tpxgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #tpxgpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

module attributes {"tpxgpu.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @convert_chains
  // CHECK-SAME: (%[[X:.*]]: tensor
  tt.func @convert_chains(%x: tensor<64x64xf32, #blocked>) -> (tensor<64x64xf32, #blocked>, tensor<64x64xf32, #mma>) {
    // A round trip through another layout is no conversion at all, and a
    // chain converts once.
    %0 = tpxgpu.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked2>
    %1 = tpxgpu.convert_layout %0 : tensor<64x64xf32, #blocked2> -> tensor<64x64xf32, #blocked>
    %2 = tpxgpu.convert_layout %0 : tensor<64x64xf32, #blocked2> -> tensor<64x64xf32, #mma>
    // CHECK: %[[M:.*]] = tpxgpu.convert_layout %[[X]] : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    // CHECK-NEXT: tt.return %[[X]], %[[M]]
    tt.return %1, %2 : tensor<64x64xf32, #blocked>, tensor<64x64xf32, #mma>
  }

  // CHECK-LABEL: tt.func @views_and_loads
  tt.func @views_and_loads(%i: i32, %t: tensor<64x64xf16, #blocked>) -> (tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>) {
    // CHECK: %[[BUF:.*]] = tpxgpu.local_alloc
    %buf = tpxgpu.local_alloc : !tpxgpu.memdesc<2x64x64xf16, #shared, mutable>
    // Identical views are one view.
    // CHECK-NEXT: %[[V:.*]] = tpxgpu.memdesc_index %[[BUF]]
    // CHECK-NOT: tpxgpu.memdesc_index
    %v0 = tpxgpu.memdesc_index %buf[%i] : !tpxgpu.memdesc<2x64x64xf16, #shared, mutable> -> !tpxgpu.memdesc<64x64xf16, #shared, mutable, alloc_shape = 2x64x64>
    %v1 = tpxgpu.memdesc_index %buf[%i] : !tpxgpu.memdesc<2x64x64xf16, #shared, mutable> -> !tpxgpu.memdesc<64x64xf16, #shared, mutable, alloc_shape = 2x64x64>
    // Two reads with no write between them are one read ...
    // CHECK: %[[L0:.*]] = tpxgpu.local_load %[[V]]
    // CHECK-NEXT: tpxgpu.local_store
    %l0 = tpxgpu.local_load %v0 : !tpxgpu.memdesc<64x64xf16, #shared, mutable, alloc_shape = 2x64x64> -> tensor<64x64xf16, #blocked>
    %l1 = tpxgpu.local_load %v1 : !tpxgpu.memdesc<64x64xf16, #shared, mutable, alloc_shape = 2x64x64> -> tensor<64x64xf16, #blocked>
    // ... but not across a store, and an unused read is dropped.
    tpxgpu.local_store %t, %v0 : tensor<64x64xf16, #blocked> -> !tpxgpu.memdesc<64x64xf16, #shared, mutable, alloc_shape = 2x64x64>
    %unused = tpxgpu.local_load %v0 : !tpxgpu.memdesc<64x64xf16, #shared, mutable, alloc_shape = 2x64x64> -> tensor<64x64xf16, #blocked>
    // CHECK-NEXT: %[[L2:.*]] = tpxgpu.local_load %[[V]]
    // CHECK-NEXT: tt.return %[[L0]], %[[L0]], %[[L2]]
    %l2 = tpxgpu.local_load %v1 : !tpxgpu.memdesc<64x64xf16, #shared, mutable, alloc_shape = 2x64x64> -> tensor<64x64xf16, #blocked>
    tt.return %l0, %l1, %l2 : tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>
  }

  // CHECK-LABEL: tt.func @ordering_ops_stay
  tt.func @ordering_ops_stay() {
    // An unused uninitialised allocation is dead ...
    // CHECK-NOT: tpxgpu.local_alloc
    %dead = tpxgpu.local_alloc : !tpxgpu.memdesc<64x64xf16, #shared, mutable>
    // ... but waits and barriers order other threads' work: kept, twice.
    // CHECK: tpxgpu.async_commit_group
    // CHECK-NEXT: tpxgpu.async_commit_group
    // CHECK-NEXT: tpxgpu.async_wait num = 0
    // CHECK-NEXT: tpxgpu.async_wait num = 0
    // CHECK-NEXT: tpxgpu.barrier
    // CHECK-NEXT: tpxgpu.barrier
    // CHECK-NEXT: tpxgpu.async_tma_store_wait pendings = 0
    %g0 = tpxgpu.async_commit_group
    %g1 = tpxgpu.async_commit_group
    %w0 = tpxgpu.async_wait num = 0
    %w1 = tpxgpu.async_wait num = 0
    tpxgpu.barrier
    tpxgpu.barrier
    tpxgpu.async_tma_store_wait pendings = 0
    tt.return
  }
}
