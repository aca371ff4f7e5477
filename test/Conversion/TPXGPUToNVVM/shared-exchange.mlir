// RUN: tpx-opt %s -split-input-file --tpxgpu-allocate-shared-memory --convert-tpxgpu-to-nvvm --canonicalize --cse -mlir-print-debuginfo=false | FileCheck %s

// tt.cat, tt.gather and tt.histogram meet in the op's scratch
// (SharedExchangePatterns.cpp): barrier, writes, barrier, reads.

// cat: lhs at rows [0, 512), rhs at [512, 1024) of a tile of the result
// (one vector store each: every thread holds 4 consecutive floats), read
// back in the result's layout (two vector loads, the second 512 further).
#b1 = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK: "tpxgpu.shared-bytes" = 4096
  // CHECK-LABEL: llvm.func internal @cat(
  // CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(512 : i32) : i32
  // CHECK-DAG: %[[BASE:.*]] = llvm.mlir.addressof @tpx_shared_memory : !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: %[[LHS:.*]] = llvm.getelementptr %[[BASE]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
  // CHECK: llvm.store %{{.*}}, %[[LHS]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
  // CHECK: llvm.add %{{.*}}, %[[N]] : i32
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load %[[LHS]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
  // CHECK: llvm.xor %{{.*}}, %[[N]] : i32
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  tt.func private @cat(%a: tensor<512xf32, #b1>, %b: tensor<512xf32, #b1>) -> tensor<1024xf32, #b1> {
    %c = tt.cat %a, %b : tensor<512xf32, #b1> -> tensor<1024xf32, #b1>
    tt.return %c : tensor<1024xf32, #b1>
  }
}

// -----

// i1 is kept as a byte, pointers as i64.
#b1 = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @cat_i1(
  // CHECK: llvm.zext %{{.*}} : i1 to i8
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
  // CHECK: llvm.trunc %{{.*}} : i8 to i1
  tt.func private @cat_i1(%a: tensor<128xi1, #b1>) -> tensor<256xi1, #b1> {
    %c = tt.cat %a, %a : tensor<128xi1, #b1> -> tensor<256xi1, #b1>
    tt.return %c : tensor<256xi1, #b1>
  }
  // CHECK-LABEL: llvm.func internal @cat_ptr(
  // CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : i64, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> i64
  // CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
  tt.func private @cat_ptr(%a: tensor<128x!tt.ptr<f16>, #b1>) -> tensor<256x!tt.ptr<f16>, #b1> {
    %c = tt.cat %a, %a : tensor<128x!tt.ptr<f16>, #b1> -> tensor<256x!tt.ptr<f16>, #b1>
    tt.return %c : tensor<256x!tt.ptr<f16>, #b1>
  }
}

// -----

// gather along axis 0: the source is stored whole (two vector stores per
// thread), then each of the 4 result registers reads the row its index
// register names (i64 indices truncated, wrapped into [0, 32)) in its own
// column.
#b = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK: "tpxgpu.shared-bytes" = 4096
  // CHECK-LABEL: llvm.func internal @gather(
  // CHECK-DAG: %[[ROWS:.*]] = llvm.mlir.constant(31 : i32) : i32
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-4: llvm.trunc %{{.*}} : i64 to i32
  // CHECK-NEXT: llvm.and %{{.*}}, %[[ROWS]] : i32
  // CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  tt.func private @gather(%x: tensor<32x32xf32, #b>, %i: tensor<16x32xi64, #b>) -> tensor<16x32xf32, #b> {
    %g = tt.gather %x[%i] {axis = 0 : i32} : (tensor<32x32xf32, #b>, tensor<16x32xi64, #b>) -> tensor<16x32xf32, #b>
    tt.return %g : tensor<16x32xf32, #b>
  }
}

// -----

// histogram: the 32 bins are zeroed (every warp holds all of them: the
// replicas write the same zero), each source register of an i8 value in
// [0, 32) (one unsigned comparison of the sign-extended value) and not
// masked off adds 1 to its bin with a shared-memory atomic, and each
// thread reads its bin back. Nothing is replicated in the source: no owner
// test.
#b1 = #tpxgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#r = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK: "tpxgpu.shared-bytes" = 128
  // CHECK-LABEL: llvm.func internal @hist(
  // CHECK-DAG: %[[BINS:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: nvvm.barrier0
  // CHECK: %[[MINE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
  // CHECK: llvm.store %[[ZERO]], %[[MINE]] {alignment = 4 : i64} : i32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.sext %{{.*}} : i8 to i32
  // CHECK-NEXT: %[[IN:.*]] = llvm.icmp "ult" %{{.*}}, %[[BINS]] : i32
  // CHECK-NEXT: %[[COUNTED:.*]] = llvm.and %[[IN]], %{{.*}} : i1
  // Counted within the warp: a ballot per bit of the bin (5 for 32 bins)
  // and one of the counted lanes, ANDed and popc'ed per owned bin; each
  // lane then adds its bin's warp total.
  // CHECK-COUNT-5: vote.sync.ballot.b32
  // CHECK-NEXT: llvm.inline_asm has_side_effects "vote.sync.ballot.b32 $0, $1, 0xffffffff;", "=r,b" %[[COUNTED]]
  // CHECK: llvm.intr.ctpop
  // CHECK: llvm.inline_asm has_side_effects "@$2 red.shared.add.u32 [ $0 ], $1;", "r,r,b"
  // CHECK-NOT: red.shared
  // CHECK: nvvm.barrier0
  // CHECK-NEXT: llvm.load %[[MINE]] {alignment = 4 : i64} : !llvm.ptr<3> -> i32
  tt.func private @hist(%x: tensor<256xi8, #b1>, %m: tensor<256xi1, #b1>) -> tensor<32xi32, #r> {
    %h = tt.histogram %x, %m : tensor<256xi8, #b1> -> tensor<32xi32, #r>
    tt.return %h : tensor<32xi32, #r>
  }
}

// -----

// A source replicated across warps (64 elements, 128 threads) counts each
// element once: only its owner's atomics (warp 0, lanes 0-31) run.
#s = #tpxgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func internal @hist_replicated(
  // CHECK-DAG: %[[THREE:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK-DAG: %[[BINS:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: nvvm.barrier0
  // CHECK: nvvm.barrier0
  // CHECK: %[[WARP:.*]] = llvm.lshr %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: %[[REPLICA:.*]] = llvm.and %[[WARP]], %[[THREE]] : i32
  // CHECK-NEXT: %[[OWNER:.*]] = llvm.icmp "eq" %[[REPLICA]], %{{.*}} : i32
  // CHECK: %[[IN:.*]] = llvm.icmp "ult" %{{.*}}, %[[BINS]] : i64
  // CHECK-NEXT: %[[COUNTED:.*]] = llvm.and %[[IN]], %[[OWNER]] : i1
  // CHECK-NEXT: llvm.trunc %{{.*}} : i64 to i32
  // CHECK: llvm.inline_asm has_side_effects "vote.sync.ballot.b32 $0, $1, 0xffffffff;", "=r,b" %[[COUNTED]]
  // CHECK: llvm.inline_asm has_side_effects "@$2 red.shared.add.u64 [ $0 ], $1;", "r,l,b"
  tt.func private @hist_replicated(%x: tensor<64xi64, #s>) -> tensor<16xi64, #s> {
    %h = tt.histogram %x : tensor<64xi64, #s> -> tensor<16xi64, #s>
    tt.return %h : tensor<16xi64, #s>
  }
}
