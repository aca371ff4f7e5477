// tt.dot: A and B in dot_op layouts of an mma.sync (version 2) accumulator,
// the accumulator converted in, the result converted back to the default
// blocked layout. Warps split between M and N; tiles without whole 16x8
// fragments fall back to a blocked-parent (FMA) dot.
// RUN: tpx-opt %s -split-input-file --convert-tt-to-tpxgpu="num-warps=4" -mlir-print-debuginfo=false | FileCheck %s --check-prefix=W4
// RUN: tpx-opt %s -split-input-file --convert-tt-to-tpxgpu="num-warps=8" -mlir-print-debuginfo=false | FileCheck %s --check-prefix=W8

// W4-DAG: #[[ACC:.*]] = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// W4-DAG: #[[A:.*]] = #tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// W4-DAG: #[[B:.*]] = #tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// W4: #[[MMA:.*]] = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// W4: #[[DA:.*]] = #tpxgpu.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>
// W4: #[[DB:.*]] = #tpxgpu.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>
// W4-LABEL: tt.func public @mma
// W4: %[[C:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #[[ACC]]>
// W4: %[[X:.*]] = tt.splat %{{.*}} : f16 -> tensor<64x32xf16, #[[A]]>
// W4: %[[Y:.*]] = tt.splat %{{.*}} : f16 -> tensor<32x64xf16, #[[B]]>
// W4: %[[XA:.*]] = tpxgpu.convert_layout %[[X]] : tensor<64x32xf16, #[[A]]> -> tensor<64x32xf16, #[[DA]]>
// W4: %[[YB:.*]] = tpxgpu.convert_layout %[[Y]] : tensor<32x64xf16, #[[B]]> -> tensor<32x64xf16, #[[DB]]>
// W4: %[[CM:.*]] = tpxgpu.convert_layout %[[C]] : tensor<64x64xf32, #[[ACC]]> -> tensor<64x64xf32, #[[MMA]]>
// W4: %[[D:.*]] = tt.dot %[[XA]], %[[YB]], %[[CM]] : tensor<64x32xf16, #[[DA]]> * tensor<32x64xf16, #[[DB]]> -> tensor<64x64xf32, #[[MMA]]>
// W4: %[[DC:.*]] = tpxgpu.convert_layout %[[D]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #[[ACC]]>
// W4: arith.truncf %[[DC]] : tensor<64x64xf32, #[[ACC]]> to tensor<64x64xf16, #{{.*}}>

// W8: #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
module {
  tt.func public @mma(%h: f16) -> tensor<64x64xf16> {
    %c = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %x = tt.splat %h : f16 -> tensor<64x32xf16>
    %y = tt.splat %h : f16 -> tensor<32x64xf16>
    %d = tt.dot %x, %y, %c : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %t = arith.truncf %d : tensor<64x64xf32> to tensor<64x64xf16>
    tt.return %t : tensor<64x64xf16>
  }
}

// -----

// An 8x8 tile has no whole 16x8 fragment: FMA dot with a blocked parent,
// no kWidth, and the result stays in the blocked layout.
// W4: #[[P:.*]] = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
// W4: #[[FA:.*]] = #tpxgpu.dot_op<{opIdx = 0, parent = #[[P]]}>
// W4: #[[FB:.*]] = #tpxgpu.dot_op<{opIdx = 1, parent = #[[P]]}>
// W4-LABEL: tt.func public @fma
// W4: tpxgpu.convert_layout %{{.*}} -> tensor<8x8xf32, #[[FA]]>
// W4: tpxgpu.convert_layout %{{.*}} -> tensor<8x8xf32, #[[FB]]>
// W4: %[[D:.*]] = tt.dot {{.*}} -> tensor<8x8xf32, #[[P]]>
// W4-NEXT: tt.return %[[D]] : tensor<8x8xf32, #[[P]]>
module {
  tt.func public @fma(%f: f32) -> tensor<8x8xf32> {
    %x = tt.splat %f : f32 -> tensor<8x8xf32>
    %d = tt.dot %x, %x, %x : tensor<8x8xf32> * tensor<8x8xf32> -> tensor<8x8xf32>
    tt.return %d : tensor<8x8xf32>
  }
}

