// RUN: tpx-opt %s -split-input-file --convert-tt-to-tpxgpu --tpxgpu-use-tma -mlir-print-debuginfo=false | FileCheck %s

// A 64x64 f16 block (128-byte rows): one TMA copy per access, through a
// 128-byte-swizzled buffer; the tensor map is a new last argument that
// names the arguments the launcher builds it from.
// CHECK-LABEL: tt.func public @copy
// CHECK-SAME: %[[MAP:[a-z0-9_]+]]: !tt.tensordesc<tensor<64x64xf16>> {tpxgpu.tensor_map = #tpxgpu.tensor_map<base = 0, shape_args = [1, 2], shape_values = [0, 0], stride_args = [2, -1], stride_values = [0, 1], box = [64, 64], element_type = f16, swizzle = 128, nan = false>}
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK: tpxgpu.barrier
// CHECK: %[[BUF:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<64x64xf16, #[[NVMMA:[a-z_0-9]+]], mutable>
// CHECK: %[[BAR:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<1xi64
// CHECK: tpxgpu.init_barrier %[[BAR]], 1
// CHECK: tpxgpu.fence_async_shared
// CHECK: tpxgpu.barrier
// CHECK: tpxgpu.barrier_expect %[[BAR]], 8192
// CHECK: tpxgpu.async_tma_copy_global_to_local %[[MAP]][%{{.*}}, %{{.*}}] %[[BUF]], %[[BAR]]
// CHECK: tpxgpu.wait_barrier %[[BAR]], %{{.*}}
// CHECK: %[[V:.*]] = tpxgpu.local_load %[[BUF]] : {{.*}} -> tensor<64x64xf16, #{{.*}}>
// CHECK: tpxgpu.barrier
// CHECK: tpxgpu.inval_barrier %[[BAR]]
// CHECK: tpxgpu.barrier
// CHECK: %[[SRC:.*]] = tpxgpu.local_alloc %[[V]] : {{.*}} -> !tpxgpu.memdesc<64x64xf16, #[[NVMMA]]>
// CHECK: tpxgpu.fence_async_shared
// CHECK: tpxgpu.barrier
// CHECK: tpxgpu.async_tma_copy_local_to_global %[[MAP]][%{{.*}}, %{{.*}}] %[[SRC]]
// CHECK: tpxgpu.async_tma_store_wait pendings = 0
// CHECK: tpxgpu.barrier
module {
  tt.func public @copy(%in: !tt.ptr<f16>, %m: i32, %n: i32 {tt.divisibility = 16 : i32}, %i: i32) {
    %n64 = arith.extsi %n : i32 to i64
    %one = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %in, [%m, %n], [%n64, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
    %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    %pid = tt.get_program_id x : i32
    %c64 = arith.constant 64 : i32
    %row = arith.muli %pid, %c64 : i32
    tt.descriptor_store %d[%row, %c64], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
    tt.return
  }
}

// -----

// 256-byte rows take two 64-column boxes each; a NaN-padded descriptor
// says so in its map; constants are recorded as values.
// CHECK-LABEL: tt.func public @wide
// CHECK-SAME: !tt.tensordesc<tensor<32x64xf16>> {tpxgpu.tensor_map = #tpxgpu.tensor_map<base = 0, shape_args = [1, -1], shape_values = [0, 128], stride_args = [-1, -1], stride_values = [128, 1], box = [32, 64], element_type = f16, swizzle = 128, nan = true>}
// CHECK: tpxgpu.barrier_expect %{{.*}}, 8192
// CHECK: %[[LEFT:.*]] = tpxgpu.memdesc_subview %{{.*}} [0, 0] : {{.*}} -> !tpxgpu.memdesc<32x64xf16, #{{.*}}, mutable, alloc_shape = 32x128>
// CHECK: tpxgpu.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %[[LEFT]]
// CHECK: %[[RIGHT:.*]] = tpxgpu.memdesc_subview %{{.*}} [0, 64]
// CHECK: %[[C64:.*]] = arith.constant 64 : i32
// CHECK: %[[COL:.*]] = arith.addi %{{.*}}, %[[C64]] : i32
// CHECK: tpxgpu.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %[[COL]]] %[[RIGHT]]
module {
  tt.func public @wide(%in: !tt.ptr<f16>, %m: i32, %i: i32, %out: !tt.ptr<f16>) {
    %n = arith.constant 128 : i32
    %s = arith.constant 128 : i64
    %one = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %in, [%m, %n], [%s, %one] {padding = 2 : i32} : !tt.ptr<f16>, !tt.tensordesc<tensor<32x128xf16>>
    %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<32x128xf16>> -> tensor<32x128xf16>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %c = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %rb = tt.broadcast %r2 : tensor<32x1xi32> -> tensor<32x128xi32>
    %cb = tt.broadcast %c2 : tensor<1x128xi32> -> tensor<32x128xi32>
    %w = arith.constant dense<128> : tensor<32x128xi32>
    %ro = arith.muli %rb, %w : tensor<32x128xi32>
    %o = arith.addi %ro, %cb : tensor<32x128xi32>
    %p = tt.splat %out : !tt.ptr<f16> -> tensor<32x128x!tt.ptr<f16>>
    %q = tt.addptr %p, %o : tensor<32x128x!tt.ptr<f16>>, tensor<32x128xi32>
    tt.store %q, %v : tensor<32x128x!tt.ptr<f16>>
    tt.return
  }
}
