// tpxgpu-use-wgmma: f16/bf16, tf32 and fp8 dots with f32 accumulators and
// int8 dots with i32 ones become warp-group MMAs
// (nvidia_mma version 3) reading B, and A unless it is computed from
// another dot, from shared memory in the nvmma swizzle; other dots keep
// mma.sync or FMAs.
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

// The same chain through an scf.if (scores masked on some blocks only, as
// a causal attention masks its diagonal block): P still takes the second
// dot's A in registers, and the if yields the accumulator layout.
// CHECK-DAG: #[[IM:.*]] = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
// CHECK-DAG: #[[IA:.*]] = #tpxgpu.dot_op<{opIdx = 0, parent = #[[IM]], kWidth = 2}>
// CHECK-LABEL: tt.func public @chain_through_if
// CHECK: scf.if %{{.*}} -> (tensor<128x64xf32, #[[IM]]>)
// CHECK-NOT: tpxgpu.local_alloc
// CHECK: %[[PR:.*]] = tpxgpu.convert_layout %{{.*}} : tensor<128x64xbf16, #[[IM]]> -> tensor<128x64xbf16, #[[IA]]>
// CHECK: tpxgpu.warp_group_dot %[[PR]], %{{.*}}, %{{.*}} : tensor<128x64xbf16, #[[IA]]>, !tpxgpu.memdesc<64x64xbf16, #{{.*}}> -> tensor<128x64xf32, #[[IM]]>
module {
  tt.func public @chain_through_if(%h: bf16, %v: tensor<64x64xbf16>, %c0: i1, %lo: f32) -> tensor<128x64xf32> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %x = tt.splat %h : bf16 -> tensor<128x32xbf16>
    %y = tt.splat %h : bf16 -> tensor<32x64xbf16>
    %s = tt.dot %x, %y, %c : tensor<128x32xbf16> * tensor<32x64xbf16> -> tensor<128x64xf32>
    %m = scf.if %c0 -> (tensor<128x64xf32>) {
      %l = tt.splat %lo : f32 -> tensor<128x64xf32>
      %t = arith.maxnumf %s, %l : tensor<128x64xf32>
      scf.yield %t : tensor<128x64xf32>
    } else {
      scf.yield %s : tensor<128x64xf32>
    }
    %e = math.exp2 %m : tensor<128x64xf32>
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

// -----

// tf32 (f32 operands, inputPrecision = tf32): FMA layouts before, k8
// instructions after. Only f16/bf16 wgmma transposes an operand, so B is
// staged K-major (transposed nvmma) although its registers run along N; a
// 32-deep K of f32 is 128 bytes, the 128-byte swizzle for both.
// CHECK-DAG: #[[MMA:.*]] = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 8]}>
// CHECK-DAG: #[[SA:.*]] = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[SB:.*]] = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
// CHECK-LABEL: tt.func public @tf32
// CHECK: %[[A:.*]] = tpxgpu.local_alloc %{{.*}} : tensor<128x32xf32, #{{.*}}> -> !tpxgpu.memdesc<128x32xf32, #[[SA]]>
// CHECK: %[[B:.*]] = tpxgpu.local_alloc %{{.*}} : tensor<32x128xf32, #{{.*}}> -> !tpxgpu.memdesc<32x128xf32, #[[SB]]>
// CHECK: tpxgpu.fence_async_shared
// CHECK: tpxgpu.warp_group_dot %[[A]], %[[B]], %{{.*}} inputPrecision = tf32 : !tpxgpu.memdesc<128x32xf32, #[[SA]]>, !tpxgpu.memdesc<32x128xf32, #[[SB]]> -> tensor<128x128xf32, #[[MMA]]>
// CHECK-NOT: tt.dot
module {
  tt.func public @tf32(%h: f32) -> tensor<128x128xf32> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %x = tt.splat %h : f32 -> tensor<128x32xf32>
    %y = tt.splat %h : f32 -> tensor<32x128xf32>
    %d = tt.dot %x, %y, %c, inputPrecision = tf32 : tensor<128x32xf32> * tensor<32x128xf32> -> tensor<128x128xf32>
    tt.return %d : tensor<128x128xf32>
  }
}

