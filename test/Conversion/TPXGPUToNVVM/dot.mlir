// tt.dot to mma.sync.m16n8k16 (nvidia_mma v2 accumulators, f16/bf16
// operands) or to per-thread multiply-adds (blocked accumulators). Each case
// is a noinline private function so that the dot's register structs are its
// arguments and result. Operand layouts are those convert-tt-to-tpxgpu picks
// for 4 warps.
// RUN: tpx-opt %s -split-input-file -verify-diagnostics --convert-tpxgpu-to-nvvm -mlir-print-debuginfo=false | FileCheck %s

// 64x64x32 f16 -> f32 (as in a 64x64 matmul tile). Warps [2, 2] leave each
// warp 64 / (16 * 2) = 2 tiles along M and 64 / (8 * 2) = 4 along N, and K
// = 32 is 2 steps: 2 * 4 * 2 = 16 mma.sync per thread.
// CHECK-LABEL: llvm.func internal @mma_f16(
// CHECK-SAME: !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16)>
// CHECK: llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK-COUNT-16: llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"
// CHECK-NOT: mma.sync
// CHECK: llvm.return
#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#db = #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @mma_f16(%a: tensor<64x32xf16, #da>, %b: tensor<32x64xf16, #db>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {noinline = true} {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf16, #da> * tensor<32x64xf16, #db> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// The same tile in bf16: the .bf16 variant, operands packed as bf16 pairs.
// CHECK-LABEL: llvm.func internal @mma_bf16(
// CHECK: llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK-COUNT-16: llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"
// CHECK-NOT: mma.sync
// CHECK: llvm.return
#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#db = #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @mma_bf16(%a: tensor<64x32xbf16, #da>, %b: tensor<32x64xbf16, #db>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {noinline = true} {
    %d = tt.dot %a, %b, %c : tensor<64x32xbf16, #da> * tensor<32x64xbf16, #db> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// Register wiring of one 16x8 tile over two K steps (the 4 warps replicate
