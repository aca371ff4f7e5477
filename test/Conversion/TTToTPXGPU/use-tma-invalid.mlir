// tpxgpu-use-tma lowers a descriptor's tt.descriptor_load/store; any other
// op still using it (here a TLX copy, in a pipeline that left out
// tlx-lower-to-tpxgpu) is an error naming that op, not a crash.
// RUN: not tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --tpxgpu-use-tma 2>&1 | FileCheck %s
// CHECK: error: tpxgpu-use-tma: 'tlx.async_descriptor_load' uses a tensor descriptor, and only tt.descriptor_load and tt.descriptor_store can use TMA here; was the pass that lowers this op left out of the pipeline?
module {
  tt.func public @copy(%in: !tt.ptr<f16>, %m: i32, %n: i32 {tt.divisibility = 16 : i32}, %i: i32) {
    %n64 = arith.extsi %n : i32 to i64
    %one = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %in, [%m, %n], [%n64, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<16x16xf16>>
    %bufs = tlx.local_alloc : !tlx.buffer<16x16xf16>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %c0 = arith.constant 0 : i32
    %f = tlx.barrier_view %bars[%c0] : !tlx.mbarriers<1>
    tlx.async_descriptor_load %d[%i, %i], %bufs, %f : !tt.tensordesc<tensor<16x16xf16>>, !tlx.buffer<16x16xf16>
    tt.return
  }
}
