// What convert-tpxgpu-to-rocdl refuses, with the reason.
// RUN: tpx-opt %s --split-input-file --verify-diagnostics --convert-tpxgpu-to-rocdl

// expected-error @below {{AMD CDNA wavefronts have 64 threads, the module asks for 32}}
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32, tpxgpu.target = "gfx950"} {
tt.func public @k() {
  tt.return
}
}

// -----

// expected-error @below {{convert-tpxgpu-to-rocdl: the module is compiled for sm_90a (tpxgpu.target); run convert-tpxgpu-to-nvvm}}
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "sm_90a"} {
tt.func public @k() {
  tt.return
}
}

// -----

// Named barriers count whole 64-thread wavefronts on AMD.
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {
tt.func public @k(%id: i32) {
  %c96 = arith.constant 96 : i32
  // expected-error @+2 {{'tpxgpu.named_barrier' op counts whole 64-thread wavefronts on AMD, got 96 threads}}
  // expected-error @+1 {{failed to legalize operation 'tpxgpu.named_barrier'}}
  tpxgpu.named_barrier %id, %c96
  tt.return
}
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {
tt.func public @k() {
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  // expected-error @+2 {{'tpxgpu.named_barrier' op barrier id must be 0 to 15, got 16}}
  // expected-error @+1 {{failed to legalize operation 'tpxgpu.named_barrier'}}
  tpxgpu.named_barrier %c16, %c64
  tt.return
}
}
