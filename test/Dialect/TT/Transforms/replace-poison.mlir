// RUN: tpx-opt %s --tt-replace-poison | FileCheck %s
// ub.poison (Triton writes it for values undefined on some path) becomes a
// zero of its type: scalars, tensors, and null pointers.

// CHECK-LABEL: tt.func public @scalars
tt.func public @scalars(%out: !tt.ptr<f32>, %iout: !tt.ptr<i32>) {
  // CHECK-NOT: ub.poison
  // CHECK-DAG: arith.constant 0.000000e+00 : f32
  // CHECK-DAG: arith.constant 0 : i32
  %f = ub.poison : f32
  %i = ub.poison : i32
  tt.store %out, %f : !tt.ptr<f32>
  tt.store %iout, %i : !tt.ptr<i32>
  tt.return
}

// CHECK-LABEL: tt.func public @loop_carried
tt.func public @loop_carried(%out: !tt.ptr<f32>, %n: i32) {
  // CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128xf32>
  // CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]])
  %p = ub.poison : tensor<128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %p) -> (tensor<128xf32>) : i32 {
    scf.yield %one : tensor<128xf32>
  }
  %o = tt.splat %out : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %ptrs = tt.addptr %o, %range : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  tt.store %ptrs, %r : tensor<128x!tt.ptr<f32>>
  tt.return
}

// CHECK-LABEL: tt.func public @pointers
tt.func public @pointers(%out: !tt.ptr<!tt.ptr<f32>>) {
  // CHECK: %[[NULL:.*]] = arith.constant 0 : i64
  // CHECK: tt.int_to_ptr %[[NULL]] : i64 -> !tt.ptr<f32>
  // CHECK: %[[NULLS:.*]] = arith.constant dense<0> : tensor<4xi64>
  // CHECK: tt.int_to_ptr %[[NULLS]] : tensor<4xi64> -> tensor<4x!tt.ptr<f32>>
  %p = ub.poison : !tt.ptr<f32>
  %t = ub.poison : tensor<4x!tt.ptr<f32>>
  tt.store %out, %p : !tt.ptr<!tt.ptr<f32>>
  tt.return
}
