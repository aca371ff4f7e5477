// tt.elementwise_inline_asm: one llvm.inline_asm per pack of
// `packed_element` consecutive registers; the assembly's operands are the
// outputs of every result, then the inputs of every argument. With
// packed_element > 1, types narrower than 32 bits share 32-bit registers
// (vector<4xi8>, vector<2xf16>); wider ones take one operand per element.
// tt.map_elementwise: the scalar region inlined once per pack.
// One warp: the loads' layouts then give each thread the registers the
// checks count (a tensor smaller than a vector per thread spreads).
// RUN: tpx-opt %s -split-input-file --convert-tt-to-tpxgpu=num-warps=1 --tpxgpu-lower-layout-conversions --tpxgpu-allocate-shared-memory --convert-tpxgpu-to-nvvm -mlir-print-debuginfo=false | FileCheck %s

// CHECK-LABEL: llvm.func @two_results
// Four registers a thread: four asm statements, each with both results.
// CHECK-COUNT-4: llvm.inline_asm "add.s32 $0, $2, $3; sub.s32 $1, $2, $3;", "=r,=r,r,r" %{{[0-9]+}}, %{{[0-9]+}} : (i32, i32) -> !llvm.struct<(i32, i32)>
// CHECK-NOT: llvm.inline_asm "add.s32
tt.func public @two_results(%px: !tt.ptr<i32>, %py: !tt.ptr<i32>) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %x_s = tt.splat %px : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
  %x_p = tt.addptr %x_s, %r : tensor<128x!tt.ptr<i32>>, tensor<128xi32>
  %x = tt.load %x_p : tensor<128x!tt.ptr<i32>>
  %y_s = tt.splat %py : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
  %y_p = tt.addptr %y_s, %r : tensor<128x!tt.ptr<i32>>, tensor<128xi32>
  %y = tt.load %y_p : tensor<128x!tt.ptr<i32>>
  %s, %d = tt.elementwise_inline_asm "add.s32 $0, $2, $3; sub.s32 $1, $2, $3;" {constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = true} %x, %y : tensor<128xi32>, tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  %st0_s = tt.splat %px : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
  %st0_p = tt.addptr %st0_s, %r : tensor<128x!tt.ptr<i32>>, tensor<128xi32>
  tt.store %st0_p, %s : tensor<128x!tt.ptr<i32>>
  %st1_s = tt.splat %py : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
  %st1_p = tt.addptr %st1_s, %r : tensor<128x!tt.ptr<i32>>, tensor<128xi32>
  tt.store %st1_p, %d : tensor<128x!tt.ptr<i32>>
  tt.return
}

// -----

// CHECK-LABEL: llvm.func @bytes
// Four i8 in one 32-bit register per pack; impure: has_side_effects.
// CHECK-COUNT-3: llvm.insertelement %{{.*}} : vector<4xi8>
// CHECK: %[[V:.*]] = llvm.insertelement %{{.*}}[%{{.*}} : i32] : vector<4xi8>
// CHECK-NEXT: %[[R:.*]] = llvm.inline_asm has_side_effects "prmt.b32 $0, $1, 0, 0x0123;", "=r,r" %[[V]] : (vector<4xi8>) -> vector<4xi8>
// CHECK-COUNT-4: llvm.extractelement %[[R]]
// CHECK-COUNT-3: llvm.inline_asm has_side_effects "prmt.b32
tt.func public @bytes(%p: !tt.ptr<i8>) {
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %x_s = tt.splat %p : !tt.ptr<i8> -> tensor<512x!tt.ptr<i8>>
  %x_p = tt.addptr %x_s, %r : tensor<512x!tt.ptr<i8>>, tensor<512xi32>
  %x = tt.load %x_p : tensor<512x!tt.ptr<i8>>
  %y = tt.elementwise_inline_asm "prmt.b32 $0, $1, 0, 0x0123;" {constraints = "=r,r", packed_element = 4 : i32, pure = false} %x : tensor<512xi8> -> tensor<512xi8>
  %st0_s = tt.splat %p : !tt.ptr<i8> -> tensor<512x!tt.ptr<i8>>
  %st0_p = tt.addptr %st0_s, %r : tensor<512x!tt.ptr<i8>>, tensor<512xi32>
  tt.store %st0_p, %y : tensor<512x!tt.ptr<i8>>
  tt.return
}

// -----

