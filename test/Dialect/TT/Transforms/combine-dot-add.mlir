// RUN: tpx-opt %s --tt-combine-dot-add -mlir-print-debuginfo=false | FileCheck %s

// x + dot(a, b, 0) accumulates onto x; in either operand order.
// CHECK-LABEL: tt.func @fold
// CHECK-NOT: arith.addf
// CHECK: %[[D:.*]] = tt.dot %arg0, %arg1, %arg2
// CHECK: %[[E:.*]] = tt.dot %arg0, %arg1, %[[D]]
// CHECK: tt.return %[[E]]
tt.func @fold(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %d = tt.dot %a, %b, %z : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %s = arith.addf %x, %d : tensor<64x64xf32>
  %e = tt.dot %a, %b, %z : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %t = arith.addf %e, %s : tensor<64x64xf32>
  tt.return %t : tensor<64x64xf32>
}

// Not when the dot starts from something else, or its result is used twice.
// CHECK-LABEL: tt.func @keep
// CHECK: arith.addf
// CHECK: arith.addf
tt.func @keep(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %d = tt.dot %a, %b, %x : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %s = arith.addf %x, %d : tensor<64x64xf32>
  %e = tt.dot %a, %b, %z : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %t = arith.addf %e, %x : tensor<64x64xf32>
  tt.return %s, %t, %e : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}