// -----

// e4m3 x e4m3 into f32: k32 instructions; a 64-deep K of bytes is the
// 64-byte swizzle, B K-major.
// CHECK-DAG: #[[MMA:.*]] = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 32]}>
// CHECK-DAG: #[[SA:.*]] = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[SB:.*]] = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: tt.func public @e4m3
// CHECK: %[[A:.*]] = tpxgpu.local_alloc %{{.*}} : tensor<128x64xf8E4M3FN, #{{.*}}> -> !tpxgpu.memdesc<128x64xf8E4M3FN, #[[SA]]>
// CHECK: %[[B:.*]] = tpxgpu.local_alloc %{{.*}} : tensor<64x128xf8E4M3FN, #{{.*}}> -> !tpxgpu.memdesc<64x128xf8E4M3FN, #[[SB]]>
// CHECK: tpxgpu.warp_group_dot %[[A]], %[[B]], %{{.*}} : !tpxgpu.memdesc<128x64xf8E4M3FN, #[[SA]]>, !tpxgpu.memdesc<64x128xf8E4M3FN, #[[SB]]> -> tensor<128x128xf32, #[[MMA]]>
// CHECK-NOT: tt.dot
module {
  tt.func public @e4m3(%x: tensor<128x64xf8E4M3FN>, %y: tensor<64x128xf8E4M3FN>) -> tensor<128x128xf32> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %d = tt.dot %x, %y, %c : tensor<128x64xf8E4M3FN> * tensor<64x128xf8E4M3FN> -> tensor<128x128xf32>
    tt.return %d : tensor<128x128xf32>
  }
}

// -----

// The two fp8 formats mix (e5m2 A, e4m3 B); a 128-deep K is the 128-byte
// swizzle (128 elements of a byte).
// CHECK-DAG: #[[MMA:.*]] = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 32]}>
// CHECK-DAG: #[[SA:.*]] = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[SB:.*]] = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: tt.func public @e5m2_e4m3
// CHECK: tpxgpu.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : !tpxgpu.memdesc<128x128xf8E5M2, #[[SA]]>, !tpxgpu.memdesc<128x128xf8E4M3FN, #[[SB]]> -> tensor<128x128xf32, #[[MMA]]>
// CHECK-NOT: tt.dot
module {
  tt.func public @e5m2_e4m3(%x: tensor<128x128xf8E5M2>, %y: tensor<128x128xf8E4M3FN>) -> tensor<128x128xf32> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %d = tt.dot %x, %y, %c : tensor<128x128xf8E5M2> * tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>
    tt.return %d : tensor<128x128xf32>
  }
}

// -----

// i8 x i8 into i32 (signed): k32, B K-major, a 32-byte swizzle for K = 32.
// CHECK-DAG: #[[MMA:.*]] = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 32]}>
// CHECK-DAG: #[[SA:.*]] = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[SB:.*]] = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: tt.func public @i8
// CHECK: %[[A:.*]] = tpxgpu.local_alloc %{{.*}} : tensor<128x32xi8, #{{.*}}> -> !tpxgpu.memdesc<128x32xi8, #[[SA]]>
// CHECK: %[[B:.*]] = tpxgpu.local_alloc %{{.*}} : tensor<32x128xi8, #{{.*}}> -> !tpxgpu.memdesc<32x128xi8, #[[SB]]>
// CHECK: tpxgpu.warp_group_dot %[[A]], %[[B]], %{{.*}} : !tpxgpu.memdesc<128x32xi8, #[[SA]]>, !tpxgpu.memdesc<32x128xi8, #[[SB]]> -> tensor<128x128xi32, #[[MMA]]>
// CHECK-NOT: tt.dot
module {
  tt.func public @i8(%x: tensor<128x32xi8>, %y: tensor<32x128xi8>) -> tensor<128x128xi32> {
    %c = arith.constant dense<0> : tensor<128x128xi32>
    %d = tt.dot %x, %y, %c : tensor<128x32xi8> * tensor<32x128xi8> -> tensor<128x128xi32>
    tt.return %d : tensor<128x128xi32>
  }
}