// CHECK-LABEL: llvm.func @to_half
// f32 operands one per element, the two f16 results in one register.
// CHECK: %[[R:.*]] = llvm.inline_asm "cvt.rn.f16x2.f32 $0, $2, $1;", "=r,r,r" %{{[0-9]+}}, %{{[0-9]+}} : (f32, f32) -> vector<2xf16>
// CHECK: llvm.extractelement %[[R]][%{{.*}} : i32] : vector<2xf16>
// CHECK: llvm.extractelement %[[R]][%{{.*}} : i32] : vector<2xf16>
// CHECK-NOT: llvm.inline_asm "cvt.rn.f16x2.f32
tt.func public @to_half(%p: !tt.ptr<f32>, %q: !tt.ptr<f16>) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %x_s = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %x_p = tt.addptr %x_s, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %x = tt.load %x_p : tensor<64x!tt.ptr<f32>>
  %y = tt.elementwise_inline_asm "cvt.rn.f16x2.f32 $0, $2, $1;" {constraints = "=r,r,r", packed_element = 2 : i32, pure = true} %x : tensor<64xf32> -> tensor<64xf16>
  %st0_s = tt.splat %q : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
  %st0_p = tt.addptr %st0_s, %r : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  tt.store %st0_p, %y : tensor<64x!tt.ptr<f16>>
  tt.return
}

// -----

// Fewer registers than a pack (two i64 a thread, packs of four): the group
// is padded with zeros and its extra outputs dropped.
// CHECK-LABEL: llvm.func @padded
// CHECK: %[[A:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(i64, i64)>
// CHECK: %[[B:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(i64, i64)>
// CHECK: %[[Z:.*]] = llvm.mlir.zero : i64
// CHECK: %[[R:.*]] = llvm.inline_asm "mov.b64 {{.*}}", "=l,=l,=l,=l,l,l,l,l" %[[A]], %[[B]], %[[Z]], %[[Z]] : (i64, i64, i64, i64) -> !llvm.struct<(i64, i64, i64, i64)>
// CHECK: %[[R0:.*]] = llvm.extractvalue %[[R]][0]
// CHECK: %[[R1:.*]] = llvm.extractvalue %[[R]][1]
// CHECK: llvm.insertvalue %[[R0]], %{{.*}}[0] : !llvm.struct<(i64, i64)>
// CHECK: llvm.insertvalue %[[R1]], %{{.*}}[1] : !llvm.struct<(i64, i64)>
// CHECK-NOT: llvm.inline_asm "mov.b64
tt.func public @padded(%p: !tt.ptr<i64>) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %x_s = tt.splat %p : !tt.ptr<i64> -> tensor<64x!tt.ptr<i64>>
  %x_p = tt.addptr %x_s, %r : tensor<64x!tt.ptr<i64>>, tensor<64xi32>
  %x = tt.load %x_p : tensor<64x!tt.ptr<i64>>
  %y = tt.elementwise_inline_asm "mov.b64 $0, $7; mov.b64 $1, $6; mov.b64 $2, $5; mov.b64 $3, $4;" {constraints = "=l,=l,=l,=l,l,l,l,l", packed_element = 4 : i32, pure = true} %x : tensor<64xi64> -> tensor<64xi64>
  tt.store %x_p, %y : tensor<64x!tt.ptr<i64>>
  tt.return
}

// -----

// A scalar: one statement in every thread (the store is thread 0's).
// CHECK-LABEL: llvm.func @scalar_asm
// CHECK: %[[C:.*]] = llvm.inline_asm has_side_effects "mov.u32 $0, %clock;", "=r"  : () -> i32
// CHECK: st.global.b32 {{.*}} %arg0, %[[C]]
tt.func public @scalar_asm(%p: !tt.ptr<i32>) {
  %y = tt.elementwise_inline_asm "mov.u32 $0, %clock;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  tt.store %p, %y : !tt.ptr<i32>
  tt.return
}

// -----

