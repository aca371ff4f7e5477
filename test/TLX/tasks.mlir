// Barriers, TMA copies and warp-specialized tasks: the ops, and how
// tlx-lower-to-tt runs them on the CPU (runtime calls; each task a
// function started by tpx_cpu_run_tasks through a trampoline).
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --mlir-print-debuginfo=false | tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so --mlir-print-debuginfo=false | FileCheck %s --check-prefix=ROUND
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --tlx-lower-to-tt --mlir-print-debuginfo=false | FileCheck %s
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --tlx-lower-to-tt --mlir-print-debuginfo=false | FileCheck %s --check-prefix=TID

// Named (hardware) barriers: the caller's thread count travels with the op.
// ROUND-LABEL: tt.func @named
// ROUND: tlx.named_barrier %{{.*}}, %{{.*}} {threads = 128 : i32}
// ROUND: tlx.named_barrier %{{.*}}, %{{.*}} {arriveOnly, threads = 128 : i32}
// CHECK-LABEL: tt.func @named
// CHECK: tt.call @tpx_cpu_named_barrier(%{{.*}}, %{{.*}}, %c128_i32{{[_0-9]*}}, %c1_i32{{[_0-9]*}}, %c{{[0-9]+}}_i32{{[_0-9]*}})
// CHECK: tt.call @tpx_cpu_named_barrier(%{{.*}}, %{{.*}}, %c128_i32{{[_0-9]*}}, %c0_i32{{[_0-9]*}}, %c{{[0-9]+}}_i32{{[_0-9]*}})
tt.func @named(%id: i32, %n: i32) {
  tlx.named_barrier %id, %n {threads = 128 : i32}
  tlx.named_barrier %id, %n {arriveOnly, threads = 128 : i32}
  tt.return
}

// ROUND-LABEL: tt.func @producer_consumer
// ROUND: %[[FULL:.*]] = tlx.alloc_barriers arrive_count = 1 : <2>
// ROUND: tlx.async_tasks {
// ROUND:   tlx.async_task attributes {isDefault} {
// ROUND:     tlx.barrier_wait %{{.*}}, %{{.*}}
// ROUND:   tlx.async_task attributes {numRegs = 40 : i32, numWarps = 1 : i32, replicate = 2 : i32} {
// ROUND:     tlx.async_task_replica_id
// ROUND:     tlx.barrier_expect_bytes %{{.*}}, %{{.*}}
// ROUND:     tlx.async_descriptor_load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} : <tensor<16x16xf16>>, <16x16xf16>
// ROUND:     tlx.barrier_arrive %{{.*}}, 1

