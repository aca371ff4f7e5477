// Slice layouts: make_range feeding expand_dims starts in the slice the
// expand_dims needs; expand_dims of anything else converts to that slice;
// broadcast converts its small operand to the default layout of the full
// shape; reduce produces slice<{dim = axis, parent = operand layout}> and
// expand_dims of that slice gives the parent back without a conversion.
// RUN: tpx-opt %s --convert-tt-to-tpxgpu | FileCheck %s

// CHECK: #[[COL:.*]] = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[B2:.*]] = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[SCOL:.*]] = #tpxgpu.slice<{dim = 1, parent = #[[COL]]}>
// CHECK: #[[S1:.*]] = #tpxgpu.slice<{dim = 1, parent = #[[B2]]}>
// CHECK: #[[S0:.*]] = #tpxgpu.slice<{dim = 0, parent = #[[B2]]}>
// CHECK-LABEL: tt.func public @slices
// CHECK: %[[R:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #[[SCOL]]>
// CHECK: %[[E:.*]] = tt.expand_dims %[[R]] {axis = 1 : i32} : tensor<64xi32, #[[SCOL]]> -> tensor<64x1xi32, #[[COL]]>
// CHECK: %[[EC:.*]] = tpxgpu.convert_layout %[[E]] : tensor<64x1xi32, #[[COL]]> -> tensor<64x1xi32, #[[B2]]>
// CHECK: %[[BC:.*]] = tt.broadcast %[[EC]] : tensor<64x1xi32, #[[B2]]> -> tensor<64x64xi32, #[[B2]]>
// CHECK: %[[F:.*]] = arith.sitofp %[[BC]] : tensor<64x64xi32, #[[B2]]> to tensor<64x64xf32, #[[B2]]>
// CHECK: %[[RED:.*]] = "tt.reduce"(%[[F]]) <{axis = 1 : i32}>
// CHECK: tt.reduce.return %{{.*}} : f32
// CHECK: }) : (tensor<64x64xf32, #[[B2]]>) -> tensor<64xf32, #[[S1]]>
// CHECK-NOT: tpxgpu.convert_layout
// CHECK: tt.expand_dims %[[RED]] {axis = 1 : i32} : tensor<64xf32, #[[S1]]> -> tensor<64x1xf32, #[[B2]]>
// A slice along the other axis is converted to the slice expand_dims needs.
// CHECK: %[[RC:.*]] = tpxgpu.convert_layout %[[RED]] : tensor<64xf32, #[[S1]]> -> tensor<64xf32, #[[S0]]>
// CHECK: tt.expand_dims %[[RC]] {axis = 0 : i32} : {{.*}} -> tensor<1x64xf32, #[[B2]]>
// Elementwise ops keep a slice operand's layout; a 1-D reduction yields a
// scalar.
// CHECK: %[[A:.*]] = arith.addf %[[RED]], %[[RED]] : tensor<64xf32, #[[S1]]>
// CHECK-NOT: tpxgpu.convert_layout
// CHECK: "tt.reduce"(%[[A]]) <{axis = 0 : i32}>
// CHECK: }) : (tensor<64xf32, #[[S1]]>) -> f32
module {
  tt.func public @slices() -> f32 {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %e = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %b = tt.broadcast %e : tensor<64x1xi32> -> tensor<64x64xi32>
    %f = arith.sitofp %b : tensor<64x64xi32> to tensor<64x64xf32>
    %red = "tt.reduce"(%f) <{axis = 1 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      tt.reduce.return %s : f32
    }) : (tensor<64x64xf32>) -> tensor<64xf32>
    %back = tt.expand_dims %red {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %row = tt.expand_dims %red {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
    %red1 = arith.addf %red, %red : tensor<64xf32>
    %total = "tt.reduce"(%red1) <{axis = 0 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      tt.reduce.return %s : f32
    }) : (tensor<64xf32>) -> f32
    tt.return %total : f32
  }
}
