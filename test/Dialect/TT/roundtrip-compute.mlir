// RUN: tpx-opt %s | FileCheck %s
// RUN: tpx-opt %s | tpx-opt | FileCheck %s

// Matrix products (every input precision and scaled-dot element format),
// ops with combine regions, histogram, gather and external/inline-asm
// elementwise ops.

module {
  // CHECK-LABEL: tt.func public @dots
  tt.func public @dots(%a: tensor<32x16xf32>, %b: tensor<16x64xf32>, %c: tensor<32x64xf32>,
                       %ah: tensor<32x16xf16>, %bh: tensor<16x64xf16>,
                       %ai: tensor<32x16xi8>, %bi: tensor<16x64xi8>, %ci: tensor<32x64xi32>,
                       %a3: tensor<2x32x16xbf16>, %b3: tensor<2x16x64xbf16>, %c3: tensor<2x32x64xf32>,
                       %a8: tensor<32x16xf8E4M3FN>, %b8: tensor<16x64xf8E5M2>) {
    // The default precision (ieee) is not printed.
    // CHECK: tt.dot %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
    %0 = tt.dot %a, %b, %c : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
    // CHECK: tt.dot %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
    %1 = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
    // CHECK: tt.dot %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, inputPrecision = tf32 : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
    %2 = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
    // CHECK: tt.dot {{.*}}, inputPrecision = tf32x3 :
    %3 = tt.dot %a, %b, %c, inputPrecision = tf32x3 : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
    // CHECK: tt.dot {{.*}}, inputPrecision = bf16x3 :
    %4 = tt.dot %a, %b, %c, inputPrecision = bf16x3 : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
    // CHECK: tt.dot {{.*}}, inputPrecision = bf16x6 :
    %5 = tt.dot %a, %b, %c, inputPrecision = bf16x6 : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
    // CHECK: tt.dot {{.*}}, inputPrecision = tf32 : tensor<32x16xf16> * tensor<16x64xf16> -> tensor<32x64xf32>
    %6 = tt.dot %ah, %bh, %c, inputPrecision = tf32 : tensor<32x16xf16> * tensor<16x64xf16> -> tensor<32x64xf32>
    // CHECK: tt.dot {{.*}} : tensor<32x16xi8> * tensor<16x64xi8> -> tensor<32x64xi32>
    %7 = tt.dot %ai, %bi, %ci : tensor<32x16xi8> * tensor<16x64xi8> -> tensor<32x64xi32>
    // Batched 3-D dot.
    // CHECK: tt.dot {{.*}} : tensor<2x32x16xbf16> * tensor<2x16x64xbf16> -> tensor<2x32x64xf32>
    %8 = tt.dot %a3, %b3, %c3 : tensor<2x32x16xbf16> * tensor<2x16x64xbf16> -> tensor<2x32x64xf32>
    // fp8 operands with a bounded number of imprecise accumulations.
    // CHECK: tt.dot {{.*}}, inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32} : tensor<32x16xf8E4M3FN> * tensor<16x64xf8E5M2> -> tensor<32x64xf32>
    %9 = tt.dot %a8, %b8, %c, inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32} : tensor<32x16xf8E4M3FN> * tensor<16x64xf8E5M2> -> tensor<32x64xf32>
    tt.return
  }

  // CHECK-LABEL: tt.func public @scaled_dots
  tt.func public @scaled_dots(%a8: tensor<128x64xf8E4M3FN>, %b8: tensor<64x128xf8E5M2>,
                              %a4: tensor<128x32xi8>, %b4: tensor<32x128xi8>,
                              %sa: tensor<128x2xi8>, %sb: tensor<128x2xi8>,
                              %abf: tensor<128x64xbf16>, %bh: tensor<64x128xf16>,
                              %a6: tensor<128x48xi8>, %b6: tensor<48x128xi8>,
                              %c: tensor<128x128xf32>) {
    // Both scales.
    // CHECK: tt.dot_scaled %{{[A-Za-z0-9_]+}} scale %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} scale %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} lhs = e4m3 rhs = e5m2 {fastMath = false} : tensor<128x64xf8E4M3FN>, tensor<128x2xi8> * tensor<64x128xf8E5M2>, tensor<128x2xi8> -> tensor<128x128xf32>
    %0 = tt.dot_scaled %a8 scale %sa, %b8 scale %sb, %c lhs = e4m3 rhs = e5m2 {fastMath = false} : tensor<128x64xf8E4M3FN>, tensor<128x2xi8> * tensor<64x128xf8E5M2>, tensor<128x2xi8> -> tensor<128x128xf32>
    // fp4 packed two per byte along K; only the lhs is scaled.
    // CHECK: tt.dot_scaled %{{[A-Za-z0-9_]+}} scale %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} lhs = e2m1 rhs = bf16 {fastMath = true} : tensor<128x32xi8>, tensor<128x2xi8> * tensor<64x128xbf16> -> tensor<128x128xf32>
    %bbf = tt.trans %abf {order = array<i32: 1, 0>} : tensor<128x64xbf16> -> tensor<64x128xbf16>
    %1 = tt.dot_scaled %a4 scale %sa, %bbf, %c lhs = e2m1 rhs = bf16 {fastMath = true} : tensor<128x32xi8>, tensor<128x2xi8> * tensor<64x128xbf16> -> tensor<128x128xf32>
    // No scales at all; fp16 and e2m1 with the packing axis flipped.
    // CHECK: tt.dot_scaled %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} lhs = bf16 rhs = fp16 {fastMath = false} : tensor<128x64xbf16> * tensor<64x128xf16> -> tensor<128x128xf32>
    %2 = tt.dot_scaled %abf, %bh, %c lhs = bf16 rhs = fp16 {fastMath = false} : tensor<128x64xbf16> * tensor<64x128xf16> -> tensor<128x128xf32>
    // Only the rhs is scaled; e2m1 with lhs_k_pack/rhs_k_pack off.
    // CHECK: tt.dot_scaled %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} scale %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} lhs = fp16 rhs = e2m1 {fastMath = false, lhs_k_pack = false, rhs_k_pack = false} : tensor<128x64xf16> * tensor<32x128xi8>, tensor<128x2xi8> -> tensor<128x128xf32>
    %ah = tt.trans %bh {order = array<i32: 1, 0>} : tensor<64x128xf16> -> tensor<128x64xf16>
    %3 = tt.dot_scaled %ah, %b4 scale %sb, %c lhs = fp16 rhs = e2m1 {fastMath = false, lhs_k_pack = false, rhs_k_pack = false} : tensor<128x64xf16> * tensor<32x128xi8>, tensor<128x2xi8> -> tensor<128x128xf32>
    // The fp6 formats (e2m3, e3m2) as bytes.
    // CHECK: tt.dot_scaled {{.*}} lhs = e2m3 rhs = e3m2 {fastMath = false} : tensor<128x48xi8>, tensor<128x2xi8> * tensor<48x128xi8>, tensor<128x2xi8> -> tensor<128x128xf32>
    %4 = tt.dot_scaled %a6 scale %sa, %b6 scale %sb, %c lhs = e2m3 rhs = e3m2 {fastMath = false} : tensor<128x48xi8>, tensor<128x2xi8> * tensor<48x128xi8>, tensor<128x2xi8> -> tensor<128x128xf32>
    tt.return
  }

  // CHECK-LABEL: tt.func public @reductions
  tt.func public @reductions(%x: tensor<16x32xf32>, %i: tensor<16x32xi32>, %v: tensor<32xf16>) {
    // Single operand, 2-D -> 1-D.
    // CHECK: "tt.reduce"(%{{[A-Za-z0-9_]+}}) <{axis = 1 : i32}> ({
    // CHECK: ^bb0(%{{[A-Za-z0-9_]+}}: f32{{.*}}, %{{[A-Za-z0-9_]+}}: f32{{.*}}):
    // CHECK: tt.reduce.return %{{[A-Za-z0-9_]+}} : f32
    // CHECK: }) : (tensor<16x32xf32>) -> tensor<16xf32>
    %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.maxnumf %a, %b : f32
      tt.reduce.return %m : f32
    }) : (tensor<16x32xf32>) -> tensor<16xf32>
    // Two operands (argmax): (value, index) pairs.
    // CHECK: %{{[A-Za-z0-9_]+}}:2 = "tt.reduce"(%{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}) <{axis = 0 : i32}> ({
    // CHECK: ^bb0(%{{[A-Za-z0-9_]+}}: f32{{.*}}, %{{[A-Za-z0-9_]+}}: i32{{.*}}, %{{[A-Za-z0-9_]+}}: f32{{.*}}, %{{[A-Za-z0-9_]+}}: i32{{.*}}):
    // CHECK: tt.reduce.return %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : f32, i32
    // CHECK: }) : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<32xf32>, tensor<32xi32>)
    %1:2 = "tt.reduce"(%x, %i) <{axis = 0 : i32}> ({
    ^bb0(%va: f32, %ia: i32, %vb: f32, %ib: i32):
      %gt = arith.cmpf ogt, %va, %vb : f32
      %vr = arith.select %gt, %va, %vb : f32
      %ir = arith.select %gt, %ia, %ib : i32
      tt.reduce.return %vr, %ir : f32, i32
    }) : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<32xf32>, tensor<32xi32>)
    // 1-D -> scalar.
    // CHECK: }) : (tensor<32xf16>) -> f16
    %2 = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f16, %b: f16):
      %s = arith.addf %a, %b : f16
      tt.reduce.return %s : f16
    }) : (tensor<32xf16>) -> f16
    // Scan, forward and reverse, with one and two operands.
    // CHECK: "tt.scan"(%{{[A-Za-z0-9_]+}}) <{axis = 1 : i32, reverse = false}> ({
    // CHECK: tt.scan.return %{{[A-Za-z0-9_]+}} : i32
    // CHECK: }) : (tensor<16x32xi32>) -> tensor<16x32xi32>
    %3 = "tt.scan"(%i) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      tt.scan.return %s : i32
    }) : (tensor<16x32xi32>) -> tensor<16x32xi32>
    // CHECK: %{{[A-Za-z0-9_]+}}:2 = "tt.scan"(%{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}) <{axis = 0 : i32, reverse = true}> ({
    // CHECK: tt.scan.return %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : f32, i32
    // CHECK: }) : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<16x32xf32>, tensor<16x32xi32>)
    %4:2 = "tt.scan"(%x, %i) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%fa: f32, %ia: i32, %fb: f32, %ib: i32):
      %fs = arith.addf %fa, %fb : f32
      %is = arith.addi %ia, %ib : i32
      tt.scan.return %fs, %is : f32, i32
    }) : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<16x32xf32>, tensor<16x32xi32>)
    tt.return
  }

  // CHECK-LABEL: tt.func public @map_elementwise
  tt.func public @map_elementwise(%x: tensor<64xf32>, %y: tensor<64xi32>) {
    // CHECK: "tt.map_elementwise"(%{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}) <{pack = 1 : i32}> ({
    // CHECK: tt.map_elementwise.return %{{[A-Za-z0-9_]+}} : f32
    // CHECK: }) : (tensor<64xf32>, tensor<64xi32>) -> tensor<64xf32>
    %0 = "tt.map_elementwise"(%x, %y) <{pack = 1 : i32}> ({
    ^bb0(%a: f32, %b: i32):
      %c = arith.sitofp %b : i32 to f32
      %s = arith.addf %a, %c : f32
      tt.map_elementwise.return %s : f32
    }) : (tensor<64xf32>, tensor<64xi32>) -> tensor<64xf32>
    // pack = 2: two elements per application, with control flow inside.
    // CHECK: "tt.map_elementwise"(%{{[A-Za-z0-9_]+}}) <{pack = 2 : i32}> ({
    // CHECK: cf.cond_br
    // CHECK: tt.map_elementwise.return %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : i32, i32
    // CHECK: }) : (tensor<64xi32>) -> tensor<64xi32>
    %1 = "tt.map_elementwise"(%y) <{pack = 2 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %z = arith.constant 0 : i32
      %neg = arith.cmpi slt, %a, %z : i32
      cf.cond_br %neg, ^bb1, ^bb2
    ^bb1:
      tt.map_elementwise.return %z, %b : i32, i32
    ^bb2:
      tt.map_elementwise.return %a, %b : i32, i32
    }) : (tensor<64xi32>) -> tensor<64xi32>
    tt.return
  }

  // CHECK-LABEL: tt.func public @misc
  tt.func public @misc(%x: tensor<128xi32>, %f: tensor<128xf32>, %m: tensor<128xi1>, %g: tensor<4x8xf32>, %gi: tensor<4x2xi32>) {
    // CHECK: tt.histogram %{{[A-Za-z0-9_]+}} : tensor<128xi32> -> tensor<16xi32>
    %0 = tt.histogram %x : tensor<128xi32> -> tensor<16xi32>
    // CHECK: tt.histogram %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : tensor<128xi32> -> tensor<64xi32>
    %1 = tt.histogram %x, %m : tensor<128xi32> -> tensor<64xi32>
    // CHECK: tt.gather %{{[A-Za-z0-9_]+}}[%{{[A-Za-z0-9_]+}}] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x2xf32>
    %2 = tt.gather %g[%gi] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x2xf32>
    // CHECK: tt.gather %{{[A-Za-z0-9_]+}}[%{{[A-Za-z0-9_]+}}] {axis = 1 : i32, efficient_layout} : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x2xf32>
    %3 = tt.gather %g[%gi] {axis = 1 : i32, efficient_layout} : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x2xf32>
    // CHECK: tt.extern_elementwise %{{[A-Za-z0-9_]+}} {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<128xf32>) -> tensor<128xf32>
    %4 = tt.extern_elementwise %f {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<128xf32>) -> tensor<128xf32>
    // CHECK: tt.extern_elementwise %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} {libname = "libdevice", libpath = "/opt/libdevice.10.bc", pure = false, symbol = "__nv_ldexpf"} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
    %5 = tt.extern_elementwise %f, %x {libname = "libdevice", libpath = "/opt/libdevice.10.bc", pure = false, symbol = "__nv_ldexpf"} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
    // CHECK: tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %{{[A-Za-z0-9_]+}} : tensor<128xi32> -> tensor<128xi32>
    %6 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<128xi32> -> tensor<128xi32>
    // Two results, two elements per pack (32-bit types: one assembly
    // operand per element, results first), impure.
    // CHECK: %{{[A-Za-z0-9_]+}}:2 = tt.elementwise_inline_asm "{{.*}}" {constraints = "=r,=r,=r,=r,r,r,r,r", packed_element = 2 : i32, pure = false} %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : tensor<128xi32>, tensor<128xf32> -> tensor<128xi32>, tensor<128xf32>
    %7:2 = tt.elementwise_inline_asm "shf.l.wrap.b32 $0, $4, $4, 1; shf.l.wrap.b32 $1, $5, $5, 1; mov.b32 $2, $6; mov.b32 $3, $7;" {constraints = "=r,=r,=r,=r,r,r,r,r", packed_element = 2 : i32, pure = false} %x, %f : tensor<128xi32>, tensor<128xf32> -> tensor<128xi32>, tensor<128xf32>
    // No arguments at all.
    // CHECK: tt.elementwise_inline_asm "mov.u32 $0, %clock;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    %8 = tt.elementwise_inline_asm "mov.u32 $0, %clock;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    tt.return
  }
}
