// tpxgpu-pipeline-async-copies: a wgmma loop's operand loads become
// cp.async copies into num-stages buffers, D = num-stages - 1 iterations
// ahead: D copies before the loop (after a proxy fence for what was stored
// before it), a wait for the oldest group before the dot's barrier (no proxy
// fence: cp.async data needs none before wgmma), the next iteration's copies
// right after that barrier, and a drain after the loop. The staging barrier
// goes.
// RUN: tpx-opt %s --convert-tt-to-tpxgpu="num-warps=8" --tpxgpu-use-wgmma --canonicalize --tpxgpu-remove-layout-conversions --canonicalize --tpxgpu-annotate-contiguity --tpxgpu-pipeline-async-copies="num-stages=3 async-dots=true" --canonicalize --cse -mlir-print-debuginfo=false | FileCheck %s
// RUN: tpx-opt %s --convert-tt-to-tpxgpu="num-warps=8" --tpxgpu-use-wgmma --canonicalize --tpxgpu-remove-layout-conversions --canonicalize --tpxgpu-annotate-contiguity --tpxgpu-pipeline-async-copies="num-stages=3" --canonicalize --cse -mlir-print-debuginfo=false | FileCheck %s --check-prefix=SYNC
// RUN: tpx-opt %s --convert-tt-to-tpxgpu="num-warps=8" --tpxgpu-use-wgmma --canonicalize --tpxgpu-remove-layout-conversions --canonicalize --tpxgpu-annotate-contiguity --tpxgpu-pipeline-async-copies="num-stages=3 async-dots=true async-dots-one-barrier=true" --canonicalize --cse -mlir-print-debuginfo=false | FileCheck %s --check-prefix=ONE
// RUN: tpx-opt %s --convert-tt-to-tpxgpu="num-warps=8" --tpxgpu-use-wgmma --canonicalize --tpxgpu-remove-layout-conversions --canonicalize --tpxgpu-annotate-contiguity --tpxgpu-pipeline-async-copies="num-stages=1" -mlir-print-debuginfo=false | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: tt.func public @matmul
// CHECK: tpxgpu.fence_async_shared
// CHECK-NEXT: tpxgpu.barrier
// CHECK: %[[BA:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<3x128x64xf16, #{{.*}}, mutable>
// CHECK: %[[BB:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<3x64x128xf16, #{{.*}}, mutable>
// Iteration 0 into buffer 0, iteration 1 into buffer 1, a group each.
// CHECK: %[[A0:.*]] = tpxgpu.memdesc_index %[[BA]][%c0_i32]
// CHECK: %[[T0:.*]] = tpxgpu.async_copy_global_to_local %{{.*}}, %[[A0]] mask
// CHECK: %[[B0:.*]] = tpxgpu.memdesc_index %[[BB]][%c0_i32]
// CHECK: %[[U0:.*]] = tpxgpu.async_copy_global_to_local %{{.*}}, %[[B0]] mask
// CHECK: tpxgpu.async_commit_group tokens %[[T0]], %[[U0]]
// CHECK: tpxgpu.memdesc_index %[[BA]][%c1_i32]
// CHECK: tpxgpu.async_copy_global_to_local
// CHECK: tpxgpu.memdesc_index %[[BB]][%c1_i32]
// CHECK: tpxgpu.async_copy_global_to_local
// CHECK: tpxgpu.async_commit_group
// The loop carries the accumulator, the buffer slots of iterations iv and iv + 2 (counters
// wrapping at 3) and the pointers of iteration iv + 2.
// CHECK: %[[R:.*]]:5 = scf.for %[[I:.*]] = %{{.*}} to %[[N:.*]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[SLOT:.*]] = %c0_i32, %[[NEXT:.*]] = %c2_i32, %[[PA:.*]] = %{{.*}}, %[[PB:.*]] = %{{.*}})
// CHECK-NOT: tt.load
// CHECK: %[[VA:.*]] = tpxgpu.memdesc_index %[[BA]][%[[SLOT]]]
// CHECK: %[[VB:.*]] = tpxgpu.memdesc_index %[[BB]][%[[SLOT]]]
// CHECK-NEXT: tpxgpu.async_wait num = 1
// CHECK-NEXT: tpxgpu.barrier
// With async-dots the dot stays in flight: dot i-1 retires here, in every warp group after
// the barrier, and only then is its buffer overwritten.
// CHECK-NEXT: %[[D:.*]] = tpxgpu.warp_group_dot %[[VA]], %[[VB]], %[[ACC]] async
// CHECK-NEXT: %[[W:.*]]:3 = tpxgpu.warp_group_dot_wait %[[D]], %[[VA]], %[[VB]] pendings = 1
// CHECK-NEXT: tpxgpu.barrier
// CHECK: %[[AHEAD:.*]] = arith.addi %[[I]], %c2_i32
// CHECK: arith.cmpi slt, %[[AHEAD]], %[[N]]
// CHECK: tpxgpu.memdesc_index %[[BA]][%[[NEXT]]]
// CHECK: tpxgpu.async_copy_global_to_local %[[PA]]
// CHECK: tpxgpu.memdesc_index %[[BB]][%[[NEXT]]]
// CHECK: tpxgpu.async_copy_global_to_local %[[PB]]
// CHECK: tpxgpu.async_commit_group
// CHECK-NOT: tpxgpu.barrier
// CHECK: %[[WRAP:.*]] = arith.cmpi eq, %[[SLOT]], %c2_i32
// CHECK: %[[INC:.*]] = arith.addi %[[SLOT]], %c1_i32
// CHECK: %[[SLOT1:.*]] = arith.select %[[WRAP]], %c0_i32, %[[INC]]
// CHECK: scf.yield %[[W]]#0, %[[SLOT1]],
// CHECK: tpxgpu.warp_group_dot_wait %[[R]]#0 pendings = 0
// CHECK-NEXT: tpxgpu.async_wait num = 0
// CHECK-NEXT: tpxgpu.barrier

