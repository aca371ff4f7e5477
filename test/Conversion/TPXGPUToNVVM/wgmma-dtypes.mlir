// tpxgpu.warp_group_dot of the non-16-bit wgmma types lowered to inline PTX
// (WarpGroupDotPatterns.cpp): a K step is 32 bytes of operand row (k8 for
// tf32, k32 for fp8 and s8), both operands are read K-major (no
// imm-trans-a/b outside f16/bf16), and s8 has no imm-scale-a/b and an s32
// accumulator. Descriptor constants: LBO 16 >> 4 = 1 (bit 16), SBO 8 * S
// >> 4 (bit 32), the swizzle mode (bits 62-63: 1 = 128 B, 2 = 64 B, 3 = 32
// B).
// RUN: tpx-opt %s -split-input-file -verify-diagnostics --convert-tpxgpu-to-nvvm --canonicalize -mlir-print-debuginfo=false | FileCheck %s

// tf32, 64x64x32 on one warp group: four k8 steps of m64n64k8, each
// advancing both start addresses by 8 * 4 = 32 bytes. 128-byte swizzle:
// (1 << 62) | (64 << 32) | (1 << 16).
// CHECK-LABEL: llvm.func internal @tf32(
// CHECK-DAG: llvm.mlir.constant(4611686293305360384 : i64)
// CHECK-DAG: llvm.mlir.constant(32 : i32)
// CHECK-DAG: llvm.mlir.constant(64 : i32)
// CHECK-DAG: llvm.mlir.constant(96 : i32)
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {$0, {{.*}}, $31}, $32, $33, p, 1, 1;
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
#mma = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#sa = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#sb = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @tf32(%c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {noinline = true} {
    %a = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<64x32xf32, #sa, mutable>
    %b = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 8192 : i64} : !tpxgpu.memdesc<32x64xf32, #sb, mutable>
    %d = tpxgpu.warp_group_dot %a, %b, %c inputPrecision = tf32 : !tpxgpu.memdesc<64x32xf32, #sa, mutable>, !tpxgpu.memdesc<32x64xf32, #sb, mutable> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// tf32 with A in registers (kWidth = 1): per k8 step four f32 registers,
// bit-cast to b32, and no imm-trans-a.
// CHECK-LABEL: llvm.func internal @tf32_registers(
// CHECK-COUNT-4: llvm.bitcast %{{.*}} : f32 to i32
// CHECK: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {$0, {{.*}}, $31}, {$32, $33, $34, $35}, $36, p, 1, 1;
// CHECK-SAME: "=f,{{.*}},=f,r,r,r,r,l,r,0,
// CHECK-COUNT-3: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// CHECK-NOT: wgmma.mma_async
#mma = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#da = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#sb = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @tf32_registers(%a: tensor<64x32xf32, #da>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {noinline = true} {
    %b = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<32x64xf32, #sb, mutable>
    %d = tpxgpu.warp_group_dot %a, %b, %c inputPrecision = tf32 : tensor<64x32xf32, #da>, !tpxgpu.memdesc<32x64xf32, #sb, mutable> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// e4m3 x e5m2 (the formats mix), K = 64: two m64n64k32 steps 32 bytes
// apart. 64-byte swizzle: (2 << 62) | (32 << 32) | (1 << 16).
// CHECK-LABEL: llvm.func internal @e4m3_e5m2(
// CHECK-DAG: llvm.mlir.constant(-9223371899415756800 : i64)
// CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2 {$0, {{.*}}, $31}, $32, $33, p, 1, 1;
// CHECK-NOT: wgmma.mma_async
#mma = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#sa = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#sb = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @e4m3_e5m2(%c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {noinline = true} {
    %a = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<64x64xf8E4M3FN, #sa, mutable>
    %b = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 4096 : i64} : !tpxgpu.memdesc<64x64xf8E5M2, #sb, mutable>
    %d = tpxgpu.warp_group_dot %a, %b, %c : !tpxgpu.memdesc<64x64xf8E4M3FN, #sa, mutable>, !tpxgpu.memdesc<64x64xf8E5M2, #sb, mutable> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// e4m3 x e4m3 with 128-byte rows (K = 128): four k32 steps, the fourth at
