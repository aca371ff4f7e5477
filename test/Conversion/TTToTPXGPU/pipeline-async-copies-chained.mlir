// tpxgpu-pipeline-async-copies on a loop of two chained dots (attention's
// S = Q K^T, then P V): the second dot reads registers (P) and a pipelined
// buffer (V), which the iteration's first barrier already published, so the
// fence and barrier tpxgpu-use-wgmma put before it go. A second dot whose
// operand the threads still store into shared memory keeps them.
// RUN: tpx-opt %s --inline --convert-tt-to-tpxgpu="num-warps=8" --tpxgpu-use-wgmma --canonicalize --tpxgpu-remove-layout-conversions --canonicalize --tpxgpu-annotate-contiguity --tpxgpu-pipeline-async-copies="num-stages=3" --canonicalize --cse -mlir-print-debuginfo=false | FileCheck %s

// CHECK-LABEL: tt.func public @chain
// CHECK: scf.for
// CHECK: tpxgpu.async_wait num = 1
// CHECK-NEXT: tpxgpu.barrier
// CHECK: tpxgpu.async_commit_group
// CHECK: tpxgpu.warp_group_dot {{.*}} : !tpxgpu.memdesc<128x64xf16, {{.*}}>, !tpxgpu.memdesc<64x64xf16, {{.*}}, alloc_shape = 3x64x64>
// CHECK-NOT: tpxgpu.barrier
// CHECK-NOT: tpxgpu.fence_async_shared
// CHECK: tpxgpu.warp_group_dot {{.*}} : tensor<128x64xf16, #{{.*}}>, !tpxgpu.memdesc<64x64xf16, {{.*}}, alloc_shape = 3x64x64>
// CHECK-NOT: tpxgpu.barrier
// CHECK: scf.yield

// CHECK-LABEL: tt.func public @staged_chain
// CHECK: scf.for
// CHECK: tpxgpu.barrier
// CHECK: tpxgpu.warp_group_dot
// CHECK: tpxgpu.barrier
// CHECK-NEXT: tpxgpu.local_alloc %
// CHECK: tpxgpu.fence_async_shared
// CHECK-NEXT: tpxgpu.barrier
// CHECK-NEXT: tpxgpu.warp_group_dot
// CHECK: scf.yield
module {
  // Row-major 64x64 offsets: row * 64 + column.
  tt.func private @tile_offsets() -> tensor<64x64xi32> attributes {noinline = false} {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c64 = arith.constant dense<64> : tensor<64x1xi32>
    %ro = arith.muli %rows, %c64 : tensor<64x1xi32>
    %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %rb = tt.broadcast %ro : tensor<64x1xi32> -> tensor<64x64xi32>
    %cb = tt.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
    %o = arith.addi %rb, %cb : tensor<64x64xi32>
    tt.return %o : tensor<64x64xi32>
  }

  tt.func public @chain(%q: tensor<128x64xf16>, %kb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %vb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<128x64xf32> {
    %off = tt.call @tile_offsets() : () -> tensor<64x64xi32>
    %ks = tt.splat %kb : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %pk0 = tt.addptr %ks, %off : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %vs = tt.splat %vb : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %pv0 = tt.addptr %vs, %off : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %step = arith.constant dense<4096> : tensor<64x64xi32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pk = %pk0, %pv = %pv0) -> (tensor<128x64xf32>, tensor<64x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>) : i32 {
      %k = tt.load %pk : tensor<64x64x!tt.ptr<f16>>
      %s = tt.dot %q, %k, %zero : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
      %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xf16>
      %v = tt.load %pv : tensor<64x64x!tt.ptr<f16>>
      %o = tt.dot %p, %v, %acc : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
      %pk1 = tt.addptr %pk, %step : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
      %pv1 = tt.addptr %pv, %step : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
      scf.yield %o, %pk1, %pv1 : tensor<128x64xf32>, tensor<64x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>
    }
    tt.return %r#0 : tensor<128x64xf32>
  }

  // The second dot's A is computed from a load, not from a dot: it is staged
  // through shared memory by the threads every iteration.
  tt.func public @staged_chain(%q: tensor<128x64xf16>, %kb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %px: tensor<128x64x!tt.ptr<f16>>, %vb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<128x64xf32> {
    %off = tt.call @tile_offsets() : () -> tensor<64x64xi32>
    %ks = tt.splat %kb : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %pk0 = tt.addptr %ks, %off : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %vs = tt.splat %vb : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %pv0 = tt.addptr %vs, %off : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %step = arith.constant dense<4096> : tensor<64x64xi32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pk = %pk0, %pv = %pv0) -> (tensor<128x64xf32>, tensor<64x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>) : i32 {
      %k = tt.load %pk : tensor<64x64x!tt.ptr<f16>>
      %s = tt.dot %q, %k, %acc : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
      %x = tt.load %px : tensor<128x64x!tt.ptr<f16>>
      %x2 = arith.mulf %x, %x : tensor<128x64xf16>
      %v = tt.load %pv : tensor<64x64x!tt.ptr<f16>>
      %o = tt.dot %x2, %v, %s : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
      %pk1 = tt.addptr %pk, %step : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
      %pv1 = tt.addptr %pv, %step : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
      scf.yield %o, %pk1, %pv1 : tensor<128x64xf32>, tensor<64x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>
    }
    tt.return %r#0 : tensor<128x64xf32>
  }
}
