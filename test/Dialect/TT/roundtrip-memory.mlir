// RUN: tpx-opt %s | FileCheck %s
// RUN: tpx-opt %s | tpx-opt | FileCheck %s

// Pointers, loads, stores, atomics, block pointers and tensor descriptors:
// every optional operand and attribute, every cache modifier, eviction
// policy, RMW op, memory semantic and scope, printed in Triton's syntax.

module {
  // CHECK-LABEL: tt.func public @loads
  // CHECK-SAME: %{{[A-Za-z0-9_]+}}: !tt.ptr<f32> {tt.divisibility = 16 : i32}
  tt.func public @loads(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %offs = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %nn = tt.splat %n : i32 -> tensor<128xi32>
    %mask = arith.cmpi slt, %offs, %nn : tensor<128xi32>
    %other = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %base = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %ptrs = tt.addptr %base, %offs : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    // CHECK: tt.load %{{[A-Za-z0-9_]+}} : !tt.ptr<f32>
    %s = tt.load %p : !tt.ptr<f32>
    // CHECK: tt.load %{{[A-Za-z0-9_]+}} : tensor<128x!tt.ptr<f32>>
    %a = tt.load %ptrs : tensor<128x!tt.ptr<f32>>
    // CHECK: tt.load %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : tensor<128x!tt.ptr<f32>>
    %b = tt.load %ptrs, %mask : tensor<128x!tt.ptr<f32>>
    // CHECK: tt.load %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : tensor<128x!tt.ptr<f32>>
    %c = tt.load %ptrs, %mask, %other : tensor<128x!tt.ptr<f32>>
    // CHECK: tt.load %{{[A-Za-z0-9_]+}} cacheModifier = ca : tensor<128x!tt.ptr<f32>>
    %d = tt.load %ptrs cacheModifier = ca : tensor<128x!tt.ptr<f32>>
    // CHECK: tt.load %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} cacheModifier = cg evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
    %e = tt.load %ptrs, %mask cacheModifier = cg evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
    // The two clauses of the oilist may come in either order.
    // CHECK: tt.load %{{[A-Za-z0-9_]+}} cacheModifier = cv evictionPolicy = evict_last : tensor<128x!tt.ptr<f32>>
    %f = tt.load %ptrs evictionPolicy = evict_last cacheModifier = cv : tensor<128x!tt.ptr<f32>>
    // Default values are not printed.
    // CHECK: tt.load %{{[A-Za-z0-9_]+}} : tensor<128x!tt.ptr<f32>>
    %g = tt.load %ptrs cacheModifier = none evictionPolicy = evict_normal : tensor<128x!tt.ptr<f32>>
    // CHECK: tt.load %{{[A-Za-z0-9_]+}} {isVolatile = true} : tensor<128x!tt.ptr<f32>>
    %h = tt.load %ptrs {isVolatile = true} : tensor<128x!tt.ptr<f32>>
    // Cache modifier written as an integer inside the attribute dictionary.
    // CHECK: tt.load %{{[A-Za-z0-9_]+}} cacheModifier = cg : tensor<128x!tt.ptr<f32>>
    %i = tt.load %ptrs {cache = 3 : i32} : tensor<128x!tt.ptr<f32>>
    // Scalar pointer with a scalar mask and other.
    %true = arith.constant true
    %zero = arith.constant 0.000000e+00 : f32
    // CHECK: tt.load %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : !tt.ptr<f32>
    %j = tt.load %p, %true, %zero : !tt.ptr<f32>
    tt.return
  }

  // CHECK-LABEL: tt.func public @stores
  tt.func public @stores(%p: !tt.ptr<bf16>, %q: !tt.ptr<i8>) {
    %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %base = tt.splat %p : !tt.ptr<bf16> -> tensor<64x!tt.ptr<bf16>>
    %ptrs = tt.addptr %base, %offs : tensor<64x!tt.ptr<bf16>>, tensor<64xi32>
    %v = arith.constant dense<1.000000e+00> : tensor<64xbf16>
    %c32 = arith.constant dense<32> : tensor<64xi32>
    %mask = arith.cmpi slt, %offs, %c32 : tensor<64xi32>
    // CHECK: tt.store %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : tensor<64x!tt.ptr<bf16>>
    tt.store %ptrs, %v : tensor<64x!tt.ptr<bf16>>
    // CHECK: tt.store %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : tensor<64x!tt.ptr<bf16>>
    tt.store %ptrs, %v, %mask : tensor<64x!tt.ptr<bf16>>
    // CHECK: tt.store %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} cacheModifier = wb : tensor<64x!tt.ptr<bf16>>
    tt.store %ptrs, %v cacheModifier = wb : tensor<64x!tt.ptr<bf16>>
    // CHECK: tt.store %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} cacheModifier = cs evictionPolicy = evict_last : tensor<64x!tt.ptr<bf16>>
    tt.store %ptrs, %v, %mask cacheModifier = cs evictionPolicy = evict_last : tensor<64x!tt.ptr<bf16>>
    // CHECK: tt.store %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} cacheModifier = wt evictionPolicy = evict_first : tensor<64x!tt.ptr<bf16>>
    tt.store %ptrs, %v cacheModifier = wt evictionPolicy = evict_first : tensor<64x!tt.ptr<bf16>>
    %b = arith.constant 7 : i8
    // CHECK: tt.store %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : !tt.ptr<i8>
    tt.store %q, %b : !tt.ptr<i8>
    tt.return
  }

  // CHECK-LABEL: tt.func public @atomics
  tt.func public @atomics(%pi: !tt.ptr<i32>, %pf: !tt.ptr<f32>, %ph: !tt.ptr<f16>, %pl: !tt.ptr<i64>, %pb: !tt.ptr<bf16>) {
    %offs = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %bi = tt.splat %pi : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
    %ptrs = tt.addptr %bi, %offs : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
    %bf = tt.splat %pf : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %fptrs = tt.addptr %bf, %offs : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %one = arith.constant dense<1> : tensor<16xi32>
    %fone = arith.constant dense<1.000000e+00> : tensor<16xf32>
    %mask = arith.constant dense<true> : tensor<16xi1>
    // CHECK: tt.atomic_rmw and, relaxed, gpu, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>) -> tensor<16xi32>
    %0 = tt.atomic_rmw and, relaxed, gpu, %ptrs, %one : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>) -> tensor<16xi32>
    // CHECK: tt.atomic_rmw or, acquire, cta, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi1>) -> tensor<16xi32>
    %1 = tt.atomic_rmw or, acquire, cta, %ptrs, %one, %mask : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi1>) -> tensor<16xi32>
    // CHECK: tt.atomic_rmw xor, release, sys,
    %2 = tt.atomic_rmw xor, release, sys, %ptrs, %one : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>) -> tensor<16xi32>
    // CHECK: tt.atomic_rmw add, acq_rel, gpu,
    %3 = tt.atomic_rmw add, acq_rel, gpu, %ptrs, %one, %mask : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi1>) -> tensor<16xi32>
    // CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>
    %4 = tt.atomic_rmw fadd, acq_rel, gpu, %fptrs, %fone : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>
    // CHECK: tt.atomic_rmw max, relaxed, cta, {{.*}} -> tensor<16xi32>
    %5 = tt.atomic_rmw max, relaxed, cta, %ptrs, %one : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>) -> tensor<16xi32>
    // CHECK: tt.atomic_rmw min, relaxed, cta, {{.*}} -> tensor<16xf32>
    %6 = tt.atomic_rmw min, relaxed, cta, %fptrs, %fone : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>
    // CHECK: tt.atomic_rmw umax, acquire, gpu,
    %7 = tt.atomic_rmw umax, acquire, gpu, %ptrs, %one : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>) -> tensor<16xi32>
    // CHECK: tt.atomic_rmw umin, release, gpu,
    %8 = tt.atomic_rmw umin, release, gpu, %ptrs, %one : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>) -> tensor<16xi32>
    // CHECK: tt.atomic_rmw exch, acq_rel, sys, {{.*}} -> tensor<16xf32>
    %9 = tt.atomic_rmw exch, acq_rel, sys, %fptrs, %fone : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>
    // Scalar atomics, with and without a mask, on f16/bf16/i64.
    %h = arith.constant 1.000000e+00 : f16
    %true = arith.constant true
    // CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : (!tt.ptr<f16>, f16, i1) -> f16
    %10 = tt.atomic_rmw fadd, acq_rel, gpu, %ph, %h, %true : (!tt.ptr<f16>, f16, i1) -> f16
    %bh = arith.constant 2.000000e+00 : bf16
    // CHECK: tt.atomic_rmw fadd, relaxed, gpu, {{.*}} : (!tt.ptr<bf16>, bf16) -> bf16
    %11 = tt.atomic_rmw fadd, relaxed, gpu, %pb, %bh : (!tt.ptr<bf16>, bf16) -> bf16
    %l = arith.constant 5 : i64
    // CHECK: tt.atomic_rmw add, relaxed, sys, {{.*}} : (!tt.ptr<i64>, i64) -> i64
    %12 = tt.atomic_rmw add, relaxed, sys, %pl, %l : (!tt.ptr<i64>, i64) -> i64
    // CHECK: tt.atomic_cas acq_rel, gpu, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : (!tt.ptr<i64>, i64, i64) -> i64
    %13 = tt.atomic_cas acq_rel, gpu, %pl, %l, %l : (!tt.ptr<i64>, i64, i64) -> i64
    %zero = arith.constant dense<0> : tensor<16xi32>
    // CHECK: tt.atomic_cas relaxed, cta, {{.*}} : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    %14 = tt.atomic_cas relaxed, cta, %ptrs, %zero, %one : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    // CHECK: tt.atomic_cas acquire, sys,
    %15 = tt.atomic_cas acquire, sys, %ptrs, %zero, %one : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    // CHECK: tt.atomic_cas release, gpu,
    %16 = tt.atomic_cas release, gpu, %ptrs, %zero, %one : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    tt.return
  }

  // CHECK-LABEL: tt.func public @block_pointers
  tt.func public @block_pointers(%p: !tt.ptr<f16>, %q: !tt.ptr<f32>, %m: i64, %k: i64, %i: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c32 = arith.constant 32 : i32
    // CHECK: %[[BP:[A-Za-z0-9_]+]] = tt.make_tensor_ptr %{{[A-Za-z0-9_]+}}, [%{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}], [%{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}], [%{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
    %bp = tt.make_tensor_ptr %p, [%m, %k], [%k, %c1], [%i, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
    // The fully qualified spelling of the result type is accepted too.
    // CHECK: tt.make_tensor_ptr {{.*}} {order = array<i32: 0, 1>} : <tensor<64x32xf16>>
    %bp2 = tt.make_tensor_ptr %p, [%m, %k], [%c1, %m], [%c0, %c0] {order = array<i32: 0, 1>} : !tt.ptr<tensor<64x32xf16>>
    // CHECK: tt.advance %[[BP]], [%{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}] : <tensor<64x32xf16>>
    %adv = tt.advance %bp, [%c0, %c32] : <tensor<64x32xf16>>
    // CHECK: tt.load %{{[A-Za-z0-9_]+}} : !tt.ptr<tensor<64x32xf16>>
    %x = tt.load %adv : !tt.ptr<tensor<64x32xf16>>
    // CHECK: tt.load %{{[A-Za-z0-9_]+}} {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
    %y = tt.load %bp2 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
    // CHECK: tt.load %{{[A-Za-z0-9_]+}} cacheModifier = cg {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<64x32xf16>>
    %z = tt.load %bp cacheModifier = cg {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<64x32xf16>>
    // CHECK: tt.store %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<64x32xf16>>
    tt.store %bp, %x {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<64x32xf16>>
    // CHECK: tt.store %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : !tt.ptr<tensor<64x32xf16>>
    tt.store %adv, %y : !tt.ptr<tensor<64x32xf16>>
    // A rank-1 block pointer inside an scf.for, carried as an iter_arg.
    %n = arith.constant 4 : i32
    %s1 = arith.constant 1 : i32
    // CHECK: tt.make_tensor_ptr {{.*}} : <tensor<128xf32>>
    %bq = tt.make_tensor_ptr %q, [%m], [%c1], [%c0] {order = array<i32: 0>} : <tensor<128xf32>>
    // CHECK: scf.for {{.*}} -> (!tt.ptr<tensor<128xf32>>) : i32
    %last = scf.for %iv = %c0 to %n step %s1 iter_args(%cur = %bq) -> (!tt.ptr<tensor<128xf32>>) : i32 {
      %v = tt.load %cur {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<128xf32>>
      %w = arith.addf %v, %v : tensor<128xf32>
      tt.store %cur, %w {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<128xf32>>
      %c128 = arith.constant 128 : i32
      // CHECK: tt.advance %{{[A-Za-z0-9_]+}}, [%{{[A-Za-z0-9_]+}}] : <tensor<128xf32>>
      %next = tt.advance %cur, [%c128] : <tensor<128xf32>>
      scf.yield %next : !tt.ptr<tensor<128xf32>>
    }
    tt.return
  }

  // CHECK-LABEL: tt.func public @descriptors
  tt.func public @descriptors(%p: !tt.ptr<f16>, %q: !tt.ptr<f32>, %r: !tt.ptr<i32>, %m: i32, %n: i32, %s: i64) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    // CHECK: %[[D:[A-Za-z0-9_]+]] = tt.make_tensor_descriptor %{{[A-Za-z0-9_]+}}, [%{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}], [%{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}] : <f16>, <tensor<64x32xf16>>
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%s, %c1] : <f16>, <tensor<64x32xf16>>
    // Fully qualified operand types parse and print stripped, as Triton does.
    // CHECK: tt.make_tensor_descriptor {{.*}} {padding = 2 : i32} : <f32>, <tensor<1x128xf32>>
    %g = tt.make_tensor_descriptor %q, [%m, %n], [%s, %c1] {padding = 2 : i32} : !tt.ptr<f32>, !tt.tensordesc<tensor<1x128xf32>>
    // CHECK: tt.make_tensor_descriptor {{.*}} : <i32>, <tensor<16xi32>>
    %d1 = tt.make_tensor_descriptor %r, [%m], [%c1] : <i32>, <tensor<16xi32>>
    // CHECK: tt.descriptor_load %[[D]][%{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
    %x = tt.descriptor_load %d[%m, %c0] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
    // CHECK: tt.descriptor_load %[[D]][{{.*}}] cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
    %y = tt.descriptor_load %d[%c0, %c0] cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
    // CHECK: tt.descriptor_store %[[D]][%{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}], %{{[A-Za-z0-9_]+}} : !tt.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
    tt.descriptor_store %d[%c0, %n], %x : !tt.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
    %v = arith.constant dense<1> : tensor<16xi32>
    // CHECK: tt.descriptor_reduce add, %{{[A-Za-z0-9_]+}}[%{{[A-Za-z0-9_]+}}], %{{[A-Za-z0-9_]+}} : !tt.tensordesc<tensor<16xi32>>, tensor<16xi32>
    tt.descriptor_reduce add, %d1[%c0], %v : !tt.tensordesc<tensor<16xi32>>, tensor<16xi32>
    // CHECK: tt.descriptor_reduce min,
    tt.descriptor_reduce min, %d1[%c0], %v : !tt.tensordesc<tensor<16xi32>>, tensor<16xi32>
    // CHECK: tt.descriptor_reduce max,
    tt.descriptor_reduce max, %d1[%c0], %v : !tt.tensordesc<tensor<16xi32>>, tensor<16xi32>
    // CHECK: tt.descriptor_reduce inc,
    tt.descriptor_reduce inc, %d1[%c0], %v : !tt.tensordesc<tensor<16xi32>>, tensor<16xi32>
    // CHECK: tt.descriptor_reduce dec,
    tt.descriptor_reduce dec, %d1[%c0], %v : !tt.tensordesc<tensor<16xi32>>, tensor<16xi32>
    // CHECK: tt.descriptor_reduce and,
    tt.descriptor_reduce and, %d1[%c0], %v : !tt.tensordesc<tensor<16xi32>>, tensor<16xi32>
    // CHECK: tt.descriptor_reduce or,
    tt.descriptor_reduce or, %d1[%c0], %v : !tt.tensordesc<tensor<16xi32>>, tensor<16xi32>
    // CHECK: tt.descriptor_reduce xor,
    tt.descriptor_reduce xor, %d1[%c0], %v : !tt.tensordesc<tensor<16xi32>>, tensor<16xi32>
    %rows = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    // CHECK: tt.descriptor_gather %{{[A-Za-z0-9_]+}}[%{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}] : (!tt.tensordesc<tensor<1x128xf32>>, tensor<8xi32>, i32) -> tensor<8x128xf32>
    %rowsv = tt.descriptor_gather %g[%rows, %c0] : (!tt.tensordesc<tensor<1x128xf32>>, tensor<8xi32>, i32) -> tensor<8x128xf32>
    // CHECK: tt.descriptor_scatter %{{[A-Za-z0-9_]+}}[%{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}}], %{{[A-Za-z0-9_]+}} : !tt.tensordesc<tensor<1x128xf32>>, tensor<8xi32>, i32, tensor<8x128xf32>
    tt.descriptor_scatter %g[%rows, %c0], %rowsv : !tt.tensordesc<tensor<1x128xf32>>, tensor<8xi32>, i32, tensor<8x128xf32>
    // Descriptors flow through scf.if results.
    %cond = arith.cmpi slt, %m, %n : i32
    // CHECK: scf.if %{{[A-Za-z0-9_]+}} -> (!tt.tensordesc<tensor<64x32xf16>>)
    %sel = scf.if %cond -> (!tt.tensordesc<tensor<64x32xf16>>) {
      scf.yield %d : !tt.tensordesc<tensor<64x32xf16>>
    } else {
      %e = tt.make_tensor_descriptor %p, [%n, %m], [%s, %c1] : <f16>, <tensor<64x32xf16>>
      scf.yield %e : !tt.tensordesc<tensor<64x32xf16>>
    }
    tt.return
  }

  // CHECK-LABEL: tt.func public @pointer_casts
  // CHECK-SAME: !tt.ptr<f16, 3>
  tt.func public @pointer_casts(%p: !tt.ptr<f32>, %shared: !tt.ptr<f16, 3>, %pp: !tt.ptr<!tt.ptr<f32>>) {
    // CHECK: tt.ptr_to_int %{{[A-Za-z0-9_]+}} : !tt.ptr<f32> -> i64
    %i = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
    // CHECK: tt.int_to_ptr %{{[A-Za-z0-9_]+}} : i64 -> !tt.ptr<i8>
    %q = tt.int_to_ptr %i : i64 -> !tt.ptr<i8>
    // CHECK: tt.bitcast %{{[A-Za-z0-9_]+}} : !tt.ptr<f32> -> !tt.ptr<i32>
    %r = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>
    %v = tt.splat %p : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    // CHECK: tt.ptr_to_int %{{[A-Za-z0-9_]+}} : tensor<4x!tt.ptr<f32>> -> tensor<4xi64>
    %vi = tt.ptr_to_int %v : tensor<4x!tt.ptr<f32>> -> tensor<4xi64>
    // CHECK: tt.int_to_ptr %{{[A-Za-z0-9_]+}} : tensor<4xi64> -> tensor<4x!tt.ptr<f16, 3>>
    %vp = tt.int_to_ptr %vi : tensor<4xi64> -> tensor<4x!tt.ptr<f16, 3>>
    // CHECK: tt.addptr %{{[A-Za-z0-9_]+}}, %{{[A-Za-z0-9_]+}} : !tt.ptr<f16, 3>, i64
    %s = tt.addptr %shared, %i : !tt.ptr<f16, 3>, i64
    // CHECK: tt.load %{{[A-Za-z0-9_]+}} : !tt.ptr<f16, 3>
    %h = tt.load %s : !tt.ptr<f16, 3>
    // A pointer to pointers loads a pointer.
    // CHECK: tt.load %{{[A-Za-z0-9_]+}} : !tt.ptr<!tt.ptr<f32>>
    %inner = tt.load %pp : !tt.ptr<!tt.ptr<f32>>
    // CHECK: tt.bitcast %{{[A-Za-z0-9_]+}} : !tt.ptr<f32> -> i64
    %asint = tt.bitcast %inner : !tt.ptr<f32> -> i64
    tt.return
  }
}