// it). Register r of A holds (8 * bit1, bit0 + 8 * bit2 + 16 * bit3), i.e.
// a0..a7 of step r / 8; B's register r holds (bit0 + 8 * bit1 + 16 * bit2, 0),
// b0..b3 of step r / 4; C's c0..c3 are registers 0..3. Pairs are packed low
// element first, and the second step accumulates onto the first's results.
// CHECK-LABEL: llvm.func internal @wiring(
// CHECK-DAG: %[[A0:.*]] = llvm.extractvalue %arg0[0] :
// CHECK-DAG: %[[A1:.*]] = llvm.extractvalue %arg0[1] :
// CHECK-DAG: %[[A2:.*]] = llvm.extractvalue %arg0[2] :
// CHECK-DAG: %[[A3:.*]] = llvm.extractvalue %arg0[3] :
// CHECK-DAG: %[[A4:.*]] = llvm.extractvalue %arg0[4] :
// CHECK-DAG: %[[A5:.*]] = llvm.extractvalue %arg0[5] :
// CHECK-DAG: %[[A6:.*]] = llvm.extractvalue %arg0[6] :
// CHECK-DAG: %[[A7:.*]] = llvm.extractvalue %arg0[7] :
// CHECK-DAG: %[[A8:.*]] = llvm.extractvalue %arg0[8] :
// CHECK-DAG: %[[A9:.*]] = llvm.extractvalue %arg0[9] :
// CHECK-DAG: %[[A10:.*]] = llvm.extractvalue %arg0[10] :
// CHECK-DAG: %[[A11:.*]] = llvm.extractvalue %arg0[11] :
// CHECK-DAG: %[[A12:.*]] = llvm.extractvalue %arg0[12] :
// CHECK-DAG: %[[A13:.*]] = llvm.extractvalue %arg0[13] :
// CHECK-DAG: %[[A14:.*]] = llvm.extractvalue %arg0[14] :
// CHECK-DAG: %[[A15:.*]] = llvm.extractvalue %arg0[15] :
// CHECK-DAG: %[[B0:.*]] = llvm.extractvalue %arg1[0] :
// CHECK-DAG: %[[B1:.*]] = llvm.extractvalue %arg1[1] :
// CHECK-DAG: %[[B2:.*]] = llvm.extractvalue %arg1[2] :
// CHECK-DAG: %[[B3:.*]] = llvm.extractvalue %arg1[3] :
// CHECK-DAG: %[[B4:.*]] = llvm.extractvalue %arg1[4] :
// CHECK-DAG: %[[B5:.*]] = llvm.extractvalue %arg1[5] :
// CHECK-DAG: %[[B6:.*]] = llvm.extractvalue %arg1[6] :
// CHECK-DAG: %[[B7:.*]] = llvm.extractvalue %arg1[7] :
// CHECK-DAG: %[[C0:.*]] = llvm.extractvalue %arg2[0] :
// CHECK-DAG: %[[C1:.*]] = llvm.extractvalue %arg2[1] :
// CHECK-DAG: %[[C2:.*]] = llvm.extractvalue %arg2[2] :
// CHECK-DAG: %[[C3:.*]] = llvm.extractvalue %arg2[3] :
// K step 0: a{0,1}..a{6,7} are A registers 0..7, b{0,1}, b{2,3} B registers 0..3.
// CHECK: %[[PA00L:.*]] = llvm.insertelement %[[A0]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[PA00H:.*]] = llvm.insertelement %[[A1]], %[[PA00L]][%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: %[[PA00:.*]] = llvm.bitcast %[[PA00H]] : vector<2xf16> to i32
// CHECK: %[[PA01L:.*]] = llvm.insertelement %[[A2]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[PA01H:.*]] = llvm.insertelement %[[A3]], %[[PA01L]][%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: %[[PA01:.*]] = llvm.bitcast %[[PA01H]] : vector<2xf16> to i32
// CHECK: %[[PA02L:.*]] = llvm.insertelement %[[A4]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[PA02H:.*]] = llvm.insertelement %[[A5]], %[[PA02L]][%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: %[[PA02:.*]] = llvm.bitcast %[[PA02H]] : vector<2xf16> to i32
// CHECK: %[[PA03L:.*]] = llvm.insertelement %[[A6]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[PA03H:.*]] = llvm.insertelement %[[A7]], %[[PA03L]][%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: %[[PA03:.*]] = llvm.bitcast %[[PA03H]] : vector<2xf16> to i32
// CHECK: %[[PB00L:.*]] = llvm.insertelement %[[B0]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[PB00H:.*]] = llvm.insertelement %[[B1]], %[[PB00L]][%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: %[[PB00:.*]] = llvm.bitcast %[[PB00H]] : vector<2xf16> to i32
// CHECK: %[[PB01L:.*]] = llvm.insertelement %[[B2]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[PB01H:.*]] = llvm.insertelement %[[B3]], %[[PB01L]][%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: %[[PB01:.*]] = llvm.bitcast %[[PB01H]] : vector<2xf16> to i32
// CHECK: %[[M:.*]] = llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f" %[[PA00]], %[[PA01]], %[[PA02]], %[[PA03]], %[[PB00]], %[[PB01]], %[[C0]], %[[C1]], %[[C2]], %[[C3]] :
// CHECK-NEXT: %[[D0:.*]] = llvm.extractvalue %[[M]][0]
// CHECK-NEXT: %[[D1:.*]] = llvm.extractvalue %[[M]][1]
// CHECK-NEXT: %[[D2:.*]] = llvm.extractvalue %[[M]][2]
// CHECK-NEXT: %[[D3:.*]] = llvm.extractvalue %[[M]][3]
// K step 1: a{0,1}..a{6,7} are A registers 8..15, b{0,1}, b{2,3} B registers 4..7.
// CHECK: %[[PA10L:.*]] = llvm.insertelement %[[A8]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[PA10H:.*]] = llvm.insertelement %[[A9]], %[[PA10L]][%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: %[[PA10:.*]] = llvm.bitcast %[[PA10H]] : vector<2xf16> to i32
// CHECK: %[[PA11L:.*]] = llvm.insertelement %[[A10]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[PA11H:.*]] = llvm.insertelement %[[A11]], %[[PA11L]][%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: %[[PA11:.*]] = llvm.bitcast %[[PA11H]] : vector<2xf16> to i32
// CHECK: %[[PA12L:.*]] = llvm.insertelement %[[A12]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[PA12H:.*]] = llvm.insertelement %[[A13]], %[[PA12L]][%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: %[[PA12:.*]] = llvm.bitcast %[[PA12H]] : vector<2xf16> to i32
// CHECK: %[[PA13L:.*]] = llvm.insertelement %[[A14]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[PA13H:.*]] = llvm.insertelement %[[A15]], %[[PA13L]][%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: %[[PA13:.*]] = llvm.bitcast %[[PA13H]] : vector<2xf16> to i32
// CHECK: %[[PB10L:.*]] = llvm.insertelement %[[B4]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[PB10H:.*]] = llvm.insertelement %[[B5]], %[[PB10L]][%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: %[[PB10:.*]] = llvm.bitcast %[[PB10H]] : vector<2xf16> to i32
// CHECK: %[[PB11L:.*]] = llvm.insertelement %[[B6]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[PB11H:.*]] = llvm.insertelement %[[B7]], %[[PB11L]][%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: %[[PB11:.*]] = llvm.bitcast %[[PB11H]] : vector<2xf16> to i32
// CHECK: %[[N:.*]] = llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f" %[[PA10]], %[[PA11]], %[[PA12]], %[[PA13]], %[[PB10]], %[[PB11]], %[[D0]], %[[D1]], %[[D2]], %[[D3]] :
// CHECK-NEXT: %[[E0:.*]] = llvm.extractvalue %[[N]][0]
// CHECK-NEXT: %[[E1:.*]] = llvm.extractvalue %[[N]][1]
// CHECK-NEXT: %[[E2:.*]] = llvm.extractvalue %[[N]][2]
// CHECK-NEXT: %[[E3:.*]] = llvm.extractvalue %[[N]][3]
// CHECK: llvm.insertvalue %[[E0]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[E1]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[E2]], %{{.*}}[2]
// CHECK: llvm.insertvalue %[[E3]], %{{.*}}[3]
#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#da = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#db = #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @wiring(%a: tensor<16x32xf16, #da>, %b: tensor<32x8xf16, #db>, %c: tensor<16x8xf32, #mma>) -> tensor<16x8xf32, #mma> attributes {noinline = true} {
    %d = tt.dot %a, %b, %c : tensor<16x32xf16, #da> * tensor<32x8xf16, #db> -> tensor<16x8xf32, #mma>
    tt.return %d : tensor<16x8xf32, #mma>
  }
}

