// RUN: tpx-opt %s --convert-tpxgpu-to-nvvm -verify-diagnostics

// The lowering only renames registers: a conversion that moves data between
// threads must be local_alloc / local_load by now.

#row = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tpxgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @convert(%x: tensor<32x32xf16, #row>) -> tensor<32x32xf16, #col> {
    // expected-error @below {{moves data between threads, which needs shared memory: run tpxgpu-lower-layout-conversions first}}
    // expected-error @below {{failed to legalize operation}}
    %y = tpxgpu.convert_layout %x : tensor<32x32xf16, #row> -> tensor<32x32xf16, #col>
    tt.return %y : tensor<32x32xf16, #col>
  }
}
