// RUN: tpx-opt %s -split-input-file --tpxgpu-lower-layout-conversions -mlir-print-debuginfo=false | FileCheck %s
// RUN: tpx-opt %s -split-input-file --tpxgpu-lower-layout-conversions --tpxgpu-allocate-shared-memory -mlir-print-debuginfo=false | FileCheck %s --check-prefix=ALLOC

// A transpose-like conversion (rows to columns) moves data between threads:
// it becomes a padded buffer (16 bytes after every 32-half row) between two
// barriers. In a device function the first barrier stays: a caller may have
// used the bytes just before the call.

#row = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tpxgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK: #[[PAD:.*]] = #tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>
  // CHECK-LABEL: tt.func private @transpose(
  // CHECK-SAME: %[[X:.*]]: tensor<32x32xf16, #{{.*}}>
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: %[[M:.*]] = tpxgpu.local_alloc %[[X]] : tensor<32x32xf16, #{{.*}}> -> !tpxgpu.memdesc<32x32xf16, #[[PAD]]>
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: %[[Y:.*]] = tpxgpu.local_load %[[M]] : !tpxgpu.memdesc<32x32xf16, #[[PAD]]> -> tensor<32x32xf16, #{{.*}}>
  // CHECK-NEXT: tt.return %[[Y]]
  // 32 rows of 32 + 8 halves.
  // ALLOC: "tpxgpu.shared-bytes" = 2560
  // ALLOC: tpxgpu.local_alloc %{{.*}} {"tpxgpu.shared-offset" = 0 : i64}
  tt.func private @transpose(%x: tensor<32x32xf16, #row>) -> tensor<32x32xf16, #col> {
    %y = tpxgpu.convert_layout %x : tensor<32x32xf16, #row> -> tensor<32x32xf16, #col>
    tt.return %y : tensor<32x32xf16, #col>
  }
}

// -----

// In a kernel, the first shared-memory user needs no leading barrier; the
// second one does (its bytes may be the first one's). A conversion that
// renames registers (an accumulator that already is operand A) stays.

#row = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tpxgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#a = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @kernel(
  // CHECK-NEXT: tpxgpu.convert_layout %{{.*}} : tensor<64x32xf16, #{{.*}}> -> tensor<64x32xf16, #{{.*}}>
  // CHECK-NEXT: %[[M0:.*]] = tpxgpu.local_alloc
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: %[[Y0:.*]] = tpxgpu.local_load %[[M0]]
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: %[[M1:.*]] = tpxgpu.local_alloc %[[Y0]]
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: tpxgpu.local_load %[[M1]]
  // Both buffers start at 0: their live ranges do not overlap.
  // ALLOC-LABEL: tt.func public @kernel(
  // ALLOC: tpxgpu.local_alloc %{{.*}} {"tpxgpu.shared-offset" = 0 : i64}
  // ALLOC: tpxgpu.local_alloc %{{.*}} {"tpxgpu.shared-offset" = 0 : i64}
  tt.func public @kernel(%x: tensor<32x32xf32, #row>, %acc: tensor<64x32xf16, #mma>, %p: tensor<32x32x!tt.ptr<f32>, #row>, %q: tensor<64x32x!tt.ptr<f16>, #a>) {
    %a = tpxgpu.convert_layout %acc : tensor<64x32xf16, #mma> -> tensor<64x32xf16, #a>
    %y = tpxgpu.convert_layout %x : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
    %z = tpxgpu.convert_layout %y : tensor<32x32xf32, #col> -> tensor<32x32xf32, #row>
    tt.store %p, %z : tensor<32x32x!tt.ptr<f32>, #row>
    tt.store %q, %a : tensor<64x32x!tt.ptr<f16>, #a>
    tt.return
  }
}

// -----

// Pointers go through shared memory as i64; booleans as bytes (16 of
// padding).

