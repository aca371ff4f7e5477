// What tlx-lower-tasks-to-tpxgpu rejects, naming the op: async_tasks
// that are not at a kernel's top level (the partitions are branches of the
// kernel's body), atomics around the tasks (every warp of the block runs
// that code) and tensors a task cannot recompute.
// RUN: not tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s -split-input-file --tlx-lower-tasks-to-tpxgpu=num-warps=4 2>&1 | FileCheck %s
// RUN: not tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --tlx-lower-tasks-to-tpxgpu=num-warps=3 2>&1 | FileCheck %s --check-prefix=WARPS
// WARPS: tlx-lower-tasks-to-tpxgpu: num-warps must be a power of two from 1 to 32, got 3

tt.func public @in_a_loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bars = tlx.alloc_barriers arrive_count = 1 : <1>
  scf.for %i = %c0 to %n step %c1 : i32 {
    // CHECK: [[@LINE+1]]:{{.*}} error: 'tlx.async_tasks' op must be at the top level of the kernel on sm_90a (not in a loop, a condition or a called function)
    tlx.async_tasks {
      tlx.async_task attributes {isDefault} {
        %b0 = tlx.barrier_view %bars[%c0] : <1>
        tlx.barrier_wait %b0, %i
      }
    }
  }
  tt.return
}

// -----

tt.func public @atomic_outside(%p: !tt.ptr<i32>, %n: i32) {
  %bars = tlx.alloc_barriers arrive_count = 1 : <1>
  // CHECK: [[@LINE+1]]:{{.*}} error: 'tt.atomic_rmw' op outside tlx.async_tasks in a kernel with tasks: on sm_90a every warp of the block runs the code around the tasks, so the atomic would be applied more than once; move it into a task
  %old = tt.atomic_rmw add, relaxed, gpu, %p, %n : (!tt.ptr<i32>, i32) -> i32
  tlx.async_tasks {
    tlx.async_task attributes {isDefault} {
      %b0 = tlx.barrier_view %bars[%n] : <1>
      tlx.barrier_wait %b0, %n
    }
  }
  tt.return
}

// -----

// A tensor that only a load computes cannot be recomputed in the task.
tt.func public @loaded_outside(%p: !tt.ptr<f32>) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %q = tt.addptr %s, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %x = tt.load %q : tensor<64x!tt.ptr<f32>>
  tlx.async_tasks {
    tlx.async_task attributes {isDefault} {
      // CHECK: [[@LINE+1]]:{{.*}} error: 'tt.store' op in a tlx.async_task uses a value of type 'tensor<64xf32>' computed outside tlx.async_tasks; a task can share only scalars, pointers, buffers, barriers, descriptors and what pure ops recompute from them: compute it inside the task
      tt.store %q, %x : tensor<64x!tt.ptr<f32>>
      // CHECK: [[@LINE-5]]:{{.*}} note: computed here
    }
  }
  tt.return
}
