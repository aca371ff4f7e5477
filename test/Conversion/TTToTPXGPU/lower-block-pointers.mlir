// RUN: tpx-opt %s -split-input-file --tpxgpu-lower-block-pointers --canonicalize -mlir-print-debuginfo=false | FileCheck %s

// A block pointer advanced in a loop: the loop carries its offsets (the
// row offset, never advanced, folds away), tt.advance becomes an addition,
// the load a pointer-tensor load masked along the checked dimension (1
// only) and padded with zero.
// CHECK-LABEL: tt.func public @loop
// CHECK-NOT: tt.make_tensor_ptr
// CHECK: %[[PAD:.*]] = arith.constant dense<0.000000e+00> : tensor<32x16xf16>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[STEP:.*]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[COL:.*]] = %{{.*}}) -> (tensor<32x16xf32>, i32)
// CHECK: tt.splat %[[COL]] : i32 -> tensor<16xi32>
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<16xi64>
// CHECK-NOT: arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<32xi64>
// CHECK: %[[V:.*]] = tt.load %{{.*}}, %{{.*}}, %[[PAD]] : tensor<32x16x!tt.ptr<f16>>
// CHECK: %[[NEXT:.*]] = arith.addi %[[COL]], %[[STEP]] : i32
// CHECK: scf.yield %{{.*}}, %[[NEXT]] : tensor<32x16xf32>, i32
// CHECK-NOT: tt.advance
module {
  tt.func public @loop(%a: !tt.ptr<f16>, %out: !tt.ptr<f32>, %r: i64, %c: i64) {
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %one = arith.constant 1 : i64
    %p = tt.make_tensor_ptr %a, [%r, %c], [%c, %one], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x16xf16>>
    %zero = arith.constant dense<0.0> : tensor<32x16xf32>
    %res:2 = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %zero, %q = %p) -> (tensor<32x16xf32>, !tt.ptr<tensor<32x16xf16>>) : i32 {
      %v = tt.load %q {boundaryCheck = array<i32: 1>, padding = 1 : i32} : !tt.ptr<tensor<32x16xf16>>
      %f = arith.extf %v : tensor<32x16xf16> to tensor<32x16xf32>
      %acc2 = arith.addf %acc, %f : tensor<32x16xf32>
      %q2 = tt.advance %q, [%c0, %c16] : <tensor<32x16xf16>>
      scf.yield %acc2, %q2 : tensor<32x16xf32>, !tt.ptr<tensor<32x16xf16>>
    }
    %o = tt.make_tensor_ptr %out, [%r, %c], [%c, %one], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x16xf32>>
    tt.store %o, %res#0 : !tt.ptr<tensor<32x16xf32>>
    tt.return
  }
}

// -----

// A block pointer passed to the kernel is left alone (one-thread path).
// CHECK-LABEL: tt.func public @argument
// CHECK: tt.load %{{.*}} : !tt.ptr<tensor<16xf32>>
module {
  tt.func public @argument(%p: !tt.ptr<tensor<16xf32>>, %out: !tt.ptr<f32>) {
    %v = tt.load %p : !tt.ptr<tensor<16xf32>>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %s = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %q = tt.addptr %s, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    tt.store %q, %v : tensor<16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A block pointer chosen by an scf.if, walked by an scf.while and passed to
// a (not inlined) function: every carrier takes its parts (base, shape,
// strides, offsets); the loop-invariant ones fold away.
// CHECK-LABEL: tt.func public @control_flow
// CHECK: %[[BASE:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : !tt.ptr<f32>
// CHECK: scf.while (%[[OFF:.*]] = %c0_i32) : (i32) -> i32
// CHECK: tt.call @use(%[[BASE]], %{{.*}}, %c1_i64, %{{.*}}) : (!tt.ptr<f32>, i64, i64, i32) -> tensor<16xf32>
// CHECK-NOT: !tt.ptr<tensor
// CHECK-LABEL: tt.func private @use
// CHECK-SAME: (%{{.*}}: !tt.ptr<f32>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i32) -> tensor<16xf32>
// CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x!tt.ptr<f32>>
module {
  tt.func public @control_flow(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i64, %which: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c16 = arith.constant 16 : i32
    %n32 = arith.trunci %n : i64 to i32
    %p = scf.if %which -> (!tt.ptr<tensor<16xf32>>) {
      %a = tt.make_tensor_ptr %x, [%n], [%c1], [%c0] {order = array<i32: 0>} : <tensor<16xf32>>
      scf.yield %a : !tt.ptr<tensor<16xf32>>
    } else {
      %b = tt.make_tensor_ptr %y, [%n], [%c1], [%c0] {order = array<i32: 0>} : <tensor<16xf32>>
      scf.yield %b : !tt.ptr<tensor<16xf32>>
    }
    %last = scf.while (%q = %p) : (!tt.ptr<tensor<16xf32>>) -> !tt.ptr<tensor<16xf32>> {
      %v = tt.load %q {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16xf32>>
      %more = arith.constant true
      scf.condition(%more) %q : !tt.ptr<tensor<16xf32>>
    } do {
    ^bb0(%q: !tt.ptr<tensor<16xf32>>):
      %next = tt.advance %q, [%c16] : <tensor<16xf32>>
      scf.yield %next : !tt.ptr<tensor<16xf32>>
    }
    %v = tt.call @use(%last) : (!tt.ptr<tensor<16xf32>>) -> tensor<16xf32>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %s = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %o = tt.addptr %s, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    tt.store %o, %v : tensor<16x!tt.ptr<f32>>
    tt.return
  }
  tt.func private @use(%p: !tt.ptr<tensor<16xf32>>) -> tensor<16xf32> attributes {noinline = true} {
    %v = tt.load %p {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16xf32>>
    tt.return %v : tensor<16xf32>
  }
}
