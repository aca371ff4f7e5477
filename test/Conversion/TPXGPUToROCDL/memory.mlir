// convert-tpxgpu-to-rocdl over wave64 layouts: thread ids are ROCDL's,
// a masked access is a branch (scf.if) around a plain vector load or
// store (the wavefront's exec mask), and the kernel is an rocdl.kernel
// with its flat work-group size.
// RUN: tpx-opt %s --tpxgpu-annotate-contiguity --convert-tpxgpu-to-rocdl | FileCheck %s

#b1d = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {

// 1024 f32 over 256 lanes of 4 consecutive registers: one 16-byte access
// per block of 4 under its mask, zero where masked off.
// CHECK-LABEL: llvm.func @vadd
// CHECK-SAME: rocdl.flat_work_group_size = "256,256"
// CHECK-SAME: rocdl.kernel
// CHECK-SAME: rocdl.reqd_work_group_size = array<i32: 256, 1, 1>
// CHECK: rocdl.workgroup.id.x
// CHECK: rocdl.workitem.id.x
// CHECK: %[[LOADED:.*]] = scf.if %{{.*}} -> (vector<4xi32>) {
// CHECK-NEXT: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// CHECK: } else {
// CHECK-NEXT: scf.yield %{{.*}} : vector<4xi32>
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK-NOT: llvm.inline_asm
// CHECK: llvm.return
tt.func public @vadd(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %z_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
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
  %z0 = tt.splat %z_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1d>
  %z = tt.addptr %z0, %offs : tensor<1024x!tt.ptr<f32>, #b1d>, tensor<1024xi32, #b1d>
  tt.store %z, %xv, %mask : tensor<1024x!tt.ptr<f32>, #b1d>
  tt.return
}

// A reduction across the lanes: butterflies over the 64 lanes of the
// wavefront: DPP quad permutations for lane ^ 1 and ^ 2, ds_swizzle for
// ^ 4, ^ 8, ^ 16 and ds_bpermute for ^ 32; then the 4 waves meet in LDS
// between workgroup barriers.
// CHECK-LABEL: llvm.func @sum
// CHECK: rocdl.update.dpp {{.*}} with 177, 15, 15, true
// CHECK: rocdl.update.dpp {{.*}} with 78, 15, 15, true
// CHECK: rocdl.ds_swizzle %{{.*}}, %[[X4:.*]] :
// CHECK: rocdl.ds_swizzle
// CHECK: rocdl.ds_swizzle
// CHECK: rocdl.ds_bpermute
// CHECK-NOT: rocdl.ds_bpermute
// CHECK: llvm.fence syncscope("singlethread") seq_cst
// CHECK-NEXT: rocdl.s.waitcnt 49279
// CHECK-NEXT: rocdl.s.barrier
// CHECK-NEXT: llvm.fence syncscope("singlethread") seq_cst
// CHECK: llvm.return
tt.func public @sum(%x_ptr: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1d>
  %x0 = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1d>
  %x = tt.addptr %x0, %range : tensor<1024x!tt.ptr<f32>, #b1d>, tensor<1024xi32, #b1d>
  %xv = tt.load %x : tensor<1024x!tt.ptr<f32>, #b1d>
  %s = "tt.reduce"(%xv) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tt.reduce.return %r : f32
  }) : (tensor<1024xf32, #b1d>) -> f32
  tt.store %out, %s : !tt.ptr<f32>
  tt.return
}

// Atomics are LLVM atomics at agent scope, under the element's owner and
// mask.
// CHECK-LABEL: llvm.func @count
// CHECK: scf.if
// CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} syncscope("agent") acq_rel
// CHECK: llvm.return
tt.func public @count(%p: !tt.ptr<i32>) {
  %one = arith.constant 1 : i32
  %old = tt.atomic_rmw add, acq_rel, gpu, %p, %one : (!tt.ptr<i32>, i32) -> i32
  tt.return
}
}
