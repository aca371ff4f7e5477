// RUN: tpx-opt %s > %t.first
// RUN: tpx-opt %t.first > %t.second
// RUN: diff %t.first %t.second
// RUN: FileCheck %s < %t.first

// TTIR written the way Triton 3.6 prints it (named SSA values from NameLocs,
// `loc(...)` on everything, `#loc` aliases before and after the module) for
// forms the corpus does not cover. It must parse, verify and print a fixpoint;
// the CHECK lines pin what tpx-opt prints back.

#loc = loc("kernels.py":10:0)
#loc2 = loc("kernels.py":40:0)
#loc3 = loc("kernels.py":60:0)
#loc4 = loc("kernels.py":80:0)
#loc5 = loc("kernels.py":100:0)
#loc6 = loc("kernels.py":120:0)
#loc7 = loc("kernels.py":140:0)
#loc8 = loc("kernels.py":160:0)
#loc9 = loc("kernels.py":180:0)
#loc30 = loc("x_ptr"(#loc))
#loc31 = loc("y_ptr"(#loc))
#loc32 = loc("n"(#loc))
#loc33 = loc("desc_ptr"(#loc2))
#loc34 = loc("M"(#loc2))
#loc35 = loc("N"(#loc2))
#loc36 = loc("out_ptr"(#loc3))
#loc37 = loc("lock_ptr"(#loc4))
#loc38 = loc("acc_ptr"(#loc4))
#loc39 = loc("x_ptr"(#loc5))
#loc40 = loc("idx_ptr"(#loc5))
#loc41 = loc("a"(#loc6))
#loc42 = loc("b"(#loc6))
#loc43 = loc("x_ptr"(#loc7))
#loc44 = loc("out_ptr"(#loc7))
#loc45 = loc("seed"(#loc8))
#loc46 = loc("out_ptr"(#loc8))
#loc47 = loc("x_ptr"(#loc9))
#loc48 = loc("h_ptr"(#loc9))
#loc49 = loc(unknown)
#loc50 = loc("kernels.py":108:30)
#loc51 = loc(callsite(#loc49 at #loc50))
#loc114 = loc("c"("kernels.py":161:26))
#loc115 = loc("k"("kernels.py":162:19))
module {
  // fp8 round trips: f32 -> f8E5M2 (rtne), f8E4M3FN -> f32, bf16 in between.
  // CHECK-LABEL: tt.func public @fp8_convert(
  // CHECK-SAME: %x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("x_ptr"(#loc))
  // CHECK-SAME: %y_ptr: !tt.ptr<f8E5M2> {tt.divisibility = 16 : i32} loc("y_ptr"(#loc))
  // CHECK-SAME: attributes {noinline = false}
  tt.func public @fp8_convert(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("x_ptr"(#loc)), %y_ptr: !tt.ptr<f8E5M2> {tt.divisibility = 16 : i32} loc("y_ptr"(#loc)), %n: i32 loc("n"(#loc))) attributes {noinline = false} {
    %offs = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32> loc(#loc60)
    %mask = tt.splat %n : i32 -> tensor<256xi32> loc(#loc61)
    %mask_0 = arith.cmpi slt, %offs, %mask : tensor<256xi32> loc(#loc61)
    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>> loc(#loc62)
    %x_1 = tt.addptr %x, %offs : tensor<256x!tt.ptr<f32>>, tensor<256xi32> loc(#loc62)
    %x_2 = tt.load %x_1, %mask_0 : tensor<256x!tt.ptr<f32>> loc(#loc63)
    // CHECK: %y = tt.fp_to_fp %x_2, rounding = rtne : tensor<256xf32> -> tensor<256xf8E5M2> loc(#loc
    %y = tt.fp_to_fp %x_2, rounding = rtne : tensor<256xf32> -> tensor<256xf8E5M2> loc(#loc64)
    %b = arith.truncf %x_2 : tensor<256xf32> to tensor<256xbf16> loc(#loc65)
    // CHECK: %e = tt.fp_to_fp %b, rounding = rtz : tensor<256xbf16> -> tensor<256xf8E4M3FN>
    %e = tt.fp_to_fp %b, rounding = rtz : tensor<256xbf16> -> tensor<256xf8E4M3FN> loc(#loc66)
    // CHECK: %e_3 = tt.fp_to_fp %e : tensor<256xf8E4M3FN> -> tensor<256xf32>
    %e_3 = tt.fp_to_fp %e : tensor<256xf8E4M3FN> -> tensor<256xf32> loc(#loc66)
    %0 = tt.splat %y_ptr : !tt.ptr<f8E5M2> -> tensor<256x!tt.ptr<f8E5M2>> loc(#loc67)
    %1 = tt.addptr %0, %offs : tensor<256x!tt.ptr<f8E5M2>>, tensor<256xi32> loc(#loc67)
    tt.store %1, %y, %mask_0 : tensor<256x!tt.ptr<f8E5M2>> loc(#loc68)
    %2 = tt.addptr %x_1, %offs : tensor<256x!tt.ptr<f32>>, tensor<256xi32> loc(#loc69)
    tt.store %2, %e_3, %mask_0 : tensor<256x!tt.ptr<f32>> loc(#loc69)
    tt.return loc(#loc70)
  } loc(#loc)

  // Tensor descriptors in a loop: load a block, scale it, store it back.
  // CHECK-LABEL: tt.func public @descriptor_copy(
  tt.func public @descriptor_copy(%desc_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("desc_ptr"(#loc2)), %M: i32 {tt.divisibility = 16 : i32} loc("M"(#loc2)), %N: i32 {tt.divisibility = 16 : i32} loc("N"(#loc2))) attributes {noinline = false} {
    %c64_i32 = arith.constant 64 : i32 loc(#loc49)
    %c0_i32 = arith.constant 0 : i32 loc(#loc49)
    %c1_i64 = arith.constant 1 : i64 loc(#loc49)
    %cst = arith.constant dense<2.000000e+00> : tensor<64x64xf16> loc(#loc49)
    %desc = arith.extsi %N : i32 to i64 loc(#loc71)
    // CHECK: %desc_0 = tt.make_tensor_descriptor %desc_ptr, [%M, %N], [%desc, %c1_i64] : <f16>, <tensor<64x64xf16>>
    %desc_0 = tt.make_tensor_descriptor %desc_ptr, [%M, %N], [%desc, %c1_i64] : <f16>, <tensor<64x64xf16>> loc(#loc71)
    %pid = tt.get_program_id x : i32 loc(#loc72)
    %row = arith.muli %pid, %c64_i32 : i32 loc(#loc73)
    // CHECK: scf.for %[[COL:[A-Za-z0-9_]+]] = %c0_i32 to %N step %c64_i32 : i32 {
    scf.for %col = %c0_i32 to %N step %c64_i32  : i32 {
      // CHECK: %blk = tt.descriptor_load %desc_0[%row, %[[COL]]] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
      %blk = tt.descriptor_load %desc_0[%row, %col] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16> loc(#loc74)
      %blk_1 = arith.mulf %blk, %cst : tensor<64x64xf16> loc(#loc75)
      // CHECK: tt.descriptor_store %desc_0[%row, %[[COL]]], %blk_1 : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
      tt.descriptor_store %desc_0[%row, %col], %blk_1 : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16> loc(#loc76)
    } loc(#loc77)
    tt.return loc(#loc78)
  } loc(#loc2)

  // join/split: interleave two halves and take them apart again.
  // CHECK-LABEL: tt.func public @interleave(
  tt.func public @interleave(%out_ptr: !tt.ptr<i16> {tt.divisibility = 16 : i32} loc("out_ptr"(#loc3))) attributes {noinline = false} {
    %a = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32> loc(#loc79)
    %a_0 = arith.trunci %a : tensor<32xi32> to tensor<32xi16> loc(#loc79)
    // CHECK: %ab = tt.join %a_0, %a_0 : tensor<32xi16> -> tensor<32x2xi16>
    %ab = tt.join %a_0, %a_0 : tensor<32xi16> -> tensor<32x2xi16> loc(#loc80)
    // CHECK: %lo, %lo_1 = tt.split %ab : tensor<32x2xi16> -> tensor<32xi16>
    %lo, %hi = tt.split %ab : tensor<32x2xi16> -> tensor<32xi16> loc(#loc81)
    %s = arith.addi %lo, %hi : tensor<32xi16> loc(#loc82)
    // CHECK: %flat = tt.reshape %ab : tensor<32x2xi16> -> tensor<64xi16>
    %flat = tt.reshape %ab : tensor<32x2xi16> -> tensor<64xi16> loc(#loc83)
    %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32> loc(#loc84)
    %0 = tt.splat %out_ptr : !tt.ptr<i16> -> tensor<64x!tt.ptr<i16>> loc(#loc85)
    %1 = tt.addptr %0, %offs : tensor<64x!tt.ptr<i16>>, tensor<64xi32> loc(#loc85)
    tt.store %1, %flat : tensor<64x!tt.ptr<i16>> loc(#loc86)
    %2 = tt.splat %out_ptr : !tt.ptr<i16> -> tensor<32x!tt.ptr<i16>> loc(#loc87)
    %3 = tt.addptr %2, %a : tensor<32x!tt.ptr<i16>>, tensor<32xi32> loc(#loc87)
    tt.store %3, %s : tensor<32x!tt.ptr<i16>> loc(#loc87)
    tt.return loc(#loc88)
  } loc(#loc3)

  // A spin lock (atomic_cas in scf.while) around an atomic add, then release.
  // CHECK-LABEL: tt.func public @locked_add(
  tt.func public @locked_add(%lock_ptr: !tt.ptr<i32> {tt.divisibility = 16 : i32} loc("lock_ptr"(#loc4)), %acc_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("acc_ptr"(#loc4))) attributes {noinline = false} {
    %c1_i32 = arith.constant 1 : i32 loc(#loc49)
    %c0_i32 = arith.constant 0 : i32 loc(#loc49)
    %cst = arith.constant 1.000000e+00 : f32 loc(#loc49)
    %true = arith.constant true loc(#loc49)
    // CHECK: scf.while : () -> () {
    scf.while : () -> () {
      // CHECK: %old = tt.atomic_cas acq_rel, gpu, %lock_ptr, %c0_i32, %c1_i32 : (!tt.ptr<i32>, i32, i32) -> i32
      %old = tt.atomic_cas acq_rel, gpu, %lock_ptr, %c0_i32, %c1_i32 : (!tt.ptr<i32>, i32, i32) -> i32 loc(#loc89)
      %busy = arith.cmpi ne, %old, %c0_i32 : i32 loc(#loc90)
      scf.condition(%busy) loc(#loc91)
    } do {
      scf.yield loc(#loc91)
    } loc(#loc91)
    // CHECK: %0 = tt.atomic_rmw fadd, relaxed, gpu, %acc_ptr, %cst, %true : (!tt.ptr<f32>, f32, i1) -> f32
    %0 = tt.atomic_rmw fadd, relaxed, gpu, %acc_ptr, %cst, %true : (!tt.ptr<f32>, f32, i1) -> f32 loc(#loc92)
    // CHECK: %1 = tt.atomic_rmw exch, release, gpu, %lock_ptr, %c0_i32, %true : (!tt.ptr<i32>, i32, i1) -> i32
    %1 = tt.atomic_rmw exch, release, gpu, %lock_ptr, %c0_i32, %true : (!tt.ptr<i32>, i32, i1) -> i32 loc(#loc93)
    tt.return loc(#loc94)
  } loc(#loc4)

  // Argmax over a row: a two-operand reduction down to scalars.
  // CHECK-LABEL: tt.func public @row_argmax(
  tt.func public @row_argmax(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("x_ptr"(#loc5)), %idx_ptr: !tt.ptr<i32> {tt.divisibility = 16 : i32} loc("idx_ptr"(#loc5))) attributes {noinline = false} {
    %cols = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32> loc(#loc95)
    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>> loc(#loc96)
    %x_0 = tt.addptr %x, %cols : tensor<128x!tt.ptr<f32>>, tensor<128xi32> loc(#loc96)
    %x_1 = tt.load %x_0 : tensor<128x!tt.ptr<f32>> loc(#loc97)
    // CHECK: %[[BEST:[0-9]+]]:2 = "tt.reduce"(%x_1, %cols) <{axis = 0 : i32}> ({
    // CHECK-NEXT: ^bb0(%arg2: f32 loc(callsite(#loc{{[0-9]+}} at #loc{{[0-9]+}})), %arg3: i32 loc(callsite(
    // CHECK: tt.reduce.return %v, %i : f32, i32
    // CHECK-NEXT: }) : (tensor<128xf32>, tensor<128xi32>) -> (f32, i32)
    %best:2 = "tt.reduce"(%x_1, %cols) <{axis = 0 : i32}> ({
    ^bb0(%arg2: f32 loc(callsite(#loc49 at #loc50)), %arg3: i32 loc(callsite(#loc49 at #loc50)), %arg4: f32 loc(callsite(#loc49 at #loc50)), %arg5: i32 loc(callsite(#loc49 at #loc50))):
      %gt = arith.cmpf ogt, %arg2, %arg4 : f32 loc(#loc98)
      %eq = arith.cmpf oeq, %arg2, %arg4 : f32 loc(#loc99)
      %lt = arith.cmpi slt, %arg3, %arg5 : i32 loc(#loc100)
      %tie = arith.andi %eq, %lt : i1 loc(#loc101)
      %take = arith.ori %gt, %tie : i1 loc(#loc102)
      %v = arith.select %take, %arg2, %arg4 : f32 loc(#loc103)
      %i = arith.select %take, %arg3, %arg5 : i32 loc(#loc104)
      tt.reduce.return %v, %i : f32, i32 loc(#loc51)
    }) : (tensor<128xf32>, tensor<128xi32>) -> (f32, i32) loc(#loc51)
    // CHECK: tt.store %idx_ptr, %[[BEST]]#1 : !tt.ptr<i32>
    tt.store %idx_ptr, %best#1 : !tt.ptr<i32> loc(#loc105)
    tt.return loc(#loc106)
  } loc(#loc5)

  // A noinline device function and its call.
  // CHECK-LABEL: tt.func private @kernels.combine__fp32_fp32__(
  // CHECK-SAME: -> f32 attributes {noinline = true}
  tt.func private @"kernels.combine__fp32_fp32__"(%a: f32 loc("a"(#loc6)), %b: f32 loc("b"(#loc6))) -> f32 attributes {noinline = true} {
    %0 = arith.mulf %a, %b : f32 loc(#loc107)
    %1 = arith.addf %0, %a : f32 loc(#loc108)
    tt.return %1 : f32 loc(#loc109)
  } loc(#loc6)
  // CHECK-LABEL: tt.func public @call_noinline(
  tt.func public @call_noinline(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("x_ptr"(#loc7)), %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("out_ptr"(#loc7))) attributes {noinline = false} {
    %x = tt.load %x_ptr : !tt.ptr<f32> loc(#loc110)
    // CHECK: %y = tt.call @kernels.combine__fp32_fp32__(%x, %x) : (f32, f32) -> f32
    %y = tt.call @"kernels.combine__fp32_fp32__"(%x, %x) : (f32, f32) -> f32 loc(#loc111)
    tt.store %out_ptr, %y : !tt.ptr<f32> loc(#loc112)
    tt.return loc(#loc113)
  } loc(#loc7)

  // Philox-style integer mixing: mulhiui, xor, and an unsigned while loop.
  // CHECK-LABEL: tt.func public @philox_round(
  tt.func public @philox_round(%seed: i32 loc("seed"(#loc8)), %out_ptr: !tt.ptr<i32> {tt.divisibility = 16 : i32} loc("out_ptr"(#loc8))) attributes {noinline = false} {
    %cst = arith.constant dense<-766435501> : tensor<64xi32> loc(#loc49)
    %c10_i32 = arith.constant 10 : i32 loc(#loc49)
    %c0_i32 = arith.constant 0 : i32 loc(#loc49)
    %c1_i32 = arith.constant 1 : i32 loc(#loc49)
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32> loc(#loc114)
    %k = tt.splat %seed : i32 -> tensor<64xi32> loc(#loc115)
    // CHECK: %[[R:[0-9]+]]:3 = scf.while (%{{[a-z0-9_]+}} = %c, %{{[a-z0-9_]+}} = %k, %{{[a-z0-9_]+}} = %c0_i32) : (tensor<64xi32>, tensor<64xi32>, i32) -> (tensor<64xi32>, tensor<64xi32>, i32) {
    %r:3 = scf.while (%c_0 = %c, %k_1 = %k, %r_2 = %c0_i32) : (tensor<64xi32>, tensor<64xi32>, i32) -> (tensor<64xi32>, tensor<64xi32>, i32) {
      %more = arith.cmpi ult, %r_2, %c10_i32 : i32 loc(#loc116)
      scf.condition(%more) %c_0, %k_1, %r_2 : tensor<64xi32>, tensor<64xi32>, i32 loc(#loc116)
    } do {
    ^bb0(%c_0: tensor<64xi32> loc("c"(#loc114)), %k_1: tensor<64xi32> loc("k"(#loc115)), %r_2: i32 loc(unknown)):
      // CHECK: %hi = tt.mulhiui %cst, %c_0 : tensor<64xi32>
      %hi = tt.mulhiui %cst, %c_0 : tensor<64xi32> loc(#loc117)
      %lo = arith.muli %cst, %c_0 : tensor<64xi32> loc(#loc118)
      %mix = arith.xori %hi, %k_1 : tensor<64xi32> loc(#loc119)
      %mix_3 = arith.xori %mix, %lo : tensor<64xi32> loc(#loc119)
      %r_4 = arith.addi %r_2, %c1_i32 : i32 loc(#loc120)
      scf.yield %mix_3, %lo, %r_4 : tensor<64xi32>, tensor<64xi32>, i32 loc(#loc116)
    } loc(#loc116)
    %0 = tt.splat %out_ptr : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>> loc(#loc121)
    %1 = tt.addptr %0, %c : tensor<64x!tt.ptr<i32>>, tensor<64xi32> loc(#loc121)
    // CHECK: tt.store %{{[0-9]+}}, %[[R]]#0 : tensor<64x!tt.ptr<i32>>
    tt.store %1, %r#0 : tensor<64x!tt.ptr<i32>> loc(#loc122)
    tt.return loc(#loc123)
  } loc(#loc8)

  // libdevice calls, inline asm and a histogram.
  // CHECK-LABEL: tt.func public @extern_asm_hist(
  tt.func public @extern_asm_hist(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("x_ptr"(#loc9)), %h_ptr: !tt.ptr<i32> {tt.divisibility = 16 : i32} loc("h_ptr"(#loc9))) attributes {noinline = false} {
    %cst = arith.constant dense<15> : tensor<256xi32> loc(#loc49)
    %offs = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32> loc(#loc124)
    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>> loc(#loc125)
    %x_0 = tt.addptr %x, %offs : tensor<256x!tt.ptr<f32>>, tensor<256xi32> loc(#loc125)
    %x_1 = tt.load %x_0 : tensor<256x!tt.ptr<f32>> loc(#loc126)
    // CHECK: %e = tt.extern_elementwise %x_1 {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<256xf32>) -> tensor<256xf32>
    %e = tt.extern_elementwise %x_1 {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<256xf32>) -> tensor<256xf32> loc(#loc127)
    // CHECK: %bits = tt.elementwise_inline_asm "cvt.rzi.s32.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %e : tensor<256xf32> -> tensor<256xi32>
    %bits = tt.elementwise_inline_asm "cvt.rzi.s32.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %e : tensor<256xf32> -> tensor<256xi32> loc(#loc128)
    %b = arith.andi %bits, %cst : tensor<256xi32> loc(#loc129)
    // CHECK: %h = tt.histogram %b : tensor<256xi32> -> tensor<16xi32>
    %h = tt.histogram %b : tensor<256xi32> -> tensor<16xi32> loc(#loc130)
    %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32> loc(#loc131)
    %1 = tt.splat %h_ptr : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>> loc(#loc131)
    %2 = tt.addptr %1, %0 : tensor<16x!tt.ptr<i32>>, tensor<16xi32> loc(#loc131)
    %3 = tt.atomic_rmw add, relaxed, gpu, %2, %h : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>) -> tensor<16xi32> loc(#loc132)
    tt.return loc(#loc133)
  } loc(#loc9)
} loc(#loc)
#loc10 = loc("kernels.py":12:24)
#loc11 = loc("kernels.py":13:16)
#loc12 = loc("kernels.py":14:20)
#loc13 = loc("kernels.py":14:12)
#loc14 = loc("kernels.py":15:10)
#loc15 = loc("kernels.py":16:10)
#loc16 = loc("kernels.py":17:10)
#loc17 = loc("kernels.py":18:22)
#loc18 = loc("kernels.py":18:4)
#loc19 = loc("kernels.py":19:4)
#loc20 = loc("kernels.py":19:4)
#loc60 = loc("offs"(#loc10))
#loc61 = loc("mask"(#loc11))
#loc62 = loc("x"(#loc12))
#loc63 = loc("x"(#loc13))
#loc64 = loc("y"(#loc14))
#loc65 = loc("b"(#loc15))
#loc66 = loc("e"(#loc16))
#loc67 = loc("kernels.py":18:22)
#loc68 = loc("kernels.py":18:4)
#loc69 = loc("kernels.py":19:4)
#loc70 = loc("kernels.py":20:4)
#loc71 = loc("desc"("kernels.py":42:30))
#loc72 = loc("pid"("kernels.py":43:24))
#loc73 = loc("row"("kernels.py":44:16))
#loc74 = loc("blk"("kernels.py":46:28))
#loc75 = loc("blk"("kernels.py":47:20))
#loc76 = loc("kernels.py":48:8)
#loc77 = loc("kernels.py":45:4)
#loc78 = loc("kernels.py":45:4)
#loc79 = loc("a"("kernels.py":61:30))
#loc80 = loc("ab"("kernels.py":62:20))
#loc81 = loc("lo"("kernels.py":63:25))
#loc82 = loc("s"("kernels.py":64:12))
#loc83 = loc("flat"("kernels.py":65:26))
#loc84 = loc("offs"("kernels.py":66:28))
#loc85 = loc("kernels.py":67:21)
#loc86 = loc("kernels.py":67:4)
#loc87 = loc("kernels.py":68:4)
#loc88 = loc("kernels.py":68:4)
#loc89 = loc("old"("kernels.py":82:34))
#loc90 = loc("busy"("kernels.py":82:41))
#loc91 = loc("kernels.py":82:10)
#loc92 = loc("kernels.py":84:21)
#loc93 = loc("kernels.py":85:22)
#loc94 = loc("kernels.py":85:4)
#loc95 = loc("cols"("kernels.py":101:29))
#loc96 = loc("x"("kernels.py":102:26))
#loc97 = loc("x"("kernels.py":102:18))
#loc98 = loc("gt"("kernels.py":104:17))
#loc99 = loc("eq"("kernels.py":105:17))
#loc100 = loc("lt"("kernels.py":105:30))
#loc101 = loc("tie"("kernels.py":105:24))
#loc102 = loc("take"("kernels.py":106:18))
#loc103 = loc("v"("kernels.py":107:29))
#loc104 = loc("i"("kernels.py":107:50))
#loc105 = loc("kernels.py":109:25)
#loc106 = loc("kernels.py":109:4)
#loc107 = loc("kernels.py":121:15)
#loc108 = loc("kernels.py":121:19)
#loc109 = loc("kernels.py":121:4)
#loc110 = loc("x"("kernels.py":141:16))
#loc111 = loc("y"("kernels.py":142:23))
#loc112 = loc("kernels.py":143:25)
#loc113 = loc("kernels.py":143:4)
#loc116 = loc("kernels.py":163:10)
#loc117 = loc("hi"("kernels.py":164:28))
#loc118 = loc("lo"("kernels.py":165:19))
#loc119 = loc("c"("kernels.py":166:23))
#loc120 = loc("r"("kernels.py":167:16))
#loc121 = loc("kernels.py":168:25)
#loc122 = loc("kernels.py":168:4)
#loc123 = loc("kernels.py":168:4)
#loc124 = loc("offs"("kernels.py":181:28))
#loc125 = loc("x"("kernels.py":182:26))
#loc126 = loc("x"("kernels.py":182:18))
#loc127 = loc("e"("kernels.py":183:26))
#loc128 = loc("bits"("kernels.py":184:31))
#loc129 = loc("b"("kernels.py":185:16))
#loc130 = loc("h"("kernels.py":186:25))
#loc131 = loc("kernels.py":187:26)
#loc132 = loc("kernels.py":187:4)
#loc133 = loc("kernels.py":187:4)
