// RUN: tpx-opt %s -split-input-file --tpxgpu-remove-layout-conversions --canonicalize -mlir-print-debuginfo=false | FileCheck %s

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#other = #tpxgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // The accumulator is carried in the MMA layout: its init is created in
  // that layout and one conversion follows the loop.
  // CHECK-LABEL: tt.func public @matmul_loop
  // CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
  // CHECK: %[[LOOP:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<32x32xf32, #mma>)
  // CHECK-NOT: tpxgpu.convert_layout %[[ACC]]
  // CHECK: %[[D:.*]] = tt.dot %{{.*}}, %{{.*}}, %[[ACC]]
  // CHECK: scf.yield %[[D]] : tensor<32x32xf32, #mma>
  // CHECK: tpxgpu.convert_layout %[[LOOP]] : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #blocked>
  tt.func public @matmul_loop(%x: tensor<32x16xf16, #a>, %y: tensor<16x32xf16, #b>, %n: i32, %p: tensor<32x32x!tt.ptr<f32>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<32x32xf32, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32, #blocked>) : i32 {
      %in = tpxgpu.convert_layout %acc : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #mma>
      %d = tt.dot %x, %y, %in : tensor<32x16xf16, #a> * tensor<16x32xf16, #b> -> tensor<32x32xf32, #mma>
      %out = tpxgpu.convert_layout %d : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #blocked>
      scf.yield %out : tensor<32x32xf32, #blocked>
    }
    tt.store %p, %r : tensor<32x32x!tt.ptr<f32>, #blocked>
    tt.return
  }

  // A mask computed from make_range and splats is recomputed in the layout
  // it is needed in instead of converted; a conversion of a conversion is
  // one conversion.
  // CHECK-LABEL: tt.func public @recompute
  // CHECK-SAME: tensor<32x32x!tt.ptr<f32>, [[OTHER:#[a-z0-9]+]]>
  // CHECK: tpxgpu.convert_layout %{{.*}} : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, [[OTHER]]>
  // CHECK-NOT: tpxgpu.convert_layout
  // CHECK: %[[R:.*]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, [[SLICE:#[a-z0-9]+]]>
  // CHECK: tt.expand_dims %[[R]] {axis = 0 : i32} : tensor<32xi32, [[SLICE]]> -> tensor<1x32xi32, [[OTHER]]>
  // CHECK: tt.broadcast {{.*}} -> tensor<32x32xi1, [[OTHER]]>
  // CHECK-NOT: tpxgpu.convert_layout
  // CHECK: tt.return
  tt.func public @recompute(%v: tensor<32x32xf32, #blocked>, %n: i32, %p: tensor<32x32x!tt.ptr<f32>, #other>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tpxgpu.slice<{dim = 0, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #tpxgpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %s = tt.splat %n : i32 -> tensor<1x32xi32, #blocked>
    %m = arith.cmpi slt, %e, %s : tensor<1x32xi32, #blocked>
    %mb = tt.broadcast %m : tensor<1x32xi1, #blocked> -> tensor<32x32xi1, #blocked>
    %mo = tpxgpu.convert_layout %mb : tensor<32x32xi1, #blocked> -> tensor<32x32xi1, #other>
    %v1 = tpxgpu.convert_layout %v : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #mma>
    %v2 = tpxgpu.convert_layout %v1 : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #other>
    tt.store %p, %v2, %mo : tensor<32x32x!tt.ptr<f32>, #other>
    tt.return
  }
}

// -----

