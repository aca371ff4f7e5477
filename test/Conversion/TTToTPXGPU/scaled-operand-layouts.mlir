// dot_scaled's decomposition multiplies a loaded operand by its scales,
// broadcast along K (expand_dims / broadcast / reshape, transposed for the
// rhs). The multiply meets in the loaded operand's layout (the scales are
// the broadcast), and tpxgpu-remove-layout-conversions recomputes the
// scale chain in that layout -- reshape and trans as register renamings --
// so the only conversion is of the small 128x4 scale tensor, never of the
// 128x128 operand.
// The rhs [K, N] load keeps each thread's rows in one 32-row scale group
// (4 consecutive rows, not 4 rows 32 apart: ScaleGroups.h), so its scales
// are 16 a thread instead of 64; the lhs already holds 16 elements of K.
// RUN: tpx-opt %s --tpxgpu-decompose-scaled-dots --convert-tt-to-tpxgpu=num-warps=8 --canonicalize --tpxgpu-remove-layout-conversions --canonicalize -mlir-print-debuginfo=false | FileCheck %s

// CHECK-DAG: #[[LHS:[a-z0-9_]+]] = #tpxgpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-DAG: #[[RHS:[a-z0-9_]+]] = #tpxgpu.blocked<{sizePerThread = [4, 16], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @scaled_operands
// CHECK: tt.load %{{.*}} : tensor<128x128x!tt.ptr<f8E4M3FN>, #[[LHS]]>
// CHECK: tt.load %{{.*}} : tensor<128x128x!tt.ptr<f8E4M3FN>, #[[RHS]]>
// CHECK-NOT: tpxgpu.convert_layout %{{.*}} : tensor<128x128x{{bf16|f8E4M3FN}}
// CHECK: tpxgpu.convert_layout %{{.*}} : tensor<128x4x{{i16|bf16}}, #{{[a-z0-9_]+}}> -> tensor<128x4x{{i16|bf16}}, #slice{{[0-9]*}}>
// CHECK-NOT: tpxgpu.convert_layout %{{.*}} : tensor<128x128x{{bf16|f8E4M3FN}}
// CHECK: tt.reshape %{{.*}} : tensor<128x4x32xbf16, #{{[a-z0-9_]+}}> -> tensor<128x128xbf16, #[[LHS]]>
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<128x128xbf16, #[[LHS]]>
// CHECK-NOT: tpxgpu.convert_layout %{{.*}} : tensor<128x128x{{bf16|f8E4M3FN}}
// CHECK: tpxgpu.convert_layout %{{.*}} : tensor<128x4x{{i16|bf16}}, #{{[a-z0-9_]+}}> -> tensor<128x4x{{i16|bf16}}, #slice{{[0-9]*}}>
// CHECK-NOT: tpxgpu.convert_layout %{{.*}} : tensor<128x128x{{bf16|f8E4M3FN}}
// CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<128x128xbf16, #{{[a-z0-9_]+}}> -> tensor<128x128xbf16, #[[RHS]]>
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<128x128xbf16, #[[RHS]]>
// The bf16 operands' only conversions are into the dot's operand layouts.
// CHECK-NOT: tpxgpu.convert_layout %{{.*}} : tensor<128x128x{{bf16|f8E4M3FN}}
// CHECK: tpxgpu.convert_layout %{{.*}} : tensor<128x128xbf16, #[[LHS]]> -> tensor<128x128xbf16, #dot_op>
// CHECK: tpxgpu.convert_layout %{{.*}} : tensor<128x128xbf16, #[[RHS]]> -> tensor<128x128xbf16, #dot_op1>
module {
  tt.func public @scaled_operands(%pa: tensor<128x128x!tt.ptr<f8E4M3FN>>, %pb: tensor<128x128x!tt.ptr<f8E4M3FN>>, %psa: tensor<128x4x!tt.ptr<i8>>, %psb: tensor<128x4x!tt.ptr<i8>>, %out: tensor<128x128x!tt.ptr<f32>>) {
    %a = tt.load %pa : tensor<128x128x!tt.ptr<f8E4M3FN>>
    %b = tt.load %pb : tensor<128x128x!tt.ptr<f8E4M3FN>>
    %sa = tt.load %psa : tensor<128x4x!tt.ptr<i8>>
    %sb = tt.load %psb : tensor<128x4x!tt.ptr<i8>>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %d = tt.dot_scaled %a scale %sa, %b scale %sb, %z lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x128xf8E4M3FN>, tensor<128x4xi8> * tensor<128x128xf8E4M3FN>, tensor<128x4xi8> -> tensor<128x128xf32>
    tt.store %out, %d : tensor<128x128x!tt.ptr<f32>>
    tt.return
  }
}