// -----

// A tf32 dot fed by another (f32 attention): the second dot's A stays in
// registers, one f32 per register (kWidth = 1).
// CHECK-DAG: #[[M64:.*]] = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 8]}>
// CHECK-DAG: #[[PA:.*]] = #tpxgpu.dot_op<{opIdx = 0, parent = #[[M64]], kWidth = 1}>
// CHECK-LABEL: tt.func public @tf32_chain
// CHECK: %[[S:.*]] = tpxgpu.warp_group_dot {{.*}} -> tensor<128x64xf32, #[[M64]]>
// CHECK: %[[P:.*]] = tpxgpu.convert_layout %[[S]] : tensor<128x64xf32, #[[M64]]> -> tensor<128x64xf32, #[[PA]]>
// CHECK: tpxgpu.warp_group_dot %[[P]], %{{.*}}, %{{.*}} inputPrecision = tf32 : tensor<128x64xf32, #[[PA]]>, !tpxgpu.memdesc<64x64xf32, #{{.*}}> -> tensor<128x64xf32, #[[M64]]>
module {
  tt.func public @tf32_chain(%x: tensor<128x32xf32>, %y: tensor<32x64xf32>, %v: tensor<64x64xf32>) -> tensor<128x64xf32> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %s = tt.dot %x, %y, %c, inputPrecision = tf32 : tensor<128x32xf32> * tensor<32x64xf32> -> tensor<128x64xf32>
    %o = tt.dot %s, %v, %c, inputPrecision = tf32 : tensor<128x64xf32> * tensor<64x64xf32> -> tensor<128x64xf32>
    tt.return %o : tensor<128x64xf32>
  }
}

// -----

// What stays off wgmma: f32 dots without tf32 (ieee is exact) and fp8
// into f16 (its operands widened to f16 by convert-tt-to-tpxgpu, exactly,
// for mma.sync). f16 x fp8 has the fp8 operand widened too and then runs
// on wgmma as f16 x f16.
// CHECK-LABEL: tt.func public @keeps_fma
// CHECK-NOT: warp_group_dot
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #{{.*}}>
// CHECK: tt.fp_to_fp %{{.*}} : tensor<32x64xf8E4M3FN, #{{.*}}> -> tensor<32x64xf16, #{{.*}}>
// CHECK: tpxgpu.warp_group_dot {{.*}} !tpxgpu.memdesc<64x32xf16, {{.*}}>, !tpxgpu.memdesc<32x64xf16, {{.*}}> -> tensor<64x64xf32, #{{.*}}>
// CHECK-NOT: warp_group_dot
// CHECK: tt.dot {{.*}} -> tensor<64x64xf16, #{{.*}}>
// CHECK-NOT: warp_group_dot
module {
  tt.func public @keeps_fma(%x: tensor<64x32xf32>, %y: tensor<32x64xf32>, %h: tensor<64x32xf16>, %q: tensor<32x64xf8E4M3FN>, %p: tensor<64x32xf8E4M3FN>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf16>) {
    %c = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c16 = arith.constant dense<0.000000e+00> : tensor<64x64xf16>
    %d = tt.dot %x, %y, %c : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    %e = tt.dot %h, %q, %c : tensor<64x32xf16> * tensor<32x64xf8E4M3FN> -> tensor<64x64xf32>
    %f = tt.dot %p, %q, %c16 : tensor<64x32xf8E4M3FN> * tensor<32x64xf8E4M3FN> -> tensor<64x64xf16>
    tt.return %d, %e, %f : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf16>
  }
}
