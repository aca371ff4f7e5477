// tpxgpu.warp_specialize and tpxgpu.warp_yield parse, verify and print
// back: the three arrays in order, one region per partition (the printer
// leaves the implicit warp_yield out, the generic form shows it), and the
// values from above a partition may use: scalars, memdescs, and a tensor
// whose layout is over the partition's warp count where the partition
// starts at a multiple of it (partition 1 below: four warps from warp 4).
// Each partition's tensors have layouts over its own warps, which the
// layout verifier accepts there and only there.
// The malformed cases are in warp-specialize-invalid.mlir.
// RUN: tpx-opt %s | tpx-opt -mlir-print-debuginfo=false | FileCheck %s
// RUN: tpx-opt %s -mlir-print-op-generic | tpx-opt -mlir-print-op-generic -mlir-print-debuginfo=false | FileCheck %s --check-prefix=GENERIC

// CHECK-DAG: #[[B4:[a-z_0-9]+]] = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B2:[a-z_0-9]+]] = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK-DAG: #[[B1:[a-z_0-9]+]] = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

#b4 = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#b1 = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#sw = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @three_partitions
  // CHECK-SAME: (%[[P:[a-z0-9]+]]: !tt.ptr<f32>, %[[N:[a-z0-9]+]]: i32, %[[T:[a-z0-9]+]]: tensor<128xi32, #[[B4]]>)
  // CHECK: %[[M:.*]] = arith.addi %[[N]]
  // CHECK: %[[BUF:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<128xi32, #{{.*}}, mutable>
  // CHECK: tpxgpu.warp_specialize num_warps = [2, 4, 1] warp_starts = [0, 4, 2] num_regs = [0, 232, 0] {
  // Partition 0: warps 0..1, layouts over two warps; a memdesc from above.
  // CHECK-NEXT: %[[R0:.*]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #[[B2]]>
  // CHECK-NEXT: tpxgpu.local_store %[[R0]], %[[BUF]] : tensor<128xi32, #[[B2]]> -> !tpxgpu.memdesc
  // CHECK-NEXT: }, {
  // Partition 1: warps 4..7 use the module's four-warp tensor %t as it is.
  // CHECK-NEXT: %[[U:.*]] = arith.addi %[[T]], %[[T]] : tensor<128xi32, #[[B4]]>
  // CHECK-NEXT: %[[S:.*]] = "tt.reduce"(%[[U]])
  // CHECK: %[[Q:.*]] = tt.bitcast %[[P]] : !tt.ptr<f32> -> !tt.ptr<i32>
  // CHECK-NEXT: tt.store %[[Q]], %[[S]] : !tt.ptr<i32>
  // CHECK-NEXT: }, {
  // Partition 2: warp 2 alone, a scalar from above; its loop keeps the
  // one-warp layout.
  // CHECK-NEXT: %[[SPLAT:.*]] = tt.splat %[[M]] : i32 -> tensor<32xi32, #[[B1]]>
  // CHECK: scf.for
  // CHECK: arith.muli %{{.*}}, %[[SPLAT]] : tensor<32xi32, #[[B1]]>
  // CHECK: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: }
  // CHECK-NEXT: tt.return
  // CHECK-NOT: tpxgpu.warp_yield

  // GENERIC-LABEL: sym_name = "three_partitions"
  // GENERIC: "tpxgpu.warp_specialize"() <{numRegs = array<i32: 0, 232, 0>, numWarps = array<i32: 2, 4, 1>, warpStarts = array<i32: 0, 4, 2>}> ({
  // GENERIC: "tpxgpu.local_store"
  // GENERIC-NEXT: "tpxgpu.warp_yield"() : () -> ()
  // GENERIC-NEXT: }, {
  // GENERIC: "tt.store"
  // GENERIC-NEXT: "tpxgpu.warp_yield"() : () -> ()
  // GENERIC-NEXT: }, {
  // GENERIC: "scf.for"
  // GENERIC: "tpxgpu.warp_yield"() : () -> ()
  // GENERIC-NEXT: }) : () -> ()
  // GENERIC-NEXT: "tt.return"
  tt.func public @three_partitions(%p: !tt.ptr<f32>, %n: i32, %t: tensor<128xi32, #b4>) {
    %c1 = arith.constant 1 : i32
    %m = arith.addi %n, %c1 : i32
    %buf = tpxgpu.local_alloc : !tpxgpu.memdesc<128xi32, #sw, mutable>
    tpxgpu.warp_specialize num_warps = [2, 4, 1] warp_starts = [0, 4, 2] num_regs = [0, 232, 0] {
      %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b2>
      tpxgpu.local_store %r, %buf : tensor<128xi32, #b2> -> !tpxgpu.memdesc<128xi32, #sw, mutable>
      tpxgpu.warp_yield
    }, {
      %u = arith.addi %t, %t : tensor<128xi32, #b4>
      %s = "tt.reduce"(%u) ({
      ^bb0(%a: i32, %b: i32):
        %c = arith.addi %a, %b : i32
        tt.reduce.return %c : i32
      }) {axis = 0 : i32} : (tensor<128xi32, #b4>) -> i32
      %q = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>
      tt.store %q, %s : !tt.ptr<i32>
      tpxgpu.warp_yield
    }, {
      %splat = tt.splat %m : i32 -> tensor<32xi32, #b1>
      %c0 = arith.constant 0 : i32
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %splat) -> (tensor<32xi32, #b1>) : i32 {
        %x = arith.muli %acc, %splat : tensor<32xi32, #b1>
        scf.yield %x : tensor<32xi32, #b1>
      }
      tpxgpu.warp_yield
    }
    tt.return
  }

  // One partition, without the (implicit) terminator written out; a
  // partition may also run on the module's warps as a whole.
  // CHECK-LABEL: tt.func @implicit_yield
  // CHECK: tpxgpu.warp_specialize num_warps = [4] warp_starts = [0] num_regs = [0] {
  // CHECK-NEXT: %{{.*}} = arith.addi %{{.*}}, %{{.*}} : tensor<128xi32, #[[B4]]>
  // CHECK-NEXT: }
  // CHECK-NEXT: tt.return
  // GENERIC-LABEL: sym_name = "implicit_yield"
  // GENERIC: "arith.addi"
  // GENERIC-NEXT: "tpxgpu.warp_yield"() : () -> ()
  tt.func @implicit_yield(%t: tensor<128xi32, #b4>) {
    tpxgpu.warp_specialize num_warps = [4] warp_starts = [0] num_regs = [0] {
      %u = arith.addi %t, %t : tensor<128xi32, #b4>
    }
    tt.return
  }
}