// -----

// Chained dots (a softmax between them, as in attention) put every warp
// along M, so that the first accumulator is the second dot's A operand in
// place; a lone dot of the same shape splits the warps between M and N.
// W4-DAG: #[[CHAINED:mma[0-9]*]] = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// W4-DAG: #[[LONE:mma[0-9]*]] = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// W4-LABEL: tt.func public @chained
// W4: tt.dot {{.*}} -> tensor<64x32xf32, #[[CHAINED]]>
// W4: tt.dot {{.*}} -> tensor<64x32xf32, #[[CHAINED]]>
// W4-LABEL: tt.func public @lone
// W4: tt.dot {{.*}} -> tensor<64x32xf32, #[[LONE]]>
// W8-DAG: #[[CHAINED8:mma[0-9]*]] = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
// W8-LABEL: tt.func public @chained
// W8: tt.dot {{.*}} -> tensor<64x32xf32, #[[CHAINED8]]>
module {
  tt.func public @chained(%q: tensor<64x16xf16>, %k: tensor<16x32xf16>, %v: tensor<32x32xf16>, %p: tensor<64x32x!tt.ptr<f32>>) {
    %zero = arith.constant dense<0.0> : tensor<64x32xf32>
    %s = tt.dot %q, %k, %zero : tensor<64x16xf16> * tensor<16x32xf16> -> tensor<64x32xf32>
    %e = math.exp %s : tensor<64x32xf32>
    %h = arith.truncf %e : tensor<64x32xf32> to tensor<64x32xf16>
    %o = tt.dot %h, %v, %zero : tensor<64x32xf16> * tensor<32x32xf16> -> tensor<64x32xf32>
    tt.store %p, %o : tensor<64x32x!tt.ptr<f32>>
    tt.return
  }
  tt.func public @lone(%q: tensor<64x16xf16>, %k: tensor<16x32xf16>, %p: tensor<64x32x!tt.ptr<f32>>) {
    %zero = arith.constant dense<0.0> : tensor<64x32xf32>
    %s = tt.dot %q, %k, %zero : tensor<64x16xf16> * tensor<16x32xf16> -> tensor<64x32xf32>
    tt.store %p, %s : tensor<64x32x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// wgmma cannot run a 32x32 fp8 tile on 4 warps (M is less than one warp
// group's 64 rows): the operands are widened to f16, exactly, and the dot
// runs on mma.sync like any f16 dot.
// W4-LABEL: tt.func public @fp8_off_wgmma
// W4: %[[A:.*]] = tt.fp_to_fp %{{.*}} : tensor<32x32xf8E4M3FN, #{{.*}}> -> tensor<32x32xf16, #{{.*}}>
// W4: %[[B:.*]] = tt.fp_to_fp %{{.*}} : tensor<32x32xf8E5M2, #{{.*}}> -> tensor<32x32xf16, #{{.*}}>
// W4: tt.dot {{.*}} : tensor<32x32xf16, #dot_op{{[0-9]*}}> * tensor<32x32xf16, #dot_op{{[0-9]*}}> -> tensor<32x32xf32, #mma
module {
  tt.func public @fp8_off_wgmma(%a: tensor<32x32xf8E4M3FN>, %b: tensor<32x32xf8E5M2>, %p: tensor<32x32x!tt.ptr<f32>>) {
    %zero = arith.constant dense<0.0> : tensor<32x32xf32>
    %d = tt.dot %a, %b, %zero : tensor<32x32xf8E4M3FN> * tensor<32x32xf8E5M2> -> tensor<32x32xf32>
    tt.store %p, %d : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}
