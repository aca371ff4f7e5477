// Example plugin (b): a dialect op lowered by its conversion pass inside the
// ttir stage, through the plugin's pipeline extension selected on the kernel.
// RUN: tpx-opt --load-plugin=%example_plugins/TpxExampleTpxexDialect.so %s --mlir-print-debuginfo=false | FileCheck %s --check-prefix=PARSE
// RUN: tpx-compile --load-plugin=%example_plugins/TpxExampleTpxexDialect.so %s --target cpu --stop-after ttir | FileCheck %s
// RUN: tpx-compile --load-plugin=%example_plugins/TpxExampleTpxexDialect.so %s --target cpu --dump-pipeline | FileCheck %s --check-prefix=PIPE
// RUN: not tpx-opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// PARSE: tpxex.fma %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK-NOT: tpxex.fma
// CHECK: %[[P:.*]] = arith.mulf %arg1, %arg2 : tensor<4xf32>
// CHECK: arith.addf %[[P]], %arg1 : tensor<4xf32>
// PIPE: ttir: builtin.module(inline,tt-replace-poison,convert-tpxex-to-arith,canonicalize,cse,symbol-dce)
// NOPLUGIN: error: Dialect `tpxex' not found
module attributes {tpx.pipeline = "tpxex-lowering"} {
  tt.func public @fma(%out: !tt.ptr<f32>, %a: tensor<4xf32>, %b: tensor<4xf32>) {
    %0 = tpxex.fma %a, %b, %a : tensor<4xf32>
    %ps = tt.splat %out : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %pp = tt.addptr %ps, %r : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %pp, %0 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}
