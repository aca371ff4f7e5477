// RUN: tpx-opt %s | FileCheck %s
// RUN: tpx-opt %s | tpx-opt | FileCheck %s
// The printed form is a fixpoint: printing what was printed changes nothing.
// RUN: tpx-opt %s -o %t.1.mlir && tpx-opt %t.1.mlir -o %t.2.mlir && diff %t.1.mlir %t.2.mlir
// Generic form round-trips too (custom printers are not hiding anything).
// RUN: tpx-opt %s -mlir-print-op-generic | tpx-opt | FileCheck %s

// Every tpxgpu attribute, type and op. The first function is the pipelined
// loop of docs/tpxgpu-dialect.md, verbatim.

// CHECK-DAG: #[[BLOCKED:[a-z_0-9]+]] = #tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[MMA:[a-z_0-9]+]] = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK-DAG: #tpxgpu.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>
// CHECK-DAG: #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
// CHECK-DAG: #tpxgpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-DAG: #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-DAG: #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
// CHECK-DAG: #tpxgpu.slice<{dim = 1, parent = #[[BLOCKED]]}>
// CHECK-DAG: #tpxgpu.slice<{dim = 1, parent = #[[MMA]]}>
// CHECK-DAG: #tpxgpu.dot_op<{opIdx = 0, parent = #[[BLOCKED]]}>
// CHECK-DAG: #[[MFMA:[a-z_0-9]+]] = #tpxgpu.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>
// CHECK-DAG: #tpxgpu.dot_op<{opIdx = 1, parent = #[[MFMA]], kWidth = 8}>
// CHECK-DAG: #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#dot_a = #tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#shared = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>

