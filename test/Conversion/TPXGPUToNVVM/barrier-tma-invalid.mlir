// RUN: tpx-opt %s -split-input-file --convert-tpxgpu-to-nvvm -verify-diagnostics

// A descriptor argument is lowered only as a launcher-built tensor map
// (tpxgpu.tensor_map); any other has no GPU lowering.
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  // expected-error@+2 {{argument 0 of type '!tt.tensordesc<tensor<64x64xf16>>' has no GPU lowering}}
  // expected-error@+1 {{failed to legalize operation 'tt.func'}}
  tt.func public @no_map(%d: !tt.tensordesc<tensor<64x64xf16>>) {
    tt.return
  }
}
