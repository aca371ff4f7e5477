// RUN: tpx-opt %s -split-input-file --tpxgpu-convert-to-buffer-ops -mlir-print-debuginfo=false | FileCheck %s

// tpxgpu-convert-to-buffer-ops: a tt.load/tt.store off splat(scalar base) +
// i32 offsets becomes a tpxgpu.buffer_load/buffer_store when the integer
// range analysis proves every element's bytes in [0, 0x7FFFFFFE).

#b = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {
  // The block's start moves into the scalar base; the offsets are
  // make_range's [0, 1023]. The mask, `other`, the cache modifier and the
  // contiguity carry over; the 64-bit pointer tensors are gone.
  // CHECK-LABEL: tt.func public @vadd
  // CHECK: %[[RANGE:.*]] = tt.make_range
  // CHECK: %[[X:.*]] = tt.addptr %arg0, %{{.*}} : !tt.ptr<f32>, i32
  // CHECK: tpxgpu.buffer_load %[[X]][%[[RANGE]]] mask %[[M:[^ ]*]] other %{{[^ ]*}} cacheModifier = cg {tpxgpu.contiguity = array<i64: 4>} : !tt.ptr<f32>, tensor<1024xi32, #blocked> -> tensor<1024xf32, #blocked>
  // CHECK: %[[Z:.*]] = tt.addptr %arg1
  // CHECK: tpxgpu.buffer_store %{{.*}}, %[[Z]][%[[RANGE]]] mask %[[M]] {tpxgpu.contiguity = array<i64: 4>} : tensor<1024xf32, #blocked>, tensor<1024xi32, #blocked> -> !tt.ptr<f32>
  // CHECK-NOT: tt.splat %{{.*}} : !tt.ptr
  // CHECK-NOT: tt.load
  // CHECK-NOT: tt.store
  tt.func public @vadd(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %z_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c1024 = arith.constant 1024 : i32
    %one = arith.constant dense<1.0> : tensor<1024xf32, #b>
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c1024 : i32
    %rest = arith.subi %n, %start : i32
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %rests = tt.splat %rest : i32 -> tensor<1024xi32, #b>
    %mask = arith.cmpi slt, %range, %rests : tensor<1024xi32, #b>
    %x_row = tt.addptr %x_ptr, %start : !tt.ptr<f32>, i32
    %x0 = tt.splat %x_row : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    %x = tt.addptr %x0, %range : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %v = tt.load %x, %mask, %one cacheModifier = cg {tpxgpu.contiguity = array<i64: 4>} : tensor<1024x!tt.ptr<f32>, #b>
    %z_row = tt.addptr %z_ptr, %start : !tt.ptr<f32>, i32
    %z0 = tt.splat %z_row : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    %z = tt.addptr %z0, %range : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    tt.store %z, %v, %mask {tpxgpu.contiguity = array<i64: 4>} : tensor<1024x!tt.ptr<f32>, #b>
    tt.return
  }

  // Offsets from program ids within a bounded grid slot: pid % 64 * 1024 +
  // range is in [0, 65535]; two addptrs are summed, and the sum is built
  // next to the pointers, outside the loop.
  // CHECK-LABEL: tt.func public @two_steps
  // CHECK: %[[SUM:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<1024xi32, #blocked>
  // CHECK: scf.for
  // CHECK: tpxgpu.buffer_load %arg0[%[[SUM]]] :
  tt.func public @two_steps(%x_ptr: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : i32
    %c1024 = arith.constant 1024 : i32
    %pid = tt.get_program_id x : i32
    %slot = arith.remui %pid, %c64 : i32
    %start = arith.muli %slot, %c1024 : i32
    %starts = tt.splat %start : i32 -> tensor<1024xi32, #b>
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %x0 = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    %x1 = tt.addptr %x0, %starts : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %x = tt.addptr %x1, %range : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %zero = arith.constant dense<0.0> : tensor<1024xf32, #b>
    %acc = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (tensor<1024xf32, #b>) {
      %v = tt.load %x : tensor<1024x!tt.ptr<f32>, #b>
      %s = arith.addf %a, %v : tensor<1024xf32, #b>
      scf.yield %s : tensor<1024xf32, #b>
    }
    %o0 = tt.splat %out : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    %o = tt.addptr %o0, %range : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    tt.store %o, %acc : tensor<1024x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

#r = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #tpxgpu.slice<{dim = 1, parent = #r}>
#col = #tpxgpu.slice<{dim = 0, parent = #r}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {
  // A 2-D tile: rows * 64 + cols through expand_dims and broadcast, the
  // shape ops replayed on the i32 offsets.
  // CHECK-LABEL: tt.func public @tile
  // CHECK: %[[R:.*]] = arith.muli %{{.*}}, %{{.*}} : tensor<16xi32, #slice>
  // CHECK: %[[RE:.*]] = tt.expand_dims %[[R]] {axis = 1 : i32} : tensor<16xi32, {{.*}}> -> tensor<16x1xi32, #blocked>
  // CHECK: %[[RB:.*]] = tt.broadcast %[[RE]] : tensor<16x1xi32, #blocked> -> tensor<16x64xi32, #blocked>
  // CHECK: %[[SUM:.*]] = arith.addi %[[RB]], %{{.*}} : tensor<16x64xi32, #blocked>
  // CHECK: tpxgpu.buffer_load %arg0[%[[SUM]]] : !tt.ptr<f16>, tensor<16x64xi32, #blocked> -> tensor<16x64xf16, #blocked>
  tt.func public @tile(%p: !tt.ptr<f16>, %q: !tt.ptr<f16>) {
    %c64 = arith.constant dense<64> : tensor<16xi32, #row>
    %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #row>
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #col>
    %rs = arith.muli %rows, %c64 : tensor<16xi32, #row>
    %base = tt.splat %p : !tt.ptr<f16> -> tensor<16x!tt.ptr<f16>, #row>
    %rowp = tt.addptr %base, %rs : tensor<16x!tt.ptr<f16>, #row>, tensor<16xi32, #row>
    %rowe = tt.expand_dims %rowp {axis = 1 : i32} : tensor<16x!tt.ptr<f16>, #row> -> tensor<16x1x!tt.ptr<f16>, #r>
    %rowb = tt.broadcast %rowe : tensor<16x1x!tt.ptr<f16>, #r> -> tensor<16x64x!tt.ptr<f16>, #r>
    %ce = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #col> -> tensor<1x64xi32, #r>
    %cb = tt.broadcast %ce : tensor<1x64xi32, #r> -> tensor<16x64xi32, #r>
    %ptrs = tt.addptr %rowb, %cb : tensor<16x64x!tt.ptr<f16>, #r>, tensor<16x64xi32, #r>
    %v = tt.load %ptrs : tensor<16x64x!tt.ptr<f16>, #r>
    %q0 = tt.splat %q : !tt.ptr<f16> -> tensor<16x64x!tt.ptr<f16>, #r>
    // CHECK: tpxgpu.buffer_store %{{.*}}, %arg1[%{{.*}}] : tensor<16x64xf16, #blocked>
    tt.store %q0, %v : tensor<16x64x!tt.ptr<f16>, #r>
    tt.return
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {
  // Accesses that stay tt.load / tt.store.
  // CHECK-LABEL: tt.func public @not_provable
  // CHECK-NOT: tpxgpu.buffer
  // CHECK: tt.load
  // CHECK: tt.load
  // CHECK: tt.load
  // CHECK: tt.load
  // CHECK: tt.load
  // CHECK: tt.store
  // CHECK-NOT: tpxgpu.buffer
  tt.func public @not_provable(%x_ptr: !tt.ptr<f32>, %i64_ptr: !tt.ptr<f64>, %n: i32, %ptrs: tensor<1024x!tt.ptr<f32>, #b>, %wide: tensor<1024xi64, #b>) {
    %c1024 = arith.constant 1024 : i32
    %pid = tt.get_program_id x : i32
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %x0 = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    // pid * 1024 + range: the grid may have 2^24 blocks of 256 threads, so
    // the product overflows i32 and the sum may be negative.
    %start = arith.muli %pid, %c1024 : i32
    %starts = tt.splat %start : i32 -> tensor<1024xi32, #b>
    %offs = arith.addi %starts, %range : tensor<1024xi32, #b>
    %a = tt.addptr %x0, %offs : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %va = tt.load %a : tensor<1024x!tt.ptr<f32>, #b>
    // range - n: n is any i32, so the offsets may be negative.
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #b>
    %back = arith.subi %range, %ns : tensor<1024xi32, #b>
    %b = tt.addptr %x0, %back : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %vb = tt.load %b : tensor<1024x!tt.ptr<f32>, #b>
    // i64 offsets.
    %c = tt.addptr %x0, %wide : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi64, #b>
    %vc = tt.load %c : tensor<1024x!tt.ptr<f32>, #b>
    // Not a splat of a scalar pointer: a pointer tensor passed in.
    %d = tt.addptr %ptrs, %range : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %vd = tt.load %d : tensor<1024x!tt.ptr<f32>, #b>
    // In range as elements but not as bytes: range * 2^20 f64 reaches
    // 2^33 bytes.
    %big = arith.constant dense<1048576> : tensor<1024xi32, #b>
    %far = arith.muli %range, %big : tensor<1024xi32, #b>
    %e0 = tt.splat %i64_ptr : !tt.ptr<f64> -> tensor<1024x!tt.ptr<f64>, #b>
    %e = tt.addptr %e0, %far : tensor<1024x!tt.ptr<f64>, #b>, tensor<1024xi32, #b>
    %ve = tt.load %e : tensor<1024x!tt.ptr<f64>, #b>
    %s = arith.addf %va, %vb : tensor<1024xf32, #b>
    %t = arith.addf %s, %vc : tensor<1024xf32, #b>
    %u = arith.addf %t, %vd : tensor<1024xf32, #b>
    tt.store %a, %u : tensor<1024x!tt.ptr<f32>, #b>
    tt.return
  }
}
