// RUN: tpx-opt %s -split-input-file --tpxgpu-lower-tensor-descriptors --canonicalize -mlir-print-debuginfo=false | FileCheck %s

// A descriptor made in the kernel from values the launcher cannot see (the
// base is computed): its block load and store become masked pointer-tensor
// accesses, padded with zero.
// CHECK-LABEL: tt.func public @copy_block
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK-NOT: tt.descriptor_
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
// CHECK: tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
// CHECK: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<16xi64> -> tensor<16x1xi64>
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<16xi32>
// CHECK: arith.cmpi sge, %{{.*}}, %{{.*}} : tensor<16xi32>
// CHECK: tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK: tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<32xi64> -> tensor<1x32xi64>
// CHECK: %[[PTRS:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi64>
// CHECK: %[[V:.*]] = tt.load %[[PTRS]], %[[MASK:.*]], %[[ZERO]] : tensor<16x32x!tt.ptr<f32>>
// CHECK: tt.store %{{.*}}, %[[V]], %{{.*}} : tensor<16x32x!tt.ptr<f32>>
module {
  tt.func public @copy_block(%a: !tt.ptr<f32>, %out: !tt.ptr<f32>, %m: i32, %n: i32, %i: i32, %j: i32) {
    %n64 = arith.extsi %n : i32 to i64
    %one = arith.constant 1 : i64
    %in = tt.addptr %a, %m : !tt.ptr<f32>, i32
    %d = tt.make_tensor_descriptor %in, [%m, %n], [%n64, %one] : !tt.ptr<f32>, !tt.tensordesc<tensor<16x32xf32>>
    %v = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<16x32xf32>> -> tensor<16x32xf32>
    %out2 = tt.addptr %out, %m : !tt.ptr<f32>, i32
    %e = tt.make_tensor_descriptor %out2, [%m, %n], [%n64, %one] : !tt.ptr<f32>, !tt.tensordesc<tensor<16x32xf32>>
    tt.descriptor_store %e[%i, %j], %v : !tt.tensordesc<tensor<16x32xf32>>, tensor<16x32xf32>
    tt.return
  }
}

// -----

