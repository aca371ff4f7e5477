// Kernels keep scalar/pointer signatures; a device function's tensor
// arguments and results get their default layouts, and calls and returns
// convert to them.
// RUN: tpx-opt %s --convert-tt-to-tpxgpu -mlir-print-debuginfo=false | FileCheck %s

// CHECK-DAG: #[[I32:.*]] = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[F16:.*]] = #tpxgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: tt.func private @twice(%{{.*}}: tensor<64xf16, #[[F16]]>) -> tensor<64xf16, #[[F16]]>
// CHECK: tt.return %{{.*}} : tensor<64xf16, #[[F16]]>
// CHECK: tt.func public @kernel(%{{.*}}: !tt.ptr<f16>, %{{.*}}: i32)
// CHECK: %[[H:.*]] = arith.sitofp %{{.*}} : tensor<64xi32, #[[I32]]> to tensor<64xf16, #[[I32]]>
// CHECK: %[[HC:.*]] = tpxgpu.convert_layout %[[H]] : tensor<64xf16, #[[I32]]> -> tensor<64xf16, #[[F16]]>
// CHECK: tt.call @twice(%[[HC]]) : (tensor<64xf16, #[[F16]]>) -> tensor<64xf16, #[[F16]]>
module {
  tt.func private @twice(%x: tensor<64xf16>) -> tensor<64xf16> {
    %y = arith.addf %x, %x : tensor<64xf16>
    tt.return %y : tensor<64xf16>
  }
  tt.func public @kernel(%p: !tt.ptr<f16>, %n: i32) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %h = arith.sitofp %r : tensor<64xi32> to tensor<64xf16>
    %t = tt.call @twice(%h) : (tensor<64xf16>) -> tensor<64xf16>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
    %q = tt.addptr %ps, %r : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
    tt.store %q, %t : tensor<64x!tt.ptr<f16>>
    tt.return
  }
}