// By default (no async-dots) the dot is synchronous and the next copies go right
// after the barrier before it.
// SYNC-LABEL: tt.func public @matmul
// SYNC: scf.for
// SYNC: tpxgpu.async_wait num = 1
// SYNC-NEXT: tpxgpu.barrier
// SYNC: tpxgpu.async_copy_global_to_local
// SYNC: tpxgpu.async_copy_global_to_local
// SYNC: tpxgpu.async_commit_group
// SYNC-NOT: tpxgpu.barrier
// SYNC: tpxgpu.warp_group_dot
// SYNC-NOT: async
// SYNC: scf.yield
// SYNC-NEXT: }
// SYNC-NEXT: tpxgpu.async_wait num = 0

// With async-dots-one-barrier the copies run S-2 = 1 iteration ahead (one group before the
// loop, none left pending at the wait) and follow the wait that retires dot i-1 with no
// second barrier: their buffer (i+1) mod 3 was read by dot i-2.
// ONE-LABEL: tt.func public @matmul
// ONE: tpxgpu.async_commit_group
// ONE-NOT: tpxgpu.async_commit_group
// ONE: scf.for %[[I:.*]] = %{{.*}} to %[[N:.*]] step {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %c0_i32, %[[NEXT:.*]] = %c1_i32,
// ONE: tpxgpu.async_wait num = 0
// ONE-NEXT: tpxgpu.barrier
// ONE-NEXT: %[[D:.*]] = tpxgpu.warp_group_dot {{.*}} async
// ONE-NEXT: tpxgpu.warp_group_dot_wait %[[D]], {{.*}} pendings = 1
// ONE-NOT: tpxgpu.barrier
// ONE: tpxgpu.memdesc_index %{{.*}}[%[[NEXT]]]
// ONE: tpxgpu.async_copy_global_to_local
// ONE: tpxgpu.async_commit_group
// ONE-NOT: tpxgpu.barrier
// ONE: scf.yield

