// RUN: tpx-opt %s -split-input-file --convert-tpxgpu-to-nvvm --canonicalize --cse -mlir-print-debuginfo=false | FileCheck %s

// The memory ops of tpxgpu lowered to NVVM (SharedMemoryPatterns.cpp): a
// memdesc is the !llvm.ptr<3> of its first element in tpx_shared_memory.

#b = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#pad = #tpxgpu.padded_shared<{padding = 4, order = [1, 0]}>
#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>

// A local_alloc at its offset with its value stored: 16-byte vector stores
// (4 consecutive f32 per thread, rows padded by 4 elements keep them
// aligned), a barrier, and the same vectors read back.
// CHECK: "tpxgpu.shared-bytes" = 5120
// CHECK-LABEL: llvm.func internal @alloc_store_load(
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @tpx_shared_memory : !llvm.ptr<3>
// CHECK: %[[BUF:.*]] = llvm.getelementptr %[[BASE]][512] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @alloc_store_load(%x: tensor<32x32xf32, #b>) -> tensor<32x32xf32, #b> {
    %m = tpxgpu.local_alloc %x {"tpxgpu.shared-offset" = 512 : i64} : tensor<32x32xf32, #b> -> !tpxgpu.memdesc<32x32xf32, #pad>
    tpxgpu.barrier
    %y = tpxgpu.local_load %m : !tpxgpu.memdesc<32x32xf32, #pad> -> tensor<32x32xf32, #b>
    tpxgpu.local_dealloc %m : !tpxgpu.memdesc<32x32xf32, #pad>
    tt.return %y : tensor<32x32xf32, #b>
  }
}

// -----

// memdesc_index steps by the buffer stride (8192 bytes for 64x64 f16),
// a subview on whole 128B swizzle atoms (row 8, column 64) is its first
// element's offset, and nvmma addresses XOR bits 4-6 with bits 7-9.
// CHECK-LABEL: llvm.func internal @index_subview(
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @tpx_shared_memory : !llvm.ptr<3>
// CHECK: %[[C8192:.*]] = llvm.mlir.constant(8192 : i32) : i32
// CHECK: %[[OFF:.*]] = llvm.mul %{{.*}}, %[[C8192]] : i32
// CHECK: %[[BUF:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: llvm.getelementptr %[[BUF]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.xor
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
#w = #tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @index_subview(%x: tensor<8x64xf16, #w>, %i: i32) {
    %m = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<2x64x64xf16, #nv, mutable>
    %b = tpxgpu.memdesc_index %m[%i] : !tpxgpu.memdesc<2x64x64xf16, #nv, mutable> -> !tpxgpu.memdesc<64x64xf16, #nv, mutable, alloc_shape = 2x64x64>
    %v = tpxgpu.memdesc_subview %b[8, 0] : !tpxgpu.memdesc<64x64xf16, #nv, mutable, alloc_shape = 2x64x64> -> !tpxgpu.memdesc<8x64xf16, #nv, mutable, alloc_shape = 2x64x64>
    tpxgpu.local_store %x, %v : tensor<8x64xf16, #w> -> !tpxgpu.memdesc<8x64xf16, #nv, mutable, alloc_shape = 2x64x64>
    tt.return
  }
}

// -----

// An mma.sync A operand of f16 is read with ldmatrix from a padded buffer.
// CHECK-LABEL: llvm.func internal @ldmatrix(
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#pad8 = #tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @ldmatrix(%m: !tpxgpu.memdesc<32x32xf16, #pad8>) -> tensor<32x32xf16, #a> {
    %a = tpxgpu.local_load %m : !tpxgpu.memdesc<32x32xf16, #pad8> -> tensor<32x32xf16, #a>
    tt.return %a : tensor<32x32xf16, #a>
  }
}