// Forward propagation: the softmax between two chained dots runs in the
// first dot's MMA layout (reduction in its row slice), and the only
// conversion left feeds the second dot its A operand.
#blocked = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#a = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @softmax_then_dot
  // CHECK: %[[S:.*]] = tt.dot
  // CHECK-NEXT: %[[M:.*]] = "tt.reduce"(%[[S]]) <{axis = 1 : i32}>
  // CHECK: -> tensor<64xf32, #[[ROWS:slice[0-9]*]]>
  // CHECK-NEXT: %[[ME:.*]] = tt.expand_dims %[[M]] {axis = 1 : i32} : tensor<64xf32, #[[ROWS]]> -> tensor<64x1xf32, #mma>
  // CHECK-NEXT: %[[MB:.*]] = tt.broadcast %[[ME]] : tensor<64x1xf32, #mma> -> tensor<64x32xf32, #mma>
  // CHECK-NEXT: %[[D:.*]] = arith.subf %[[S]], %[[MB]] : tensor<64x32xf32, #mma>
  // CHECK-NEXT: %[[E:.*]] = math.exp %[[D]] : tensor<64x32xf32, #mma>
  // CHECK-NEXT: %[[H:.*]] = arith.truncf %[[E]] : tensor<64x32xf32, #mma> to tensor<64x32xf16, #mma>
  // CHECK-NEXT: %[[HA:.*]] = tpxgpu.convert_layout %[[H]] : tensor<64x32xf16, #mma> -> tensor<64x32xf16, #dot_op>
  // CHECK-NEXT: tt.dot %[[HA]]
  tt.func public @softmax_then_dot(%q: tensor<64x16xf16, #a>, %k: tensor<16x32xf16, #b>, %v: tensor<32x32xf16, #b>, %p: tensor<64x32x!tt.ptr<f32>, #blocked>) {
    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %s = tt.dot %q, %k, %zero : tensor<64x16xf16, #a> * tensor<16x32xf16, #b> -> tensor<64x32xf32, #mma>
    %sb = tpxgpu.convert_layout %s : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
    %m = "tt.reduce"(%sb) <{axis = 1 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %mx = arith.maxnumf %x, %y : f32
      tt.reduce.return %mx : f32
    }) : (tensor<64x32xf32, #blocked>) -> tensor<64xf32, #tpxgpu.slice<{dim = 1, parent = #blocked}>>
    %me = tt.expand_dims %m {axis = 1 : i32} : tensor<64xf32, #tpxgpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xf32, #blocked>
    %mb = tt.broadcast %me : tensor<64x1xf32, #blocked> -> tensor<64x32xf32, #blocked>
    %d = arith.subf %sb, %mb : tensor<64x32xf32, #blocked>
    %e = math.exp %d : tensor<64x32xf32, #blocked>
    %h = arith.truncf %e : tensor<64x32xf32, #blocked> to tensor<64x32xf16, #blocked>
    %ha = tpxgpu.convert_layout %h : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #a>
    %o = tt.dot %ha, %v, %zero : tensor<64x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<64x32xf32, #mma>
    %ob = tpxgpu.convert_layout %o : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
    tt.store %p, %ob : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#rows = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #tpxgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // A loop-carried pointer tensor whose load wants another layout (a
  // K-contiguous B): it is carried in the load's layout, its increment redone
  // there, and converted once before the loop, not every iteration.
  // CHECK-LABEL: tt.func public @pointer_increment
  // CHECK: %[[INIT:.*]] = tpxgpu.convert_layout %{{.*}} : tensor<32x32x!tt.ptr<f16>, #blocked> -> tensor<32x32x!tt.ptr<f16>, [[COLS:#[a-z0-9]+]]>
  // CHECK: scf.for {{.*}} iter_args(%[[P:.*]] = %[[INIT]], {{.*}}) -> (tensor<32x32x!tt.ptr<f16>, [[COLS]]>, tensor<32x32xf16, [[COLS]]>)
  // CHECK-NOT: tpxgpu.convert_layout
  // CHECK: tt.load %[[P]] : tensor<32x32x!tt.ptr<f16>, [[COLS]]>
  // CHECK: %[[NEXT:.*]] = tt.addptr %[[P]], %{{.*}} : tensor<32x32x!tt.ptr<f16>, [[COLS]]>, tensor<32x32xi32, [[COLS]]>
  // CHECK: scf.yield %[[NEXT]],
  tt.func public @pointer_increment(%p0: tensor<32x32x!tt.ptr<f16>, #rows>, %n: i32) -> tensor<32x32xf16, #cols> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<32> : tensor<32x32xi32, #rows>
    %zero = arith.constant dense<0.0> : tensor<32x32xf16, #cols>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %p0, %sum = %zero) -> (tensor<32x32x!tt.ptr<f16>, #rows>, tensor<32x32xf16, #cols>) : i32 {
      %q = tpxgpu.convert_layout %p : tensor<32x32x!tt.ptr<f16>, #rows> -> tensor<32x32x!tt.ptr<f16>, #cols>
      %x = tt.load %q : tensor<32x32x!tt.ptr<f16>, #cols>
      %s = arith.addf %sum, %x : tensor<32x32xf16, #cols>
      %next = tt.addptr %p, %step : tensor<32x32x!tt.ptr<f16>, #rows>, tensor<32x32xi32, #rows>
      scf.yield %next, %s : tensor<32x32x!tt.ptr<f16>, #rows>, tensor<32x32xf16, #cols>
    }
    tt.return %r#1 : tensor<32x32xf16, #cols>
  }
}

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#flat = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#a = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // Values computed from a dot's result and carried to the next iteration
  // (a software-pipelined attention's P, used by the next iteration's dot,
  // and a row statistic converted twice on its way to the yield) are carried
  // in the MMA-based layouts they are computed in: no conversion is left in
  // the loop but P's register-only move into the dot's operand layout.
  // CHECK: #[[ROWS:slice[0-9]*]] = #tpxgpu.slice<{dim = 1, parent = #mma}>
  // CHECK-LABEL: tt.func public @carried_probabilities
  // CHECK: scf.for {{.*}} -> (tensor<64x32xf32, #mma>, tensor<64x32xf32, #mma>, tensor<64xf32, #[[ROWS]]>)
  // CHECK-NOT: tpxgpu.convert_layout
  // CHECK: tpxgpu.convert_layout %{{.*}} : tensor<64x32xf16, #mma> -> tensor<64x32xf16, #dot_op>
  // CHECK-NOT: tpxgpu.convert_layout
  // CHECK: scf.yield
  tt.func public @carried_probabilities(%q: tensor<64x32xf16, #a>, %k: tensor<32x32xf16, #b>, %v: tensor<32x32xf16, #b>, %n: i32, %out: tensor<64x32x!tt.ptr<f32>, #blocked>, %sums: tensor<64x!tt.ptr<f32>, #flat>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %p0 = arith.constant dense<0.0> : tensor<64x32xf32, #blocked>
    %l0 = arith.constant dense<0.0> : tensor<64xf32, #tpxgpu.slice<{dim = 1, parent = #blocked}>>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %p = %p0, %l = %l0) -> (tensor<64x32xf32, #mma>, tensor<64x32xf32, #blocked>, tensor<64xf32, #tpxgpu.slice<{dim = 1, parent = #blocked}>>) : i32 {
      %ph = arith.truncf %p : tensor<64x32xf32, #blocked> to tensor<64x32xf16, #blocked>
      %pa = tpxgpu.convert_layout %ph : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #a>
      %o = tt.dot %pa, %v, %acc : tensor<64x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<64x32xf32, #mma>
      %s = tt.dot %q, %k, %zero : tensor<64x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<64x32xf32, #mma>
      %e = math.exp2 %s : tensor<64x32xf32, #mma>
      %eb = tpxgpu.convert_layout %e : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
      %sum = "tt.reduce"(%e) <{axis = 1 : i32}> ({
      ^bb0(%x: f32, %y: f32):
        %t = arith.addf %x, %y : f32
        tt.reduce.return %t : f32
      }) : (tensor<64x32xf32, #mma>) -> tensor<64xf32, #tpxgpu.slice<{dim = 1, parent = #mma}>>
      %sf = tpxgpu.convert_layout %sum : tensor<64xf32, #tpxgpu.slice<{dim = 1, parent = #mma}>> -> tensor<64xf32, #flat>
      %sl = tpxgpu.convert_layout %sf : tensor<64xf32, #flat> -> tensor<64xf32, #tpxgpu.slice<{dim = 1, parent = #blocked}>>
      %ln = arith.addf %l, %sl : tensor<64xf32, #tpxgpu.slice<{dim = 1, parent = #blocked}>>
      scf.yield %o, %eb, %ln : tensor<64x32xf32, #mma>, tensor<64x32xf32, #blocked>, tensor<64xf32, #tpxgpu.slice<{dim = 1, parent = #blocked}>>
    }
    %rb = tpxgpu.convert_layout %r#0 : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
    tt.store %out, %rb : tensor<64x32x!tt.ptr<f32>, #blocked>
    %lf = tpxgpu.convert_layout %r#2 : tensor<64xf32, #tpxgpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #flat>
    tt.store %sums, %lf : tensor<64x!tt.ptr<f32>, #flat>
    tt.return
  }
}

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#flat = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#a = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // A running maximum of scaled row maxima (`max(m, max(s, 1) * scale)`, as
  // Triton's attention tutorial writes it), as convert-tt-to-tpxgpu leaves
  // it: the reduction's result goes through two conversions to the 1-D
  // layout the scaling and the maximum were placed in. Once the two are one,
  // that conversion moves through the scaling (the splat is recomputed) to
  // the maximum, and the maximum is carried in the reduction's layout: no
  // conversion is left in the loop.
  // CHECK: #[[ROWS:slice[0-9]*]] = #tpxgpu.slice<{dim = 1, parent = #mma}>
  // CHECK-LABEL: tt.func public @scaled_row_maximum
  // CHECK: scf.for {{.*}} -> (tensor<64xf32, #[[ROWS]]>)
  // CHECK-NOT: tpxgpu.convert_layout
  // CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<64xf32, #[[ROWS]]>
  // CHECK-NEXT: arith.maxnumf %{{.*}}, %{{.*}} : tensor<64xf32, #[[ROWS]]>
  // CHECK-NOT: tpxgpu.convert_layout
  // CHECK: scf.yield
  tt.func public @scaled_row_maximum(%q: tensor<64x32xf16, #a>, %k: tensor<32x32xf16, #b>, %scale: f32, %n: i32, %out: tensor<64x!tt.ptr<f32>, #flat>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %m0 = arith.constant dense<-1.0e6> : tensor<64xf32, #flat>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %m0) -> (tensor<64xf32, #flat>) : i32 {
      %s = tt.dot %q, %k, %zero : tensor<64x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<64x32xf32, #mma>
      %sb = tpxgpu.convert_layout %s : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
      %max = "tt.reduce"(%sb) <{axis = 1 : i32}> ({
      ^bb0(%x: f32, %y: f32):
        %t = arith.maxnumf %x, %y : f32
        tt.reduce.return %t : f32
      }) : (tensor<64x32xf32, #blocked>) -> tensor<64xf32, #tpxgpu.slice<{dim = 1, parent = #blocked}>>
      %mf = tpxgpu.convert_layout %max : tensor<64xf32, #tpxgpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #flat>
      %sc = tt.splat %scale : f32 -> tensor<64xf32, #flat>
      %ms = arith.mulf %mf, %sc : tensor<64xf32, #flat>
      %mn = arith.maxnumf %m, %ms : tensor<64xf32, #flat>
      scf.yield %mn : tensor<64xf32, #flat>
    }
    tt.store %out, %r : tensor<64x!tt.ptr<f32>, #flat>
    tt.return
  }
}

