// tpxgpu-pipeline-async-copies with descriptor operands: a wgmma loop that
// loads A and B through TMA-able descriptors gets num-stages buffers in the
// tensor maps' swizzle and one mbarrier per slot, inited before the loop;
// each iteration's copies (iteration iv + 2) arm their slot's barrier with
// both blocks' bytes and are predicated on the iteration existing; the
// dot waits on its slot's phase. tpxgpu-use-tma then only drops the
// descriptors, whose maps the copies already use.
// RUN: tpx-opt %s --convert-tt-to-tpxgpu --tpxgpu-use-wgmma --canonicalize --tpxgpu-remove-layout-conversions --canonicalize --tpxgpu-pipeline-async-copies="num-stages=3" --tpxgpu-use-tma --canonicalize --cse -mlir-print-debuginfo=false | FileCheck %s

// CHECK-LABEL: tt.func public @matmul
// CHECK-SAME: %[[MA:[a-z0-9_]+]]: !tt.tensordesc<tensor<128x64xf16>> {tpxgpu.tensor_map = #tpxgpu.tensor_map<base = 0
// CHECK-SAME: %[[MB:[a-z0-9_]+]]: !tt.tensordesc<tensor<64x64xf16>> {tpxgpu.tensor_map = #tpxgpu.tensor_map<base = 1
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK: %[[BA:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<3x128x64xf16, #[[SW:[a-z_0-9]+]], mutable>
// CHECK: %[[BB:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<3x64x128xf16, #[[SW]], mutable>
// CHECK: %[[BARS:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<3x1xi64
// CHECK-COUNT-3: tpxgpu.init_barrier
// CHECK: tpxgpu.fence_async_shared
// CHECK-NEXT: tpxgpu.barrier
// The prologue: iterations 0 and 1.
// CHECK: tpxgpu.barrier_expect %{{.*}}, 32768, %{{.*}}
// CHECK: tpxgpu.async_tma_copy_global_to_local %[[MA]]
// CHECK-COUNT-2: tpxgpu.async_tma_copy_global_to_local %[[MB]]
// CHECK: tpxgpu.barrier_expect %{{.*}}, 32768, %{{.*}}
// CHECK: scf.for
// CHECK-NOT: tt.descriptor_load
// TMA writes through the async proxy wgmma reads through: no proxy fence.
// CHECK: tpxgpu.wait_barrier
// CHECK-NEXT: tpxgpu.barrier
// CHECK: %[[EXISTS:.*]] = arith.cmpi slt
// CHECK: tpxgpu.barrier_expect %{{.*}}, 32768, %[[EXISTS]]
// CHECK: tpxgpu.async_tma_copy_global_to_local %[[MA]][{{.*}}] %{{.*}}, %{{.*}}, %[[EXISTS]]
// CHECK: tpxgpu.warp_group_dot
// CHECK: scf.yield
// After the loop every barrier dies.
// CHECK: tpxgpu.barrier
// CHECK-COUNT-3: tpxgpu.inval_barrier
module {
  tt.func public @matmul(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i32, %n: i32, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %one = arith.constant 1 : i64
    %k64 = arith.extsi %k : i32 to i64
    %n64 = arith.extsi %n : i32 to i64
    %da = tt.make_tensor_descriptor %a, [%m, %k], [%k64, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<128x64xf16>>
    %db = tt.make_tensor_descriptor %b, [%k, %n], [%n64, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x128xf16>>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %acc = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x128xf32>) : i32 {
      %x = tt.descriptor_load %da[%c0, %i] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16>
      %y = tt.descriptor_load %db[%i, %c0] : !tt.tensordesc<tensor<64x128xf16>> -> tensor<64x128xf16>
      %d = tt.dot %x, %y, %acc : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %c2 = tt.expand_dims %r {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %w = arith.constant dense<128> : tensor<128x1xi32>
    %rw = arith.muli %r2, %w : tensor<128x1xi32>
    %rb = tt.broadcast %rw : tensor<128x1xi32> -> tensor<128x128xi32>
    %cb = tt.broadcast %c2 : tensor<1x128xi32> -> tensor<128x128xi32>
    %o = arith.addi %rb, %cb : tensor<128x128xi32>
    %p = tt.splat %c : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>>
    %q = tt.addptr %p, %o : tensor<128x128x!tt.ptr<f32>>, tensor<128x128xi32>
    tt.store %q, %acc : tensor<128x128x!tt.ptr<f32>>
    tt.return
  }
}
