// gfx950's transposing LDS reads (AMDTransposedReads.cpp): MFMA operands
// of 16-bit elements from buffers contiguous along M (A) or N (B) are read
// with ds_read_b64_tr_b16, four K elements a lane; in each group of 16
// lanes, lane s reads block row s / 4 (along K) at column 4 (s % 4) of the
// block its group's lane 0 holds. The exchange itself is simulated in
// unittests/Dialect/TPXGPULinearLayoutTest.cpp
// (TransposedLdsReadsGiveMfmaOperands).
// RUN: tpx-opt %s -split-input-file --convert-tpxgpu-to-rocdl --canonicalize -mlir-print-debuginfo=false | FileCheck %s

// 64x64 operands over 2x2 waves: 8 reads each (32 rows x 64 K a wave,
// 4 elements a read).
// CHECK-LABEL: llvm.func @operands(
// CHECK-DAG: %[[C15:.*]] = llvm.mlir.constant(15 : i32) : i32
// CHECK-DAG: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[LANE:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: %[[T:.*]] = llvm.and %[[LANE]], %[[C15]] : i32
// CHECK: %[[FIRST:.*]] = llvm.sub %[[LANE]], %[[T]] : i32
// CHECK: %[[ROW:.*]] = llvm.lshr %[[T]], %[[C2]] : i32
// CHECK: %[[G:.*]] = llvm.and %[[T]], %[[C3]] : i32
// CHECK: %[[COL:.*]] = llvm.shl %[[G]], %[[C2]] : i32
// CHECK: llvm.lshr %[[FIRST]]
// CHECK-COUNT-8: rocdl.ds.read.tr16.b64 %{{.*}} : <3> -> vector<4xf16>
// CHECK-COUNT-8: rocdl.ds.read.tr16.b64 %{{.*}} : <3> -> vector<4xbf16>
// CHECK-NOT: rocdl.ds.read.tr16.b64
// CHECK: llvm.return
#mfma = #tpxgpu.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = false}>
#a = #tpxgpu.dot_op<{opIdx = 0, parent = #mfma, kWidth = 8}>
#b = #tpxgpu.dot_op<{opIdx = 1, parent = #mfma, kWidth = 8}>
#row = #tpxgpu.padded_shared<{padding = 0, order = [1, 0]}>
#col = #tpxgpu.padded_shared<{padding = 0, order = [0, 1]}>
#flat = #tpxgpu.blocked<{sizePerThread = [16], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {
  tt.func public @operands(%out: !tt.ptr<f16>) {
    %ma = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<64x64xf16, #col, mutable>
    %mb = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 8192 : i64} : !tpxgpu.memdesc<64x64xbf16, #row, mutable>
    %a = tpxgpu.local_load %ma : !tpxgpu.memdesc<64x64xf16, #col, mutable> -> tensor<64x64xf16, #a>
    %b = tpxgpu.local_load %mb : !tpxgpu.memdesc<64x64xbf16, #row, mutable> -> tensor<64x64xbf16, #b>
    %x = tt.reshape %a allow_reorder : tensor<64x64xf16, #a> -> tensor<4096xf16, #flat>
    %y = tt.reshape %b allow_reorder : tensor<64x64xbf16, #b> -> tensor<4096xbf16, #flat>
    %o = tt.splat %out : !tt.ptr<f16> -> tensor<4096x!tt.ptr<f16>, #flat>
    %r = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32, #flat>
    %p = tt.addptr %o, %r : tensor<4096x!tt.ptr<f16>, #flat>, tensor<4096xi32, #flat>
    %yf = arith.bitcast %y : tensor<4096xbf16, #flat> to tensor<4096xf16, #flat>
    %s = arith.addf %x, %yf : tensor<4096xf16, #flat>
    tt.store %p, %s : tensor<4096x!tt.ptr<f16>, #flat>
    tt.return
  }
}

// -----

// K-contiguous buffers are read as vectors (ds_read_b128), and on other
// chips element by element, as before.
// CHECK-LABEL: llvm.func @others(
// CHECK-NOT: rocdl.ds.read.tr16.b64
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-NOT: rocdl.ds.read.tr16.b64
// CHECK: llvm.return
#mfma = #tpxgpu.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = false}>
#a = #tpxgpu.dot_op<{opIdx = 0, parent = #mfma, kWidth = 8}>
#row = #tpxgpu.padded_shared<{padding = 0, order = [1, 0]}>
#col = #tpxgpu.padded_shared<{padding = 0, order = [0, 1]}>
#flat = #tpxgpu.blocked<{sizePerThread = [16], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {
  tt.func public @others(%out: !tt.ptr<f16>) {
    %ma = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<64x64xf16, #row, mutable>
    %a = tpxgpu.local_load %ma : !tpxgpu.memdesc<64x64xf16, #row, mutable> -> tensor<64x64xf16, #a>
    %x = tt.reshape %a allow_reorder : tensor<64x64xf16, #a> -> tensor<4096xf16, #flat>
    %o = tt.splat %out : !tt.ptr<f16> -> tensor<4096x!tt.ptr<f16>, #flat>
    %r = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32, #flat>
    %p = tt.addptr %o, %r : tensor<4096x!tt.ptr<f16>, #flat>, tensor<4096xi32, #flat>
    tt.store %p, %x : tensor<4096x!tt.ptr<f16>, #flat>
    tt.return
  }
}

// -----

// CHECK-LABEL: llvm.func @gfx942(
// CHECK-NOT: rocdl.ds.read.tr16.b64
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> f16
// CHECK-NOT: rocdl.ds.read.tr16.b64
// CHECK: llvm.return
#mfma = #tpxgpu.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false}>
#b = #tpxgpu.dot_op<{opIdx = 1, parent = #mfma, kWidth = 4}>
#row = #tpxgpu.padded_shared<{padding = 0, order = [1, 0]}>
#flat = #tpxgpu.blocked<{sizePerThread = [16], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx942"} {
  tt.func public @gfx942(%out: !tt.ptr<f16>) {
    %mb = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<64x64xf16, #row, mutable>
    %b = tpxgpu.local_load %mb : !tpxgpu.memdesc<64x64xf16, #row, mutable> -> tensor<64x64xf16, #b>
    %x = tt.reshape %b allow_reorder : tensor<64x64xf16, #b> -> tensor<4096xf16, #flat>
    %o = tt.splat %out : !tt.ptr<f16> -> tensor<4096x!tt.ptr<f16>, #flat>
    %r = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32, #flat>
    %p = tt.addptr %o, %r : tensor<4096x!tt.ptr<f16>, #flat>, tensor<4096xi32, #flat>
    tt.store %p, %x : tensor<4096x!tt.ptr<f16>, #flat>
    tt.return
  }
}
