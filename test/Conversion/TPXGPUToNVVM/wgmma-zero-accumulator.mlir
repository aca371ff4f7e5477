// A warp_group_dot whose accumulator is a zero constant (S = Q K^T from
// tl.zeros) is not given zeros: its first K step has scale-d = 0 (D = A x
// B) and poison accumulator inputs; the later steps accumulate (scale-d =
// 1). Each matrix descriptor is the operand's first-byte descriptor (one
// for all K steps) plus the step's byte offset >> 4.
// RUN: tpx-opt %s --convert-tpxgpu-to-nvvm --canonicalize --cse -mlir-print-debuginfo=false | FileCheck %s

// CHECK-LABEL: llvm.func internal @zero_acc(
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[P:.*]] = llvm.mlir.poison : f32
// CHECK: %[[ADDR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i32
// CHECK: %[[START:.*]] = llvm.lshr %[[ADDR]]
// CHECK: %[[WIDE:.*]] = llvm.zext %[[START]] : i32 to i64
// CHECK: %[[FIRST:.*]] = llvm.or %[[WIDE]]
// CHECK: llvm.add %[[FIRST]], %{{.*}} : i64
// CHECK: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16{{.*}} %{{.*}}, %{{.*}}, %[[ZERO]], %[[P]], %[[P]],
// CHECK-COUNT-3: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16{{.*}} %{{.*}}, %{{.*}}, %[[ONE]],
// CHECK-NOT: wgmma.mma_async
#mma = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#sa = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#sb = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @zero_acc() -> tensor<64x64xf32, #mma> attributes {noinline = true} {
    %a = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<64x64xf16, #sa, mutable>
    %b = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 8192 : i64} : !tpxgpu.memdesc<64x64xf16, #sb, mutable>
    %c = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %d = tpxgpu.warp_group_dot %a, %b, %c : !tpxgpu.memdesc<64x64xf16, #sa, mutable>, !tpxgpu.memdesc<64x64xf16, #sb, mutable> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}
