// The cluster ops of the tlx dialect print and parse back (in a module
// launched in clusters, which remote arrivals and multicasts need).
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --mlir-print-debuginfo=false | FileCheck %s
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s | tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so --mlir-print-debuginfo=false | FileCheck %s

// CHECK: module attributes {"tpxgpu.cluster-dims" = array<i32: 2, 1, 1>}
// CHECK-LABEL: tt.func @cluster_ops
// CHECK: %[[RANK:.*]] = tlx.cluster_cta_rank
// CHECK: tlx.cluster_barrier
// CHECK: tlx.barrier_arrive %{{.*}}, 1 cta %[[RANK]]
// CHECK: tlx.async_descriptor_load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} multicast %{{.*}} : <tensor<16x16xf16>>, <16x16xf16>
// CHECK: tlx.async_descriptor_load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} : <tensor<16x16xf16>>, <16x16xf16>
module attributes {"tpxgpu.cluster-dims" = array<i32: 2, 1, 1>} {
  tt.func @cluster_ops(%base: !tt.ptr<f16>, %n: i32, %stride: i64) {
    %c1_i64 = arith.constant 1 : i64
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : i32
    %desc = tt.make_tensor_descriptor %base, [%n, %n], [%stride, %c1_i64] : <f16>, <tensor<16x16xf16>>
    %buf = tlx.local_alloc : !tlx.buffer<16x16xf16>
    %bars = tlx.alloc_barriers arrive_count = 2 : !tlx.mbarriers<1>
    %rank = tlx.cluster_cta_rank
    tlx.cluster_barrier
    %b = tlx.barrier_view %bars[%c0] : !tlx.mbarriers<1>
    tlx.barrier_arrive %b, 1 cta %rank
    tlx.async_descriptor_load %desc[%c0, %n], %buf, %b multicast %c3 : !tt.tensordesc<tensor<16x16xf16>>, !tlx.buffer<16x16xf16>
    tlx.async_descriptor_load %desc[%c0, %n], %buf, %b : !tt.tensordesc<tensor<16x16xf16>>, !tlx.buffer<16x16xf16>
    tt.return
  }
}