// A load whose masked-off elements are not zero keeps the register path.
// CHECK-LABEL: tt.func public @nonzero_other
// CHECK-NOT: async_copy_global_to_local
// CHECK: tt.load
// CHECK: tpxgpu.local_alloc %
// CHECK-NOT: async_copy_global_to_local
// CHECK: tt.return

// OFF-NOT: async_copy_global_to_local
module {
  tt.func public @matmul(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32, %k: i32 {tt.divisibility = 16 : i32}) -> tensor<128x128xf32> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %zero_a = arith.constant dense<0.000000e+00> : tensor<128x64xf16>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %ra = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %am = tt.expand_dims %ra {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %s64 = tt.splat %c64 : i32 -> tensor<128x1xi32>
    %amo = arith.muli %am, %s64 : tensor<128x1xi32>
    %ak = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %amb = tt.broadcast %amo : tensor<128x1xi32> -> tensor<128x64xi32>
    %akb = tt.broadcast %ak : tensor<1x64xi32> -> tensor<128x64xi32>
    %aoff = arith.addi %amb, %akb : tensor<128x64xi32>
    %abase = tt.splat %a : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
    %pa0 = tt.addptr %abase, %aoff : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
    %bk = tt.expand_dims %rk {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %s128 = arith.constant dense<128> : tensor<64x1xi32>
    %bko = arith.muli %bk, %s128 : tensor<64x1xi32>
    %bn = tt.expand_dims %ra {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %bkb = tt.broadcast %bko : tensor<64x1xi32> -> tensor<64x128xi32>
    %bnb = tt.broadcast %bn : tensor<1x128xi32> -> tensor<64x128xi32>
    %boff = arith.addi %bkb, %bnb : tensor<64x128xi32>
    %bbase = tt.splat %b : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>>
    %pb0 = tt.addptr %bbase, %boff : tensor<64x128x!tt.ptr<f16>>, tensor<64x128xi32>
    %stepa = arith.constant dense<64> : tensor<128x64xi32>
    %stepb = arith.constant dense<8192> : tensor<64x128xi32>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c, %pa = %pa0, %pb = %pb0) -> (tensor<128x128xf32>, tensor<128x64x!tt.ptr<f16>>, tensor<64x128x!tt.ptr<f16>>) : i32 {
      // K tail: columns at or past %k read as zero.
      %done = arith.muli %i, %c64 : i32
      %kleft = arith.subi %k, %done : i32
      %kl = tt.splat %kleft : i32 -> tensor<1x64xi32>
      %in = arith.cmpi slt, %ak, %kl : tensor<1x64xi32>
      %mask = tt.broadcast %in : tensor<1x64xi1> -> tensor<128x64xi1>
      %av = tt.load %pa, %mask, %zero_a : tensor<128x64x!tt.ptr<f16>>
      %bv = tt.load %pb : tensor<64x128x!tt.ptr<f16>>
      %d = tt.dot %av, %bv, %acc : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
      %pa1 = tt.addptr %pa, %stepa : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
      %pb1 = tt.addptr %pb, %stepb : tensor<64x128x!tt.ptr<f16>>, tensor<64x128xi32>
      scf.yield %d, %pa1, %pb1 : tensor<128x128xf32>, tensor<128x64x!tt.ptr<f16>>, tensor<64x128x!tt.ptr<f16>>
    }
    tt.return %r#0 : tensor<128x128xf32>
  }

  tt.func public @nonzero_other(%pa: tensor<128x64x!tt.ptr<f16>>, %pb: tensor<64x128x!tt.ptr<f16>>, %m: tensor<128x64xi1>, %n: i32) -> tensor<128x128xf32> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %one = arith.constant dense<1.000000e+00> : tensor<128x64xf16>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<128x128xf32>) : i32 {
      %av = tt.load %pa, %m, %one : tensor<128x64x!tt.ptr<f16>>
      %bv = tt.load %pb : tensor<64x128x!tt.ptr<f16>>
      %d = tt.dot %av, %bv, %acc : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    tt.return %r : tensor<128x128xf32>
  }
}
