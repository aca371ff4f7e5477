// RUN: tpx-opt %s -split-input-file --tpxgpu-decompose-scaled-dots -mlir-print-debuginfo=false | FileCheck %s

// e2m1 lhs packed along K: nibbles split (low first), joined and reshaped
// to M x K, decoded to bf16 bits; e4m3 rhs by fp_to_fp to bf16; e8m0
// scales as bf16 exponent fields (s << 7), spread over 32-element groups of
// K (the rhs's transposed to K x N) and multiplied in bf16 (exact but for
// the one rounding of a result below bf16's normal range, which f32
// arithmetic then truncation would round the same); then an ordinary dot.
// CHECK-LABEL: tt.func public @e2m1_e4m3
// CHECK-NOT: tt.dot_scaled
// CHECK: arith.andi %{{.*}} : tensor<16x32xi8>
// CHECK: arith.shrui %{{.*}} : tensor<16x32xi8>
// CHECK: tt.join %{{.*}}, %{{.*}} : tensor<16x32xi8> -> tensor<16x32x2xi8>
// CHECK: tt.reshape %{{.*}} : tensor<16x32x2xi8> -> tensor<16x64xi8>
// CHECK: tt.bitcast %{{.*}} : tensor<16x64xi16> -> tensor<16x64xbf16>
// CHECK: tt.fp_to_fp %{{.*}} : tensor<64x16xf8E4M3FN> -> tensor<64x16xbf16>
// CHECK: arith.shli %{{.*}} : tensor<16x2xi16>
// CHECK: tt.bitcast %{{.*}} : tensor<16x2xi16> -> tensor<16x2xbf16>
// CHECK: tt.broadcast %{{.*}} : tensor<16x2x1xbf16> -> tensor<16x2x32xbf16>
// CHECK: arith.mulf %{{.*}} : tensor<16x64xbf16>
// CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x64xbf16> -> tensor<64x16xbf16>
// CHECK: arith.mulf %{{.*}} : tensor<64x16xbf16>
// CHECK-NOT: arith.truncf
// CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x64xbf16> * tensor<64x16xbf16> -> tensor<16x16xf32>
module {
  tt.func public @e2m1_e4m3(%a: tensor<16x32xi8>, %as: tensor<16x2xi8>, %b: tensor<64x16xf8E4M3FN>, %bs: tensor<16x2xi8>) -> tensor<16x16xf32> {
    %z = arith.constant dense<0.0> : tensor<16x16xf32>
    %d = tt.dot_scaled %a scale %as, %b scale %bs, %z lhs = e2m1 rhs = e4m3 {fastMath = false} : tensor<16x32xi8>, tensor<16x2xi8> * tensor<64x16xf8E4M3FN>, tensor<16x2xi8> -> tensor<16x16xf32>
    tt.return %d : tensor<16x16xf32>
  }
}

// -----

// e2m1 rhs packed along K (dim 0): the pair dimension moves next to K
// before the reshape. Unscaled fp16 x fp16 stays fp16.
// CHECK-LABEL: tt.func public @rhs_packed
// CHECK: tt.join %{{.*}}, %{{.*}} : tensor<32x16xi8> -> tensor<32x16x2xi8>
// CHECK: tt.trans %{{.*}} {order = array<i32: 0, 2, 1>} : tensor<32x16x2xi8> -> tensor<32x2x16xi8>
// CHECK: tt.reshape %{{.*}} : tensor<32x2x16xi8> -> tensor<64x16xi8>
// CHECK: tt.dot %{{.*}} : tensor<16x64xbf16> * tensor<64x16xbf16> -> tensor<16x16xf32>
// CHECK-LABEL: tt.func public @fp16
// CHECK: tt.dot %{{.*}} : tensor<16x64xf16> * tensor<64x16xf16> -> tensor<16x16xf32>
module {
  tt.func public @rhs_packed(%a: tensor<16x64xbf16>, %b: tensor<32x16xi8>) -> tensor<16x16xf32> {
    %z = arith.constant dense<0.0> : tensor<16x16xf32>
    %d = tt.dot_scaled %a, %b, %z lhs = bf16 rhs = e2m1 {fastMath = false} : tensor<16x64xbf16> * tensor<32x16xi8> -> tensor<16x16xf32>
    tt.return %d : tensor<16x16xf32>
  }
  tt.func public @fp16(%a: tensor<16x64xf16>, %b: tensor<64x16xf16>) -> tensor<16x16xf32> {
    %z = arith.constant dense<0.0> : tensor<16x16xf32>
    %d = tt.dot_scaled %a, %b, %z lhs = fp16 rhs = fp16 {fastMath = false} : tensor<16x64xf16> * tensor<64x16xf16> -> tensor<16x16xf32>
    tt.return %d : tensor<16x16xf32>
  }
}