// -----

// f16 accumulation: c and d travel as two f16x2 registers, {c0, c1} and
// {c2, c3}.
// CHECK-LABEL: llvm.func internal @acc_f16(
// CHECK-DAG: %[[C0:.*]] = llvm.extractvalue %arg2[0] :
// CHECK-DAG: %[[C1:.*]] = llvm.extractvalue %arg2[1] :
// CHECK-DAG: %[[C2:.*]] = llvm.extractvalue %arg2[2] :
// CHECK-DAG: %[[C3:.*]] = llvm.extractvalue %arg2[3] :
// CHECK: llvm.insertelement %[[C0]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: llvm.insertelement %[[C1]],
// CHECK-NEXT: %[[PC0:.*]] = llvm.bitcast
// CHECK: llvm.insertelement %[[C2]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: llvm.insertelement %[[C3]],
// CHECK-NEXT: %[[PC1:.*]] = llvm.bitcast
// CHECK-NEXT: %[[M:.*]] = llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {$0, $1}, {$2, $3, $4, $5}, {$6, $7}, {$8, $9};", "=r,=r,r,r,r,r,r,r,r,r" {{.*}}, %[[PC0]], %[[PC1]] : (i32, i32, i32, i32, i32, i32, i32, i32) -> !llvm.struct<(i32, i32)>
// CHECK-NEXT: %[[W0:.*]] = llvm.extractvalue %[[M]][0]
// CHECK-NEXT: %[[W1:.*]] = llvm.extractvalue %[[M]][1]
// CHECK-NEXT: %[[V0:.*]] = llvm.bitcast %[[W0]] : i32 to vector<2xf16>
// CHECK-NEXT: %[[I0:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-NEXT: %[[D0:.*]] = llvm.extractelement %[[V0]][%[[I0]] : i32]
// CHECK-NEXT: %[[I1:.*]] = llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[D1:.*]] = llvm.extractelement %[[V0]][%[[I1]] : i32]
// CHECK-NEXT: %[[V1:.*]] = llvm.bitcast %[[W1]] : i32 to vector<2xf16>
// CHECK-NEXT: %[[I2:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-NEXT: %[[D2:.*]] = llvm.extractelement %[[V1]][%[[I2]] : i32]
// CHECK-NEXT: %[[I3:.*]] = llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[D3:.*]] = llvm.extractelement %[[V1]][%[[I3]] : i32]
// CHECK: llvm.insertvalue %[[D0]], %{{.*}}[0]
// CHECK-NEXT: llvm.insertvalue %[[D1]], %{{.*}}[1]
// CHECK-NEXT: llvm.insertvalue %[[D2]], %{{.*}}[2]
// CHECK-NEXT: llvm.insertvalue %[[D3]], %{{.*}}[3]
#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#da = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#db = #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @acc_f16(%a: tensor<16x16xf16, #da>, %b: tensor<16x8xf16, #db>, %c: tensor<16x8xf16, #mma>) -> tensor<16x8xf16, #mma> attributes {noinline = true} {
    %d = tt.dot %a, %b, %c : tensor<16x16xf16, #da> * tensor<16x8xf16, #db> -> tensor<16x8xf16, #mma>
    tt.return %d : tensor<16x8xf16, #mma>
  }
}