// padding = nan pads with NaN; a descriptor argument of the kernel stays
// (the one-thread path lowers it).
// CHECK-LABEL: tt.func public @nan_pad
// CHECK: arith.constant dense<0x7FC00000> : tensor<8xf32>
// CHECK-LABEL: tt.func public @from_argument
// CHECK: tt.descriptor_load
module {
  tt.func public @nan_pad(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %m: i32, %i: i32) {
    %one = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %in, [%m], [%one] {padding = 2 : i32} : !tt.ptr<f32>, !tt.tensordesc<tensor<8xf32>>
    %v = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<8xf32>> -> tensor<8xf32>
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %q = tt.addptr %p, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %q, %v : tensor<8x!tt.ptr<f32>>
    tt.return
  }
  tt.func public @from_argument(%d: !tt.tensordesc<tensor<8xf32>>, %out: !tt.ptr<f32>, %i: i32) {
    %v = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<8xf32>> -> tensor<8xf32>
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %q = tt.addptr %p, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %q, %v : tensor<8x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A 2-D descriptor made from the kernel's arguments (a host descriptor's
// form; an i32 widened to the stride counts) stays for tpxgpu-use-tma
// when its rows are known to fill whole 16-byte chunks (tt.divisibility),
// since a TMA store writes whole chunks; without that, a descriptor that is
// stored to is lowered to pointers.
// CHECK-LABEL: tt.func public @kept_for_tma
// CHECK: tt.make_tensor_descriptor
// CHECK: tt.descriptor_load
// CHECK: tt.descriptor_store
module {
  tt.func public @kept_for_tma(%in: !tt.ptr<f16>, %m: i32, %n: i32 {tt.divisibility = 16 : i32}, %i: i32) {
    %n64 = arith.extsi %n : i32 to i64
    %one = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %in, [%m, %n], [%n64, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
    %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    %pid = tt.get_program_id x : i32
    tt.descriptor_store %d[%pid, %pid], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func public @ragged_rows_stored
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK: tt.load
// CHECK: tt.store
module {
  tt.func public @ragged_rows_stored(%in: !tt.ptr<f16>, %m: i32, %n: i32, %i: i32) {
    %n64 = arith.extsi %n : i32 to i64
    %one = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %in, [%m, %n], [%n64, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
    %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    tt.descriptor_store %d[%i, %m], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
    tt.return
  }
}

// -----

// A TMA store at a negative coordinate faults, so a descriptor stored at
// offsets not known to be non-negative (a program id minus a constant) is
// lowered to pointers; one stored at program id * block stays for TMA.
// CHECK-LABEL: tt.func public @store_offsets
// CHECK-COUNT-1: tt.make_tensor_descriptor
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK: tt.descriptor_store
// CHECK: tt.store
module {
  tt.func public @store_offsets(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>) {
    %m = arith.constant 64 : i32
    %n = arith.constant 64 : i32
    %s = arith.constant 64 : i64
    %one = arith.constant 1 : i64
    %pid = tt.get_program_id x : i32
    %c16 = arith.constant 16 : i32
    %c8 = arith.constant 8 : i32
    %row = arith.muli %pid, %c16 : i32
    %below = arith.subi %row, %c8 : i32
    %v = arith.constant dense<1.0> : tensor<16x16xf32>
    %da = tt.make_tensor_descriptor %a, [%m, %n], [%s, %one] : !tt.ptr<f32>, !tt.tensordesc<tensor<16x16xf32>>
    tt.descriptor_store %da[%row, %c16], %v : !tt.tensordesc<tensor<16x16xf32>>, tensor<16x16xf32>
    %db = tt.make_tensor_descriptor %b, [%m, %n], [%s, %one] : !tt.ptr<f32>, !tt.tensordesc<tensor<16x16xf32>>
    tt.descriptor_store %db[%below, %c16], %v : !tt.tensordesc<tensor<16x16xf32>>, tensor<16x16xf32>
    tt.return
  }
}

// -----

// Gather and scatter through a descriptor with 1 x 16 blocks: rows from the
// index tensor, 16 columns from the y offset, out-of-bounds rows and columns
// read as zero and dropped on store. A reduction is a masked relaxed atomic
// per element (add on floats: fadd).
// CHECK-LABEL: tt.func public @gather_scatter_reduce
// CHECK-NOT: tt.descriptor_
// CHECK: %[[ROWS:.*]] = arith.extsi %[[X:.*]] : tensor<8xi32> to tensor<8xi64>
// CHECK: arith.cmpi sge, %[[X]], %{{.*}} : tensor<8xi32>
// CHECK: %[[G:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x16x!tt.ptr<f32>>
// CHECK: tt.store %{{.*}}, %[[G]], %{{.*}} : tensor<8x16x!tt.ptr<f32>>
// CHECK: tt.atomic_rmw fadd, relaxed, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x16x!tt.ptr<f32>>, tensor<4x16xf32>, tensor<4x16xi1>) -> tensor<4x16xf32>
module {
  tt.func public @gather_scatter_reduce(%a: !tt.ptr<f32>, %m: i32, %n: i32, %x: tensor<8xi32>, %y: i32, %v: tensor<4x16xf32>) {
    %n64 = arith.extsi %n : i32 to i64
    %one = arith.constant 1 : i64
    %in = tt.addptr %a, %m : !tt.ptr<f32>, i32
    %d = tt.make_tensor_descriptor %in, [%m, %n], [%n64, %one] : !tt.ptr<f32>, !tt.tensordesc<tensor<1x16xf32>>
    %g = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x16xf32>>, tensor<8xi32>, i32) -> tensor<8x16xf32>
    tt.descriptor_scatter %d[%x, %y], %g : !tt.tensordesc<tensor<1x16xf32>>, tensor<8xi32>, i32, tensor<8x16xf32>
    %e = tt.make_tensor_descriptor %in, [%m, %n], [%n64, %one] : !tt.ptr<f32>, !tt.tensordesc<tensor<4x16xf32>>
    tt.descriptor_reduce add, %e[%y, %y], %v : !tt.tensordesc<tensor<4x16xf32>>, tensor<4x16xf32>
    tt.return
  }
}

// -----

// Wrapping increments have no tt.atomic_rmw: such a descriptor stays (for
// the one-thread path).
// CHECK-LABEL: tt.func public @reduce_inc
// CHECK: tt.make_tensor_descriptor
// CHECK: tt.descriptor_reduce inc
module {
  tt.func public @reduce_inc(%a: !tt.ptr<i32>, %m: i32, %n: i32, %y: i32, %v: tensor<4x16xi32>) {
    %n64 = arith.extsi %n : i32 to i64
    %one = arith.constant 1 : i64
    %in = tt.addptr %a, %m : !tt.ptr<i32>, i32
    %e = tt.make_tensor_descriptor %in, [%m, %n], [%n64, %one] : !tt.ptr<i32>, !tt.tensordesc<tensor<4x16xi32>>
    tt.descriptor_reduce inc, %e[%y, %y], %v : !tt.tensordesc<tensor<4x16xi32>>, tensor<4x16xi32>
    tt.return
  }
}

// -----

// A descriptor chosen by an scf.if (zero or NaN padding) and passed to a
// function: the carriers take its parts (base, shape, strides, NaN
// padding as an i1), and the load pads with a select on that flag.
// CHECK-LABEL: tt.func public @chosen
// The flag is the condition itself once the scf.if is folded.
// CHECK-SAME: %[[C:[a-z0-9]+]]: i1)
// CHECK: tt.call @load_block(%{{.*}}, %{{.*}}, %c1_i64, %[[C]], %{{.*}}) : (!tt.ptr<f32>, i32, i64, i1, i32) -> tensor<8xf32>
// CHECK-LABEL: tt.func private @load_block
// CHECK-SAME: %[[FLAG:[a-z0-9]+]]: i1, %{{.*}}: i32) -> tensor<8xf32>
// CHECK: %[[PAD:.*]] = arith.select %[[FLAG]], %{{.*}}, %{{.*}} : tensor<8xf32>
// CHECK: tt.load %{{.*}}, %{{.*}}, %[[PAD]] : tensor<8x!tt.ptr<f32>>
// CHECK-NOT: tensordesc
module {
  tt.func public @chosen(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %m: i32, %i: i32, %c: i1) {
    %one = arith.constant 1 : i64
    %d = scf.if %c -> (!tt.tensordesc<tensor<8xf32>>) {
      %a = tt.make_tensor_descriptor %in, [%m], [%one] {padding = 2 : i32} : !tt.ptr<f32>, !tt.tensordesc<tensor<8xf32>>
      scf.yield %a : !tt.tensordesc<tensor<8xf32>>
    } else {
      %b = tt.make_tensor_descriptor %in, [%m], [%one] : !tt.ptr<f32>, !tt.tensordesc<tensor<8xf32>>
      scf.yield %b : !tt.tensordesc<tensor<8xf32>>
    }
    %v = tt.call @load_block(%d, %i) : (!tt.tensordesc<tensor<8xf32>>, i32) -> tensor<8xf32>
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %q = tt.addptr %p, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %q, %v : tensor<8x!tt.ptr<f32>>
    tt.return
  }
  tt.func private @load_block(%d: !tt.tensordesc<tensor<8xf32>>, %i: i32) -> tensor<8xf32> attributes {noinline = true} {
    %v = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<8xf32>> -> tensor<8xf32>
    tt.return %v : tensor<8xf32>
  }
}
