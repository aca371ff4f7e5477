// What the pass cannot place is reported, naming the op.
// RUN: tpx-opt %s -split-input-file -verify-diagnostics --convert-tt-to-tpxgpu
// RUN: not tpx-opt %s --convert-tt-to-tpxgpu="num-warps=3" 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: not tpx-opt %s --convert-tt-to-tpxgpu="threads-per-warp=16" 2>&1 | FileCheck %s --check-prefix=LANES

// WARPS: error: convert-tt-to-tpxgpu: num-warps must be a positive power of two, got 3
// LANES: error: convert-tt-to-tpxgpu: threads-per-warp must be 32 (NVIDIA) or 64 (AMD CDNA), got 16

module {
  tt.func public @odd(%f: f32) {
    // expected-error @+1 {{convert-tt-to-tpxgpu: cannot place 'tt.splat': tpxgpu layouts need tensors of rank >= 1 with power-of-two dimensions, got 'tensor<48xf32>'}}
    %0 = tt.splat %f : f32 -> tensor<48xf32>
    tt.return
  }
}

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module {
  tt.func public @twice(%f: f32) {
    // expected-error @+1 {{convert-tt-to-tpxgpu: 'tt.splat' has a tensor that already carries a layout}}
    %0 = tt.splat %f : f32 -> tensor<128xf32, #blocked>
    tt.return
  }
}

// -----

module {
  tt.func public @foreign() {
    // expected-error @+1 {{convert-tt-to-tpxgpu: cannot place the tensor layouts of 'tensor.empty'; the pass knows tt, arith, math, ub and scf (for, while, if) ops}}
    %0 = tensor.empty() : tensor<16xf32>
    tt.return
  }
}

// -----

module {
  // expected-error @+1 {{convert-tt-to-tpxgpu: cannot place 'tt.func': tpxgpu layouts need tensors of rank >= 1 with power-of-two dimensions, got 'tensor<3xf32>'}}
  tt.func private @declared(tensor<3xf32>)
}
