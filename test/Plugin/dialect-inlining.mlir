// A call of a private function made of plugin-dialect ops (how front ends
// use DSL ops built with tpxBuildDslOpFunction) is inlined by the ttir
// stage's `inline` pass although the tpxex dialect declares no inliner
// interface: tpx gives plugin dialects one that accepts their ops.
// RUN: tpx-compile --load-plugin=%example_plugins/TpxExampleTpxexDialect.so %s --target cpu --stop-after ttir | FileCheck %s
// RUN: tpx-compile --load-plugin=%example_plugins/TpxExampleTpxexDialect.so %s --target sm_90a --stop-after ttir | FileCheck %s
// RUN: tpx-opt --load-plugin=%example_plugins/TpxExampleTpxexDialect.so %s --inline --mlir-print-debuginfo=false | FileCheck %s --check-prefix=INLINE

// CHECK-NOT: tt.call
// CHECK-NOT: @f(
// CHECK:     tt.func public @fma
// CHECK:     %[[P:.*]] = arith.mulf %arg1, %arg2 : tensor<4xf32>
// CHECK:     arith.addf %[[P]], %arg1 : tensor<4xf32>
// CHECK-NOT: tt.call

// INLINE:     tt.func public @fma
// INLINE-NOT: tt.call
// INLINE:     tpxex.fma %arg1, %arg2, %arg1 : tensor<4xf32>
// INLINE-NOT: tt.call
module attributes {tpx.pipeline = "tpxex-lowering"} {
  tt.func private @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tpxex.fma %a, %b, %a : tensor<4xf32>
    tt.return %0 : tensor<4xf32>
  }
  tt.func public @fma(%out: !tt.ptr<f32>, %a: tensor<4xf32>, %b: tensor<4xf32>) {
    %0 = tt.call @f(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %ps = tt.splat %out : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %pp = tt.addptr %ps, %r : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %pp, %0 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}
