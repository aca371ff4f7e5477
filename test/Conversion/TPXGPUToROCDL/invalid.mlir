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

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {
tt.func public @k(%v: i32) {
  // expected-error @below {{'tt.print' has no lowering for gfx950 (device printf and assert need the HIP hostcall buffer, not supported yet)}}
  tt.print " v: " {hex = false, isSigned = array<i32: 1>} : %v : i32
  tt.return
}
}
