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
