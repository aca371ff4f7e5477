// Loop-carried values keep the layout of their init: region arguments and
// results take the init's type and the yielded value is converted to it.
// scf.if results take the "then" branch's types; scf.while's "after"
// arguments take what scf.condition forwards.
// RUN: tpx-opt %s --convert-tt-to-tpxgpu -mlir-print-debuginfo=false | FileCheck %s

// CHECK-DAG: #[[F32:.*]] = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[F16:.*]] = #tpxgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @loops
// CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<1024xf32, #[[F32]]>
// CHECK: %[[FOR:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<1024xf32, #[[F32]]>) : i32 {
// CHECK: %[[V:.*]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<f16>, #[[F16]]>
// CHECK: %[[W:.*]] = arith.extf %[[V]] : tensor<1024xf16, #[[F16]]> to tensor<1024xf32, #[[F16]]>
// CHECK: %[[VC:.*]] = tpxgpu.convert_layout %[[W]] : tensor<1024xf32, #[[F16]]> -> tensor<1024xf32, #[[F32]]>
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[VC]] : tensor<1024xf32, #[[F32]]>
// CHECK: scf.yield %[[SUM]] : tensor<1024xf32, #[[F32]]>
// The yield of a value in another layout is converted back to the init's.
// CHECK: scf.for {{.*}} iter_args(%[[ACC2:.*]] = %[[INIT]]) -> (tensor<1024xf32, #[[F32]]>)
// CHECK: %[[E:.*]] = arith.extf {{.*}} to tensor<1024xf32, #[[F16]]>
// CHECK: %[[EC:.*]] = tpxgpu.convert_layout %[[E]] : tensor<1024xf32, #[[F16]]> -> tensor<1024xf32, #[[F32]]>
// CHECK: scf.yield %[[EC]] : tensor<1024xf32, #[[F32]]>
// CHECK: %[[IF:.*]] = scf.if %{{.*}} -> (tensor<1024xf32, #[[F32]]>) {
// CHECK: scf.yield %[[FOR]] : tensor<1024xf32, #[[F32]]>
// CHECK: } else {
// CHECK: %[[EC2:.*]] = tpxgpu.convert_layout %{{.*}} : tensor<1024xf32, #[[F16]]> -> tensor<1024xf32, #[[F32]]>
// CHECK: scf.yield %[[EC2]] : tensor<1024xf32, #[[F32]]>
// CHECK: scf.while (%[[B:.*]] = %[[IF]]) : (tensor<1024xf32, #[[F32]]>) -> tensor<1024xf32, #[[F32]]> {
// CHECK: scf.condition(%{{.*}}) %[[B]] : tensor<1024xf32, #[[F32]]>
// CHECK: ^bb0(%{{.*}}: tensor<1024xf32, #[[F32]]>):
// CHECK: scf.yield %{{.*}} : tensor<1024xf32, #[[F32]]>
module {
  tt.func public @loops(%p: !tt.ptr<f16>, %n: i32, %c: i1) -> tensor<1024xf32> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %init = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %ptrs = tt.splat %p : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
    %for = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<1024xf32>) : i32 {
      %v = tt.load %ptrs : tensor<1024x!tt.ptr<f16>>
      %w = arith.extf %v : tensor<1024xf16> to tensor<1024xf32>
      %sum = arith.addf %acc, %w : tensor<1024xf32>
      scf.yield %sum : tensor<1024xf32>
    }
    %for2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<1024xf32>) : i32 {
      %v = tt.load %ptrs : tensor<1024x!tt.ptr<f16>>
      %w = arith.extf %v : tensor<1024xf16> to tensor<1024xf32>
      scf.yield %w : tensor<1024xf32>
    }
    %if = scf.if %c -> (tensor<1024xf32>) {
      scf.yield %for : tensor<1024xf32>
    } else {
      %v = tt.load %ptrs : tensor<1024x!tt.ptr<f16>>
      %w = arith.extf %v : tensor<1024xf16> to tensor<1024xf32>
      scf.yield %w : tensor<1024xf32>
    }
    %while = scf.while (%b = %if) : (tensor<1024xf32>) -> tensor<1024xf32> {
      scf.condition(%c) %b : tensor<1024xf32>
    } do {
    ^bb0(%a: tensor<1024xf32>):
      %s = arith.addf %a, %for2 : tensor<1024xf32>
      scf.yield %s : tensor<1024xf32>
    }
    tt.return %while : tensor<1024xf32>
  }
}
