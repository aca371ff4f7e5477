// RUN: tpx-opt %s -split-input-file --convert-tpxgpu-to-nvvm --canonicalize --cse -mlir-print-debuginfo=false | FileCheck %s

// Each thread holds 2 registers of the 128-element tensor (2 per lane x 32
// lanes x 2 warps): elementwise ops repeat once per register, on scalars.

#blocked = #tpxgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"tpxgpu.num-warps" = 2 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK: module attributes {"tpxgpu.block-threads" = 64 : i32
  // CHECK-LABEL: llvm.func @k(
  // CHECK-SAME: %[[P:.*]]: !llvm.ptr<1>, %{{.*}}: i32)
  // CHECK-SAME: nvvm.kernel, nvvm.reqntid = array<i32: 64, 1, 1>
  tt.func public @k(%p: !tt.ptr<f32>, %n: i32) {
    // CHECK-DAG: %[[PID:.*]] = nvvm.read.ptx.sreg.ctaid.y
    // CHECK-DAG: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
    // CHECK-DAG: %[[NP:.*]] = nvvm.read.ptx.sreg.nctaid.z
    %pid = tt.get_program_id y : i32
    %np = tt.get_num_programs z : i32
    %pid2 = arith.addi %pid, %np : i32
    // make_range: register 0 holds element 2 * lane + 64 * warp, register 1
    // the next one (the thread part XOR 1).
    // CHECK: %[[LANE:.*]] = llvm.and %[[TID]]
    // CHECK: %[[WARP:.*]] = llvm.lshr %[[TID]]
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %s = tt.splat %pid2 : i32 -> tensor<128xi32, #blocked>
    // CHECK: %[[E0:.*]] = arith.addi %{{.*}}, %[[OFF:.*]] : i32
    // CHECK: %[[E1:.*]] = arith.addi %{{.*}}, %[[OFF]] : i32
    %a = arith.addi %r, %s : tensor<128xi32, #blocked>
    // CHECK: arith.sitofp %[[E0]] : i32 to f32
    // CHECK: arith.sitofp %[[E1]] : i32 to f32
    %f = arith.sitofp %a : tensor<128xi32, #blocked> to tensor<128xf32, #blocked>
    %c = arith.constant dense<2.0> : tensor<128xf32, #blocked>
    // CHECK-COUNT-2: arith.mulf %{{.*}}, %{{.*}} : f32
    %m = arith.mulf %f, %c : tensor<128xf32, #blocked>
    // CHECK-COUNT-2: math.exp %{{.*}} : f32
    %e = math.exp %m : tensor<128xf32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    // CHECK: llvm.getelementptr %[[P]][%[[E0]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    // CHECK: llvm.getelementptr %[[P]][%[[E1]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %pp = tt.addptr %ps, %a : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %mask = arith.cmpi slt, %a, %s : tensor<128xi32, #blocked>
    %sel = arith.select %mask, %e, %m : tensor<128xi1, #blocked>, tensor<128xf32, #blocked>
    // CHECK-COUNT-2: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
    tt.store %pp, %sel : tensor<128x!tt.ptr<f32>, #blocked>
    // CHECK: llvm.return
    tt.return
  }
}

// -----

// A noinline helper stays a function: internal, taking and returning
// register structs; the call passes the struct through.
#blocked = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tpxgpu.num-warps" = 1 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @twice(
  // CHECK-SAME: !llvm.struct<(f32, f32)>) -> !llvm.struct<(f32, f32)>
  // CHECK-SAME: no_inline
  tt.func private @twice(%x: tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked> attributes {noinline = true} {
    %y = arith.addf %x, %x : tensor<64xf32, #blocked>
    tt.return %y : tensor<64xf32, #blocked>
  }
  // CHECK-LABEL: llvm.func @caller(
  // CHECK: llvm.call @twice(%{{.*}}) : (!llvm.struct<(f32, f32)>) -> !llvm.struct<(f32, f32)>
  tt.func public @caller(%p: !tt.ptr<f32>) {
    %c = arith.constant dense<1.0> : tensor<64xf32, #blocked>
    %y = tt.call @twice(%c) : (tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked>
    tt.store %ps, %y : tensor<64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
