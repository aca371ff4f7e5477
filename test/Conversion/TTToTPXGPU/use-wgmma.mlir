// tpxgpu-use-wgmma: 16-bit dots with f32 accumulators become warp-group MMAs
// (nvidia_mma version 3) reading B, and A unless it is computed from
// another dot, from shared memory in the nvmma swizzle; other dots keep
// mma.sync.
// RUN: tpx-opt %s -split-input-file --convert-tt-to-tpxgpu="num-warps=8" --tpxgpu-use-wgmma --canonicalize --tpxgpu-remove-layout-conversions --canonicalize -mlir-print-debuginfo=false | FileCheck %s

// Two warp groups along M, one instruction over all 128 columns; both
// operands' rows are 128 bytes, so the 128-byte swizzle.
// CHECK-DAG: #[[MMA:.*]] = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
// CHECK-DAG: #[[S128:.*]] = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @matmul
// CHECK: tpxgpu.barrier
// CHECK-NEXT: %[[A:.*]] = tpxgpu.local_alloc %{{.*}} : tensor<128x64xf16, #{{.*}}> -> !tpxgpu.memdesc<128x64xf16, #[[S128]]>
// CHECK: %[[B:.*]] = tpxgpu.local_alloc %{{.*}} : tensor<64x128xf16, #{{.*}}> -> !tpxgpu.memdesc<64x128xf16, #[[S128]]>
// CHECK: %[[D:.*]] = tpxgpu.warp_group_dot %[[A]], %[[B]], %{{.*}} : !tpxgpu.memdesc<128x64xf16, #[[S128]]>, !tpxgpu.memdesc<64x128xf16, #[[S128]]> -> tensor<128x128xf32, #[[MMA]]>
// CHECK-NOT: tt.dot
// CHECK: arith.truncf %[[D]] : tensor<128x128xf32, #[[MMA]]>
module {
  tt.func public @matmul(%h: f16) -> tensor<128x128xf16> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %x = tt.splat %h : f16 -> tensor<128x64xf16>
    %y = tt.splat %h : f16 -> tensor<64x128xf16>
    %d = tt.dot %x, %y, %c : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
    %t = arith.truncf %d : tensor<128x128xf32> to tensor<128x128xf16>
    tt.return %t : tensor<128x128xf16>
  }
}

// -----

// Attention: P = exp2(Q K^T) feeds the second dot's A in registers, in the
// dot_op layout of the second accumulator (a register renaming of the
// first's); a K of 32 gives A a 64-byte swizzle.
// CHECK-DAG: #[[M64:.*]] = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
// CHECK-DAG: #[[S64:.*]] = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[PA:.*]] = #tpxgpu.dot_op<{opIdx = 0, parent = #[[M64]], kWidth = 2}>
// CHECK-LABEL: tt.func public @chain
// CHECK: tpxgpu.local_alloc %{{.*}} : tensor<128x32xbf16, #{{.*}}> -> !tpxgpu.memdesc<128x32xbf16, #[[S64]]>
// CHECK: %[[S:.*]] = tpxgpu.warp_group_dot {{.*}} -> tensor<128x64xf32, #[[M64]]>
// CHECK: %[[E:.*]] = math.exp2 %[[S]] : tensor<128x64xf32, #[[M64]]>
// CHECK: %[[P:.*]] = arith.truncf %[[E]]
// CHECK: %[[PR:.*]] = tpxgpu.convert_layout %[[P]] : tensor<128x64xbf16, #[[M64]]> -> tensor<128x64xbf16, #[[PA]]>
// CHECK: tpxgpu.warp_group_dot %[[PR]], %{{.*}}, %{{.*}} : tensor<128x64xbf16, #[[PA]]>, !tpxgpu.memdesc<64x64xbf16, #{{.*}}> -> tensor<128x64xf32, #[[M64]]>
module {
  tt.func public @chain(%h: bf16, %v: tensor<64x64xbf16>) -> tensor<128x64xf32> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %x = tt.splat %h : bf16 -> tensor<128x32xbf16>
    %y = tt.splat %h : bf16 -> tensor<32x64xbf16>
    %s = tt.dot %x, %y, %c : tensor<128x32xbf16> * tensor<32x64xbf16> -> tensor<128x64xf32>
    %e = math.exp2 %s : tensor<128x64xf32>
    %p = arith.truncf %e : tensor<128x64xf32> to tensor<128x64xbf16>
    %o = tt.dot %p, %v, %c : tensor<128x64xbf16> * tensor<64x64xbf16> -> tensor<128x64xf32>
    tt.return %o : tensor<128x64xf32>
  }
}

// -----

// What wgmma cannot run keeps mma.sync: an f16 accumulator, and a tile of
// 32 rows (a warp group computes 64).
// CHECK-LABEL: tt.func public @keeps_mma_sync
// CHECK-NOT: warp_group_dot
// CHECK: tt.dot {{.*}} -> tensor<64x64xf16, #{{.*}}>
// CHECK-NOT: warp_group_dot
// CHECK: tt.dot {{.*}} -> tensor<32x64xf32, #{{.*}}>
module {
  tt.func public @keeps_mma_sync(%h: f16) -> (tensor<64x64xf16>, tensor<32x64xf32>) {
    %c16 = arith.constant dense<0.000000e+00> : tensor<64x64xf16>
    %x = tt.splat %h : f16 -> tensor<64x32xf16>
    %y = tt.splat %h : f16 -> tensor<32x64xf16>
    %d = tt.dot %x, %y, %c16 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf16>
    %c = arith.constant dense<0.000000e+00> : tensor<32x64xf32>
    %x2 = tt.splat %h : f16 -> tensor<32x32xf16>
    %e = tt.dot %x2, %y, %c : tensor<32x32xf16> * tensor<32x64xf16> -> tensor<32x64xf32>
    tt.return %d, %e : tensor<64x64xf16>, tensor<32x64xf32>
  }
}
