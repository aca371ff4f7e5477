// RUN: tpx-opt %s -split-input-file --tpxgpu-annotate-contiguity -mlir-print-debuginfo=false | FileCheck %s

// tpxgpu-annotate-contiguity: per dimension, the most elements one vector
// access may move (consecutive pointers, aligned to the whole vector, one
// mask value), from the AxisInfo analysis.

#b1d = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // x 64-byte aligned: runs of 16 floats start aligned to the whole run;
  // n a multiple of 8: the mask is constant over runs of 8, which is all
  // the masked load may move; unmasked, all 16. z is 16-byte aligned: 4.
  // CHECK-LABEL: tt.func public @vadd
  // CHECK: tt.load %{{.*}}, %{{.*}} {tpxgpu.contiguity = array<i64: 8>}
  // CHECK: tt.load %{{.*}} {tpxgpu.contiguity = array<i64: 16>}
  // CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} {tpxgpu.contiguity = array<i64: 4>}
  tt.func public @vadd(%x_ptr: !tt.ptr<f32> {tt.divisibility = 64 : i32}, %z_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 8 : i32}) {
    %c1024_i32 = arith.constant 1024 : i32
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c1024_i32 : i32
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1d>
    %starts = tt.splat %start : i32 -> tensor<1024xi32, #b1d>
    %offs = arith.addi %starts, %range : tensor<1024xi32, #b1d>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #b1d>
    %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32, #b1d>
    %x0 = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1d>
    %x = tt.addptr %x0, %offs : tensor<1024x!tt.ptr<f32>, #b1d>, tensor<1024xi32, #b1d>
    %xv = tt.load %x, %mask : tensor<1024x!tt.ptr<f32>, #b1d>
    %xu = tt.load %x : tensor<1024x!tt.ptr<f32>, #b1d>
    %sum = arith.addf %xv, %xu : tensor<1024xf32, #b1d>
    %z0 = tt.splat %z_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1d>
    %z = tt.addptr %z0, %offs : tensor<1024x!tt.ptr<f32>, #b1d>, tensor<1024xi32, #b1d>
    tt.store %z, %sum, %mask : tensor<1024x!tt.ptr<f32>, #b1d>
    tt.return
  }

  // n of unknown alignment: the bound can fall anywhere, one element.
  // CHECK-LABEL: tt.func public @unaligned_bound
  // CHECK: tt.load %{{.*}}, %{{.*}} {tpxgpu.contiguity = array<i64: 1>}
  tt.func public @unaligned_bound(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<1024xf32, #b1d> {
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1d>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #b1d>
    %mask = arith.cmpi slt, %range, %ns : tensor<1024xi32, #b1d>
    %x0 = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1d>
    %x = tt.addptr %x0, %range : tensor<1024x!tt.ptr<f32>, #b1d>, tensor<1024xi32, #b1d>
    %xv = tt.load %x, %mask : tensor<1024x!tt.ptr<f32>, #b1d>
    tt.return %xv : tensor<1024xf32, #b1d>
  }

  // A base aligned to 8 bytes only: pairs of floats; with no hint at all,
  // single elements however contiguous the offsets.
  // CHECK-LABEL: tt.func public @alignment
  // CHECK: tt.load %{{.*}} {tpxgpu.contiguity = array<i64: 2>}
  // CHECK: tt.load %{{.*}} {tpxgpu.contiguity = array<i64: 1>}
  tt.func public @alignment(%p8: !tt.ptr<f32> {tt.divisibility = 8 : i32}, %p: !tt.ptr<f32>) -> tensor<1024xf32, #b1d> {
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1d>
    %a0 = tt.splat %p8 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1d>
    %a = tt.addptr %a0, %range : tensor<1024x!tt.ptr<f32>, #b1d>, tensor<1024xi32, #b1d>
    %av = tt.load %a : tensor<1024x!tt.ptr<f32>, #b1d>
    %b0 = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1d>
    %b = tt.addptr %b0, %range : tensor<1024x!tt.ptr<f32>, #b1d>, tensor<1024xi32, #b1d>
    %bv = tt.load %b : tensor<1024x!tt.ptr<f32>, #b1d>
    %s = arith.addf %av, %bv : tensor<1024xf32, #b1d>
    tt.return %s : tensor<1024xf32, #b1d>
  }

  // Atomics are annotated too; a scalar access is not, and a stale
  // attribute on one is dropped.
  // CHECK-LABEL: tt.func public @atomics_and_scalars
  // CHECK: tt.atomic_rmw fadd, relaxed, gpu, %{{.*}}, %{{.*}}, %{{.*}} {tpxgpu.contiguity = array<i64: 4>}
  // CHECK: tt.load %{{.*}} : !tt.ptr<f32>
  // CHECK-NOT: tpxgpu.contiguity
  // CHECK: tt.return
  tt.func public @atomics_and_scalars(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %v: tensor<1024xf32, #b1d>) -> f32 {
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1d>
    %c4 = arith.constant dense<4> : tensor<1024xi32, #b1d>
    %c0 = arith.constant dense<0> : tensor<1024xi32, #b1d>
    %mod = arith.remsi %range, %c4 : tensor<1024xi32, #b1d>
    %mask = arith.cmpi sge, %mod, %c0 : tensor<1024xi32, #b1d>
    %p0 = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1d>
    %ps = tt.addptr %p0, %range : tensor<1024x!tt.ptr<f32>, #b1d>, tensor<1024xi32, #b1d>
    %old = tt.atomic_rmw fadd, relaxed, gpu, %ps, %v, %mask : (tensor<1024x!tt.ptr<f32>, #b1d>, tensor<1024xf32, #b1d>, tensor<1024xi1, #b1d>) -> tensor<1024xf32, #b1d>
    %s = tt.load %p {tpxgpu.contiguity = array<i64: 4>} : !tt.ptr<f32>
    tt.return %s : f32
  }
}

