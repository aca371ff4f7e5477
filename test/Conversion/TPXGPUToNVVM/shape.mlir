// RUN: tpx-opt %s -split-input-file --tpxgpu-lower-layout-conversions --tpxgpu-allocate-shared-memory --convert-tpxgpu-to-nvvm --canonicalize --cse -mlir-print-debuginfo=false | FileCheck %s

// A conversion between layouts that give threads different elements goes
// through shared memory (tpxgpu-lower-layout-conversions makes it a padded
// local_alloc / local_load): barrier, vector stores of the 4 consecutive
// elements each thread holds per row, barrier, loads in the new layout.
// The buffer is 32 rows of 32 + 8 (16 bytes of padding) halves.

#row = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tpxgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK: "tpxgpu.shared-bytes" = 2560
  // CHECK: llvm.mlir.global external @tpx_shared_memory() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  // CHECK-LABEL: llvm.func internal @convert(
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> f16
  // CHECK: llvm.return
  tt.func private @convert(%x: tensor<32x32xf16, #row>) -> tensor<32x32xf16, #col> {
    %y = tpxgpu.convert_layout %x : tensor<32x32xf16, #row> -> tensor<32x32xf16, #col>
    tt.return %y : tensor<32x32xf16, #col>
  }
}

// -----

// expand_dims from a slice and broadcast are register renamings: no shared
// memory, no barrier. Each thread's 4 registers of the 16x16 result repeat
// its one row index.

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"tpxgpu.num-warps" = 2 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-NOT: tpxgpu.shared-bytes
  // CHECK-LABEL: llvm.func internal @rows(
  // CHECK-SAME: %[[X:.*]]: !llvm.struct<(i32)>
  // CHECK-NOT: nvvm.barrier0
  // CHECK: %[[V:.*]] = llvm.extractvalue %[[X]][0]
  // CHECK: %[[S0:.*]] = llvm.insertvalue %[[V]], %{{.*}}[0]
  // CHECK: %[[S1:.*]] = llvm.insertvalue %[[V]], %[[S0]][1]
  // CHECK: %[[S2:.*]] = llvm.insertvalue %[[V]], %[[S1]][2]
  // CHECK: %[[S3:.*]] = llvm.insertvalue %[[V]], %[[S2]][3]
  // CHECK: llvm.return %[[S3]]
  tt.func private @rows(%x: tensor<16xi32, #tpxgpu.slice<{dim = 1, parent = #blocked}>>) -> tensor<16x16xi32, #blocked> {
    %e = tt.expand_dims %x {axis = 1 : i32} : tensor<16xi32, #tpxgpu.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xi32, #blocked>
    %b = tt.broadcast %e : tensor<16x1xi32, #blocked> -> tensor<16x16xi32, #blocked>
    tt.return %b : tensor<16x16xi32, #blocked>
  }
}

// -----

// A transpose into the layout whose threads already hold the transposed
// elements renames registers; into any other layout it goes through shared
// memory.

