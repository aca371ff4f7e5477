// tlx-lower-tasks-to-tpxgpu: on sm_90a each tlx.async_task (and replica)
// becomes a partition of a tpxgpu.warp_specialize on warps of its own, so
// that convert-tt-to-tpxgpu gives its tensors layouts over those warps.
// The default task takes the kernel's warps 0..num-warps-1; the others
// follow, largest first, each at a multiple of its size; num_regs stays
// only on whole warp groups; replica ids become constants; tensors from
// outside are recomputed in each task.
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s -split-input-file --tlx-lower-tasks-to-tpxgpu=num-warps=4 --mlir-print-debuginfo=false | FileCheck %s

// CHECK-LABEL: tt.func public @placed
// CHECK: %[[BARS:.*]] = tlx.alloc_barriers
// CHECK: tpxgpu.warp_specialize num_warps = [4, 4, 4, 1] warp_starts = [0, 4, 8, 12] num_regs = [0, 232, 232, 0] {
// CHECK:   tlx.barrier_wait
// CHECK: }, {
// CHECK:   %[[R0:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK:   %[[ID0:.*]] = arith.constant 0 : i32
// CHECK:   tt.splat %[[ID0]]
// CHECK:   tt.addptr %{{.*}}, %[[R0]]
// CHECK: }, {
// CHECK:   tt.make_range
// CHECK:   %[[ID1:.*]] = arith.constant 1 : i32
// CHECK:   tt.splat %[[ID1]]
// CHECK: }, {
// CHECK:   tlx.barrier_view %[[BARS]]
// CHECK:   tlx.barrier_arrive
// CHECK: }
// CHECK-NOT: tlx.async_task
tt.func public @placed(%out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %bars = tlx.alloc_barriers arrive_count = 1 : <2>
  %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  tlx.async_tasks {
    tlx.async_task attributes {isDefault} {
      %b0 = tlx.barrier_view %bars[%n] : <2>
      tlx.barrier_wait %b0, %n
    }
    tlx.async_task attributes {numRegs = 40 : i32, numWarps = 1 : i32} {
      %c0 = arith.constant 0 : i32
      %b0 = tlx.barrier_view %bars[%c0] : <2>
      tlx.barrier_arrive %b0, 1
    }
    tlx.async_task attributes {numRegs = 232 : i32, numWarps = 4 : i32, replicate = 2 : i32} {
      %r = tlx.async_task_replica_id
      %s = tt.splat %r : i32 -> tensor<64xi32>
      %v = arith.addi %offs, %s : tensor<64xi32>
      %f = arith.sitofp %v : tensor<64xi32> to tensor<64xf32>
      %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
      %q = tt.addptr %p, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
      tt.store %q, %f : tensor<64x!tt.ptr<f32>>
    }
  }
  tt.return
}

// -----

// warp_group_start_id places a task's replicas one after the other.
// CHECK-LABEL: tt.func public @explicit
// CHECK: tpxgpu.warp_specialize num_warps = [4, 2, 2] warp_starts = [0, 8, 10] num_regs = [0, 0, 0]
tt.func public @explicit(%n: i32) {
  %bars = tlx.alloc_barriers arrive_count = 1 : <1>
  tlx.async_tasks {
    tlx.async_task attributes {isDefault} {
      %b0 = tlx.barrier_view %bars[%n] : <1>
      tlx.barrier_wait %b0, %n
    }
    tlx.async_task attributes {numWarps = 2 : i32, replicate = 2 : i32, warpGroupStartId = 8 : i32} {
      %b0 = tlx.barrier_view %bars[%n] : <1>
      tlx.barrier_arrive %b0, 1
    }
  }
  tt.return
}

