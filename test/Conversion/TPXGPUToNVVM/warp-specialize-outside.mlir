// Around a tpxgpu.warp_specialize that needs more warps than the module's,
// every warp runs the code, the extra ones repeating the first ones'
// elements: stores and atomics there act only in the module's warps (warp
// id < tpxgpu.num-warps) besides the layout's unique owner, so that an
// atomic is applied once. Inside partitions, nothing is added.
// RUN: tpx-opt %s --convert-tt-to-tpxgpu=num-warps=4 --convert-tpxgpu-to-nvvm -mlir-print-debuginfo=false | FileCheck %s

// CHECK-LABEL: llvm.func @atomic_after
// CHECK-SAME: nvvm.reqntid = array<i32: 256, 1, 1>
// CHECK: nvvm.barrier0
// CHECK: nvvm.barrier0
// (512 elements: four a thread of the module's 128, which own them all;
// the extra warps' copies must not add again.)
// CHECK: %[[OWN:.*]] = llvm.icmp "ult" %{{.*}}, %{{.*}} : i32
// CHECK: atom.relaxed.gpu.global.add.u32 {{.*}}, %[[OWN]]
tt.func public @atomic_after(%out: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
  tpxgpu.warp_specialize num_warps = [4] warp_starts = [4] num_regs = [0] {
    tpxgpu.warp_yield
  }
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %p = tt.splat %out : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>>
  %q = tt.addptr %p, %r : tensor<512x!tt.ptr<i32>>, tensor<512xi32>
  %o = tt.atomic_rmw add, relaxed, gpu, %q, %r : (tensor<512x!tt.ptr<i32>>, tensor<512xi32>) -> tensor<512xi32>
  tt.return
}