#row = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tpxgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @free_trans(
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  tt.func private @free_trans(%x: tensor<32x32xf32, #row>) -> tensor<32x32xf32, #col> {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
    tt.return %t : tensor<32x32xf32, #col>
  }
  // CHECK-LABEL: llvm.func internal @shared_trans(
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load
  tt.func private @shared_trans(%x: tensor<32x32xf32, #row>) -> tensor<32x32xf32, #row> {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x32xf32, #row> -> tensor<32x32xf32, #row>
    tt.return %t : tensor<32x32xf32, #row>
  }
  // A reshape whose layouts give threads other elements meets at the flat
  // index: 1024 floats.
  // CHECK-LABEL: llvm.func internal @flatten(
  // CHECK: nvvm.barrier0
  // CHECK: nvvm.barrier0
  tt.func private @flatten(%x: tensor<32x32xf32, #row>) -> tensor<1024xf32, #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> {
    %r = tt.reshape %x : tensor<32x32xf32, #row> -> tensor<1024xf32, #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    tt.return %r : tensor<1024xf32, #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  }
  // Where each thread holds the same elements in both (4 consecutive
  // floats a row, 8 lanes along a row, then rows), flattening renames
  // registers: no barrier, no shared memory.
  // CHECK-LABEL: llvm.func internal @free_flatten(
  // CHECK-NOT: nvvm.barrier0
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  tt.func private @free_flatten(%x: tensor<32x32xf32, #row>) -> tensor<1024xf32, #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> {
    %r = tt.reshape %x : tensor<32x32xf32, #row> -> tensor<1024xf32, #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    tt.return %r : tensor<1024xf32, #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  }
  // Splitting a row into 4 groups of 8 (dot_scaled's scale broadcast) is
  // a renaming too when the groups' lanes are the row's.
  // CHECK-LABEL: llvm.func internal @free_split(
  // CHECK-NOT: nvvm.barrier0
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  tt.func private @free_split(%x: tensor<32x4x8xf32, #tpxgpu.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [4, 4, 2], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>>) -> tensor<32x32xf32, #row> {
    %r = tt.reshape %x : tensor<32x4x8xf32, #tpxgpu.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [4, 4, 2], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>> -> tensor<32x32xf32, #row>
    tt.return %r : tensor<32x32xf32, #row>
  }
}

// -----

// With warps along M only, an f16 accumulator tile is already operand A of
// the next mma.sync: the conversion renames registers. Into operand B it
// goes through shared memory and comes back with ldmatrix .trans.

#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#a = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @acc_to_a(
  // CHECK-NOT: nvvm.barrier0
  // CHECK-NOT: ldmatrix
  // CHECK: llvm.return
  tt.func private @acc_to_a(%x: tensor<64x32xf16, #mma>) -> tensor<64x32xf16, #a> {
    %y = tpxgpu.convert_layout %x : tensor<64x32xf16, #mma> -> tensor<64x32xf16, #a>
    tt.return %y : tensor<64x32xf16, #a>
  }
  // CHECK-LABEL: llvm.func internal @acc_to_b(
  // CHECK: nvvm.barrier0
  // CHECK: nvvm.barrier0
  // CHECK: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
  tt.func private @acc_to_b(%x: tensor<32x32xf16, #mma>) -> tensor<32x32xf16, #b> {
    %y = tpxgpu.convert_layout %x : tensor<32x32xf16, #mma> -> tensor<32x32xf16, #b>
    tt.return %y : tensor<32x32xf16, #b>
  }
}

// -----

// In a loop whose only shared-memory users are its conversions, each
// conversion gets its own buffer per iteration parity and no leading
// barrier: one barrier per conversion inside the loop, and none before it
// since nothing in the kernel used shared memory before.

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // Two 64x64 f16 regions of 64 x (64 + 8) halves, twice: 36864 bytes.
  // CHECK: "tpxgpu.shared-bytes" = 36864
  // CHECK-LABEL: llvm.func @loop(
  // CHECK-NOT: nvvm.barrier0
  // CHECK: scf.for
  // CHECK-COUNT-1: nvvm.barrier0
  // CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
  // CHECK-COUNT-1: nvvm.barrier0
  // CHECK: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
  // CHECK-NOT: nvvm.barrier0
  // CHECK: mma.sync
  // CHECK-NOT: nvvm.barrier0
  // CHECK: scf.yield
  tt.func public @loop(%x: tensor<64x64xf16, #blocked>, %n: i32, %p: tensor<64x64x!tt.ptr<f32>, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %xa = tpxgpu.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #a>
      %xb = tpxgpu.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #b>
      %d = tt.dot %xa, %xb, %acc : tensor<64x64xf16, #a> * tensor<64x64xf16, #b> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.store %p, %r : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// tt.unsplat: every thread holds the one element of a 1x1 tensor, so the
// scalar is its register 0 (no shuffle, no shared memory).
#one = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @unsplat(
  // CHECK-SAME: %[[X:.*]]: !llvm.struct<(f32)>
  // CHECK: %[[V:.*]] = llvm.extractvalue %[[X]][0] : !llvm.struct<(f32)>
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return %[[V]] : f32
  tt.func private @unsplat(%x: tensor<1x1xf32, #one>) -> f32 {
    %s = tt.unsplat %x : tensor<1x1xf32, #one>
    tt.return %s : f32
  }
}
