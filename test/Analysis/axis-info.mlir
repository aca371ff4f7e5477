// RUN: tpx-opt %s --split-input-file --test-print-axis-info --verify-diagnostics -o /dev/null

// The AxisInfo analysis (lib/Analysis) through its printing pass: one remark
// per integer or pointer result, `contiguity`/`constancy` in elements and
// `divisibility` in bytes for pointers (in units of the value for
// integers), one entry per dimension. 4294967296 (2^32) is the cap, what 0
// gets.

// Constants: scalars and splat dense tensors are uniform; a non-splat dense
// tensor is not analysed element by element.
tt.func public @constants() {
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1]}}
  %c128 = arith.constant 128 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [4294967296], constancy = [1]}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %c3 = arith.constant 3 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [32]}}
  %splat = arith.constant dense<64> : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %dense = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  tt.return
}

// -----

tt.func public @make_range() {
  // expected-remark @below {{contiguity = [128], divisibility = [4294967296], constancy = [1]}}
  %a = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [32], constancy = [1]}}
  %b = tt.make_range {end = 96 : i32, start = 32 : i32} : tensor<64xi32>
  tt.return
}

// -----

// splat, expand_dims and broadcast build a 2-D block of offsets.
tt.func public @shapes(%arg0: i32 {tt.divisibility = 8 : i32}) {
  // expected-remark @below {{contiguity = [64], divisibility = [4294967296], constancy = [1]}}
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 4294967296], constancy = [1, 1]}}
  %row = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @below {{contiguity = [64, 1], divisibility = [4294967296, 1], constancy = [1, 1]}}
  %col = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 4294967296], constancy = [32, 1]}}
  %rows = tt.broadcast %row : tensor<1x64xi32> -> tensor<32x64xi32>
  // expected-remark @below {{contiguity = [64, 1], divisibility = [4294967296, 1], constancy = [1, 32]}}
  %cols = tt.broadcast %col : tensor<64x1xi32> -> tensor<64x32xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [8, 8], constancy = [32, 64]}}
  %s = tt.splat %arg0 : i32 -> tensor<32x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 8], constancy = [32, 1]}}
  %sum = arith.addi %rows, %s : tensor<32x64xi32>
  tt.return
}

// -----

// tt.addptr scales the offset's divisibility by the pointee's bytes.
tt.func public @addptr(%f32: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %f16: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
  // expected-remark @below {{contiguity = [128], divisibility = [4294967296], constancy = [1]}}
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %p = tt.splat %f32 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %q = tt.addptr %p, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %h = tt.splat %f16 : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %hq = tt.addptr %h, %r : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %c4 = arith.constant 4 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %s4 = tt.addptr %f32, %c4 : !tt.ptr<f32>, i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %c1 = arith.constant 1 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %s1 = tt.addptr %f32, %c1 : !tt.ptr<f32>, i32
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %sn = tt.addptr %f32, %n : !tt.ptr<f32>, i32
  tt.return
}

// -----

tt.func public @arith(%arg0: i32 {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [128], divisibility = [4294967296], constancy = [1]}}
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [128]}}
  %c8 = arith.constant dense<8> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %c3 = arith.constant dense<3> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %s = tt.splat %arg0 : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %add = arith.addi %s, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [8], constancy = [1]}}
  %sub = arith.subi %add, %c8 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %rsub = arith.subi %s, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %mul = arith.muli %r, %c8 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %mul3 = arith.muli %s, %c3 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [8]}}
  %div = arith.divsi %r, %c8 : tensor<128xi32>
  // expected-remark @below {{contiguity = [8], divisibility = [8], constancy = [1]}}
  %rem = arith.remsi %r, %c8 : tensor<128xi32>
  // A run whose sign is unknown (it went through a subtraction) keeps its
  // runs too, as in Triton: offsets are non-negative in valid programs.
  // expected-remark @below {{contiguity = [8], divisibility = [8], constancy = [1]}}
  %remsub = arith.remsi %sub, %c8 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %and = arith.andi %s, %c8 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %shl = arith.shli %r, %c3 : tensor<128xi32>
  tt.return
}