// The kernel: barriers initialised where allocated, the context filled,
// the tasks started.
// CHECK-LABEL: tt.func @producer_consumer
// CHECK: tt.call @tpx_cpu_mbarrier_init(%{{.*}}, %c1_i32{{[_0-9]*}})
// CHECK: tt.call @tpx_cpu_mbarrier_init(%{{.*}}, %c1_i32{{[_0-9]*}})
// CHECK: %[[ENTRY:.*]] = tlx.function_address @producer_consumer__tlx_tasks0
// CHECK: tt.call @tpx_cpu_run_tasks(%c3_i32{{[_0-9]*}}, %[[ENTRY]], %{{.*}}) : (i32, i64, i64) -> ()
// CHECK-NOT: tlx.async_task
// The default task, then the two replicas of the producer.
// CHECK: tt.func private @producer_consumer__tlx_task0_0(
// CHECK:   tt.call @tpx_cpu_mbarrier_wait(
// CHECK: tt.func private @producer_consumer__tlx_task0_1(
// CHECK:   tt.make_tensor_descriptor
// CHECK:   tt.call @tpx_cpu_mbarrier_expect_tx(
// CHECK:   tt.descriptor_load
// CHECK:   tt.store {{.*}} : tensor<16x16x!tt.ptr<f16, 3>>
// CHECK:   tt.call @tpx_cpu_mbarrier_complete_tx(%{{.*}}, %c512_i32{{[_0-9]*}})
// CHECK: tt.func private @producer_consumer__tlx_tasks0(%{{.*}}: i32, %{{.*}}: i64)
// CHECK:   scf.index_switch
// CHECK:   case 0 {
// CHECK:     tt.call @producer_consumer__tlx_task0_0(
// CHECK:   case 1 {
// CHECK:     tt.call @producer_consumer__tlx_task0_1({{.*}}, %c0_i32{{[_0-9]*}})
// CHECK:   case 2 {
// CHECK:     tt.call @producer_consumer__tlx_task0_1({{.*}}, %c1_i32{{[_0-9]*}})
tt.func @producer_consumer(%base: !tt.ptr<f16>, %n: i32, %stride: i64) {
  %c1_i64 = arith.constant 1 : i64
  // Recomputed in the task that uses it (a descriptor is no scalar).
  %desc = tt.make_tensor_descriptor %base, [%n, %n], [%stride, %c1_i64] : <f16>, <tensor<16x16xf16>>
  %bufs = tlx.local_alloc : !tlx.buffer<2x16x16xf16>
  %full = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %empty = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %c0 = arith.constant 0 : i32
  %c512 = arith.constant 512 : i32
  tlx.async_tasks {
    tlx.async_task attributes {isDefault} {
      %f = tlx.barrier_view %full[%c0] : !tlx.mbarriers<2>
      tlx.barrier_wait %f, %c0
      %e = tlx.barrier_view %empty[%c0] : !tlx.mbarriers<2>
      tlx.barrier_arrive %e, 1
    }
    tlx.async_task attributes {numWarps = 1 : i32, numRegs = 40 : i32, replicate = 2 : i32} {
      %r = tlx.async_task_replica_id
      %f = tlx.barrier_view %full[%r] : !tlx.mbarriers<2>
      tlx.barrier_expect_bytes %f, %c512
      %b = tlx.local_view %bufs[%r] : !tlx.buffer<2x16x16xf16> -> !tlx.buffer<16x16xf16>
      tlx.async_descriptor_load %desc[%c0, %n], %b, %f : !tt.tensordesc<tensor<16x16xf16>>, !tlx.buffer<16x16xf16>
      %e = tlx.barrier_view %empty[%r] : !tlx.mbarriers<2>
      tlx.barrier_arrive %e, 1
    }
  }
  tt.return
}

// thread_id on the CPU: a task runs as the first thread of its warps
// (with num_warps 4, the 4-warp task on warps 4-7, the replicas of the
// 1-warp task on warps 8 and 9); 0 in the default task and along axes 1, 2.
// ROUND-LABEL: tt.func @thread_ids
// ROUND: tlx.thread_id 0
// TID-LABEL: tt.func @thread_ids
// TID-NOT: tlx.thread_id
// TID: tt.func private @thread_ids__tlx_task{{[0-9]+}}_0(
// TID:   tt.store %{{.*}}, %c0_i32
// TID: tt.func private @thread_ids__tlx_task{{[0-9]+}}_1(
// TID:   tt.store %{{.*}}, %c128_i32
// TID: tt.func private @thread_ids__tlx_task{{[0-9]+}}_2(%{{.*}}: !tt.ptr<i32>, %[[R:.*]]: i32)
// TID:   %[[OFF:.*]] = arith.muli %[[R]], %c32_i32
// TID:   %[[T:.*]] = arith.addi %c256_i32{{[_0-9]*}}, %[[OFF]]
// TID:   tt.store %{{.*}}, %[[T]]
tt.func @thread_ids(%p: !tt.ptr<i32>) {
  tlx.async_tasks {
    tlx.async_task attributes {isDefault} {
      %t = tlx.thread_id 0
      tt.store %p, %t : !tt.ptr<i32>
    }
    tlx.async_task attributes {numWarps = 4 : i32} {
      %t = tlx.thread_id 0
      tt.store %p, %t : !tt.ptr<i32>
    }
    tlx.async_task attributes {numWarps = 1 : i32, replicate = 2 : i32} {
      %t = tlx.thread_id 0
      tt.store %p, %t : !tt.ptr<i32>
    }
  }
  tt.return
}
