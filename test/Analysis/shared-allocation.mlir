// RUN: tpx-opt %s --split-input-file --test-print-shared-allocation --verify-diagnostics -o /dev/null
// RUN: tpx-opt %s --split-input-file --tpxgpu-allocate-shared-memory | FileCheck %s

// The shared-memory allocation (lib/Analysis/SharedMemoryAllocation.cpp):
// offsets, sizes and the high-water mark, one remark per buffer.

#b = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #tpxgpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#pad = #tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>

// Disjoint lifetimes share bytes.
// CHECK-LABEL: @disjoint
// CHECK: tpxgpu.local_alloc %{{.*}} {"tpxgpu.shared-offset" = 0 : i64}
// CHECK: tpxgpu.local_alloc %{{.*}} {"tpxgpu.shared-offset" = 0 : i64}
// expected-remark @below {{shared bytes = 4096}}
module attributes {"tpxgpu.num-warps" = 4 : i32} {
  tt.func @disjoint(%x: tensor<32x32xf32, #b>) -> tensor<32x32xf32, #b> {
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
#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#pad = #tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>

// Overlapping lifetimes do not.
// expected-remark @below {{shared bytes = 8192}}
module attributes {"tpxgpu.num-warps" = 4 : i32} {
  tt.func @overlapping(%x: tensor<32x32xf32, #b>) -> tensor<32x32xf32, #b> {
    // expected-remark @below {{buffer offset = 0 size = 4096 align = 16}}
    %m0 = tpxgpu.local_alloc %x : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #sw>
    // expected-remark @below {{buffer offset = 4096 size = 4096 align = 16}}
    %m1 = tpxgpu.local_alloc %x : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #sw>
    %y = tpxgpu.local_load %m0 : !tpxgpu.memdesc<32x32xf32, #sw> -> tensor<32x32xf32, #b>
    %z = tpxgpu.local_load %m1 : !tpxgpu.memdesc<32x32xf32, #sw> -> tensor<32x32xf32, #b>
    %s = arith.addf %y, %z : tensor<32x32xf32, #b>
    tt.return %s : tensor<32x32xf32, #b>
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #tpxgpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#pad = #tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>

// A buffer defined before a loop and read in it stays live through the
// whole loop: the buffer allocated and freed inside the body after that
// read cannot reuse its bytes (the next iteration reads it again).
// expected-remark @below {{shared bytes = 8192}}
module attributes {"tpxgpu.num-warps" = 4 : i32} {
  tt.func @across_loop(%x: tensor<32x32xf32, #b>, %n: i32) -> tensor<32x32xf32, #b> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-remark @below {{buffer offset = 0 size = 4096 align = 16}}
    %m0 = tpxgpu.local_alloc %x : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #sw>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<32x32xf32, #b>) : i32 {
      %y = tpxgpu.local_load %m0 : !tpxgpu.memdesc<32x32xf32, #sw> -> tensor<32x32xf32, #b>
      // expected-remark @below {{buffer offset = 4096 size = 4096 align = 16}}
      %m1 = tpxgpu.local_alloc %y : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #sw>
      %z = tpxgpu.local_load %m1 : !tpxgpu.memdesc<32x32xf32, #sw> -> tensor<32x32xf32, #b>
      %s = arith.addf %acc, %z : tensor<32x32xf32, #b>
      scf.yield %s : tensor<32x32xf32, #b>
    }
    // After the loop, m0 is dead: this one reuses offset 0.
    // expected-remark @below {{buffer offset = 0 size = 4096 align = 16}}
    %m2 = tpxgpu.local_alloc %r : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #sw>
    %w = tpxgpu.local_load %m2 : !tpxgpu.memdesc<32x32xf32, #sw> -> tensor<32x32xf32, #b>
    tt.return %w : tensor<32x32xf32, #b>
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #tpxgpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#pad = #tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>

// A memdesc carried around a loop (iter_args) is live through the whole
// body, and a view of it keeps it live like the buffer itself.
// expected-remark @below {{shared bytes = 12288}}
module attributes {"tpxgpu.num-warps" = 4 : i32} {
  tt.func @carried(%x: tensor<32x32xf32, #b>, %n: i32) -> tensor<32x32xf32, #b> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-remark @below {{buffer offset = 0 size = 8192 align = 16}}
    %m = tpxgpu.local_alloc : !tpxgpu.memdesc<2x32x32xf32, #sw, mutable>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x, %buf = %m) -> (tensor<32x32xf32, #b>, !tpxgpu.memdesc<2x32x32xf32, #sw, mutable>) : i32 {
      %slot = arith.remsi %i, %c1 : i32
      %v = tpxgpu.memdesc_index %buf[%slot] : !tpxgpu.memdesc<2x32x32xf32, #sw, mutable> -> !tpxgpu.memdesc<32x32xf32, #sw, mutable, alloc_shape = 2x32x32>
      tpxgpu.local_store %acc, %v : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #sw, mutable, alloc_shape = 2x32x32>
      // expected-remark @below {{buffer offset = 8192 size = 4096 align = 16}}
      %t = tpxgpu.local_alloc %acc : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #sw>
      %y = tpxgpu.local_load %t : !tpxgpu.memdesc<32x32xf32, #sw> -> tensor<32x32xf32, #b>
      scf.yield %y, %buf : tensor<32x32xf32, #b>, !tpxgpu.memdesc<2x32x32xf32, #sw, mutable>
    }
    // Live after the loop through the loop's result.
    %last = tpxgpu.memdesc_index %r#1[%c0] : !tpxgpu.memdesc<2x32x32xf32, #sw, mutable> -> !tpxgpu.memdesc<32x32xf32, #sw, mutable, alloc_shape = 2x32x32>
    // expected-remark @below {{buffer offset = 8192 size = 4096 align = 16}}
    %u = tpxgpu.local_alloc %x : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #sw>
    %a = tpxgpu.local_load %last : !tpxgpu.memdesc<32x32xf32, #sw, mutable, alloc_shape = 2x32x32> -> tensor<32x32xf32, #b>
    %b2 = tpxgpu.local_load %u : !tpxgpu.memdesc<32x32xf32, #sw> -> tensor<32x32xf32, #b>
    %s = arith.addf %a, %b2 : tensor<32x32xf32, #b>
    tt.return %s : tensor<32x32xf32, #b>
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #tpxgpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#pad = #tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>

// nvmma_shared buffers are 1024-byte aligned, multi-buffered ones take
// every buffer at a 1024-byte multiple, and scratch users (a transpose
// between equal layouts, which moves data between threads) go in the
// lowest gap the buffers live at them leave.
// CHECK: "tpxgpu.shared-bytes" = 30720
// CHECK-LABEL: @nvmma
// CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>, "tpxgpu.shared-offset" = 28672 : i64}
// expected-remark @below {{shared bytes = 30720}}
module attributes {"tpxgpu.num-warps" = 4 : i32} {
  tt.func @nvmma(%y: tensor<32x32xf16, #b>) -> tensor<32x32xf16, #b> {
    // expected-remark @below {{buffer offset = 0 size = 24576 align = 1024}}
    %m = tpxgpu.local_alloc : !tpxgpu.memdesc<3x64x64xf16, #nv, mutable>
    // expected-remark @below {{buffer offset = 24576 size = 2560 align = 16}}
    %p = tpxgpu.local_alloc %y : tensor<32x32xf16, #b> -> !tpxgpu.memdesc<32x32xf16, #pad>
    // 24576 + 2560 rounded up to 1024.
    // expected-remark @below {{buffer offset = 27648 size = 1024 align = 1024}}
    %n = tpxgpu.local_alloc : !tpxgpu.memdesc<8x64xf16, #nv, mutable>
    // expected-remark @below {{scratch offset = 28672 size = 2048 align = 128}}
    %z = tt.trans %y {order = array<i32: 1, 0>} : tensor<32x32xf16, #b> -> tensor<32x32xf16, #b>
    %q = tpxgpu.local_load %p : !tpxgpu.memdesc<32x32xf16, #pad> -> tensor<32x32xf16, #b>
    %r = tpxgpu.local_load %n : !tpxgpu.memdesc<8x64xf16, #nv, mutable> -> tensor<8x64xf16, #b>
    tpxgpu.local_dealloc %m : !tpxgpu.memdesc<3x64x64xf16, #nv, mutable>
    tt.return %z : tensor<32x32xf16, #b>
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Scratch of tt.cat (its result's tile), tt.gather (its source's) and
// tt.histogram (its counts), each used only while the op runs: they
// share offset 0. i1 elements take a byte each, pointers 8.
// CHECK-LABEL: @exchanges
// CHECK: tt.cat %{{.*}} {"tpxgpu.shared-offset" = 0 : i64}
// CHECK: tt.gather %{{.*}} {axis = 1 : i32, "tpxgpu.shared-offset" = 0 : i64}
// CHECK: tt.histogram %{{.*}} {"tpxgpu.shared-offset" = 0 : i64}
// expected-remark @below {{shared bytes = 8192}}
module attributes {"tpxgpu.num-warps" = 4 : i32} {
  tt.func @exchanges(%x: tensor<32x32xf32, #b>, %i: tensor<32x16xi32, #b>, %v: tensor<256xi32, #b1>, %m: tensor<128xi1, #b1>, %p: tensor<128x!tt.ptr<f16>, #b1>) {
    // expected-remark @below {{scratch offset = 0 size = 8192 align = 128}}
    %c = tt.cat %x, %x : tensor<32x32xf32, #b> -> tensor<64x32xf32, #b>
    // expected-remark @below {{scratch offset = 0 size = 4096 align = 128}}
    %g = tt.gather %x[%i] {axis = 1 : i32} : (tensor<32x32xf32, #b>, tensor<32x16xi32, #b>) -> tensor<32x16xf32, #b>
    // expected-remark @below {{scratch offset = 0 size = 64 align = 128}}
    %h = tt.histogram %v : tensor<256xi32, #b1> -> tensor<16xi32, #b1>
    // expected-remark @below {{scratch offset = 0 size = 256 align = 128}}
    %cm = tt.cat %m, %m : tensor<128xi1, #b1> -> tensor<256xi1, #b1>
    // expected-remark @below {{scratch offset = 0 size = 2048 align = 128}}
    %cp = tt.cat %p, %p : tensor<128x!tt.ptr<f16>, #b1> -> tensor<256x!tt.ptr<f16>, #b1>
    // expected-remark @below {{scratch offset = 0 size = 512 align = 128}}
    %h64 = tt.histogram %v : tensor<256xi32, #b1> -> tensor<64xi64, #b1>
    tt.return
  }
}
