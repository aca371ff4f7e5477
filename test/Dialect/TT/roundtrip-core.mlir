// RUN: tpx-opt %s | FileCheck %s
// RUN: tpx-opt %s | tpx-opt | FileCheck %s

// Functions and calls, the program grid, tensor creation and shape ops,
// casts and the arithmetic Triton adds, debugging ops, and scf control flow
// around tt ops.

module {
  // A private device function with a result, reached through tt.call.
  // CHECK-LABEL: tt.func private @helper(
  // CHECK-SAME: %{{[A-Za-z0-9_]+}}: f32{{.*}}, %{{[A-Za-z0-9_]+}}: tensor<8xf32>{{.*}}) -> (f32, tensor<8xf32>) attributes {noinline = true}
  tt.func private @helper(%x: f32, %v: tensor<8xf32>) -> (f32, tensor<8xf32>) attributes {noinline = true} {
    %y = arith.mulf %x, %x : f32
    // CHECK: tt.return %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : f32, tensor<8xf32>
    tt.return %y, %v : f32, tensor<8xf32>
  }

  // An external declaration has no body.
  // CHECK-LABEL: tt.func private @external(i32) -> i32
  tt.func private @external(i32) -> i32

  // CHECK-LABEL: tt.func public @calls(
  // CHECK-SAME: attributes {noinline = false}
  tt.func public @calls(%x: f32, %v: tensor<8xf32>) attributes {noinline = false} {
    // CHECK: %{{[A-Za-z0-9_]+}}:2 = tt.call @helper(%{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}) : (f32, tensor<8xf32>) -> (f32, tensor<8xf32>)
    %r:2 = tt.call @helper(%x, %v) : (f32, tensor<8xf32>) -> (f32, tensor<8xf32>)
    %c = arith.constant 3 : i32
    // CHECK: tt.call @external(%{{[A-Za-z0-9_]+}}) : (i32) -> i32
    %e = tt.call @external(%c) : (i32) -> i32
    // CHECK: tt.call @nothing() : () -> ()
    tt.call @nothing() : () -> ()
    // CHECK: tt.return{{( loc|$)}}
    tt.return
  }

  tt.func private @nothing() {
    tt.return
  }

  // CHECK-LABEL: tt.func public @grid
  // CHECK-SAME: %{{[A-Za-z0-9_]+}}: i32 {tt.divisibility = 16 : i32}
  // CHECK-SAME: %{{[A-Za-z0-9_]+}}: i64 {tt.divisibility = 8 : i32}
  tt.func public @grid(%n: i32 {tt.divisibility = 16 : i32}, %m: i64 {tt.divisibility = 8 : i32}) {
    // CHECK: tt.get_program_id x : i32
    %px = tt.get_program_id x : i32
    // CHECK: tt.get_program_id y : i32
    %py = tt.get_program_id y : i32
    // CHECK: tt.get_program_id z : i32
    %pz = tt.get_program_id z : i32
    // CHECK: tt.get_num_programs x : i32
    %nx = tt.get_num_programs x : i32
    // CHECK: tt.get_num_programs y : i32
    %ny = tt.get_num_programs y : i32
    // CHECK: tt.get_num_programs z : i32
    %nz = tt.get_num_programs z : i32
    tt.return
  }

  // CHECK-LABEL: tt.func public @shapes
  tt.func public @shapes(%x: f32, %p: !tt.ptr<i16>) {
    // CHECK: tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    // A range need not start at zero.
    // CHECK: tt.make_range {end = 24 : i32, start = 8 : i32} : tensor<16xi32>
    %r2 = tt.make_range {end = 24 : i32, start = 8 : i32} : tensor<16xi32>
    // CHECK: tt.splat %{{[A-Za-z0-9_]+}} : f32 -> tensor<4x8xf32>
    %s = tt.splat %x : f32 -> tensor<4x8xf32>
    // CHECK: tt.splat %{{[A-Za-z0-9_]+}} : !tt.ptr<i16> -> tensor<32x!tt.ptr<i16>>
    %sp = tt.splat %p : !tt.ptr<i16> -> tensor<32x!tt.ptr<i16>>
    // CHECK: tt.expand_dims %{{[A-Za-z0-9_]+}} {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %e0 = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    // CHECK: tt.expand_dims %{{[A-Za-z0-9_]+}} {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %e1 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    // CHECK: tt.broadcast %{{[A-Za-z0-9_]+}} : tensor<1x32xi32> -> tensor<16x32xi32>
    %b = tt.broadcast %e0 : tensor<1x32xi32> -> tensor<16x32xi32>
    // CHECK: tt.reshape %{{[A-Za-z0-9_]+}} : tensor<16x32xi32> -> tensor<512xi32>
    %f = tt.reshape %b : tensor<16x32xi32> -> tensor<512xi32>
    // CHECK: tt.reshape %{{[A-Za-z0-9_]+}} allow_reorder : tensor<512xi32> -> tensor<8x64xi32>
    %g = tt.reshape %f allow_reorder : tensor<512xi32> -> tensor<8x64xi32>
    // CHECK: tt.reshape %{{[A-Za-z0-9_]+}} efficient_layout : tensor<8x64xi32> -> tensor<64x8xi32>
    %h = tt.reshape %g efficient_layout : tensor<8x64xi32> -> tensor<64x8xi32>
    // CHECK: tt.reshape %{{[A-Za-z0-9_]+}} allow_reorder efficient_layout : tensor<64x8xi32> -> tensor<2x256xi32>
    %i = tt.reshape %h allow_reorder efficient_layout : tensor<64x8xi32> -> tensor<2x256xi32>
    // CHECK: tt.trans %{{[A-Za-z0-9_]+}} {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
    %t = tt.trans %s {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
    %s3 = tt.splat %x : f32 -> tensor<2x4x8xf32>
    // CHECK: tt.trans %{{[A-Za-z0-9_]+}} {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
    %t3 = tt.trans %s3 {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
    // CHECK: tt.cat %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : tensor<32xi32> -> tensor<64xi32>
    %c = tt.cat %r, %r : tensor<32xi32> -> tensor<64xi32>
    // CHECK: %[[J:[A-Za-z0-9_]+]] = tt.join %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : tensor<4x8xf32> -> tensor<4x8x2xf32>
    %j = tt.join %s, %s : tensor<4x8xf32> -> tensor<4x8x2xf32>
    // CHECK: %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} = tt.split %[[J]] : tensor<4x8x2xf32> -> tensor<4x8xf32>
    %lo, %hi = tt.split %j : tensor<4x8x2xf32> -> tensor<4x8xf32>
    %one = tt.splat %x : f32 -> tensor<1xf32>
    // CHECK: tt.unsplat %{{[A-Za-z0-9_]+}} : tensor<1xf32>{{( loc|$)}}
    %u = tt.unsplat %one : tensor<1xf32>
    %one2 = tt.splat %x : f32 -> tensor<1x1xf32>
    // CHECK: tt.unsplat %{{[A-Za-z0-9_]+}} : tensor<1x1xf32>
    %u2 = tt.unsplat %one2 : tensor<1x1xf32>
    %sum = arith.addf %u, %u2 : f32
    tt.return
  }

  // CHECK-LABEL: tt.func public @casts_and_math
  tt.func public @casts_and_math(%a: tensor<16xf32>, %h: tensor<16xf16>, %bf: tensor<16xbf16>, %e4: tensor<16xf8E4M3FN>, %e5: tensor<16xf8E5M2>, %i: tensor<16xi32>, %s8: i8, %s16: i16, %s64: i64) {
    // CHECK: tt.fp_to_fp %{{[A-Za-z0-9_]+}}, rounding = rtne : tensor<16xf32> -> tensor<16xf8E4M3FN>
    %0 = tt.fp_to_fp %a, rounding = rtne : tensor<16xf32> -> tensor<16xf8E4M3FN>
    // CHECK: tt.fp_to_fp %{{[A-Za-z0-9_]+}}, rounding = rtz : tensor<16xf16> -> tensor<16xf8E5M2>
    %1 = tt.fp_to_fp %h, rounding = rtz : tensor<16xf16> -> tensor<16xf8E5M2>
    // Upcasts need no rounding mode.
    // CHECK: tt.fp_to_fp %{{[A-Za-z0-9_]+}} : tensor<16xf8E4M3FN> -> tensor<16xf32>
    %2 = tt.fp_to_fp %e4 : tensor<16xf8E4M3FN> -> tensor<16xf32>
    // CHECK: tt.fp_to_fp %{{[A-Za-z0-9_]+}} : tensor<16xf8E5M2> -> tensor<16xbf16>
    %3 = tt.fp_to_fp %e5 : tensor<16xf8E5M2> -> tensor<16xbf16>
    // CHECK: tt.fp_to_fp %{{[A-Za-z0-9_]+}}, rounding = rtne : tensor<16xbf16> -> tensor<16xf8E4M3FNUZ>
    %4 = tt.fp_to_fp %bf, rounding = rtne : tensor<16xbf16> -> tensor<16xf8E4M3FNUZ>
    // CHECK: tt.fp_to_fp %{{[A-Za-z0-9_]+}} : tensor<16xf8E5M2FNUZ> -> tensor<16xf16>
    %e5z = tt.bitcast %e5 : tensor<16xf8E5M2> -> tensor<16xf8E5M2FNUZ>
    %5 = tt.fp_to_fp %e5z : tensor<16xf8E5M2FNUZ> -> tensor<16xf16>
    // Same-width fp8 conversions carry no rounding mode in Triton.
    // CHECK: tt.fp_to_fp %{{[A-Za-z0-9_]+}} : tensor<16xf8E4M3FN> -> tensor<16xf8E5M2>
    %6 = tt.fp_to_fp %e4 : tensor<16xf8E4M3FN> -> tensor<16xf8E5M2>
    // Scalar conversions, an attribute dictionary before the rounding clause.
    %x = arith.constant 1.000000e+00 : f32
    // CHECK: tt.fp_to_fp %{{[A-Za-z0-9_]+}}, rounding = rtz : f32 -> f16
    %7 = tt.fp_to_fp %x, rounding = rtz : f32 -> f16
    // CHECK: tt.bitcast %{{[A-Za-z0-9_]+}} : tensor<16xf32> -> tensor<16xi32>
    %8 = tt.bitcast %a : tensor<16xf32> -> tensor<16xi32>
    // CHECK: tt.bitcast %{{[A-Za-z0-9_]+}} : tensor<16xf16> -> tensor<16xi16>
    %9 = tt.bitcast %h : tensor<16xf16> -> tensor<16xi16>
    // CHECK: tt.bitcast %{{[A-Za-z0-9_]+}} : i8 -> f8E4M3FN
    %10 = tt.bitcast %s8 : i8 -> f8E4M3FN
    // CHECK: tt.bitcast %{{[A-Za-z0-9_]+}} : i16 -> bf16
    %11 = tt.bitcast %s16 : i16 -> bf16
    // CHECK: tt.bitcast %{{[A-Za-z0-9_]+}} : i64 -> f64
    %12 = tt.bitcast %s64 : i64 -> f64
    %lo = arith.constant dense<0.000000e+00> : tensor<16xf32>
    %up = arith.constant dense<1.000000e+00> : tensor<16xf32>
    // CHECK: tt.clampf %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, propagateNan = none : tensor<16xf32>
    %13 = tt.clampf %a, %lo, %up, propagateNan = none : tensor<16xf32>
    // CHECK: tt.clampf %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, propagateNan = all : tensor<16xf32>
    %14 = tt.clampf %a, %lo, %up, propagateNan = all : tensor<16xf32>
    // CHECK: tt.clampf %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, propagateNan = all : f32
    %15 = tt.clampf %x, %x, %x, propagateNan = all : f32
    // CHECK: tt.precise_sqrt %{{[A-Za-z0-9_]+}} : tensor<16xf32>
    %16 = tt.precise_sqrt %a : tensor<16xf32>
    // CHECK: tt.precise_sqrt %{{[A-Za-z0-9_]+}} : f32
    %17 = tt.precise_sqrt %x : f32
    // CHECK: tt.precise_divf %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : tensor<16xf32>
    %18 = tt.precise_divf %a, %up : tensor<16xf32>
    // CHECK: tt.mulhiui %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : tensor<16xi32>
    %19 = tt.mulhiui %i, %i : tensor<16xi32>
    // CHECK: tt.mulhiui %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : i64
    %20 = tt.mulhiui %s64, %s64 : i64
    tt.return
  }

  // CHECK-LABEL: tt.func public @debugging
  tt.func public @debugging(%v: tensor<8xi32>, %f: tensor<8xf32>, %x: i64) {
    // CHECK: tt.print " v: " {hex = false, isSigned = array<i32: 1, 0>} : %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : tensor<8xi32>, tensor<8xf32>
    tt.print " v: " {hex = false, isSigned = array<i32: 1, 0>} : %v, %f : tensor<8xi32>, tensor<8xf32>
    // CHECK: tt.print " x: " {hex = true, isSigned = array<i32: 0>} : %{{[A-Za-z0-9_]+}} : i64
    tt.print " x: " {hex = true, isSigned = array<i32: 0>} : %x : i64
    // A print with no arguments.
    // CHECK: tt.print "hello" {hex = false, isSigned = array<i32>}{{( loc|$)}}
    tt.print "hello" {hex = false, isSigned = array<i32>}
    %z = arith.constant dense<0> : tensor<8xi32>
    %c = arith.cmpi sge, %v, %z : tensor<8xi32>
    // CHECK: tt.assert %{{[A-Za-z0-9_]+}}, "v must be non-negative" : tensor<8xi1>
    tt.assert %c, "v must be non-negative" : tensor<8xi1>
    %t = arith.constant true
    // CHECK: tt.assert %{{[A-Za-z0-9_]+}}, "scalar" : i1
    tt.assert %t, "scalar" : i1
    tt.return
  }

  // CHECK-LABEL: tt.func public @control_flow
  tt.func public @control_flow(%p: !tt.ptr<i32>, %n: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %base = tt.splat %p : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
    // CHECK: scf.for %{{[A-Za-z0-9_]+}} = %{{[A-Za-z0-9_]+}} to %{{[A-Za-z0-9_]+}} step %{{[A-Za-z0-9_]+}} iter_args(%{{[A-Za-z0-9_]+}} = %{{[A-Za-z0-9_]+}}) -> (tensor<64x!tt.ptr<i32>>) : i32
    %ptrs = scf.for %iv = %c0 to %n step %c1 iter_args(%cur = %base) -> (tensor<64x!tt.ptr<i32>>) : i32 {
      // CHECK: tt.addptr {{.*}} : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
      %next = tt.addptr %cur, %offs : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
      %v = tt.load %next : tensor<64x!tt.ptr<i32>>
      tt.store %next, %v : tensor<64x!tt.ptr<i32>>
      scf.yield %next : tensor<64x!tt.ptr<i32>>
    }
    // CHECK: scf.while (%{{[A-Za-z0-9_]+}} = %{{[A-Za-z0-9_]+}}) : (i32) -> i32
    %w = scf.while (%i = %n) : (i32) -> i32 {
      %more = arith.cmpi sgt, %i, %c0 : i32
      // CHECK: scf.condition(%{{[A-Za-z0-9_]+}}) %{{[A-Za-z0-9_]+}} : i32
      scf.condition(%more) %i : i32
    } do {
    ^bb0(%i: i32):
      %pid = tt.get_program_id x : i32
      %d = arith.subi %i, %c1 : i32
      %m = tt.mulhiui %d, %pid : i32
      scf.yield %m : i32
    }
    %cond = arith.cmpi eq, %w, %c0 : i32
    // CHECK: scf.if %{{[A-Za-z0-9_]+}} {
    scf.if %cond {
      // CHECK: tt.store %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : !tt.ptr<i32>
      tt.store %p, %n : !tt.ptr<i32>
    }
    // CHECK: tt.return %{{[A-Za-z0-9_]+}} : i32
    tt.return %w : i32
  }
}
