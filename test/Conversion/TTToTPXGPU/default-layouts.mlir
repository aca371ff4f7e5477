// Default blocked layouts for 1-D and 2-D f32/f16 tensors under 4 and 8
// warps: a 16-byte vector per thread along the last dimension (never wider
// than it), threads then warps from the fastest dimension, leftovers
// replicated along the slowest.
// RUN: tpx-opt %s -split-input-file --convert-tt-to-tpxgpu="num-warps=4 threads-per-warp=32" | FileCheck %s --check-prefix=W4
// RUN: tpx-opt %s -split-input-file --convert-tt-to-tpxgpu="num-warps=8" | FileCheck %s --check-prefix=W8

// W4-DAG: #[[F32_1D:.*]] = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// W4-DAG: #[[F16_1D:.*]] = #tpxgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// W4-DAG: #[[SMALL:.*]] = #tpxgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// W4-DAG: #[[F32_2D:.*]] = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// W4-DAG: #[[F16_2D:.*]] = #tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// W4-DAG: #[[WIDE:.*]] = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// W4: module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32}
// W4-LABEL: tt.func public @shapes
// W4: tt.splat %{{.*}} : f32 -> tensor<1024xf32, #[[F32_1D]]>
// W4: tt.splat %{{.*}} : f16 -> tensor<1024xf16, #[[F16_1D]]>
// W4: tt.splat %{{.*}} : f32 -> tensor<2xf32, #[[SMALL]]>
// W4: tt.splat %{{.*}} : f32 -> tensor<64x64xf32, #[[F32_2D]]>
// W4: tt.splat %{{.*}} : f16 -> tensor<64x32xf16, #[[F16_2D]]>
// W4: tt.splat %{{.*}} : f32 -> tensor<2x512xf32, #[[WIDE]]>
// W4-NOT: tpxgpu.convert_layout

// W8-DAG: #[[F32_1D:.*]] = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// W8-DAG: #[[F16_2D:.*]] = #tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
// W8-DAG: #[[WIDE:.*]] = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
// W8: module attributes {"tpxgpu.num-warps" = 8 : i32, "tpxgpu.threads-per-warp" = 32 : i32}
// W8: tensor<1024xf32, #[[F32_1D]]>
// W8: tensor<64x32xf16, #[[F16_2D]]>
// W8: tensor<2x512xf32, #[[WIDE]]>
module {
  tt.func public @shapes(%f: f32, %h: f16) {
    %0 = tt.splat %f : f32 -> tensor<1024xf32>
    %1 = tt.splat %h : f16 -> tensor<1024xf16>
    %2 = tt.splat %f : f32 -> tensor<2xf32>
    %3 = tt.splat %f : f32 -> tensor<64x64xf32>
    %4 = tt.splat %h : f16 -> tensor<64x32xf16>
    %5 = tt.splat %f : f32 -> tensor<2x512xf32>
    tt.return
  }
}

// -----

