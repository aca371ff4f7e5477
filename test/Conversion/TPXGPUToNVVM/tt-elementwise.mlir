// tt's own elementwise ops repeat a scalar equivalent per register:
// clampf as max then min (NaN-propagating or not), precise sqrt/div as the
// IEEE-rounded LLVM sqrt (sqrt.rn, not libdevice's approximate __nv_sqrtf)
// and llvm.fdiv (div.rn; arith.divf on f32 is div.full.f32), mulhiui as the high half of mului_extended,
// and extern_elementwise of a libdevice function as a call of it.
// RUN: tpx-opt %s --convert-tt-to-tpxgpu=num-warps=4 --tpxgpu-lower-layout-conversions --tpxgpu-allocate-shared-memory --convert-tpxgpu-to-nvvm -mlir-print-debuginfo=false | FileCheck %s

// CHECK: llvm.func @__nv_powf(f32, f32) -> f32
// CHECK-LABEL: llvm.func @ops
// CHECK-COUNT-2: arith.maximumf
// CHECK-COUNT-2: arith.minimumf
// CHECK-COUNT-2: arith.maxnumf
// CHECK-COUNT-2: arith.minnumf
// CHECK-COUNT-2: llvm.intr.sqrt
// CHECK-COUNT-2: llvm.fdiv
// CHECK-COUNT-2: llvm.inline_asm "div.full.f32 $0, $1, $2;", "=f,f,f"
// CHECK-COUNT-2: arith.mului_extended
// CHECK-COUNT-2: llvm.call @__nv_powf
tt.func public @ops(%p: !tt.ptr<f32>, %q: !tt.ptr<i32>) {
  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %f = arith.sitofp %r : tensor<256xi32> to tensor<256xf32>
  %lo = arith.constant dense<1.0> : tensor<256xf32>
  %hi = arith.constant dense<8.0> : tensor<256xf32>
  %c1 = tt.clampf %f, %lo, %hi, propagateNan = all : tensor<256xf32>
  %c2 = tt.clampf %c1, %lo, %hi, propagateNan = none : tensor<256xf32>
  %s = tt.precise_sqrt %c2 : tensor<256xf32>
  %d = tt.precise_divf %s, %hi : tensor<256xf32>
  // Triton's `/` on f32: the approximate (2 ulp) div.full.f32.
  %dq = arith.divf %d, %hi : tensor<256xf32>
  %m = tt.mulhiui %r, %r : tensor<256xi32>
  %e = tt.extern_elementwise %dq, %hi {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
  %pp = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %pa = tt.addptr %pp, %r : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  tt.store %pa, %e : tensor<256x!tt.ptr<f32>>
  %qp = tt.splat %q : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
  %qa = tt.addptr %qp, %r : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
  tt.store %qa, %m : tensor<256x!tt.ptr<i32>>
  tt.return
}
