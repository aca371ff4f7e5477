// A kernel without tensors only gains the module attributes.
// RUN: tpx-opt %s --convert-tt-to-tpxgpu="num-warps=2 threads-per-warp=64" -mlir-print-debuginfo=false | FileCheck %s

// CHECK-NOT: #tpxgpu
// CHECK: module attributes {"tpxgpu.num-warps" = 2 : i32, "tpxgpu.threads-per-warp" = 64 : i32} {
// CHECK-NEXT: tt.func public @scalar(%[[P:.*]]: !tt.ptr<i32>, %[[X:.*]]: i32) {
// CHECK-NEXT: %[[Y:.*]] = arith.addi %[[X]], %[[X]] : i32
// CHECK-NEXT: tt.store %[[P]], %[[Y]] : !tt.ptr<i32>
// CHECK-NEXT: tt.return
// CHECK-NOT: tpxgpu.convert_layout
module {
  tt.func public @scalar(%p: !tt.ptr<i32>, %x: i32) {
    %y = arith.addi %x, %x : i32
    tt.store %p, %y : !tt.ptr<i32>
    tt.return
  }
}
