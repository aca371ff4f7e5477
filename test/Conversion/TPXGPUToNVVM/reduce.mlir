// tt.reduce to registers, warp shuffles and shared memory: a fold over each
// thread's registers, a butterfly over the lane bits along the axis, and an
// exchange through shared memory when warps step along the axis.
// RUN: tpx-opt %s --convert-tpxgpu-to-nvvm | FileCheck %s

#b1d = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2d = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tpxgpu.slice<{dim = 1, parent = #b2d}>
#cols = #tpxgpu.slice<{dim = 0, parent = #b2d}>

// Shared memory: 4 warps x 64 columns x (f32 + i32) for the argmax.
// CHECK: module attributes {{{.*}}"tpxgpu.shared-bytes" = 2048 : i64
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {

// 1024 elements: 8 registers per thread (two blocks of 4), 5 lane bits, 2
// warp bits along the axis. Every thread ends with the sum.
// CHECK-LABEL: llvm.func internal @sum_1d
// CHECK-SAME: (%[[X:.*]]: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-COUNT-7: arith.addf
// CHECK: %[[LANE:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: %[[BIT0:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[AND0:.*]] = llvm.and %[[LANE]], %[[BIT0]] : i32
// CHECK: %[[UP0:.*]] = llvm.icmp "ne" %[[AND0]]
// CHECK: %[[M0:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[M0]], %{{.*}} : i32 -> i32
// The lane with the bit clear holds the lower axis coordinates: it goes
// first in both lanes of the pair.
// CHECK: %[[THEIRS:.*]] = llvm.bitcast %{{.*}} : i32 to f32
// CHECK: %[[LO:.*]] = llvm.select %[[UP0]], %[[THEIRS]], %[[MINE:.*]] : i1, f32
// CHECK: %[[HI:.*]] = llvm.select %[[UP0]], %[[MINE]], %[[THEIRS]] : i1, f32
// CHECK: arith.addf %[[LO]], %[[HI]] : f32
// CHECK: llvm.icmp "ne"
// CHECK: %[[M1:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[M1]], %{{.*}} : i32 -> i32
// CHECK: arith.addf
// CHECK: nvvm.shfl.sync bfly
// CHECK: arith.addf
// CHECK: nvvm.shfl.sync bfly
// CHECK: arith.addf
// CHECK: llvm.icmp "ne"
// CHECK: %[[M4:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[M4]], %{{.*}} : i32 -> i32
// CHECK: %[[PARTIAL:.*]] = arith.addf
// CHECK-NOT: nvvm.shfl.sync
// CHECK: nvvm.barrier0
// CHECK: llvm.store %[[PARTIAL]], %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: arith.addf
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: arith.addf
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: %[[SUM:.*]] = arith.addf
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return %[[SUM]] : f32
tt.func private @sum_1d(%x: tensor<1024xf32, #b1d>) -> f32 {
  %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tt.reduce.return %r : f32
  }) : (tensor<1024xf32, #b1d>) -> f32
  tt.return %s : f32
}

// 64 elements on 128 threads: lanes 16-31 and warps 1-3 hold copies, so the
// butterfly covers lane bits 0-3 only and nothing crosses warps.
// CHECK-LABEL: llvm.func internal @sum_replicated
// CHECK-COUNT-3: arith.addi
// CHECK-COUNT-4: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return %{{.*}} : i32
tt.func private @sum_replicated(%x: tensor<64xi32, #b1d>) -> i32 {
  %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %r = arith.addi %a, %b : i32
    tt.reduce.return %r : i32
  }) : (tensor<64xi32, #b1d>) -> i32
  tt.return %s : i32
}

// Along axis 1 of 64x64: 8 rows per thread with 4 registers each, 16 lanes
// along the axis (lane bits 0-3), no warps: 8 x 3 register adds, 8 x 4
// shuffles, no shared memory. The result is in the slice layout.
// CHECK-LABEL: llvm.func internal @sum_rows
// CHECK-COUNT-24: arith.addi
// CHECK-COUNT-32: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return %{{.*}} : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)>
tt.func private @sum_rows(%x: tensor<64x64xi32, #b2d>) -> tensor<64xi32, #rows> {
  %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %r = arith.addi %a, %b : i32
    tt.reduce.return %r : i32
  }) : (tensor<64x64xi32, #b2d>) -> tensor<64xi32, #rows>
  tt.return %s : tensor<64xi32, #rows>
}

// Along axis 0: 4 columns per thread with 8 registers each, lane bit 4 and
// warp bits 0-1 along the axis: 4 x 7 register adds, 4 shuffles by 16, then
// 4 partials per thread through shared memory, 4 x 4 loads and 4 x 3 adds.
// CHECK-LABEL: llvm.func internal @sum_cols
// CHECK-COUNT-28: arith.addi
// CHECK-COUNT-4: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK-COUNT-16: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return %{{.*}} : !llvm.struct<(i32, i32, i32, i32)>
tt.func private @sum_cols(%x: tensor<64x64xi32, #b2d>) -> tensor<64xi32, #cols> {
  %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %r = arith.addi %a, %b : i32
    tt.reduce.return %r : i32
  }) : (tensor<64x64xi32, #b2d>) -> tensor<64xi32, #cols>
  tt.return %s : tensor<64xi32, #cols>
}

// An argmax (value, index) along axis 0: every step shuffles both operands,
// and each operand has its own region of shared memory (the i32 indices
// start after the 4 x 64 f32 values).
// CHECK-LABEL: llvm.func internal @argmax_cols
// CHECK-COUNT-28: arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK: %[[VBITS:.*]] = nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK: %[[V:.*]] = llvm.bitcast %[[VBITS]] : i32 to f32
// CHECK: %[[I:.*]] = nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK: arith.cmpf oeq
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @tpx_shared_memory : !llvm.ptr<3>
// CHECK: llvm.getelementptr %[[BASE]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.getelementptr %[[BASE]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.return %{{.*}} : !llvm.struct<(i32, i32, i32, i32)>
tt.func private @argmax_cols(%x: tensor<64x64xf32, #b2d>, %i: tensor<64x64xi32, #b2d>) -> tensor<64xi32, #cols> {
  %r:2 = "tt.reduce"(%x, %i) <{axis = 0 : i32}> ({
  ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
    %eq = arith.cmpf oeq, %v0, %v1 : f32
    %lt = arith.cmpi slt, %i0, %i1 : i32
    %tie = arith.andi %eq, %lt : i1
    %gt = arith.cmpf ogt, %v0, %v1 : f32
    %take = arith.ori %gt, %tie : i1
    %v = arith.select %take, %v0, %v1 : f32
    %j = arith.select %take, %i0, %i1 : i32
    tt.reduce.return %v, %j : f32, i32
  }) : (tensor<64x64xf32, #b2d>, tensor<64x64xi32, #b2d>) -> (tensor<64xf32, #cols>, tensor<64xi32, #cols>)
  tt.return %r#1 : tensor<64xi32, #cols>
}

}
