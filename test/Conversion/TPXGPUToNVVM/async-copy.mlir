// RUN: tpx-opt %s -split-input-file --convert-tpxgpu-to-nvvm --canonicalize --cse -mlir-print-debuginfo=false | FileCheck %s

// Async copies lowered to cp.async (AsyncCopyPatterns.cpp).

#b = #tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>

// Eight consecutive f16 per thread, contiguous in global memory and in the
// swizzled rows: one 16-byte cp.async.cg each, its source size 0 where the
// mask is off (zero fill); then the group is committed and waited for, and
// the buffer published to the async proxy. The thread's rows are 32 apart,
// which the swizzle does not tell apart: one address, then constants.
// CHECK-LABEL: llvm.func internal @copy16(
// CHECK: nvvm.cp.async.shared.global %[[FIRST:[0-9]+]], %{{.*}}, 16, cache = cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: %[[D1:.*]] = llvm.getelementptr %[[FIRST]][2048]
// CHECK: nvvm.cp.async.shared.global %[[D1]], %{{.*}}, 16, cache = cg
// CHECK: %[[D2:.*]] = llvm.getelementptr %[[FIRST]][4096]
// CHECK: nvvm.cp.async.shared.global %[[D2]], %{{.*}}, 16, cache = cg
// CHECK: %[[D3:.*]] = llvm.getelementptr %[[FIRST]][6144]
// CHECK: nvvm.cp.async.shared.global %[[D3]], %{{.*}}, 16, cache = cg
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: fence.proxy.async.shared::cta;
// CHECK: nvvm.barrier0
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @copy16(%p: tensor<128x32x!tt.ptr<f16>, #b>, %m: tensor<128x32xi1, #b>) {
    %buf = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<128x32xf16, #nv, mutable>
    %t = tpxgpu.async_copy_global_to_local %p, %buf mask %m {tpxgpu.contiguity = array<i64: 1, 8>} : tensor<128x32x!tt.ptr<f16>, #b> -> !tpxgpu.memdesc<128x32xf16, #nv, mutable>
    %g = tpxgpu.async_commit_group tokens %t
    %w = tpxgpu.async_wait %g num = 0
    tpxgpu.fence_async_shared
    tpxgpu.barrier
    tt.return
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>

// Only pairs are known consecutive: 4-byte cp.async.ca, no source size
// without a mask.
// CHECK-LABEL: llvm.func internal @copy4(
// CHECK-COUNT-16: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NOT: nvvm.cp.async.shared.global
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @copy4(%p: tensor<128x32x!tt.ptr<f16>, #b>) {
    %buf = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<128x32xf16, #nv, mutable>
    %t = tpxgpu.async_copy_global_to_local %p, %buf {tpxgpu.contiguity = array<i64: 1, 2>} : tensor<128x32x!tt.ptr<f16>, #b> -> !tpxgpu.memdesc<128x32xf16, #nv, mutable>
    tt.return
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>

// Nothing known about the pointers: a synchronous predicated 2-byte load
// and store per element (cp.async moves at least 4 bytes).
// CHECK-LABEL: llvm.func internal @copy_scalar(
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK-COUNT-32: ld.global.b16
// CHECK-NOT: nvvm.cp.async.shared.global
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @copy_scalar(%p: tensor<128x32x!tt.ptr<f16>, #b>, %m: tensor<128x32xi1, #b>) {
    %buf = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<128x32xf16, #nv, mutable>
    %t = tpxgpu.async_copy_global_to_local %p, %buf mask %m : tensor<128x32x!tt.ptr<f16>, #b> -> !tpxgpu.memdesc<128x32xf16, #nv, mutable>
    tt.return
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [2, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>

// Adjacent rows of one thread have different swizzles: their copies get
// their own addresses; only the copies 64 rows (the same swizzle) past the
// first become constants past it.
// CHECK-LABEL: llvm.func internal @copy_adjacent_rows(
// CHECK: %[[FIRST:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32)
// CHECK-NEXT: nvvm.cp.async.shared.global %[[FIRST]]
// CHECK: %[[SECOND:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32)
// CHECK-NEXT: nvvm.cp.async.shared.global %[[SECOND]]
// CHECK: llvm.getelementptr %[[FIRST]][8192]
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @copy_adjacent_rows(%p: tensor<128x64x!tt.ptr<f16>, #b>) {
    %buf = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<128x64xf16, #nv, mutable>
    %t = tpxgpu.async_copy_global_to_local %p, %buf {tpxgpu.contiguity = array<i64: 1, 8>} : tensor<128x64x!tt.ptr<f16>, #b> -> !tpxgpu.memdesc<128x64xf16, #nv, mutable>
    tt.return
  }
}
