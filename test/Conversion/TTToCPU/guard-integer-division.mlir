// RUN: tpx-opt %s --tpx-cpu-guard-integer-division --mlir-print-debuginfo=false | FileCheck %s
// Integer division by zero (or MIN / -1) would trap the host (SIGFPE) and
// end the process; the divisor becomes 1 there.

// CHECK-LABEL: tt.func public @signed
tt.func public @signed(%x: i32, %y: i32) -> i32 {
  // CHECK-DAG: %[[ZERO:.*]] = arith.cmpi eq, %arg1, %c0_i32
  // CHECK-DAG: %[[MIN:.*]] = arith.cmpi eq, %arg0, %c-2147483648_i32
  // CHECK-DAG: %[[NEG:.*]] = arith.cmpi eq, %arg1, %c-1_i32
  // CHECK: %[[OVER:.*]] = arith.andi
  // CHECK: %[[BAD:.*]] = arith.ori %[[ZERO]], %[[OVER]]
  // CHECK: %[[SAFE:.*]] = arith.select %[[BAD]], %c1_i32, %arg1
  // CHECK: arith.floordivsi %arg0, %[[SAFE]]
  %q = arith.floordivsi %x, %y : i32
  tt.return %q : i32
}

// CHECK-LABEL: tt.func public @unsigned_tensor
tt.func public @unsigned_tensor(%x: tensor<8xi64>, %y: tensor<8xi64>) -> tensor<8xi64> {
  // CHECK: %[[ZERO:.*]] = arith.cmpi eq, %arg1, %cst : tensor<8xi64>
  // CHECK-NOT: arith.andi
  // CHECK: %[[SAFE:.*]] = arith.select %[[ZERO]], %cst_0, %arg1 : tensor<8xi1>, tensor<8xi64>
  // CHECK: arith.remui %arg0, %[[SAFE]]
  %r = arith.remui %x, %y : tensor<8xi64>
  tt.return %r : tensor<8xi64>
}