// -----

// f32 FMA dot, 32x32x16: the blocked layout gives each thread 8 accumulator
// elements, each a chain of 16 llvm.intr.fma. A's and B's lowest register
// bits step along K, so element (0, 0) chains A registers 0, 1, ... with B
// registers 0, 1, ...
// CHECK-LABEL: llvm.func internal @fma_f32(
// CHECK-DAG: %[[A0:.*]] = llvm.extractvalue %arg0[0] :
// CHECK-DAG: %[[A1:.*]] = llvm.extractvalue %arg0[1] :
// CHECK-DAG: %[[B0:.*]] = llvm.extractvalue %arg1[0] :
// CHECK-DAG: %[[B1:.*]] = llvm.extractvalue %arg1[1] :
// CHECK-DAG: %[[C0:.*]] = llvm.extractvalue %arg2[0] :
// CHECK: %[[F0:.*]] = llvm.intr.fma(%[[A0]], %[[B0]], %[[C0]]) : (f32, f32, f32) -> f32
// CHECK-NEXT: llvm.intr.fma(%[[A1]], %[[B1]], %[[F0]]) : (f32, f32, f32) -> f32
// CHECK-COUNT-126: llvm.intr.fma
// CHECK-NOT: llvm.intr.fma
// CHECK: llvm.return
#blocked = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#fa = #tpxgpu.dot_op<{opIdx = 0, parent = #blocked}>
#fb = #tpxgpu.dot_op<{opIdx = 1, parent = #blocked}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @fma_f32(%a: tensor<32x16xf32, #fa>, %b: tensor<16x32xf32, #fb>, %c: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked> attributes {noinline = true} {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<32x16xf32, #fa> * tensor<16x32xf32, #fb> -> tensor<32x32xf32, #blocked>
    tt.return %d : tensor<32x32xf32, #blocked>
  }
}

// -----