// Loads and stores keep the pointers' default layout (vector width from the
// pointee); the mask and the loaded value follow it, and an elementwise op
// takes its operands' layout.
// W4: // -----
// W4: #[[I32:.*]] = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// W4: #[[H:.*]] = #tpxgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// W4-LABEL: tt.func public @copy
// W4: %[[R:.*]] = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #[[I32]]>
// W4: %[[M:.*]] = arith.cmpi slt, %[[R]], %{{.*}} : tensor<1024xi32, #[[I32]]>
// W4: %[[S:.*]] = tt.splat %{{.*}} : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #[[H]]>
// W4: %[[RC:.*]] = tpxgpu.convert_layout %[[R]] : tensor<1024xi32, #[[I32]]> -> tensor<1024xi32, #[[H]]>
// W4: %[[P:.*]] = tt.addptr %[[S]], %[[RC]] : tensor<1024x!tt.ptr<f16>, #[[H]]>, tensor<1024xi32, #[[H]]>
// W4: %[[MC:.*]] = tpxgpu.convert_layout %[[M]] : tensor<1024xi1, #[[I32]]> -> tensor<1024xi1, #[[H]]>
// W4: %[[V:.*]] = tt.load %[[P]], %[[MC]] : tensor<1024x!tt.ptr<f16>, #[[H]]>
// W4: %[[W:.*]] = arith.addf %[[V]], %[[V]] : tensor<1024xf16, #[[H]]>
// W4: tt.store %{{.*}}, %[[W]], %{{.*}} : tensor<1024x!tt.ptr<f16>, #[[H]]>
module {
  tt.func public @copy(%src: !tt.ptr<f16>, %dst: !tt.ptr<f16>, %n: i32) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %ns = tt.splat %n : i32 -> tensor<1024xi32>
    %m = arith.cmpi slt, %r, %ns : tensor<1024xi32>
    %s = tt.splat %src : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
    %p = tt.addptr %s, %r : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
    %v = tt.load %p, %m : tensor<1024x!tt.ptr<f16>>
    %w = arith.addf %v, %v : tensor<1024xf16>
    %d = tt.splat %dst : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
    %q = tt.addptr %d, %r : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
    tt.store %q, %w, %m : tensor<1024x!tt.ptr<f16>>
    tt.return
  }
}

// -----

// Atomics run one element at a time in each element's owner, so 256 of
// them spread over all 128 threads (two each) instead of a 4-element
// vector on 64 threads with the other 64 replicas.
// W4: // -----
// W4: #[[SPREAD:.*]] = #tpxgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// W4-LABEL: tt.func public @bins
// W4: tt.atomic_rmw add, relaxed, gpu, %{{.*}}, %{{.*}} : (tensor<256x!tt.ptr<i32>, #[[SPREAD]]>, tensor<256xi32, #[[SPREAD]]>) -> tensor<256xi32, #[[SPREAD]]>
module {
  tt.func public @bins(%bins: !tt.ptr<i32>, %counts: tensor<256xi32>) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %s = tt.splat %bins : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %p = tt.addptr %s, %r : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %old = tt.atomic_rmw add, relaxed, gpu, %p, %counts : (tensor<256x!tt.ptr<i32>>, tensor<256xi32>) -> tensor<256xi32>
    tt.return
  }
}

// -----

// A 64-element load spreads one element per thread, but inline asm with
// pack = 2 must see neighbouring elements together (as on the CPU), so it
// runs in a layout of whole vectors (4 i32 per thread, replicated) rather
// than padding every pack.
// W4: // -----
// W4-DAG: #[[ONE:.*]] = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// W4-DAG: #[[VECTORS:.*]] = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// W4-LABEL: tt.func public @packed_asm
// W4: tt.load %{{.*}} : tensor<64x!tt.ptr<i32>, #[[ONE]]>
// W4: tpxgpu.convert_layout %{{.*}} : tensor<64xi32, #[[ONE]]> -> tensor<64xi32, #[[VECTORS]]>
// W4: tt.elementwise_inline_asm {{.*}} : tensor<64xi32, #[[VECTORS]]> -> tensor<64xi32, #[[VECTORS]]>
module {
  tt.func public @packed_asm(%src: !tt.ptr<i32>, %dst: !tt.ptr<i32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %s = tt.splat %src : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
    %p = tt.addptr %s, %r : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
    %v = tt.load %p : tensor<64x!tt.ptr<i32>>
    %w = tt.elementwise_inline_asm "mov.b32 $0, $3; mov.b32 $1, $2;" {constraints = "=r,=r,r,r", packed_element = 2 : i32, pure = true} %v : tensor<64xi32> -> tensor<64xi32>
    %d = tt.splat %dst : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
    %q = tt.addptr %d, %r : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
    tt.store %q, %w : tensor<64x!tt.ptr<i32>>
    tt.return
  }
}
