// convert-tpxgpu-to-rocdl on the ops whose NVIDIA lowering is inline PTX:
// fp8 conversions in integer arithmetic (no cvt), compare-and-swap and
// histograms on LLVM atomics and 64-bit ballots, scans on ds_bpermute.
// RUN: tpx-opt %s --convert-tpxgpu-to-rocdl --canonicalize -mlir-print-debuginfo=false | FileCheck %s

// CHECK-NOT: llvm.inline_asm
// CHECK-LABEL: llvm.func internal @fp8
// CHECK: llvm.fmul %{{.*}} : f16
// CHECK-LABEL: llvm.func @cas
// CHECK: llvm.cmpxchg %{{.*}} syncscope("agent") acq_rel acquire : !llvm.ptr<1>, i32
// CHECK: rocdl.ballot %{{.*}} : i64
// CHECK: llvm.intr.ctpop(%{{.*}}) : (i64) -> i64
// CHECK: llvm.atomicrmw add %{{.*}} syncscope("workgroup") monotonic : !llvm.ptr<3>, i32
// CHECK: rocdl.ds_bpermute
// CHECK-NOT: llvm.inline_asm

// tt.print and tt.assert through ockl's hostcall printf: the format, the
// pid words, the prefix by its contents, the value; a failed assert traps.
// CHECK-LABEL: llvm.func @debug
// CHECK: llvm.call @__ockl_printf_begin
// CHECK: llvm.call @__ockl_printf_append_string_n
// CHECK: llvm.call @__ockl_printf_append_args
// CHECK: llvm.call @__ockl_printf_append_string_n
// CHECK: llvm.call @__ockl_printf_append_args
// CHECK: llvm.intr.trap

#b = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {
  tt.func private @fp8(%a: tensor<256xf8E4M3FN, #b>, %b: tensor<256xf32, #b>) -> (tensor<256xf32, #b>) {
    %x = tt.fp_to_fp %a : tensor<256xf8E4M3FN, #b> -> tensor<256xf32, #b>
    %y = tt.fp_to_fp %b, rounding = rtne : tensor<256xf32, #b> -> tensor<256xf8E5M2, #b>
    %z = tt.fp_to_fp %y : tensor<256xf8E5M2, #b> -> tensor<256xf32, #b>
    %s = arith.addf %x, %z : tensor<256xf32, #b>
    tt.return %s : tensor<256xf32, #b>
  }
  tt.func public @cas(%p: !tt.ptr<i32>, %h: !tt.ptr<i32>, %v: tensor<256xi32, #b>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %old = tt.atomic_cas acq_rel, gpu, %p, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
    %hist = tt.histogram %v : tensor<256xi32, #b> -> tensor<128xi32, #b>
    %hp = tt.splat %h : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %hq = tt.addptr %hp, %r : tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>
    tt.store %hq, %hist : tensor<128x!tt.ptr<i32>, #b>
    %s = "tt.scan"(%v) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%x: i32, %y: i32):
      %q = arith.addi %x, %y : i32
      tt.scan.return %q : i32
    }) : (tensor<256xi32, #b>) -> tensor<256xi32, #b>
    %sp = tt.splat %h : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>, #b>
    %r2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b>
    %sq = tt.addptr %sp, %r2 : tensor<256x!tt.ptr<i32>, #b>, tensor<256xi32, #b>
    tt.store %sq, %s : tensor<256x!tt.ptr<i32>, #b>
    tt.return
  }
  tt.func public @debug(%v: i32) {
    tt.print " v: " {hex = false, isSigned = array<i32: 1>} : %v : i32
    %c0 = arith.constant 0 : i32
    %ok = arith.cmpi sgt, %v, %c0 : i32
    tt.assert %ok, "v must be positive" : i1
    tt.return
  }
}