// Integer FMA dot: sign-extend, multiply, add. The layout is wider than the
// 8x2 tile, so registers 2 and 3 of C repeat 0 and 1 (a zero basis) and must
// get the same values.
// CHECK-LABEL: llvm.func internal @fma_i8_replicated(
// CHECK: %[[X:.*]] = llvm.sext %{{.*}} : i8 to i32
// CHECK-NEXT: %[[Y:.*]] = llvm.sext %{{.*}} : i8 to i32
// CHECK-NEXT: %[[P:.*]] = llvm.mul %[[X]], %[[Y]] : i32
// CHECK-NEXT: %[[S0:.*]] = llvm.add %[[P]], %{{.*}} : i32
// CHECK: %[[R0:.*]] = llvm.add %{{.*}}, %[[S0]] : i32
// CHECK: %[[S1:.*]] = llvm.add %{{.*}}, %{{.*}} : i32
// CHECK: %[[R1:.*]] = llvm.add %{{.*}}, %[[S1]] : i32
// CHECK-NEXT: llvm.mlir.undef
// CHECK: llvm.insertvalue %[[R0]], %{{.*}}[0]
// CHECK-NEXT: llvm.insertvalue %[[R1]], %{{.*}}[1]
// CHECK-NEXT: llvm.insertvalue %[[R0]], %{{.*}}[2]
// CHECK-NEXT: llvm.insertvalue %[[R1]], %{{.*}}[3]
#blocked = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#fa = #tpxgpu.dot_op<{opIdx = 0, parent = #blocked}>
#fb = #tpxgpu.dot_op<{opIdx = 1, parent = #blocked}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @fma_i8_replicated(%a: tensor<8x2xi8, #fa>, %b: tensor<2x2xi8, #fb>, %c: tensor<8x2xi32, #blocked>) -> tensor<8x2xi32, #blocked> attributes {noinline = true} {
    %d = tt.dot %a, %b, %c : tensor<8x2xi8, #fa> * tensor<2x2xi8, #fb> -> tensor<8x2xi32, #blocked>
    tt.return %d : tensor<8x2xi32, #blocked>
  }
}

// -----

#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#da = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#db = #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @mma_k8(%a: tensor<16x8xf16, #da>, %b: tensor<8x8xf16, #db>, %c: tensor<16x8xf32, #mma>) -> tensor<16x8xf32, #mma> attributes {noinline = true} {
    // expected-error @+2 {{cannot lower tt.dot: K = 8 is not a multiple of 16 (the K of one mma.sync.m16n8k16)}}
    // expected-error @+1 {{failed to legalize operation 'tt.dot'}}
    %d = tt.dot %a, %b, %c : tensor<16x8xf16, #da> * tensor<8x8xf16, #db> -> tensor<16x8xf32, #mma>
    tt.return %d : tensor<16x8xf32, #mma>
  }
}

// -----

#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#da = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#db = #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @mma_bf16_f16_acc(%a: tensor<16x16xbf16, #da>, %b: tensor<16x8xbf16, #db>, %c: tensor<16x8xf16, #mma>) -> tensor<16x8xf16, #mma> attributes {noinline = true} {
    // expected-error @+2 {{cannot lower tt.dot: mma.sync accumulates 'bf16' products in f32, got an 'f16' accumulator}}
    // expected-error @+1 {{failed to legalize operation 'tt.dot'}}
    %d = tt.dot %a, %b, %c : tensor<16x16xbf16, #da> * tensor<16x8xbf16, #db> -> tensor<16x8xf16, #mma>
    tt.return %d : tensor<16x8xf16, #mma>
  }
}

// -----

#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#other = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #tpxgpu.dot_op<{opIdx = 0, parent = #other, kWidth = 2}>
#db = #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @mma_other_parent(%a: tensor<16x16xf16, #da>, %b: tensor<16x8xf16, #db>, %c: tensor<16x8xf32, #mma>) -> tensor<16x8xf32, #mma> attributes {noinline = true} {
    // expected-error @+2 {{A and B must be in #tpxgpu.dot_op layouts (opIdx 0 and 1, kWidth 2) of it}}
    // expected-error @+1 {{failed to legalize operation 'tt.dot'}}
    %d = tt.dot %a, %b, %c : tensor<16x16xf16, #da> * tensor<16x8xf16, #db> -> tensor<16x8xf32, #mma>
    tt.return %d : tensor<16x8xf32, #mma>
  }
}
