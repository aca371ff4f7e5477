// tt.scan: an inclusive scan of each thread's registers, a Hillis-Steele
// scan of the thread totals over the lanes along the axis, the totals of
// earlier warps through shared memory, and a final combine of the prefix
// into every register. Sources not laid out for that go through a scan
// layout and back.
// RUN: tpx-opt %s --convert-tpxgpu-to-nvvm | FileCheck %s

#b1d = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2d = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {

// 256 elements: 4 registers, 32 lanes and 2 warps along the axis (warps 2-3
// copy 0-1), so the source layout is scanned in place.
// CHECK-LABEL: llvm.func internal @cumsum
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-3: arith.addf
// Hillis-Steele over the 32 lanes: shuffles up by 1, 2, 4, 8, 16; a lane
// takes the earlier value only where its position is at least the distance.
// CHECK: %[[HAS1:.*]] = llvm.icmp "uge" %[[POS:.*]], %{{.*}} : i32
// CHECK: %[[E1:.*]] = nvvm.shfl.sync up %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK: %[[EF1:.*]] = llvm.bitcast %[[E1]] : i32 to f32
// CHECK: %[[S1:.*]] = arith.addf %[[EF1]], %[[T0:.*]] : f32
// CHECK: llvm.select %[[HAS1]], %[[S1]], %[[T0]] : i1, f32
// CHECK: llvm.icmp "uge" %[[POS]]
// CHECK-COUNT-4: nvvm.shfl.sync up
// The exclusive prefix is the inclusive value of the previous lane.
// CHECK: nvvm.shfl.sync up
// CHECK-NOT: nvvm.shfl.sync up
// Warp totals: the segment total from the last lane, through shared memory.
// CHECK: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK: nvvm.barrier0
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load
// Prefix = combine(warp prefix, lane prefix), then into the 4 registers.
// CHECK: arith.addf
// CHECK-COUNT-4: arith.addf
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tt.func private @cumsum(%x: tensor<256xf32, #b1d>) -> tensor<256xf32, #b1d> {
  %s = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tt.scan.return %r : f32
  }) : (tensor<256xf32, #b1d>) -> tensor<256xf32, #b1d>
  tt.return %s : tensor<256xf32, #b1d>
}

// The reverse scan runs from the high end: registers from the last, values
// from higher lanes (indexed shuffles, lane + distance), positions mirrored.
// CHECK-LABEL: llvm.func internal @cumsum_reverse
// CHECK-DAG: %[[R2:.*]] = llvm.extractvalue %{{.*}}[2]
// CHECK-DAG: %[[R3:.*]] = llvm.extractvalue %{{.*}}[3]
// CHECK: arith.addf %[[R3]], %[[R2]] : f32
// CHECK: %[[MIRRORED:.*]] = llvm.sub %{{.*}}, %{{.*}} : i32
// CHECK: llvm.icmp "uge" %[[MIRRORED]]
// CHECK-NOT: nvvm.shfl.sync up
// CHECK: %[[D1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[SRC1:.*]] = llvm.add %{{.*}}, %[[D1]] : i32
// CHECK: %[[SRC1M:.*]] = llvm.and %[[SRC1]], %{{.*}} : i32
// CHECK: nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %[[SRC1M]], %{{.*}} : i32 -> i32
// CHECK-COUNT-5: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.shfl.sync up
// CHECK: nvvm.shfl.sync idx
// CHECK: nvvm.barrier0
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.return
tt.func private @cumsum_reverse(%x: tensor<256xf32, #b1d>) -> tensor<256xf32, #b1d> {
  %s = "tt.scan"(%x) <{axis = 0 : i32, reverse = true}> ({
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tt.scan.return %r : f32
  }) : (tensor<256xf32, #b1d>) -> tensor<256xf32, #b1d>
  tt.return %s : tensor<256xf32, #b1d>
}

// Along axis 0 of 64x64 the source layout keeps registers above the lane
// and warp bits, so the data moves to a scan layout (32 rows per thread,
// 2 lanes along the axis) and back, through shared memory both ways.
// CHECK-LABEL: llvm.func internal @scan_cols
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}}, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> ->
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-31: arith.addi
// CHECK-NOT: nvvm.barrier0
// CHECK: nvvm.shfl.sync up
// CHECK: nvvm.shfl.sync up
// CHECK-NOT: nvvm.shfl.sync
// CHECK-COUNT-32: arith.addi
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}}, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tt.func private @scan_cols(%x: tensor<64x64xi32, #b2d>) -> tensor<64x64xi32, #b2d> {
  %s = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: i32, %b: i32):
    %r = arith.addi %a, %b : i32
    tt.scan.return %r : i32
  }) : (tensor<64x64xi32, #b2d>) -> tensor<64x64xi32, #b2d>
  tt.return %s : tensor<64x64xi32, #b2d>
}

// Two operands (a composition of affine maps, which does not commute) along
// axis 1: the layout fits as it is (4 registers, lane bits 0-3), both
// operands travel in every step, and the earlier part is always the first
// combine operand.
// CHECK-LABEL: llvm.func internal @scan_pairs
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[A0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[A1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[B0:.*]] = llvm.extractvalue %arg1[0]
// CHECK: %[[B1:.*]] = llvm.extractvalue %arg1[1]
// CHECK: %[[M:.*]] = arith.muli %[[A0]], %[[A1]] : i32
// CHECK: %[[T:.*]] = arith.muli %[[B0]], %[[A1]] : i32
// CHECK: arith.addi %[[T]], %[[B1]] : i32
// 8 rows per thread, each: 4 steps and the exclusive prefix, 2 operands.
// CHECK-COUNT-80: nvvm.shfl.sync up
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tt.func private @scan_pairs(%a: tensor<64x64xi32, #b2d>, %b: tensor<64x64xi32, #b2d>) -> tensor<64x64xi32, #b2d> {
  %s:2 = "tt.scan"(%a, %b) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%a0: i32, %b0: i32, %a1: i32, %b1: i32):
    %m = arith.muli %a0, %a1 : i32
    %t = arith.muli %b0, %a1 : i32
    %c = arith.addi %t, %b1 : i32
    tt.scan.return %m, %c : i32, i32
  }) : (tensor<64x64xi32, #b2d>, tensor<64x64xi32, #b2d>) -> (tensor<64x64xi32, #b2d>, tensor<64x64xi32, #b2d>)
  tt.return %s#1 : tensor<64x64xi32, #b2d>
}

}