// CHECK: module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32}
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @pipelined_matmul
  tt.func public @pipelined_matmul(%a_ptrs: tensor<128x64x!tt.ptr<f16>, #blocked>,
                                   %b_ptrs: tensor<64x128x!tt.ptr<f16>, #blocked>,
                                   %a_step: tensor<128x64xi32, #blocked>,
                                   %b_step: tensor<64x128xi32, #blocked>,
                                   %n: i32) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    // Three buffers per operand: one being read by the dot, two in flight.
    // CHECK: tpxgpu.local_alloc : !tpxgpu.memdesc<3x128x64xf16, #{{[a-z_0-9]+}}, mutable>
    %a_bufs = tpxgpu.local_alloc : !tpxgpu.memdesc<3x128x64xf16, #shared, mutable>
    %b_bufs = tpxgpu.local_alloc : !tpxgpu.memdesc<3x64x128xf16, #shared, mutable>

    // Prologue: stages 0 and 1, one commit group each.
    // CHECK: tpxgpu.memdesc_index %{{.*}}[%{{.*}}] : !tpxgpu.memdesc<3x128x64xf16, #{{[a-z_0-9]+}}, mutable> -> !tpxgpu.memdesc<128x64xf16, #{{[a-z_0-9]+}}, mutable, alloc_shape = 3x128x64>
    %a_dst0 = tpxgpu.memdesc_index %a_bufs[%c0] : !tpxgpu.memdesc<3x128x64xf16, #shared, mutable> -> !tpxgpu.memdesc<128x64xf16, #shared, mutable, alloc_shape = 3x128x64>
    %b_dst0 = tpxgpu.memdesc_index %b_bufs[%c0] : !tpxgpu.memdesc<3x64x128xf16, #shared, mutable> -> !tpxgpu.memdesc<64x128xf16, #shared, mutable, alloc_shape = 3x64x128>
    // CHECK: tpxgpu.async_copy_global_to_local %{{.*}}, %{{.*}} : tensor<128x64x!tt.ptr<f16>, #[[BLOCKED]]> -> !tpxgpu.memdesc<128x64xf16, #{{[a-z_0-9]+}}, mutable, alloc_shape = 3x128x64>
    %ta0 = tpxgpu.async_copy_global_to_local %a_ptrs, %a_dst0 : tensor<128x64x!tt.ptr<f16>, #blocked> -> !tpxgpu.memdesc<128x64xf16, #shared, mutable, alloc_shape = 3x128x64>
    %tb0 = tpxgpu.async_copy_global_to_local %b_ptrs, %b_dst0 : tensor<64x128x!tt.ptr<f16>, #blocked> -> !tpxgpu.memdesc<64x128xf16, #shared, mutable, alloc_shape = 3x64x128>
    // CHECK: tpxgpu.async_commit_group tokens %{{.*}}, %{{.*}}
    %g0 = tpxgpu.async_commit_group tokens %ta0, %tb0
    %a_ptrs1 = tt.addptr %a_ptrs, %a_step : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %b_ptrs1 = tt.addptr %b_ptrs, %b_step : tensor<64x128x!tt.ptr<f16>, #blocked>, tensor<64x128xi32, #blocked>
    %a_dst1 = tpxgpu.memdesc_index %a_bufs[%c1] : !tpxgpu.memdesc<3x128x64xf16, #shared, mutable> -> !tpxgpu.memdesc<128x64xf16, #shared, mutable, alloc_shape = 3x128x64>
    %b_dst1 = tpxgpu.memdesc_index %b_bufs[%c1] : !tpxgpu.memdesc<3x64x128xf16, #shared, mutable> -> !tpxgpu.memdesc<64x128xf16, #shared, mutable, alloc_shape = 3x64x128>
    %ta1 = tpxgpu.async_copy_global_to_local %a_ptrs1, %a_dst1 : tensor<128x64x!tt.ptr<f16>, #blocked> -> !tpxgpu.memdesc<128x64xf16, #shared, mutable, alloc_shape = 3x128x64>
    %tb1 = tpxgpu.async_copy_global_to_local %b_ptrs1, %b_dst1 : tensor<64x128x!tt.ptr<f16>, #blocked> -> !tpxgpu.memdesc<64x128xf16, #shared, mutable, alloc_shape = 3x64x128>
    %g1 = tpxgpu.async_commit_group tokens %ta1, %tb1
    %a_ptrs2 = tt.addptr %a_ptrs1, %a_step : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %b_ptrs2 = tt.addptr %b_ptrs1, %b_step : tensor<64x128x!tt.ptr<f16>, #blocked>, tensor<64x128xi32, #blocked>

    // CHECK: scf.for
    %res:3 = scf.for %i = %c0 to %n step %c1
        iter_args(%acc = %zero, %ap = %a_ptrs2, %bp = %b_ptrs2)
        -> (tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked>,
            tensor<64x128x!tt.ptr<f16>, #blocked>) : i32 {
      // Stage i has landed once at most one group (stage i+1) is pending;
      // the CTA barrier makes every thread's copies visible to all.
      // CHECK: %[[W:[^ ]+]] = tpxgpu.async_wait num = 1
      %w = tpxgpu.async_wait num = 1
      // CHECK: tpxgpu.barrier
      tpxgpu.barrier
      %slot = arith.remsi %i, %c3 : i32
      %a_buf = tpxgpu.memdesc_index %a_bufs[%slot] : !tpxgpu.memdesc<3x128x64xf16, #shared, mutable> -> !tpxgpu.memdesc<128x64xf16, #shared, mutable, alloc_shape = 3x128x64>
      %b_buf = tpxgpu.memdesc_index %b_bufs[%slot] : !tpxgpu.memdesc<3x64x128xf16, #shared, mutable> -> !tpxgpu.memdesc<64x128xf16, #shared, mutable, alloc_shape = 3x64x128>
      // A goes to registers in wgmma's operand-A layout; B stays in shared.
      // CHECK: tpxgpu.local_load %{{.*}} token %[[W]] : !tpxgpu.memdesc<128x64xf16, #{{[a-z_0-9]+}}, mutable, alloc_shape = 3x128x64> -> tensor<128x64xf16, #{{[a-z_0-9]+}}>
      %a = tpxgpu.local_load %a_buf token %w : !tpxgpu.memdesc<128x64xf16, #shared, mutable, alloc_shape = 3x128x64> -> tensor<128x64xf16, #dot_a>
      // CHECK: tpxgpu.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} async : tensor<128x64xf16, #{{[a-z_0-9]+}}>, !tpxgpu.memdesc<64x128xf16, #{{[a-z_0-9]+}}, mutable, alloc_shape = 3x64x128> -> tensor<128x128xf32, #[[MMA]]>
      %d = tpxgpu.warp_group_dot %a, %b_buf, %acc async : tensor<128x64xf16, #dot_a>, !tpxgpu.memdesc<64x128xf16, #shared, mutable, alloc_shape = 3x64x128> -> tensor<128x128xf32, #mma>
      // Keep this dot in flight; the one of iteration i-1 is done, so the
      // buffers it read can be refilled with stage i+2.
      // CHECK: tpxgpu.warp_group_dot_wait %{{.*}}, %{{.*}} pendings = 1 : tensor<128x128xf32, #[[MMA]]>, !tpxgpu.memdesc<64x128xf16
      %dw:2 = tpxgpu.warp_group_dot_wait %d, %b_buf pendings = 1 : tensor<128x128xf32, #mma>, !tpxgpu.memdesc<64x128xf16, #shared, mutable, alloc_shape = 3x64x128>
      %next = arith.addi %i, %c2 : i32
      %refill = arith.remsi %next, %c3 : i32
      %in_range = arith.cmpi slt, %next, %n : i32
      %a_mask = tt.splat %in_range : i1 -> tensor<128x64xi1, #blocked>
      %b_mask = tt.splat %in_range : i1 -> tensor<64x128xi1, #blocked>
      %a_dst = tpxgpu.memdesc_index %a_bufs[%refill] : !tpxgpu.memdesc<3x128x64xf16, #shared, mutable> -> !tpxgpu.memdesc<128x64xf16, #shared, mutable, alloc_shape = 3x128x64>
      %b_dst = tpxgpu.memdesc_index %b_bufs[%refill] : !tpxgpu.memdesc<3x64x128xf16, #shared, mutable> -> !tpxgpu.memdesc<64x128xf16, #shared, mutable, alloc_shape = 3x64x128>
      // CHECK: tpxgpu.async_copy_global_to_local %{{.*}}, %{{.*}} mask %{{.*}} : tensor<128x64x!tt.ptr<f16>
      %ta = tpxgpu.async_copy_global_to_local %ap, %a_dst mask %a_mask : tensor<128x64x!tt.ptr<f16>, #blocked> -> !tpxgpu.memdesc<128x64xf16, #shared, mutable, alloc_shape = 3x128x64>
      %tb = tpxgpu.async_copy_global_to_local %bp, %b_dst mask %b_mask : tensor<64x128x!tt.ptr<f16>, #blocked> -> !tpxgpu.memdesc<64x128xf16, #shared, mutable, alloc_shape = 3x64x128>
      %g = tpxgpu.async_commit_group tokens %ta, %tb
      %ap_next = tt.addptr %ap, %a_step : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
      %bp_next = tt.addptr %bp, %b_step : tensor<64x128x!tt.ptr<f16>, #blocked>, tensor<64x128xi32, #blocked>
      scf.yield %dw#0, %ap_next, %bp_next : tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<64x128x!tt.ptr<f16>, #blocked>
    }
    // Epilogue: retire the last dot and the (masked-off) copies.
    // CHECK: tpxgpu.warp_group_dot_wait %{{.*}} pendings = 0 : tensor<128x128xf32, #[[MMA]]>
    %out:1 = tpxgpu.warp_group_dot_wait %res#0 pendings = 0 : tensor<128x128xf32, #mma>
    // CHECK: tpxgpu.async_wait num = 0
    %drained = tpxgpu.async_wait num = 0
    // CHECK: tpxgpu.local_dealloc %{{.*}} : !tpxgpu.memdesc<3x128x64xf16, #{{[a-z_0-9]+}}, mutable>
    tpxgpu.local_dealloc %a_bufs : !tpxgpu.memdesc<3x128x64xf16, #shared, mutable>
    tpxgpu.local_dealloc %b_bufs : !tpxgpu.memdesc<3x64x128xf16, #shared, mutable>
    tt.return %out#0 : tensor<128x128xf32, #mma>
  }

  // Layout conversions between every NVIDIA register layout.
  // CHECK-LABEL: tt.func @layouts
  tt.func @layouts(%x: tensor<64x64xf32, #blocked>,
                   %row: tensor<128xf32, #tpxgpu.slice<{dim = 1, parent = #mma}>>,
                   %y: tensor<64x32xf16, #blocked>) {
    // CHECK: tpxgpu.convert_layout %{{.*}} : tensor<64x64xf32, #[[BLOCKED]]> -> tensor<64x64xf32, #{{[a-z_0-9]+}}>
    %0 = tpxgpu.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
    %1 = tpxgpu.convert_layout %0 : tensor<64x64xf32, #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>> -> tensor<64x64xf32, #tpxgpu.dot_op<{opIdx = 1, parent = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>>
    // CHECK: tpxgpu.convert_layout %{{.*}} : tensor<128xf32, #{{[a-z_0-9]+}}> -> tensor<128xf32, #{{[a-z_0-9]+}}>
    %2 = tpxgpu.convert_layout %row : tensor<128xf32, #tpxgpu.slice<{dim = 1, parent = #mma}>> -> tensor<128xf32, #tpxgpu.slice<{dim = 1, parent = #blocked}>>
    %3 = tpxgpu.convert_layout %y : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #tpxgpu.dot_op<{opIdx = 0, parent = #blocked}>>
    tt.return
  }

  // Shared memory: initialised (immutable) and mutable buffers, static and
  // dynamic windows, loads, stores and async copies with every option.
  // CHECK-LABEL: tt.func @shared_memory
  tt.func @shared_memory(%t: tensor<64x64xf16, #blocked>, %h: tensor<32x64xf16, #blocked>,
                         %k: i32, %ptrs: tensor<64x64x!tt.ptr<f16>, #blocked>,
                         %mask: tensor<64x64xi1, #blocked>) {
    // CHECK: tpxgpu.local_alloc %{{.*}} : tensor<64x64xf16, #[[BLOCKED]]> -> !tpxgpu.memdesc<64x64xf16, #{{[a-z_0-9]+}}>
    %m = tpxgpu.local_alloc %t : tensor<64x64xf16, #blocked> -> !tpxgpu.memdesc<64x64xf16, #tpxgpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>>
    // CHECK: tpxgpu.local_alloc %{{.*}} {tag = "init"} : tensor<64x64xf16, #[[BLOCKED]]> -> !tpxgpu.memdesc<64x64xf16, #{{[a-z_0-9]+}}, mutable>
    %mm = tpxgpu.local_alloc %t {tag = "init"} : tensor<64x64xf16, #blocked> -> !tpxgpu.memdesc<64x64xf16, #tpxgpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>, mutable>
    // CHECK: tpxgpu.memdesc_subview %{{.*}}[0, 32] : !tpxgpu.memdesc<64x64xf16, #{{[a-z_0-9]+}}> -> !tpxgpu.memdesc<64x32xf16, #{{[a-z_0-9]+}}, alloc_shape = 64x64>
    %w1 = tpxgpu.memdesc_subview %m[0, 32] : !tpxgpu.memdesc<64x64xf16, #tpxgpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>> -> !tpxgpu.memdesc<64x32xf16, #tpxgpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>, alloc_shape = 64x64>
    // CHECK: tpxgpu.memdesc_subview %{{.*}}[%{{.*}}, 0] : !tpxgpu.memdesc<64x64xf16, #{{[a-z_0-9]+}}, mutable> -> !tpxgpu.memdesc<32x64xf16, #{{[a-z_0-9]+}}, mutable, alloc_shape = 64x64>
    %w2 = tpxgpu.memdesc_subview %mm[%k, 0] : !tpxgpu.memdesc<64x64xf16, #tpxgpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>, mutable> -> !tpxgpu.memdesc<32x64xf16, #tpxgpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>, mutable, alloc_shape = 64x64>
    // A transposed view of an nvmma buffer: shape and alloc shape swapped,
    // `transposed` flipped.
    // CHECK: tpxgpu.memdesc_trans %{{.*}} : !tpxgpu.memdesc<64x32xf16, #{{[a-z_0-9]+}}, mutable, alloc_shape = 3x64x32> -> !tpxgpu.memdesc<32x64xf16, #{{[a-z_0-9]+}}, mutable, alloc_shape = 3x32x64>
    %nv = tpxgpu.local_alloc : !tpxgpu.memdesc<3x64x32xf16, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>, mutable>
    %nv1 = tpxgpu.memdesc_index %nv[%k] : !tpxgpu.memdesc<3x64x32xf16, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>, mutable> -> !tpxgpu.memdesc<64x32xf16, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>, mutable, alloc_shape = 3x64x32>
    %nvt = tpxgpu.memdesc_trans %nv1 : !tpxgpu.memdesc<64x32xf16, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>, mutable, alloc_shape = 3x64x32> -> !tpxgpu.memdesc<32x64xf16, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>, mutable, alloc_shape = 3x32x64>
    // A transposed view of a row-major (padded) buffer: the order reversed.
    // CHECK: tpxgpu.memdesc_trans %{{.*}} : !tpxgpu.memdesc<64x32xf16, #{{[a-z_0-9]+}}, mutable> -> !tpxgpu.memdesc<32x64xf16, #{{[a-z_0-9]+}}, mutable>
    %rm = tpxgpu.local_alloc : !tpxgpu.memdesc<64x32xf16, #tpxgpu.padded_shared<{padding = 0, order = [1, 0]}>, mutable>
    %rmt = tpxgpu.memdesc_trans %rm : !tpxgpu.memdesc<64x32xf16, #tpxgpu.padded_shared<{padding = 0, order = [1, 0]}>, mutable> -> !tpxgpu.memdesc<32x64xf16, #tpxgpu.padded_shared<{padding = 0, order = [0, 1]}>, mutable>
    // CHECK: tpxgpu.local_load %{{.*}} : !tpxgpu.memdesc<64x32xf16, #{{[a-z_0-9]+}}, alloc_shape = 64x64> -> tensor<64x32xf16, #[[BLOCKED]]>
    %l = tpxgpu.local_load %w1 : !tpxgpu.memdesc<64x32xf16, #tpxgpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>, alloc_shape = 64x64> -> tensor<64x32xf16, #blocked>
    // CHECK: tpxgpu.local_store %{{.*}}, %{{.*}} : tensor<32x64xf16, #[[BLOCKED]]> -> !tpxgpu.memdesc<32x64xf16, #{{[a-z_0-9]+}}, mutable, alloc_shape = 64x64>
    tpxgpu.local_store %h, %w2 : tensor<32x64xf16, #blocked> -> !tpxgpu.memdesc<32x64xf16, #tpxgpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>, mutable, alloc_shape = 64x64>
    %other = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
    // CHECK: tpxgpu.async_copy_global_to_local %{{.*}}, %{{.*}} mask %{{.*}} other %{{.*}} cacheModifier = cg evictionPolicy = evict_first {isVolatile} : tensor<64x64x!tt.ptr<f16>, #[[BLOCKED]]> -> !tpxgpu.memdesc<64x64xf16, #{{[a-z_0-9]+}}, mutable>
    %c = tpxgpu.async_copy_global_to_local %ptrs, %mm mask %mask other %other cacheModifier = cg evictionPolicy = evict_first {isVolatile} : tensor<64x64x!tt.ptr<f16>, #blocked> -> !tpxgpu.memdesc<64x64xf16, #tpxgpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>, mutable>
    // CHECK: %[[EMPTY:[^ ]+]] = tpxgpu.async_commit_group loc(
    %g0 = tpxgpu.async_commit_group
    %g1 = tpxgpu.async_commit_group tokens %c
    // CHECK: tpxgpu.async_wait %[[EMPTY]], %{{.*}} num = 0
    %w = tpxgpu.async_wait %g0, %g1 num = 0
    tpxgpu.local_dealloc %mm : !tpxgpu.memdesc<64x64xf16, #tpxgpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>, mutable>
    tt.return
  }

  // mbarriers (double-buffered) and TMA.
  // CHECK-LABEL: tt.func @barriers_and_tma
  tt.func @barriers_and_tma(%desc: !tt.tensordesc<tensor<64x64xf16>>, %x: i32, %y: i32,
                            %phase: i32, %p: i1) {
    // CHECK: tpxgpu.local_alloc : !tpxgpu.memdesc<2x1xi64, #{{[a-z_0-9]+}}, mutable>
    %bars = tpxgpu.local_alloc : !tpxgpu.memdesc<2x1xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable>
    %bar = tpxgpu.memdesc_index %bars[%x] : !tpxgpu.memdesc<2x1xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable> -> !tpxgpu.memdesc<1xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable, alloc_shape = 2x1>
    // CHECK: tpxgpu.init_barrier %{{.*}}, 1 : !tpxgpu.memdesc<1xi64, #{{[a-z_0-9]+}}, mutable, alloc_shape = 2x1>
    tpxgpu.init_barrier %bar, 1 : !tpxgpu.memdesc<1xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable, alloc_shape = 2x1>
    %buf = tpxgpu.local_alloc : !tpxgpu.memdesc<64x64xf16, #shared, mutable>
    // CHECK: tpxgpu.barrier_expect %{{.*}}, 8192, %{{.*}} : !tpxgpu.memdesc<1xi64
    tpxgpu.barrier_expect %bar, 8192, %p : !tpxgpu.memdesc<1xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable, alloc_shape = 2x1>
    // CHECK: tpxgpu.barrier_expect %{{.*}}, 8192 : !tpxgpu.memdesc<1xi64
    tpxgpu.barrier_expect %bar, 8192 : !tpxgpu.memdesc<1xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable, alloc_shape = 2x1>
    // CHECK: tpxgpu.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} : !tt.tensordesc<tensor<64x64xf16>>, !tpxgpu.memdesc<1xi64, #{{[a-z_0-9]+}}, mutable, alloc_shape = 2x1> -> !tpxgpu.memdesc<64x64xf16, #{{[a-z_0-9]+}}, mutable>
    tpxgpu.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar, %p : !tt.tensordesc<tensor<64x64xf16>>, !tpxgpu.memdesc<1xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable, alloc_shape = 2x1> -> !tpxgpu.memdesc<64x64xf16, #shared, mutable>
    // CHECK: tpxgpu.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}}, %{{.*}} cacheModifier = cg evictionPolicy = evict_last :
    tpxgpu.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<tensor<64x64xf16>>, !tpxgpu.memdesc<1xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable, alloc_shape = 2x1> -> !tpxgpu.memdesc<64x64xf16, #shared, mutable>
    // CHECK: tpxgpu.wait_barrier %{{.*}}, %{{.*}} : !tpxgpu.memdesc<1xi64
    tpxgpu.wait_barrier %bar, %phase : !tpxgpu.memdesc<1xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable, alloc_shape = 2x1>
    // CHECK: tpxgpu.wait_barrier %{{.*}}, %{{.*}}, %{{.*}} : !tpxgpu.memdesc<1xi64
    tpxgpu.wait_barrier %bar, %phase, %p : !tpxgpu.memdesc<1xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable, alloc_shape = 2x1>
    // CHECK: tpxgpu.arrive_barrier %{{.*}}, 2 : !tpxgpu.memdesc<1xi64
    tpxgpu.arrive_barrier %bar, 2 : !tpxgpu.memdesc<1xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable, alloc_shape = 2x1>
    // CHECK: tpxgpu.arrive_barrier %{{.*}}, 1, %{{.*}} : !tpxgpu.memdesc<1xi64
    tpxgpu.arrive_barrier %bar, 1, %p : !tpxgpu.memdesc<1xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable, alloc_shape = 2x1>
    // Thread-block clusters: the rank, a peer's barrier, a multicast copy,
    // the init fence and the cluster barrier.
    // CHECK: %[[RANK:.*]] = tpxgpu.cluster_cta_rank : i32
    %rank = tpxgpu.cluster_cta_rank : i32
    // CHECK: tpxgpu.arrive_barrier %{{.*}}, 1, %{{.*}} cta %[[RANK]] : !tpxgpu.memdesc<1xi64
    tpxgpu.arrive_barrier %bar, 1, %p cta %rank : !tpxgpu.memdesc<1xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable, alloc_shape = 2x1>
    // CHECK: tpxgpu.arrive_barrier %{{.*}}, 1 cta %[[RANK]] : !tpxgpu.memdesc<1xi64
    tpxgpu.arrive_barrier %bar, 1 cta %rank : !tpxgpu.memdesc<1xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable, alloc_shape = 2x1>
    %mask = arith.constant 3 : i16
    // CHECK: tpxgpu.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}}, %{{.*}} multicast %{{.*}} :
    tpxgpu.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar multicast %mask : !tt.tensordesc<tensor<64x64xf16>>, !tpxgpu.memdesc<1xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable, alloc_shape = 2x1> -> !tpxgpu.memdesc<64x64xf16, #shared, mutable>
    // CHECK: tpxgpu.fence_mbarrier_init
    tpxgpu.fence_mbarrier_init
    // CHECK: tpxgpu.cluster_barrier
    tpxgpu.cluster_barrier
    // CHECK: tpxgpu.async_tma_copy_local_to_global %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}} : !tt.tensordesc<tensor<64x64xf16>>, !tpxgpu.memdesc<64x64xf16, #{{[a-z_0-9]+}}, mutable>
    tpxgpu.async_tma_copy_local_to_global %desc[%x, %y] %buf : !tt.tensordesc<tensor<64x64xf16>>, !tpxgpu.memdesc<64x64xf16, #shared, mutable>
    // CHECK: tpxgpu.async_tma_store_wait pendings = 0
    tpxgpu.async_tma_store_wait pendings = 0
    tt.return
  }

  // wgmma with both operands in shared memory, use_c, fp8 inputs of mixed
  // formats and an imprecise-accumulation bound.
  // CHECK-LABEL: tt.func @wgmma_shared_operands
  tt.func @wgmma_shared_operands(
      %a: !tpxgpu.memdesc<128x64xf16, #shared>, %b: !tpxgpu.memdesc<64x128xf16, #shared>,
      %c: tensor<128x128xf32, #mma>, %use_c: i1,
      %a8: !tpxgpu.memdesc<128x64xf8E4M3FN, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>>,
      %b8: !tpxgpu.memdesc<64x64xf8E5M2, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>>,
      %c8: tensor<128x64xf32, #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>>) {
    // CHECK: tpxgpu.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} inputPrecision = tf32 : !tpxgpu.memdesc<128x64xf16, #{{[a-z_0-9]+}}>, !tpxgpu.memdesc<64x128xf16, #{{[a-z_0-9]+}}> -> tensor<128x128xf32, #[[MMA]]>
    %d = tpxgpu.warp_group_dot %a, %b, %c, %use_c inputPrecision = tf32 : !tpxgpu.memdesc<128x64xf16, #shared>, !tpxgpu.memdesc<64x128xf16, #shared> -> tensor<128x128xf32, #mma>
    // CHECK: tpxgpu.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} async {maxNumImpreciseAcc = 32 : i32} : !tpxgpu.memdesc<128x64xf8E4M3FN
    %d8 = tpxgpu.warp_group_dot %a8, %b8, %c8 async {maxNumImpreciseAcc = 32 : i32} : !tpxgpu.memdesc<128x64xf8E4M3FN, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>>, !tpxgpu.memdesc<64x64xf8E5M2, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>> -> tensor<128x64xf32, #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>>
    // CHECK: tpxgpu.warp_group_dot_wait %{{.*}}, %{{.*}}, %{{.*}} pendings = 0 :
    %r:3 = tpxgpu.warp_group_dot_wait %d8, %a8, %b8 pendings = 0 : tensor<128x64xf32, #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>>, !tpxgpu.memdesc<128x64xf8E4M3FN, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>>, !tpxgpu.memdesc<64x64xf8E5M2, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>>
    tt.return
  }
}

