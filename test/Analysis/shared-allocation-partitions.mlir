// Shared memory in tpxgpu.warp_specialize partitions
// (widenForPartitions in lib/Analysis/SharedMemoryAllocation.cpp): the
// partitions run at once, so a buffer or scratch region of one is live for
// the whole op, whatever program order says. Two buffers in two partitions
// whose program-order live ranges are apart must not share bytes, where
// the same two buffers one after the other in straight-line code do
// (@sequential, both at offset 0). Memory live only before or only after
// the op may still share with the partitions'.
// RUN: tpx-opt %s --split-input-file --test-print-shared-allocation --verify-diagnostics -o /dev/null
// RUN: tpx-opt %s --split-input-file --tpxgpu-allocate-shared-memory -mlir-print-debuginfo=false | FileCheck %s

#b = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #tpxgpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// The reference: one buffer dead before the next is made, both at 0.
// CHECK: "tpxgpu.shared-bytes" = 4096
// CHECK-LABEL: @sequential
// CHECK: tpxgpu.local_alloc %{{.*}} {"tpxgpu.shared-offset" = 0 : i64}
// CHECK: tpxgpu.local_alloc %{{.*}} {"tpxgpu.shared-offset" = 0 : i64}
// expected-remark @below {{shared bytes = 4096}}
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @sequential(%x: tensor<32x32xf32, #b>) -> tensor<32x32xf32, #b> {
    // expected-remark @below {{buffer offset = 0 size = 4096 align = 16}}
    %m0 = tpxgpu.local_alloc %x : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #sw>
    %y = tpxgpu.local_load %m0 : !tpxgpu.memdesc<32x32xf32, #sw> -> tensor<32x32xf32, #b>
    // expected-remark @below {{buffer offset = 0 size = 4096 align = 16}}
    %m1 = tpxgpu.local_alloc %y : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #sw>
    %z = tpxgpu.local_load %m1 : !tpxgpu.memdesc<32x32xf32, #sw> -> tensor<32x32xf32, #b>
    tt.return %z : tensor<32x32xf32, #b>
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #tpxgpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// The same two buffers, one in each partition: partition 0's is dead
// before partition 1's is made in program order, but warps 0..3 and 4..7
// use them at the same time.
// CHECK: "tpxgpu.shared-bytes" = 8192
// CHECK-LABEL: @partitions
// CHECK: tpxgpu.warp_specialize
// CHECK: tpxgpu.local_alloc %{{.*}} {"tpxgpu.shared-offset" = 0 : i64}
// CHECK: }, {
// CHECK: tpxgpu.local_alloc %{{.*}} {"tpxgpu.shared-offset" = 4096 : i64}
// expected-remark @below {{shared bytes = 8192}}
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @partitions(%out: !tt.ptr<f32>) {
    tpxgpu.warp_specialize num_warps = [4, 4] warp_starts = [0, 4] num_regs = [0, 0] {
      %x = arith.constant dense<1.0> : tensor<32x32xf32, #b>
      // expected-remark @below {{buffer offset = 0 size = 4096 align = 16}}
      %m0 = tpxgpu.local_alloc %x : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #sw>
      %y = tpxgpu.local_load %m0 : !tpxgpu.memdesc<32x32xf32, #sw> -> tensor<32x32xf32, #b>
      tpxgpu.warp_yield
    }, {
      %x = arith.constant dense<2.0> : tensor<32x32xf32, #b>
      // expected-remark @below {{buffer offset = 4096 size = 4096 align = 16}}
      %m1 = tpxgpu.local_alloc %x : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #sw>
      %z = tpxgpu.local_load %m1 : !tpxgpu.memdesc<32x32xf32, #sw> -> tensor<32x32xf32, #b>
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #tpxgpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// The widening stops at the op: a buffer dead before it and one made after
// it share offset 0 with partition 0's; partition 1's scratch (a transpose
// moves data between its threads) is live with partition 0's buffer, and
// so goes above it, although program order puts it after that buffer's
// last use.
// CHECK: "tpxgpu.shared-bytes" = 8192
// CHECK-LABEL: @around
// CHECK: tpxgpu.local_alloc %{{.*}} {"tpxgpu.shared-offset" = 0 : i64}
// CHECK: tpxgpu.warp_specialize
// CHECK: tpxgpu.local_alloc %{{.*}} {"tpxgpu.shared-offset" = 0 : i64}
// CHECK: }, {
// CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>, "tpxgpu.shared-offset" = 4096 : i64}
// CHECK: }
// CHECK: tpxgpu.local_alloc %{{.*}} {"tpxgpu.shared-offset" = 0 : i64}
// expected-remark @below {{shared bytes = 8192}}
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @around(%x: tensor<32x32xf32, #b>) -> tensor<32x32xf32, #b> {
    // expected-remark @below {{buffer offset = 0 size = 4096 align = 16}}
    %before = tpxgpu.local_alloc %x : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #sw>
    %y = tpxgpu.local_load %before : !tpxgpu.memdesc<32x32xf32, #sw> -> tensor<32x32xf32, #b>
    tpxgpu.warp_specialize num_warps = [4, 4] warp_starts = [0, 4] num_regs = [0, 0] {
      %c = arith.constant dense<1.0> : tensor<32x32xf32, #b>
      // expected-remark @below {{buffer offset = 0 size = 4096 align = 16}}
      %m0 = tpxgpu.local_alloc %c : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #sw>
      %u = tpxgpu.local_load %m0 : !tpxgpu.memdesc<32x32xf32, #sw> -> tensor<32x32xf32, #b>
      tpxgpu.warp_yield
    }, {
      %c = arith.constant dense<2.0> : tensor<32x32xf32, #b>
      // expected-remark @below {{scratch offset = 4096 size = 4096 align = 128}}
      %t = tt.trans %c {order = array<i32: 1, 0>} : tensor<32x32xf32, #b> -> tensor<32x32xf32, #b>
      tpxgpu.warp_yield
    }
    // expected-remark @below {{buffer offset = 0 size = 4096 align = 16}}
    %after = tpxgpu.local_alloc %y : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #sw>
    %z = tpxgpu.local_load %after : !tpxgpu.memdesc<32x32xf32, #sw> -> tensor<32x32xf32, #b>
    tt.return %z : tensor<32x32xf32, #b>
  }
}
