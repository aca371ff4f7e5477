// RUN: tpx-opt %s -split-input-file --convert-tpxgpu-to-nvvm --canonicalize -mlir-print-debuginfo=false | FileCheck %s

// tt.fp_to_fp per register (FloatConversionPatterns.cpp): fp8 (i8
// registers) up through cvt.rn.f16x2 (and on to bf16 with one exact
// cvt.rn.bf16.f16), down with cvt.rn.satfinite from f16
// or f32 (bf16 widens first); round-toward-zero narrowing from f32 with
// cvt.rz.

#b = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: llvm.func internal @fp8_up
// CHECK: llvm.zext %{{.*}} : i8 to i16
// CHECK: llvm.inline_asm "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h"
// CHECK: llvm.trunc %{{.*}} : i32 to i16
// CHECK: llvm.bitcast %{{.*}} : i16 to f16
// CHECK: llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.inline_asm "cvt.rn.f16x2.e5m2x2 $0, $1;", "=r,h"
// CHECK: llvm.inline_asm "cvt.rn.bf16.f16 $0, $1;", "=h,h"
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @fp8_up(%a: tensor<128xf8E4M3FN, #b>, %b: tensor<128xf8E5M2, #b>) -> tensor<128xf32, #b> {
    %x = tt.fp_to_fp %a : tensor<128xf8E4M3FN, #b> -> tensor<128xf32, #b>
    %y = tt.fp_to_fp %b : tensor<128xf8E5M2, #b> -> tensor<128xbf16, #b>
    %z = arith.extf %y : tensor<128xbf16, #b> to tensor<128xf32, #b>
    %s = arith.addf %x, %z : tensor<128xf32, #b>
    tt.return %s : tensor<128xf32, #b>
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: llvm.func internal @f32_to_e4m3
// CHECK: llvm.inline_asm "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f"
// CHECK: llvm.trunc %{{.*}} : i16 to i8
// CHECK-LABEL: llvm.func internal @f16_to_e5m2
// CHECK: llvm.bitcast %{{.*}} : f16 to i16
// CHECK: llvm.inline_asm "cvt.rn.satfinite.e5m2x2.f16x2 $0, $1;", "=h,r"
// CHECK-LABEL: llvm.func internal @bf16_to_e4m3
// CHECK: llvm.fpext %{{.*}} : bf16 to f32
// CHECK: llvm.inline_asm "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;"
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @f32_to_e4m3(%a: tensor<128xf32, #b>) -> tensor<128xf8E4M3FN, #b> {
    %x = tt.fp_to_fp %a, rounding = rtne : tensor<128xf32, #b> -> tensor<128xf8E4M3FN, #b>
    tt.return %x : tensor<128xf8E4M3FN, #b>
  }
  tt.func private @f16_to_e5m2(%h: tensor<128xf16, #b>) -> tensor<128xf8E5M2, #b> {
    %y = tt.fp_to_fp %h, rounding = rtne : tensor<128xf16, #b> -> tensor<128xf8E5M2, #b>
    tt.return %y : tensor<128xf8E5M2, #b>
  }
  tt.func private @bf16_to_e4m3(%g: tensor<128xbf16, #b>) -> tensor<128xf8E4M3FN, #b> {
    %z = tt.fp_to_fp %g, rounding = rtne : tensor<128xbf16, #b> -> tensor<128xf8E4M3FN, #b>
    tt.return %z : tensor<128xf8E4M3FN, #b>
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: llvm.func internal @rtz
// CHECK: llvm.inline_asm "cvt.rz.f16.f32 $0, $1;", "=h,f"
// CHECK-LABEL: llvm.func internal @rtne
// CHECK: llvm.fptrunc %{{.*}} : f32 to bf16
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @rtz(%a: tensor<128xf32, #b>) -> tensor<128xf16, #b> {
    %x = tt.fp_to_fp %a, rounding = rtz : tensor<128xf32, #b> -> tensor<128xf16, #b>
    tt.return %x : tensor<128xf16, #b>
  }
  tt.func private @rtne(%a: tensor<128xf32, #b>) -> tensor<128xbf16, #b> {
    %y = tt.fp_to_fp %a, rounding = rtne : tensor<128xf32, #b> -> tensor<128xbf16, #b>
    tt.return %y : tensor<128xbf16, #b>
  }
}

// -----

// Round-toward-zero to fp8 (cvt has no .rz form for fp8): encoded from f32
// in integer arithmetic, truncating the significand (no rounding carry);
// f16 widens to f32 first.
#b = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: llvm.func internal @rtz_fp8
// CHECK-NOT: cvt.rn.satfinite
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.shrui
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK-LABEL: llvm.func internal @rtz_fp8_f16
// CHECK: llvm.fpext %{{.*}} : f16 to f32
// CHECK: arith.trunci %{{.*}} : i32 to i8
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @rtz_fp8(%a: tensor<128xf32, #b>) -> tensor<128xf8E4M3FN, #b> {
    %x = tt.fp_to_fp %a, rounding = rtz : tensor<128xf32, #b> -> tensor<128xf8E4M3FN, #b>
    tt.return %x : tensor<128xf8E4M3FN, #b>
  }
  tt.func private @rtz_fp8_f16(%h: tensor<128xf16, #b>) -> tensor<128xf8E5M2, #b> {
    %y = tt.fp_to_fp %h, rounding = rtz : tensor<128xf16, #b> -> tensor<128xf8E5M2, #b>
    tt.return %y : tensor<128xf8E5M2, #b>
  }
}