//===----------------------------------------------------------------------===//
// A second module in the same file: AMD CDNA, 64-lane wavefronts.

#amd_blocked = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mfma = #tpxgpu.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>
#amd_shared = #tpxgpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// CHECK: module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32}
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32} {
  // CHECK-LABEL: tt.func @amd_layouts
  tt.func @amd_layouts(%acc: tensor<64x64xf32, #amd_blocked>, %b: !tpxgpu.memdesc<64x64xf16, #amd_shared>) {
    // CHECK: tpxgpu.convert_layout %{{.*}} : tensor<64x64xf32, #{{[a-z_0-9]+}}> -> tensor<64x64xf32, #[[MFMA]]>
    %0 = tpxgpu.convert_layout %acc : tensor<64x64xf32, #amd_blocked> -> tensor<64x64xf32, #mfma>
    // CHECK: tpxgpu.local_load %{{.*}} : !tpxgpu.memdesc<64x64xf16, #{{[a-z_0-9]+}}> -> tensor<64x64xf16, #{{[a-z_0-9]+}}>
    %1 = tpxgpu.local_load %b : !tpxgpu.memdesc<64x64xf16, #amd_shared> -> tensor<64x64xf16, #tpxgpu.dot_op<{opIdx = 1, parent = #mfma, kWidth = 8}>>
    tt.return
  }
}