// -----

#rows = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows_r = #tpxgpu.slice<{dim = 1, parent = #rows}>
#rows_c = #tpxgpu.slice<{dim = 0, parent = #rows}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // A row-major tile base + row * stride + col, stride a multiple of 16:
  // rows are 64 contiguous floats, 16-byte aligned runs of 4 only (the
  // stride's 16 elements are 64 bytes, the base 16); the row mask is
  // constant along rows, so it does not shorten them. Columns: nothing.
  // CHECK-LABEL: tt.func public @tile
  // CHECK: tt.load %{{.*}}, %{{.*}} {tpxgpu.contiguity = array<i64: 1, 4>}
  tt.func public @tile(%src: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %m: i32) -> tensor<32x64xf32, #rows> {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #rows_r>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #rows_c>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #rows_r> -> tensor<32x1xi32, #rows>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #rows_c> -> tensor<1x64xi32, #rows>
    %strides = tt.splat %stride : i32 -> tensor<32x1xi32, #rows>
    %rowoffs = arith.muli %r2, %strides : tensor<32x1xi32, #rows>
    %rowb = tt.broadcast %rowoffs : tensor<32x1xi32, #rows> -> tensor<32x64xi32, #rows>
    %colb = tt.broadcast %c2 : tensor<1x64xi32, #rows> -> tensor<32x64xi32, #rows>
    %offs = arith.addi %rowb, %colb : tensor<32x64xi32, #rows>
    %ms = tt.splat %m : i32 -> tensor<32x1xi32, #rows>
    %rmask = arith.cmpi slt, %r2, %ms : tensor<32x1xi32, #rows>
    %mask = tt.broadcast %rmask : tensor<32x1xi1, #rows> -> tensor<32x64xi1, #rows>
    %s0 = tt.splat %src : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #rows>
    %s = tt.addptr %s0, %offs : tensor<32x64x!tt.ptr<f32>, #rows>, tensor<32x64xi32, #rows>
    %v = tt.load %s, %mask : tensor<32x64x!tt.ptr<f32>, #rows>
    tt.return %v : tensor<32x64xf32, #rows>
  }
}