// -----

#mma = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#blocked = #tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#plain = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // An accumulator stored into a 128-byte-swizzled buffer (what a TMA
  // store reads): the 8 rows a warp's 4-byte stores cover fall into
  // different banks, so the store takes the MMA layout's registers and the
  // conversion through scratch goes. Into an unswizzled buffer the same
  // rows share their banks (8-way conflicts), and the conversion to the
  // blocked layout's 16-byte stores stays.
  // CHECK-LABEL: tt.func public @store_accumulator
  // CHECK: %[[H:.*]] = arith.truncf %{{.*}} : tensor<64x128xf32, #mma> to tensor<64x128xf16, #mma>
  // CHECK-NEXT: %[[B:.*]] = tpxgpu.convert_layout %[[H]] : tensor<64x128xf16, #mma> -> tensor<64x128xf16, #blocked>
  // CHECK-NEXT: tpxgpu.local_store %[[H]], %{{.*}} : tensor<64x128xf16, #mma> -> !tpxgpu.memdesc<64x128xf16, #shared, mutable>
  // CHECK-NEXT: tpxgpu.local_store %[[B]], %{{.*}} : tensor<64x128xf16, #blocked> -> !tpxgpu.memdesc<64x128xf16, #shared1, mutable>
  tt.func public @store_accumulator(%acc: tensor<64x128xf32, #mma>) {
    %swizzled = tpxgpu.local_alloc : !tpxgpu.memdesc<64x128xf16, #nvmma, mutable>
    %unswizzled = tpxgpu.local_alloc : !tpxgpu.memdesc<64x128xf16, #plain, mutable>
    %b = tpxgpu.convert_layout %acc : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #blocked>
    %h = arith.truncf %b : tensor<64x128xf32, #blocked> to tensor<64x128xf16, #blocked>
    tpxgpu.local_store %h, %swizzled : tensor<64x128xf16, #blocked> -> !tpxgpu.memdesc<64x128xf16, #nvmma, mutable>
    tpxgpu.local_store %h, %unswizzled : tensor<64x128xf16, #blocked> -> !tpxgpu.memdesc<64x128xf16, #plain, mutable>
    tt.return
  }
}

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #tpxgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#a = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // Scores clamped on some blocks only (`if c: s = maximum(s, lo)`, as an
  // attention masks only its diagonal block). Both branches' values can
  // be had in the MMA layout, so the if yields that layout and the exp
  // after it computes there; the one conversion left is at the store.
  // CHECK-LABEL: tt.func public @clamped_on_some_blocks
  // CHECK: %[[IF:.*]] = scf.if %{{.*}} -> (tensor<64x32xf32, #mma>)
  // CHECK-NOT: tpxgpu.convert_layout
  // CHECK: scf.yield %{{.*}} : tensor<64x32xf32, #mma>
  // CHECK: } else {
  // CHECK-NEXT: scf.yield %{{.*}} : tensor<64x32xf32, #mma>
  // CHECK: math.exp %[[IF]] : tensor<64x32xf32, #mma>
  // CHECK-NEXT: tpxgpu.convert_layout %{{.*}} : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
  // CHECK-NEXT: tt.store
  tt.func public @clamped_on_some_blocks(%q: tensor<64x32xf16, #a>, %k: tensor<32x32xf16, #b>, %c: i1, %lo: f32, %out: tensor<64x32x!tt.ptr<f32>, #blocked>) {
    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %s = tt.dot %q, %k, %zero : tensor<64x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<64x32xf32, #mma>
    %sb = tpxgpu.convert_layout %s : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
    %r = scf.if %c -> (tensor<64x32xf32, #blocked>) {
      %l = tt.splat %lo : f32 -> tensor<64x32xf32, #blocked>
      %m = arith.maxnumf %sb, %l : tensor<64x32xf32, #blocked>
      scf.yield %m : tensor<64x32xf32, #blocked>
    } else {
      scf.yield %sb : tensor<64x32xf32, #blocked>
    }
    %e = math.exp %r : tensor<64x32xf32, #blocked>
    tt.store %out, %e : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.return
  }

  // The other branch converts a value loaded in a third layout: it would
  // need a conversion into the MMA layout instead, so the if keeps the
  // blocked layout.
  // CHECK-LABEL: tt.func public @scores_or_loaded
  // CHECK: scf.if %{{.*}} -> (tensor<64x32xf32, #blocked>)
  tt.func public @scores_or_loaded(%q: tensor<64x32xf16, #a>, %k: tensor<32x32xf16, #b>, %c: i1, %in: tensor<64x32x!tt.ptr<f32>, #cols>, %out: tensor<64x32x!tt.ptr<f32>, #blocked>) {
    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %s = tt.dot %q, %k, %zero : tensor<64x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<64x32xf32, #mma>
    %r = scf.if %c -> (tensor<64x32xf32, #blocked>) {
      %sb = tpxgpu.convert_layout %s : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
      scf.yield %sb : tensor<64x32xf32, #blocked>
    } else {
      %l = tt.load %in : tensor<64x32x!tt.ptr<f32>, #cols>
      %lb = tpxgpu.convert_layout %l : tensor<64x32xf32, #cols> -> tensor<64x32xf32, #blocked>
      scf.yield %lb : tensor<64x32xf32, #blocked>
    }
    tt.store %out, %r : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
