// Global loads and stores: one vector access per group of registers that
// hold consecutive elements at consecutive, aligned addresses under one
// mask value (tpxgpu.contiguity, which tpxgpu-annotate-contiguity derives
// from the AxisInfo analysis); one element per instruction otherwise.
// RUN: tpx-opt %s --tpxgpu-annotate-contiguity --convert-tpxgpu-to-nvvm | FileCheck %s

#b1d = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1d8 = #tpxgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#rows = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #tpxgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#rows_r = #tpxgpu.slice<{dim = 1, parent = #rows}>
#rows_c = #tpxgpu.slice<{dim = 0, parent = #rows}>
#cols_r = #tpxgpu.slice<{dim = 1, parent = #cols}>
#cols_c = #tpxgpu.slice<{dim = 0, parent = #cols}>

module attributes {tpxgpu.codegen = "simt", "tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {

// The vector add: 1024 f32 over 128 threads of 4 consecutive registers,
// twice. Pointers 16-byte aligned, n a multiple of 16, so a block of 4 is
// either wholly in bounds or wholly out: one predicated 16-byte access per
// block, the masked-off registers taking 0. The asm has a side effect so
// that LLVM keeps it after earlier stores (it reads memory).
// CHECK-LABEL: llvm.func @vadd
// CHECK-NOT: ld.global.b32
// CHECK: llvm.inline_asm has_side_effects "@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 ];\0A\09@!$5 mov.b32 $0, $6;\0A\09@!$5 mov.b32 $1, $7;\0A\09@!$5 mov.b32 $2, $8;\0A\09@!$5 mov.b32 $3, $9;", "=r,=r,=r,=r,l,b,r,r,r,r" %{{.*}} : (!llvm.ptr<1>, i1, i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-3: ld.global.v4.b32
// CHECK-NOT: ld.global
// CHECK: llvm.inline_asm has_side_effects "@$5 st.global.v4.b32 [ $0 ], { $1, $2, $3, $4 };", "l,r,r,r,r,b" %{{.*}} : (!llvm.ptr<1>, i32, i32, i32, i32, i1) -> ()
// CHECK: st.global.v4.b32
// CHECK-NOT: st.global
// CHECK: llvm.return
tt.func public @vadd(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %z_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
  %c1024_i32 = arith.constant 1024 : i32
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c1024_i32 : i32
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1d>
  %starts = tt.splat %start : i32 -> tensor<1024xi32, #b1d>
  %offs = arith.addi %starts, %range : tensor<1024xi32, #b1d>
  %ns = tt.splat %n : i32 -> tensor<1024xi32, #b1d>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32, #b1d>
  %z0 = tt.splat %z_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1d>
  %z = tt.addptr %z0, %offs : tensor<1024x!tt.ptr<f32>, #b1d>, tensor<1024xi32, #b1d>
  %x0 = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1d>
  %x = tt.addptr %x0, %offs : tensor<1024x!tt.ptr<f32>, #b1d>, tensor<1024xi32, #b1d>
  %xv = tt.load %x, %mask : tensor<1024x!tt.ptr<f32>, #b1d>
  %y0 = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1d>
  %y = tt.addptr %y0, %offs : tensor<1024x!tt.ptr<f32>, #b1d>, tensor<1024xi32, #b1d>
  %yv = tt.load %y, %mask : tensor<1024x!tt.ptr<f32>, #b1d>
  %sum = arith.addf %xv, %yv : tensor<1024xf32, #b1d>
  tt.store %z, %sum, %mask : tensor<1024x!tt.ptr<f32>, #b1d>
  tt.return
}

// The same with n of unknown alignment (the corpus' vadd): the bound can
// fall inside a block, so every element keeps its own predicate.
// CHECK-LABEL: llvm.func @vadd_unaligned_bound
// CHECK-NOT: .v4.
// CHECK-COUNT-16: "@$2 ld.global.b32 $0, [ $1 ];\0A\09@!$2 mov.b32 $0, $3;"
// CHECK-COUNT-8: "@$2 st.global.b32 [ $0 ], $1;"
// CHECK: llvm.return
tt.func public @vadd_unaligned_bound(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %z_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c1024_i32 = arith.constant 1024 : i32
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c1024_i32 : i32
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1d>
  %starts = tt.splat %start : i32 -> tensor<1024xi32, #b1d>
  %offs = arith.addi %starts, %range : tensor<1024xi32, #b1d>
  %ns = tt.splat %n : i32 -> tensor<1024xi32, #b1d>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32, #b1d>
  %z0 = tt.splat %z_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1d>
  %z = tt.addptr %z0, %offs : tensor<1024x!tt.ptr<f32>, #b1d>, tensor<1024xi32, #b1d>
  %x0 = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1d>
  %x = tt.addptr %x0, %offs : tensor<1024x!tt.ptr<f32>, #b1d>, tensor<1024xi32, #b1d>
  %xv = tt.load %x, %mask : tensor<1024x!tt.ptr<f32>, #b1d>
  %y0 = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1d>
  %y = tt.addptr %y0, %offs : tensor<1024x!tt.ptr<f32>, #b1d>, tensor<1024xi32, #b1d>
  %yv = tt.load %y, %mask : tensor<1024x!tt.ptr<f32>, #b1d>
  %sum = arith.addf %xv, %yv : tensor<1024xf32, #b1d>
  tt.store %z, %sum, %mask : tensor<1024x!tt.ptr<f32>, #b1d>
  tt.return
}

// No alignment hint on the pointer: consecutive, but a 16-byte access
// might straddle its alignment. One element per instruction.
// CHECK-LABEL: llvm.func @copy_unaligned_pointer
// CHECK-NOT: vector<
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NOT: vector<
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NOT: vector<
// CHECK: llvm.return
tt.func public @copy_unaligned_pointer(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b1d>
  %s0 = tt.splat %src : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b1d>
  %s = tt.addptr %s0, %range : tensor<512x!tt.ptr<f32>, #b1d>, tensor<512xi32, #b1d>
  %v = tt.load %s : tensor<512x!tt.ptr<f32>, #b1d>
  %d0 = tt.splat %dst : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b1d>
  %d1 = tt.addptr %d0, %range : tensor<512x!tt.ptr<f32>, #b1d>, tensor<512xi32, #b1d>
  // Shifted by one element: consecutive, but each block of 4 starts 4 bytes
  // past a 16-byte boundary.
  %one = arith.constant dense<1> : tensor<512xi32, #b1d>
  %d = tt.addptr %d1, %one : tensor<512x!tt.ptr<f32>, #b1d>, tensor<512xi32, #b1d>
  tt.store %d, %v : tensor<512x!tt.ptr<f32>, #b1d>
  tt.return
}

// Offsets shifted by 2 elements keep 8-byte alignment: pairs.
// CHECK-LABEL: llvm.func @copy_pairs
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xi32>
// CHECK-NOT: llvm.load
// CHECK: llvm.return
tt.func public @copy_pairs(%src: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %dst: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b1d>
  %two = arith.constant dense<2> : tensor<512xi32, #b1d>
  %offs = arith.addi %range, %two : tensor<512xi32, #b1d>
  %s0 = tt.splat %src : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b1d>
  %s = tt.addptr %s0, %offs : tensor<512x!tt.ptr<f32>, #b1d>, tensor<512xi32, #b1d>
  %v = tt.load %s : tensor<512x!tt.ptr<f32>, #b1d>
  %d0 = tt.splat %dst : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b1d>
  %d = tt.addptr %d0, %range : tensor<512x!tt.ptr<f32>, #b1d>, tensor<512xi32, #b1d>
  tt.store %d, %v : tensor<512x!tt.ptr<f32>, #b1d>
  tt.return
}

// f16, 8 registers per thread: 16 bytes, four 32-bit words holding two
// halves each (the lower element in the lower half). With a mask and a
// non-zero `other`, the masked-off words are the packed others.
// CHECK-LABEL: llvm.func @copy_f16
// CHECK: %[[V:.*]] = llvm.bitcast %{{.*}} : vector<8xi16> to vector<4xi32>
// CHECK: %[[W0:.*]] = llvm.extractelement %[[V]][%{{.*}} : i32] : vector<4xi32>
// CHECK: llvm.inline_asm has_side_effects "@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 ];{{.*}}", "=r,=r,=r,=r,l,b,r,r,r,r" %{{.*}}, %{{.*}}, %[[W0]], %{{.*}}, %{{.*}}, %{{.*}} : (!llvm.ptr<1>, i1, i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: llvm.bitcast %{{.*}} : vector<4xi32> to vector<8xi16>
// CHECK-COUNT-8: llvm.bitcast %{{.*}} : i16 to f16
// CHECK: st.global.v4.b32 [ $0 ], { $1, $2, $3, $4 };
// CHECK-NOT: st.global
// CHECK: llvm.return
tt.func public @copy_f16(%src: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %dst: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1d8>
  %ns = tt.splat %n : i32 -> tensor<1024xi32, #b1d8>
  %mask = arith.cmpi slt, %range, %ns : tensor<1024xi32, #b1d8>
  %other = arith.constant dense<1.0> : tensor<1024xf16, #b1d8>
  %s0 = tt.splat %src : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b1d8>
  %s = tt.addptr %s0, %range : tensor<1024x!tt.ptr<f16>, #b1d8>, tensor<1024xi32, #b1d8>
  %v = tt.load %s, %mask, %other : tensor<1024x!tt.ptr<f16>, #b1d8>
  %d0 = tt.splat %dst : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b1d8>
  %d = tt.addptr %d0, %range : tensor<1024x!tt.ptr<f16>, #b1d8>, tensor<1024xi32, #b1d8>
  tt.store %d, %v, %mask : tensor<1024x!tt.ptr<f16>, #b1d8>
  tt.return
}

// Without a mask: plain aligned vector loads and stores for LLVM.
// CHECK-LABEL: llvm.func @copy_f16_unmasked
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// CHECK-NOT: llvm.load
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: llvm.return
tt.func public @copy_f16_unmasked(%src: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %dst: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1d8>
  %s0 = tt.splat %src : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b1d8>
  %s = tt.addptr %s0, %range : tensor<1024x!tt.ptr<f16>, #b1d8>, tensor<1024xi32, #b1d8>
  %v = tt.load %s : tensor<1024x!tt.ptr<f16>, #b1d8>
  %d0 = tt.splat %dst : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b1d8>
  %d = tt.addptr %d0, %range : tensor<1024x!tt.ptr<f16>, #b1d8>, tensor<1024xi32, #b1d8>
  tt.store %d, %v : tensor<1024x!tt.ptr<f16>, #b1d8>
  tt.return
}

// A row-major 32x64 tile, base + row * stride + col with a stride that is a
// multiple of 16 elements (the matmul's pointer arithmetic): each thread's
// 4 registers along a row are one 16-byte access; the row mask is constant
// along the row. 2048 elements over 128 threads: 4 accesses each.
// CHECK-LABEL: llvm.func @tile_rows
// CHECK-COUNT-4: ld.global.v4.b32
// CHECK-NOT: ld.global
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK: llvm.return
tt.func public @tile_rows(%src: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %dst: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %m: i32) {
  %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #rows_r>
  %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #rows_c>
  %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #rows_r> -> tensor<32x1xi32, #rows>
  %strides = tt.splat %stride : i32 -> tensor<32x1xi32, #rows>
  %roff = arith.muli %r2, %strides : tensor<32x1xi32, #rows>
  %base = tt.splat %src : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>, #rows>
  %rowp = tt.addptr %base, %roff : tensor<32x1x!tt.ptr<f32>, #rows>, tensor<32x1xi32, #rows>
  %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #rows_c> -> tensor<1x64xi32, #rows>
  %rowpb = tt.broadcast %rowp : tensor<32x1x!tt.ptr<f32>, #rows> -> tensor<32x64x!tt.ptr<f32>, #rows>
  %cb = tt.broadcast %c2 : tensor<1x64xi32, #rows> -> tensor<32x64xi32, #rows>
  %p = tt.addptr %rowpb, %cb : tensor<32x64x!tt.ptr<f32>, #rows>, tensor<32x64xi32, #rows>
  %ms = tt.splat %m : i32 -> tensor<32x1xi32, #rows>
  %rmask = arith.cmpi slt, %r2, %ms : tensor<32x1xi32, #rows>
  %mask = tt.broadcast %rmask : tensor<32x1xi1, #rows> -> tensor<32x64xi1, #rows>
  %v = tt.load %p, %mask : tensor<32x64x!tt.ptr<f32>, #rows>
  %dbase = tt.splat %dst : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>, #rows>
  %drowp = tt.addptr %dbase, %roff : tensor<32x1x!tt.ptr<f32>, #rows>, tensor<32x1xi32, #rows>
  %drowpb = tt.broadcast %drowp : tensor<32x1x!tt.ptr<f32>, #rows> -> tensor<32x64x!tt.ptr<f32>, #rows>
  %dp = tt.addptr %drowpb, %cb : tensor<32x64x!tt.ptr<f32>, #rows>, tensor<32x64xi32, #rows>
  tt.store %dp, %v : tensor<32x64x!tt.ptr<f32>, #rows>
  tt.return
}

// The same addresses in a layout whose registers run down the columns:
// consecutive registers are a row stride apart, so nothing to group.
// CHECK-LABEL: llvm.func @tile_rows_column_layout
// CHECK-NOT: vector<
// CHECK-COUNT-16: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NOT: vector<
// CHECK: llvm.return
tt.func public @tile_rows_column_layout(%src: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #cols_r>
  %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols_c>
  %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #cols_r> -> tensor<32x1xi32, #cols>
  %strides = tt.splat %stride : i32 -> tensor<32x1xi32, #cols>
  %roff = arith.muli %r2, %strides : tensor<32x1xi32, #cols>
  %base = tt.splat %src : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>, #cols>
  %rowp = tt.addptr %base, %roff : tensor<32x1x!tt.ptr<f32>, #cols>, tensor<32x1xi32, #cols>
  %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #cols_c> -> tensor<1x64xi32, #cols>
  %rowpb = tt.broadcast %rowp : tensor<32x1x!tt.ptr<f32>, #cols> -> tensor<32x64x!tt.ptr<f32>, #cols>
  %cb = tt.broadcast %c2 : tensor<1x64xi32, #cols> -> tensor<32x64xi32, #cols>
  %p = tt.addptr %rowpb, %cb : tensor<32x64x!tt.ptr<f32>, #cols>, tensor<32x64xi32, #cols>
  %v = tt.load %p : tensor<32x64x!tt.ptr<f32>, #cols>
  %w = arith.addf %v, %v : tensor<32x64xf32, #cols>
  tt.store %p, %w : tensor<32x64x!tt.ptr<f32>, #cols>
  tt.return
}

// A pointer carried around a loop and advanced by whole 16-byte multiples
// stays aligned in every iteration; one advanced by 1 element does not.
// CHECK-LABEL: llvm.func @loop_carried
// CHECK: scf.for
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// CHECK-NOT: !llvm.ptr<1> -> vector
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NOT: !llvm.ptr<1> -> vector
// CHECK: scf.yield
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK: llvm.return
tt.func public @loop_carried(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b1d>
  %zero = arith.constant dense<0.0> : tensor<512xf32, #b1d>
  %step16 = arith.constant dense<512> : tensor<512xi32, #b1d>
  %step1 = arith.constant dense<1> : tensor<512xi32, #b1d>
  %a0 = tt.splat %a : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b1d>
  %a1 = tt.addptr %a0, %range : tensor<512x!tt.ptr<f32>, #b1d>, tensor<512xi32, #b1d>
  %b0 = tt.splat %b : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b1d>
  %b1 = tt.addptr %b0, %range : tensor<512x!tt.ptr<f32>, #b1d>, tensor<512xi32, #b1d>
  %res:3 = scf.for %i = %c0 to %k step %c1 iter_args(%pa = %a1, %pb = %b1, %acc = %zero) -> (tensor<512x!tt.ptr<f32>, #b1d>, tensor<512x!tt.ptr<f32>, #b1d>, tensor<512xf32, #b1d>) : i32 {
    %va = tt.load %pa : tensor<512x!tt.ptr<f32>, #b1d>
    %vb = tt.load %pb : tensor<512x!tt.ptr<f32>, #b1d>
    %s = arith.addf %va, %vb : tensor<512xf32, #b1d>
    %acc2 = arith.addf %acc, %s : tensor<512xf32, #b1d>
    %na = tt.addptr %pa, %step16 : tensor<512x!tt.ptr<f32>, #b1d>, tensor<512xi32, #b1d>
    %nb = tt.addptr %pb, %step1 : tensor<512x!tt.ptr<f32>, #b1d>, tensor<512xi32, #b1d>
    scf.yield %na, %nb, %acc2 : tensor<512x!tt.ptr<f32>, #b1d>, tensor<512x!tt.ptr<f32>, #b1d>, tensor<512xf32, #b1d>
  }
  %o0 = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b1d>
  %o = tt.addptr %o0, %range : tensor<512x!tt.ptr<f32>, #b1d>, tensor<512xi32, #b1d>
  tt.store %o, %res#2 : tensor<512x!tt.ptr<f32>, #b1d>
  tt.return
}

}
