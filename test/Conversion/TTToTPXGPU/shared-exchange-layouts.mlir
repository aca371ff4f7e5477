// RUN: tpx-opt %s --convert-tt-to-tpxgpu=num-warps=4 -mlir-print-debuginfo=false | FileCheck %s

// tt.cat, tt.gather and tt.histogram keep their source's layout; the
// operand that goes element for element with another tensor takes that
// one's layout (cat's rhs its lhs's, histogram's mask its source's), and a
// gather's result takes its indices' plain layout, so the SIMT lowering
// finds register r of both on one element.

// CHECK-DAG: #[[DEFAULT:.*]] = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[T:.*]] = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[SLICE:.*]] = #tpxgpu.slice<{dim = 1, parent = #{{.*}}}>
// CHECK-LABEL: tt.func public @companions
// CHECK: %[[RED:.*]] = "tt.reduce"
// CHECK: %[[RANGE:.*]] = tt.make_range {{.*}} : tensor<32xi32, #[[DEFAULT]]>
// CHECK: %[[RHS:.*]] = tpxgpu.convert_layout %[[RANGE]] : tensor<32xi32, #[[DEFAULT]]> -> tensor<32xi32, #[[SLICE]]>
// CHECK: tt.cat %[[RED]], %[[RHS]] : tensor<32xi32, #[[SLICE]]> -> tensor<64xi32, #[[DEFAULT]]>
// CHECK: tt.gather %{{.*}}[%[[RED]]] {axis = 0 : i32} : (tensor<64xf32, #[[DEFAULT]]>, tensor<32xi32, #[[SLICE]]>) -> tensor<32xf32, #[[SLICE]]>
// CHECK: %[[M:.*]] = arith.cmpi slt, %[[RANGE]], %{{.*}} : tensor<32xi32, #[[DEFAULT]]>
// CHECK: %[[MASK:.*]] = tpxgpu.convert_layout %[[M]] : tensor<32xi1, #[[DEFAULT]]> -> tensor<32xi1, #[[SLICE]]>
// CHECK: tt.histogram %[[RED]], %[[MASK]] : tensor<32xi32, #[[SLICE]]> -> tensor<16xi32, #[[DEFAULT]]>
// CHECK: %[[TI:.*]] = tt.trans
// CHECK: tt.gather %{{.*}}[%[[TI]]] {axis = 1 : i32} : (tensor<32x64xf32, #[[T]]>, tensor<32x64xi32, #[[T]]>) -> tensor<32x64xf32, #[[T]]>
module {
  tt.func public @companions(%x: tensor<32x16xi32>, %s: tensor<64xf32>, %t: tensor<64x32xi32>) -> (tensor<64xi32>, tensor<32xf32>, tensor<16xi32>, tensor<32x64xf32>) {
    %red = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %t0 = arith.addi %a, %b : i32
      tt.reduce.return %t0 : i32
    }) : (tensor<32x16xi32>) -> tensor<32xi32>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %c = tt.cat %red, %r : tensor<32xi32> -> tensor<64xi32>
    %g = tt.gather %s[%red] {axis = 0 : i32} : (tensor<64xf32>, tensor<32xi32>) -> tensor<32xf32>
    %lim = arith.constant dense<20> : tensor<32xi32>
    %m = arith.cmpi slt, %r, %lim : tensor<32xi32>
    %h = tt.histogram %red, %m : tensor<32xi32> -> tensor<16xi32>
    %tt = tt.trans %t {order = array<i32: 1, 0>} : tensor<64x32xi32> -> tensor<32x64xi32>
    %src = arith.constant dense<1.0> : tensor<32x64xf32>
    %g2 = tt.gather %src[%tt] {axis = 1 : i32} : (tensor<32x64xf32>, tensor<32x64xi32>) -> tensor<32x64xf32>
    tt.return %c, %g, %h, %g2 : tensor<64xi32>, tensor<32xf32>, tensor<16xi32>, tensor<32x64xf32>
  }
}
