// tt.atomic_rmw max/min on f32 and f64: PTX has no float min/max atomics,
// so each element takes one of two integer atomics on its bits by the
// value's sign: for max, the signed max where the sign bit is clear and the
// unsigned min where it is set (min: the converse). IEEE bits order that
// way: every negative float is a negative signed integer, and negative
// floats grow as unsigned integers as they fall.
// RUN: tpx-opt %s --convert-tt-to-tpxgpu=num-warps=4 --tpxgpu-lower-layout-conversions --tpxgpu-allocate-shared-memory --convert-tpxgpu-to-nvvm -mlir-print-debuginfo=false | FileCheck %s

// CHECK-LABEL: llvm.func @minmax
// CHECK: setp.ge.s32 %nonneg, $2, 0;
// CHECK-SAME: setp.lt.s32 %neg, $2, 0;
// CHECK-SAME: and.pred %nonneg, %nonneg, $3;
// CHECK-SAME: and.pred %neg, %neg, $3;
// CHECK-SAME: @%nonneg atom.relaxed.gpu.global.max.s32 $0, [ $1 ], $2;
// CHECK-SAME: @%neg atom.relaxed.gpu.global.min.u32 $0, [ $1 ], $2;
// CHECK-SAME: @!$3 mov.b32 $0, 0;
// CHECK: @%nonneg atom.relaxed.gpu.global.min.s32 $0, [ $1 ], $2;
// CHECK-SAME: @%neg atom.relaxed.gpu.global.max.u32 $0, [ $1 ], $2;
// CHECK: setp.ge.s64 %nonneg, $2, 0;
// CHECK-SAME: @%nonneg atom.relaxed.gpu.global.max.s64 $0, [ $1 ], $2;
// CHECK-SAME: @%neg atom.relaxed.gpu.global.min.u64 $0, [ $1 ], $2;
tt.func public @minmax(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f64> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %f = arith.sitofp %r : tensor<128xi32> to tensor<128xf32>
  %pp = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %pq = tt.addptr %pp, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %a = tt.atomic_rmw max, relaxed, gpu, %pq, %f : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>) -> tensor<128xf32>
  %b = tt.atomic_rmw min, relaxed, gpu, %pq, %f : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>) -> tensor<128xf32>
  %d = arith.sitofp %r : tensor<128xi32> to tensor<128xf64>
  %qp = tt.splat %q : !tt.ptr<f64> -> tensor<128x!tt.ptr<f64>>
  %qq = tt.addptr %qp, %r : tensor<128x!tt.ptr<f64>>, tensor<128xi32>
  %c = tt.atomic_rmw max, relaxed, gpu, %qq, %d : (tensor<128x!tt.ptr<f64>>, tensor<128xf64>) -> tensor<128xf64>
  tt.return
}