// The region sees (a0, a1, b0, b1) of each pack of two registers and
// yields (y0, y1, z0, z1): z swaps the pack's two b elements.
// CHECK-LABEL: llvm.func @map_pack2
// CHECK: %[[A0:.*]] = llvm.extractvalue %[[A:.*]][0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[A1:.*]] = llvm.extractvalue %[[A]][1]
// CHECK: %[[A2:.*]] = llvm.extractvalue %[[A]][2]
// CHECK: %[[A3:.*]] = llvm.extractvalue %[[A]][3]
// CHECK: %[[B0:.*]] = llvm.extractvalue %[[B:.*]][0] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK: %[[B1:.*]] = llvm.extractvalue %[[B]][1]
// CHECK: %[[B2:.*]] = llvm.extractvalue %[[B]][2]
// CHECK: %[[B3:.*]] = llvm.extractvalue %[[B]][3]
// CHECK: %[[S0:.*]] = arith.sitofp %[[B0]] : i32 to f32
// CHECK: %[[S1:.*]] = arith.sitofp %[[B1]] : i32 to f32
// CHECK: %[[Y0:.*]] = arith.mulf %[[A0]], %[[S0]] : f32
// CHECK: %[[Y1:.*]] = arith.addf %[[A1]], %[[S1]] : f32
// CHECK: %[[S2:.*]] = arith.sitofp %[[B2]] : i32 to f32
// CHECK: %[[S3:.*]] = arith.sitofp %[[B3]] : i32 to f32
// CHECK: %[[Y2:.*]] = arith.mulf %[[A2]], %[[S2]] : f32
// CHECK: %[[Y3:.*]] = arith.addf %[[A3]], %[[S3]] : f32
// CHECK: llvm.insertvalue %[[Y0]], %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK: llvm.insertvalue %[[Y1]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[Y2]], %{{.*}}[2]
// CHECK: llvm.insertvalue %[[Y3]], %{{.*}}[3]
// CHECK: llvm.insertvalue %[[B1]], %{{.*}}[0] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK: llvm.insertvalue %[[B0]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[B3]], %{{.*}}[2]
// CHECK: llvm.insertvalue %[[B2]], %{{.*}}[3]
tt.func public @map_pack2(%pa: !tt.ptr<f32>, %pb: !tt.ptr<i32>) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %a_s = tt.splat %pa : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %a_p = tt.addptr %a_s, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %a = tt.load %a_p : tensor<128x!tt.ptr<f32>>
  %b_s = tt.splat %pb : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
  %b_p = tt.addptr %b_s, %r : tensor<128x!tt.ptr<i32>>, tensor<128xi32>
  %b = tt.load %b_p : tensor<128x!tt.ptr<i32>>
  %m:2 = "tt.map_elementwise"(%a, %b) <{pack = 2 : i32}> ({
  ^bb0(%a0: f32, %a1: f32, %b0: i32, %b1: i32):
    %s0 = arith.sitofp %b0 : i32 to f32
    %s1 = arith.sitofp %b1 : i32 to f32
    %y0 = arith.mulf %a0, %s0 : f32
    %y1 = arith.addf %a1, %s1 : f32
    tt.map_elementwise.return %y0, %y1, %b1, %b0 : f32, f32, i32, i32
  }) : (tensor<128xf32>, tensor<128xi32>) -> (tensor<128xf32>, tensor<128xi32>)
  %st0_s = tt.splat %pa : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %st0_p = tt.addptr %st0_s, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  tt.store %st0_p, %m#0 : tensor<128x!tt.ptr<f32>>
  %st1_s = tt.splat %pb : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
  %st1_p = tt.addptr %st1_s, %r : tensor<128x!tt.ptr<i32>>, tensor<128xi32>
  tt.store %st1_p, %m#1 : tensor<128x!tt.ptr<i32>>
  tt.return
}

// -----

// A region of several blocks runs as an scf.execute_region per pack.
// CHECK-LABEL: llvm.func @map_branches
// CHECK-COUNT-4: scf.execute_region -> f32 {
// CHECK-NOT: tt.map_elementwise
tt.func public @map_branches(%pa: !tt.ptr<f32>) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %a_s = tt.splat %pa : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %a_p = tt.addptr %a_s, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %a = tt.load %a_p : tensor<128x!tt.ptr<f32>>
  %m = "tt.map_elementwise"(%a) <{pack = 1 : i32}> ({
  ^bb0(%a0: f32):
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %a0, %z : f32
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    tt.map_elementwise.return %a0 : f32
  ^bb2:
    %n = arith.negf %a0 : f32
    tt.map_elementwise.return %n : f32
  }) : (tensor<128xf32>) -> tensor<128xf32>
  %st0_s = tt.splat %pa : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %st0_p = tt.addptr %st0_s, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  tt.store %st0_p, %m : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

// Pointers go into the region's tt ops and come out through casts that
// reconcile-unrealized-casts removes.
// CHECK-LABEL: llvm.func @map_pointers
// CHECK: %[[P:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(ptr<1>, ptr<1>, ptr<1>, ptr<1>)>
// CHECK: llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NOT: tt.addptr
tt.func public @map_pointers(%pa: !tt.ptr<f32>) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %a_s = tt.splat %pa : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %a_p = tt.addptr %a_s, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %a = tt.load %a_p : tensor<128x!tt.ptr<f32>>
  %ps = tt.splat %pa : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %m = "tt.map_elementwise"(%ps, %r) <{pack = 1 : i32}> ({
  ^bb0(%p0: !tt.ptr<f32>, %o0: i32):
    %q = tt.addptr %p0, %o0 : !tt.ptr<f32>, i32
    tt.map_elementwise.return %q : !tt.ptr<f32>
  }) : (tensor<128x!tt.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tt.ptr<f32>>
  tt.store %m, %a : tensor<128x!tt.ptr<f32>>
  tt.return
}