#row = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tpxgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-DAG: #[[P64:.*]] = #tpxgpu.padded_shared<{padding = 2, order = [1, 0]}>
  // CHECK-DAG: #[[P8:.*]] = #tpxgpu.padded_shared<{padding = 16, order = [1, 0]}>
  // CHECK-LABEL: tt.func private @pointers(
  // CHECK: %[[I:.*]] = tt.ptr_to_int %{{.*}} : tensor<32x32x!tt.ptr<f32>, #{{.*}}> -> tensor<32x32xi64, #{{.*}}>
  // CHECK: %[[M:.*]] = tpxgpu.local_alloc %[[I]] : tensor<32x32xi64, #{{.*}}> -> !tpxgpu.memdesc<32x32xi64, #[[P64]]>
  // CHECK: %[[L:.*]] = tpxgpu.local_load %[[M]]
  // CHECK: tt.int_to_ptr %[[L]] : tensor<32x32xi64, #{{.*}}> -> tensor<32x32x!tt.ptr<f32>, #{{.*}}>
  tt.func private @pointers(%x: tensor<32x32x!tt.ptr<f32>, #row>) -> tensor<32x32x!tt.ptr<f32>, #col> {
    %y = tpxgpu.convert_layout %x : tensor<32x32x!tt.ptr<f32>, #row> -> tensor<32x32x!tt.ptr<f32>, #col>
    tt.return %y : tensor<32x32x!tt.ptr<f32>, #col>
  }
  // CHECK-LABEL: tt.func private @booleans(
  // CHECK: tpxgpu.local_alloc %{{.*}} : tensor<32x32xi1, #{{.*}}> -> !tpxgpu.memdesc<32x32xi1, #[[P8]]>
  tt.func private @booleans(%x: tensor<32x32xi1, #row>) -> tensor<32x32xi1, #col> {
    %y = tpxgpu.convert_layout %x : tensor<32x32xi1, #row> -> tensor<32x32xi1, #col>
    tt.return %y : tensor<32x32xi1, #col>
  }
}

// -----

// In a loop whose only shared-memory users are its conversions, each
// conversion gets two buffers before the loop, one barrier separates the
// loop from what came before (a device function's caller), and inside the
// loop each conversion stores into buffer ((i - 3) / 2) % 2 with no leading
// barrier.

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func private @loop(
  // CHECK: %[[C3:.*]] = arith.constant 3 : i32
  // CHECK: %[[C2:.*]] = arith.constant 2 : i32
  // CHECK: %[[A:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<2x64x64xf16, #[[PAD:.*]], mutable>
  // CHECK-NEXT: %[[B:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<2x64x64xf16, #[[PAD]], mutable>
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: scf.for %[[I:.*]] = %[[C3]] to %{{.*}} step %[[C2]]
  // CHECK-NEXT: %[[D:.*]] = arith.subi %[[I]], %[[C3]] : i32
  // CHECK-NEXT: %[[T:.*]] = arith.divsi %[[D]], %[[C2]] : i32
  // CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: %[[P:.*]] = arith.andi %[[T]], %[[ONE]] : i32
  // CHECK-NEXT: %[[VA:.*]] = tpxgpu.memdesc_index %[[A]][%[[P]]] : !tpxgpu.memdesc<2x64x64xf16, #[[PAD]], mutable> -> !tpxgpu.memdesc<64x64xf16, #[[PAD]], mutable, alloc_shape = 2x64x64>
  // CHECK-NEXT: tpxgpu.local_store %{{.*}}, %[[VA]]
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: %[[XA:.*]] = tpxgpu.local_load %[[VA]]
  // CHECK-NEXT: %[[VB:.*]] = tpxgpu.memdesc_index %[[B]][%[[P]]]
  // CHECK-NEXT: tpxgpu.local_store %{{.*}}, %[[VB]]
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: %[[XB:.*]] = tpxgpu.local_load %[[VB]]
  // CHECK-NEXT: tt.dot %[[XA]], %[[XB]]
  // CHECK-NOT: tpxgpu.barrier
  // CHECK: scf.yield
  // Two 2 x 64 x (64 + 8) half buffers, live through the loop.
  // ALLOC: "tpxgpu.shared-bytes" = 36864
  // ALLOC: tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64}
  // ALLOC: tpxgpu.local_alloc {"tpxgpu.shared-offset" = 18432 : i64}
  tt.func private @loop(%x: tensor<64x64xf16, #blocked>, %n: i32, %p: tensor<64x64x!tt.ptr<f32>, #mma>) {
    %c3 = arith.constant 3 : i32
    %c2 = arith.constant 2 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c3 to %n step %c2 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %xa = tpxgpu.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #a>
      %xb = tpxgpu.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #b>
      %d = tt.dot %xa, %xb, %acc : tensor<64x64xf16, #a> * tensor<64x64xf16, #b> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.store %p, %r : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// A loop with another shared-memory user (here a conversion under scf.if,
// which not every iteration runs) is not double-buffered: each conversion
// keeps its own leading barrier. The first conversion of the kernel's
// entry path (under scf.if, nothing before it) needs none. With an index
// induction variable starting at 0 by 1 the parity is i % 2, and a kernel
// loop with nothing before it needs no barrier in front.

#row = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tpxgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @guarded(
  // CHECK: scf.if
  // CHECK-NEXT: tpxgpu.local_alloc
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: tpxgpu.local_load
  // CHECK: scf.for
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: tpxgpu.local_alloc
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: tpxgpu.local_load
  // CHECK: scf.if
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: tpxgpu.local_alloc
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: tpxgpu.local_load
  tt.func public @guarded(%x: tensor<32x32xf32, #row>, %c: i1, %n: index, %p: tensor<32x32x!tt.ptr<f32>, #col>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.if %c {
      %y = tpxgpu.convert_layout %x : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
      tt.store %p, %y : tensor<32x32x!tt.ptr<f32>, #col>
    }
    scf.for %i = %c0 to %n step %c1 {
      %y = tpxgpu.convert_layout %x : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
      tt.store %p, %y : tensor<32x32x!tt.ptr<f32>, #col>
      scf.if %c {
        %z = tpxgpu.convert_layout %x : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
        tt.store %p, %z : tensor<32x32x!tt.ptr<f32>, #col>
      }
    }
    tt.return
  }
  // CHECK-LABEL: tt.func public @index_loop(
  // CHECK: tpxgpu.local_alloc : !tpxgpu.memdesc<2x32x32xf32
  // CHECK-NEXT: scf.for %[[I:.*]] = %{{.*}} to
  // CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
  // CHECK-NEXT: %[[P:.*]] = arith.andi %[[I]], %[[ONE]] : index
  // CHECK-NEXT: %[[P32:.*]] = arith.index_cast %[[P]] : index to i32
  // CHECK-NEXT: tpxgpu.memdesc_index %{{.*}}[%[[P32]]]
  tt.func public @index_loop(%x: tensor<32x32xf32, #row>, %n: index, %p: tensor<32x32x!tt.ptr<f32>, #col>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %y = tpxgpu.convert_layout %x : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
      tt.store %p, %y : tensor<32x32x!tt.ptr<f32>, #col>
    }
    tt.return
  }
}

