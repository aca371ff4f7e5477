// RUN: tpx-opt %s -split-input-file --convert-tpxgpu-to-nvvm | FileCheck %s
// RUN: tpx-opt %s -split-input-file --tpxgpu-annotate-contiguity --convert-tpxgpu-to-nvvm | FileCheck %s --check-prefix=ANALYSIS

// convert-tpxgpu-to-nvvm takes the vector width of a global access from
// tpxgpu.contiguity alone (capped by the layout and 16 bytes): written by
// hand here, derived by tpxgpu-annotate-contiguity under ANALYSIS, where the
// 16-byte-aligned base and n a multiple of 16 give ld.global.v4.

#b1d = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tpx.codegen = "simt", "tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @widths
  // No attribute: one element per instruction.
  // CHECK-COUNT-4: "@$2 ld.global.b32 $0, [ $1 ];\0A\09@!$2 mov.b32 $0, $3;"
  // contiguity 2: pairs.
  // CHECK-COUNT-2: ld.global.v2.b32
  // contiguity 8, more than a thread's 4 consecutive registers: 4.
  // CHECK: ld.global.v4.b32
  // CHECK-NOT: ld.global
  // CHECK: llvm.return
  // ANALYSIS-LABEL: llvm.func @widths
  // ANALYSIS-NOT: ld.global.b32
  // ANALYSIS-NOT: ld.global.v2
  // ANALYSIS-COUNT-3: ld.global.v4.b32
  // ANALYSIS-NOT: ld.global
  // ANALYSIS: llvm.return
  tt.func public @widths(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32>) {
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b1d>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #b1d>
    %mask = arith.cmpi slt, %range, %ns : tensor<512xi32, #b1d>
    %p0 = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b1d>
    %ps = tt.addptr %p0, %range : tensor<512x!tt.ptr<f32>, #b1d>, tensor<512xi32, #b1d>
    %a = tt.load %ps, %mask : tensor<512x!tt.ptr<f32>, #b1d>
    %b = tt.load %ps, %mask {tpxgpu.contiguity = array<i64: 2>} : tensor<512x!tt.ptr<f32>, #b1d>
    %c = tt.load %ps, %mask {tpxgpu.contiguity = array<i64: 8>} : tensor<512x!tt.ptr<f32>, #b1d>
    %ab = arith.addf %a, %b : tensor<512xf32, #b1d>
    %abc = arith.addf %ab, %c : tensor<512xf32, #b1d>
    %q0 = tt.splat %q : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b1d>
    %qs = tt.addptr %q0, %range : tensor<512x!tt.ptr<f32>, #b1d>, tensor<512xi32, #b1d>
    tt.store %qs, %abc : tensor<512x!tt.ptr<f32>, #b1d>
    tt.return
  }
}
