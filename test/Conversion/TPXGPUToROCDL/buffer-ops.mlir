// convert-tpxgpu-to-rocdl of tpxgpu.buffer_load / buffer_store: one buffer
// resource per access (stride 0, 0x7FFFFFFE records, gfx9 flags 0x20000),
// one 32-bit byte offset per vector, masked-off lanes moved out of range
// (0x80000000) instead of a branch, and `other` selected in only where it
// is not zero.
// RUN: tpx-opt %s --convert-tpxgpu-to-rocdl | FileCheck %s

#b1d = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {

// CHECK-LABEL: llvm.func @masked
// CHECK-DAG: %[[STRIDE:.*]] = llvm.mlir.constant(0 : i16) : i16
// CHECK-DAG: %[[RECORDS:.*]] = llvm.mlir.constant(2147483646 : i64) : i64
// CHECK-DAG: %[[FLAGS:.*]] = llvm.mlir.constant(131072 : i32) : i32
// CHECK: %[[RSRC:.*]] = rocdl.make.buffer.rsrc %{{.*}}, %[[STRIDE]], %[[RECORDS]], %[[FLAGS]] : <1> to <8>
// The cg load: sc1 (16) in aux.
// CHECK: %[[AUX:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[BYTES:.*]] = llvm.mul %{{.*}}, %{{.*}} : i32
// CHECK: %[[OOR:.*]] = llvm.mlir.constant(-2147483648 : i32) : i32
// CHECK: %[[OFF:.*]] = llvm.select %{{.*}}, %[[BYTES]], %[[OOR]] : i1, i32
// CHECK: rocdl.raw.ptr.buffer.load %[[RSRC]], %[[OFF]], %{{.*}}, %[[AUX]] : vector<4xi32>
// A zero `other`: nothing selected.
// CHECK-NOT: llvm.select {{.*}} : i1, f32
// A non-zero `other`: selected per element.
// CHECK: rocdl.raw.ptr.buffer.load {{.*}} : vector<4xi32>
// CHECK-COUNT-4: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, f32
// CHECK: rocdl.raw.ptr.buffer.store %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK-NOT: scf.if
// CHECK: llvm.return
tt.func public @masked(%x: !tt.ptr<f32>, %offs: tensor<1024xi32, #b1d>, %m: tensor<1024xi1, #b1d>) {
  %zero = arith.constant dense<0.0> : tensor<1024xf32, #b1d>
  %one = arith.constant dense<1.0> : tensor<1024xf32, #b1d>
  %a = tpxgpu.buffer_load %x[%offs] mask %m other %zero cacheModifier = cg {tpxgpu.contiguity = array<i64: 4>} : !tt.ptr<f32>, tensor<1024xi32, #b1d> -> tensor<1024xf32, #b1d>
  %b = tpxgpu.buffer_load %x[%offs] mask %m other %one {tpxgpu.contiguity = array<i64: 4>} : !tt.ptr<f32>, tensor<1024xi32, #b1d> -> tensor<1024xf32, #b1d>
  %s = arith.addf %a, %b : tensor<1024xf32, #b1d>
  tpxgpu.buffer_store %s, %x[%offs] mask %m {tpxgpu.contiguity = array<i64: 4>} : tensor<1024xf32, #b1d>, tensor<1024xi32, #b1d> -> !tt.ptr<f32>
  tt.return
}

// Without tpxgpu.contiguity: one element per access; no mask: no select;
// volatile: bit 31 of aux. f16 offsets scale by 2.
// CHECK-LABEL: llvm.func @scalar_f16
// CHECK: %[[VOL:.*]] = llvm.mlir.constant(-2147483648 : i32) : i32
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[BYTES:.*]] = llvm.mul %{{.*}}, %[[TWO]] : i32
// CHECK-NOT: llvm.select
// CHECK: rocdl.raw.ptr.buffer.load %{{.*}}, %[[BYTES]], %{{.*}}, %[[VOL]] : i16
// CHECK-COUNT-3: rocdl.raw.ptr.buffer.load {{.*}} : i16
// CHECK-NOT: rocdl.raw.ptr.buffer.load
// CHECK-COUNT-4: rocdl.raw.ptr.buffer.store {{.*}} : i16
// CHECK: llvm.return
tt.func public @scalar_f16(%x: !tt.ptr<f16>, %offs: tensor<1024xi32, #b1d>) {
  %a = tpxgpu.buffer_load %x[%offs] volatile : !tt.ptr<f16>, tensor<1024xi32, #b1d> -> tensor<1024xf16, #b1d>
  tpxgpu.buffer_store %a, %x[%offs] : tensor<1024xf16, #b1d>, tensor<1024xi32, #b1d> -> !tt.ptr<f16>
  tt.return
}

// Bools are bytes: stored zero-extended, loaded as "not zero".
// CHECK-LABEL: llvm.func @bools
// CHECK: rocdl.raw.ptr.buffer.load {{.*}} : i32
// CHECK: llvm.bitcast %{{.*}} : i32 to vector<4xi8>
// CHECK: llvm.icmp "ne"
// CHECK: llvm.zext %{{.*}} : i1 to i8
// CHECK: rocdl.raw.ptr.buffer.store {{.*}} : i32
tt.func public @bools(%x: !tt.ptr<i1>, %offs: tensor<1024xi32, #b1d>) {
  %a = tpxgpu.buffer_load %x[%offs] {tpxgpu.contiguity = array<i64: 4>} : !tt.ptr<i1>, tensor<1024xi32, #b1d> -> tensor<1024xi1, #b1d>
  tpxgpu.buffer_store %a, %x[%offs] {tpxgpu.contiguity = array<i64: 4>} : tensor<1024xi1, #b1d>, tensor<1024xi32, #b1d> -> !tt.ptr<i1>
  tt.return
}
}