// -----

// A barrier with only register arithmetic after it (a matmul epilogue after
// the pipeliner's drain barrier) already orders earlier readers before the
// conversion's stores: no second leading barrier. An op in between that
// touches memory (a load) or a reduction (its lowering uses scratch shared
// memory) keeps it.

#row = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tpxgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func private @after_barrier(
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: arith.truncf
  // CHECK-NEXT: tpxgpu.local_alloc
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: tpxgpu.local_load
  tt.func private @after_barrier(%x: tensor<32x32xf32, #row>) -> tensor<32x32xf16, #col> {
    tpxgpu.barrier
    %h = arith.truncf %x : tensor<32x32xf32, #row> to tensor<32x32xf16, #row>
    %y = tpxgpu.convert_layout %h : tensor<32x32xf16, #row> -> tensor<32x32xf16, #col>
    tt.return %y : tensor<32x32xf16, #col>
  }

  // CHECK-LABEL: tt.func private @load_between(
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: tt.load
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: tpxgpu.local_alloc
  tt.func private @load_between(%p: tensor<32x32x!tt.ptr<f16>, #row>) -> tensor<32x32xf16, #col> {
    tpxgpu.barrier
    %h = tt.load %p : tensor<32x32x!tt.ptr<f16>, #row>
    %y = tpxgpu.convert_layout %h : tensor<32x32xf16, #row> -> tensor<32x32xf16, #col>
    tt.return %y : tensor<32x32xf16, #col>
  }

  // CHECK-LABEL: tt.func private @reduce_between(
  // CHECK-NEXT: tpxgpu.barrier
  // CHECK-NEXT: tt.reduce
  // CHECK: tpxgpu.barrier
  // CHECK-NEXT: tpxgpu.local_alloc
  tt.func private @reduce_between(%x: tensor<32x32xf16, #row>) -> (tensor<32x32xf16, #col>, tensor<32xf16, #tpxgpu.slice<{dim = 0, parent = #row}>>) {
    tpxgpu.barrier
    %r = "tt.reduce"(%x) ({
    ^bb0(%a: f16, %b: f16):
      %m = arith.addf %a, %b : f16
      tt.reduce.return %m : f16
    }) {axis = 0 : i32} : (tensor<32x32xf16, #row>) -> tensor<32xf16, #tpxgpu.slice<{dim = 0, parent = #row}>>
    %y = tpxgpu.convert_layout %x : tensor<32x32xf16, #row> -> tensor<32x32xf16, #col>
    tt.return %y, %r : tensor<32x32xf16, #col>, tensor<32xf16, #tpxgpu.slice<{dim = 0, parent = #row}>>
  }
}
