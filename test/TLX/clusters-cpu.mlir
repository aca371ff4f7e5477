// Thread-block clusters on the CPU (tlx-lower-to-tt): a cluster's programs
// run at once (lib/Runtime/CPUTaskRuntime.cpp); each records its local
// memory for its peers at its start, waits for the others after its
// barriers' inits and before it returns; an arrival on a peer's barrier
// and a multicast copy address the peers' memory through
// tpx_cpu_cluster_map, the copy once per CTA of the mask.
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --tlx-lower-to-tt --mlir-print-debuginfo=false | FileCheck %s

// CHECK-LABEL: tt.func public @pair
// CHECK: tt.call @tpx_cpu_cluster_register(%{{.*}}, %{{.*}}) : (i64, i64) -> ()
// CHECK: tt.call @tpx_cpu_cluster_register(%{{.*}}, %{{.*}}) : (i64, i64) -> ()
// CHECK: tt.call @tpx_cpu_mbarrier_init
// CHECK-NEXT: %[[LINE:.*]] = arith.constant
// CHECK-NEXT: tt.call @tpx_cpu_cluster_barrier(%[[LINE]])
// CHECK: %[[RANK:.*]] = tt.call @tpx_cpu_cluster_rank() : () -> i32
// CHECK: %[[PEER:.*]] = tt.call @tpx_cpu_cluster_map(%{{.*}}, %[[RANK]]) : (i64, i32) -> i64
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: tt.call @tpx_cpu_mbarrier_arrive(%[[PEER]]
// CHECK: %[[DATA:.*]] = tt.descriptor_load
// One store and one completion per CTA the mask names.
// CHECK: scf.if
// CHECK:   tt.call @tpx_cpu_cluster_map
// CHECK:   tt.store %{{.*}}, %[[DATA]]
// CHECK:   tt.call @tpx_cpu_cluster_map
// CHECK:   tt.call @tpx_cpu_mbarrier_complete_tx
// CHECK: scf.if
// CHECK:   tt.store %{{.*}}, %[[DATA]]
// CHECK:   tt.call @tpx_cpu_mbarrier_complete_tx
// The program's cluster barrier, then the one before the return.
// CHECK: tt.call @tpx_cpu_cluster_barrier
// CHECK: tt.call @tpx_cpu_cluster_barrier
// CHECK-NEXT: tt.return
module attributes {"tpxgpu.cluster-dims" = array<i32: 2, 1, 1>} {
  tt.func public @pair(%base: !tt.ptr<f16>, %n: i32, %stride: i64) {
    %c1_i64 = arith.constant 1 : i64
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : i32
    %desc = tt.make_tensor_descriptor %base, [%n, %n], [%stride, %c1_i64] : <f16>, <tensor<16x16xf16>>
    %buf = tlx.local_alloc : !tlx.buffer<16x16xf16>
    %bars = tlx.alloc_barriers arrive_count = 2 : !tlx.mbarriers<1>
    %rank = tlx.cluster_cta_rank
    %b = tlx.barrier_view %bars[%c0] : !tlx.mbarriers<1>
    tlx.barrier_arrive %b, 1 cta %rank
    tlx.async_descriptor_load %desc[%c0, %n], %buf, %b multicast %c3 : !tt.tensordesc<tensor<16x16xf16>>, !tlx.buffer<16x16xf16>
    tlx.cluster_barrier
    tt.return
  }
}