// -----

tt.func public @select_and_casts(%arg0: i32 {tt.divisibility = 16 : i32}, %cond: i1) {
  // expected-remark @below {{contiguity = [128], divisibility = [4294967296], constancy = [1]}}
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %s = tt.splat %arg0 : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %a = arith.addi %s, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [128]}}
  %c = arith.constant dense<64> : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [64], constancy = [1]}}
  %b = arith.addi %c, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %sel = arith.select %cond, %a, %b : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [64]}}
  %mask = arith.cmpi slt, %r, %c : tensor<128xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1]}}
  %selm = arith.select %mask, %a, %b : tensor<128xi1>, tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %ext = arith.extsi %a : tensor<128xi32> to tensor<128xi64>
  // expected-remark @below {{contiguity = [128], divisibility = [4294967296], constancy = [1]}}
  %zext = arith.extui %r : tensor<128xi32> to tensor<128xi64>
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %tr = arith.trunci %a : tensor<128xi32> to tensor<128xi16>
  tt.return
}

// -----

// Triton's hints: on arguments (the launcher's specialization) and on ops
// (tl.multiple_of / tl.max_contiguous / tl.max_constancy).
tt.func public @hints(%arg0: i32 {tt.divisibility = 16 : i32}, %arg1: i64 {tt.divisibility = 24 : i32}, %ptr: !tt.ptr<f32>) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %c = arith.constant 1 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1]}}
  %x = arith.addi %arg0, %c {tt.divisibility = dense<32> : tensor<1xi32>} : i32
  // expected-remark @below {{contiguity = [128], divisibility = [4294967296], constancy = [1]}}
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [128]}}
  %s = tt.splat %x : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [64], constancy = [1]}}
  %m = arith.muli %r, %s {tt.contiguity = dense<64> : tensor<1xi32>, tt.divisibility = dense<64> : tensor<1xi32>} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %k = arith.divsi %r, %s {tt.constancy = dense<16> : tensor<1xi32>} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %y = arith.extsi %arg0 : i32 to i64
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %z = arith.addi %y, %arg1 : i64
  tt.return
}

// -----

// A pointer advanced by 16 floats (64 bytes) each iteration keeps the
// argument's 16; advanced by one float only 4 bytes are left. The
// induction variable of a loop stepping by 16 from 0 is a multiple of 16.
tt.func public @for_loop(%ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [4294967296], constancy = [1]}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %c1 = arith.constant 1 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %c16 = arith.constant 16 : i32
  // expected-remark @below {{contiguity = [128], divisibility = [4294967296], constancy = [1]}}
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %p = tt.splat %ptr : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %base = tt.addptr %p, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %off = tt.splat %c16 : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %res:3 = scf.for %i = %c0 to %n step %c16 iter_args(%a = %base, %b = %ptr, %c = %ptr) -> (tensor<128x!tt.ptr<f32>>, !tt.ptr<f32>, !tt.ptr<f32>) : i32 {
    // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
    %ia = tt.addptr %a, %off : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
    %ib = tt.addptr %b, %c16 : !tt.ptr<f32>, i32
    // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
    %ic = tt.addptr %c, %c1 : !tt.ptr<f32>, i32
    // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
    %iv = tt.addptr %ptr, %i : !tt.ptr<f32>, i32
    scf.yield %ia, %ib, %ic : tensor<128x!tt.ptr<f32>>, !tt.ptr<f32>, !tt.ptr<f32>
  }
  tt.return
}

// -----