// byte 96 of the same swizzled row.
// CHECK-LABEL: llvm.func internal @e4m3(
// CHECK-DAG: llvm.mlir.constant(4611686293305360384 : i64)
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 {$0, {{.*}}, $31}, $32, $33, p, 1, 1;
// CHECK-NOT: wgmma.mma_async
#mma = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#sa = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#sb = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @e4m3(%c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {noinline = true} {
    %a = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<64x128xf8E4M3FN, #sa, mutable>
    %b = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 8192 : i64} : !tpxgpu.memdesc<128x64xf8E4M3FN, #sb, mutable>
    %d = tpxgpu.warp_group_dot %a, %b, %c : !tpxgpu.memdesc<64x128xf8E4M3FN, #sa, mutable>, !tpxgpu.memdesc<128x64xf8E4M3FN, #sb, mutable> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// s8 into s32, K = 32: one m64n64k32.s32.s8.s8 with integer registers and
// only scale-d. 32-byte swizzle: (3 << 62) | (16 << 32) | (1 << 16).
// CHECK-LABEL: llvm.func internal @s8(
// CHECK-DAG: llvm.mlir.constant(-4611685949707845632 : i64)
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {$0, {{.*}}, $31}, $32, $33, p;
// CHECK-SAME: "=r,{{.*}},=r,l,l,r,0,
// CHECK-SAME: -> !llvm.struct<(i32,
// CHECK-NOT: wgmma.mma_async
#mma = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#sa = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
#sb = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @s8(%c: tensor<64x64xi32, #mma>) -> tensor<64x64xi32, #mma> attributes {noinline = true} {
    %a = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<64x32xi8, #sa, mutable>
    %b = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 2048 : i64} : !tpxgpu.memdesc<32x64xi8, #sb, mutable>
    %d = tpxgpu.warp_group_dot %a, %b, %c : !tpxgpu.memdesc<64x32xi8, #sa, mutable>, !tpxgpu.memdesc<32x64xi8, #sb, mutable> -> tensor<64x64xi32, #mma>
    tt.return %d : tensor<64x64xi32, #mma>
  }
}

// -----

// An N-major B has no tf32 form (imm-trans-b is for f16/bf16 only).
#mma = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#sa = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#sb = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @tf32_n_major(%c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {noinline = true} {
    %a = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<64x32xf32, #sa, mutable>
    %b = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 8192 : i64} : !tpxgpu.memdesc<32x64xf32, #sb, mutable>
    // expected-error @+2 {{a tf32 B must be K-major in shared memory (transposed nvmma_shared)}}
    // expected-error @+1 {{failed to legalize operation 'tpxgpu.warp_group_dot'}}
    %d = tpxgpu.warp_group_dot %a, %b, %c inputPrecision = tf32 : !tpxgpu.memdesc<64x32xf32, #sa, mutable>, !tpxgpu.memdesc<32x64xf32, #sb, mutable> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// f32 operands run as tf32 only when the dot asks for it.
#mma = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#sa = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#sb = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @f32_ieee(%c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {noinline = true} {
    %a = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<64x32xf32, #sa, mutable>
    %b = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 8192 : i64} : !tpxgpu.memdesc<32x64xf32, #sb, mutable>
    // expected-error @+2 {{f32 operands run as tf32 only (inputPrecision = tf32)}}
    // expected-error @+1 {{failed to legalize operation 'tpxgpu.warp_group_dot'}}
    %d = tpxgpu.warp_group_dot %a, %b, %c : !tpxgpu.memdesc<64x32xf32, #sa, mutable>, !tpxgpu.memdesc<32x64xf32, #sb, mutable> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}