// scf.if joins both branches: the smaller divisibility, the shorter runs.
tt.func public @if_join(%cond: i1, %arg0: i32 {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [128], divisibility = [4294967296], constancy = [1]}}
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [128]}}
  %c64 = arith.constant dense<64> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [128]}}
  %c8 = arith.constant dense<8> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %v = scf.if %cond -> (tensor<128xi32>) {
    // expected-remark @below {{contiguity = [128], divisibility = [64], constancy = [1]}}
    %a = arith.addi %r, %c64 : tensor<128xi32>
    scf.yield %a : tensor<128xi32>
  } else {
    // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
    %m = arith.muli %r, %c8 : tensor<128xi32>
    scf.yield %m : tensor<128xi32>
  }
  tt.return
}

// -----

// scf.while: the before region's argument joins the initial value with what
// the after region yields (a multiple of 8 plus 8 stays a multiple of 8).
tt.func public @while_loop(%n: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %c16 = arith.constant 16 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %c8 = arith.constant 8 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %res = scf.while (%x = %c16) : (i32) -> i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
    %lt = arith.cmpi slt, %x, %n : i32
    scf.condition(%lt) %x : i32
  } do {
  ^bb0(%y: i32):
    // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
    %next = arith.addi %y, %c8 : i32
    scf.yield %next : i32
  }
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %after = arith.addi %res, %c16 : i32
  tt.return
}

// -----

// cf branches: the block argument joins what every predecessor passes.
tt.func public @cf_join(%cond: i1, %ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %c8 = arith.constant 8 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [1]}}
  %c2 = arith.constant 2 : i32
  cf.cond_br %cond, ^bb1, ^bb2
^bb1:
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %a = tt.addptr %ptr, %c8 : !tt.ptr<f16>, i32
  cf.br ^bb3(%a : !tt.ptr<f16>)
^bb2:
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %b = tt.addptr %ptr, %c2 : !tt.ptr<f16>, i32
  cf.br ^bb3(%b : !tt.ptr<f16>)
^bb3(%j: !tt.ptr<f16>):
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %k = tt.addptr %j, %c2 : !tt.ptr<f16>, i32
  tt.return
}

// -----

// A loop-carried offset that is multiplied each iteration loses its
// contiguity on the back-edge; the fixpoint needs more than one visit.
tt.func public @for_fixpoint(%n: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [4294967296], constancy = [1]}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %c1 = arith.constant 1 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [64]}}
  %c2 = arith.constant dense<2> : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [4294967296], constancy = [1]}}
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%x = %r) -> (tensor<64xi32>) : i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [1]}}
    %y = arith.muli %x, %c2 : tensor<64xi32>
    scf.yield %y : tensor<64xi32>
  }
  tt.return
}

// -----

// A private callee's arguments join what every call site passes.
tt.func private @callee(%p: !tt.ptr<f32>) -> !tt.ptr<f32> attributes {noinline = true} {
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %c4 = arith.constant 4 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %q = tt.addptr %p, %c4 : !tt.ptr<f32>, i32
  tt.return %q : !tt.ptr<f32>
}
tt.func public @caller(%a: !tt.ptr<f32> {tt.divisibility = 32 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %x = tt.call @callee(%a) : (!tt.ptr<f32>) -> !tt.ptr<f32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %y = tt.call @callee(%b) : (!tt.ptr<f32>) -> !tt.ptr<f32>
  tt.return
}

// -----

// A branch the constant propagation proves dead contributes nothing to the
// join: only the 16-byte-aligned side reaches ^bb3. Values in dead code
// print as pessimistic.
tt.func public @dead_branch(%ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %true = arith.constant true
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %c8 = arith.constant 8 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %c1 = arith.constant 1 : i32
  cf.cond_br %true, ^bb1, ^bb2
^bb1:
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %a = tt.addptr %ptr, %c8 : !tt.ptr<f16>, i32
  cf.br ^bb3(%a : !tt.ptr<f16>)
^bb2:
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %b = tt.addptr %ptr, %c1 : !tt.ptr<f16>, i32
  cf.br ^bb3(%b : !tt.ptr<f16>)
^bb3(%j: !tt.ptr<f16>):
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %k = tt.addptr %j, %c8 : !tt.ptr<f16>, i32
  tt.return
}
