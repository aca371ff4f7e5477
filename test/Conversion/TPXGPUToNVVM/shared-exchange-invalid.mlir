// RUN: tpx-opt %s -split-input-file --convert-tpxgpu-to-nvvm -verify-diagnostics

// What the lowerings of SharedExchangePatterns.cpp reject, each with a
// diagnostic: operands convert-tt-to-tpxgpu would have placed otherwise
// (the generic form can give a histogram's mask another layout than its
// source's) and shapes or types the SIMT path does not take.

#row = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tpxgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @gather_indices_layout(%x: tensor<32x32xf32, #row>, %i: tensor<32x32xi32, #col>) -> tensor<32x32xf32, #row> {
    // expected-error @below {{needs its indices in the result's layout (convert-tt-to-tpxgpu converts them)}}
    // expected-error @below {{failed to legalize operation}}
    %g = tt.gather %x[%i] {axis = 1 : i32} : (tensor<32x32xf32, #row>, tensor<32x32xi32, #col>) -> tensor<32x32xf32, #row>
    tt.return %g : tensor<32x32xf32, #row>
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @histogram_mask_layout(%x: tensor<256xi32, #b>, %m: tensor<256xi1, #c>) -> tensor<32xi32, #c> {
    // expected-error @below {{needs its mask in the source's layout (convert-tt-to-tpxgpu converts it)}}
    // expected-error @below {{failed to legalize operation}}
    %h = "tt.histogram"(%x, %m) : (tensor<256xi32, #b>, tensor<256xi1, #c>) -> tensor<32xi32, #c>
    tt.return %h : tensor<32xi32, #c>
  }
}

// -----

#c = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @histogram_i16(%x: tensor<256xi32, #c>) -> tensor<32xi16, #c> {
    // expected-error @below {{counts in i32 or i64 on the SIMT path}}
    // expected-error @below {{failed to legalize operation}}
    %h = tt.histogram %x : tensor<256xi32, #c> -> tensor<32xi16, #c>
    tt.return %h : tensor<32xi16, #c>
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @cat_shape(%x: tensor<16x16xf32, #b>) -> tensor<16x32xf32, #b> {
    // expected-error @below {{concatenates along dimension 0: expected the result to have twice the operands' rows}}
    // expected-error @below {{failed to legalize operation}}
    %c = tt.cat %x, %x : tensor<16x16xf32, #b> -> tensor<16x32xf32, #b>
    tt.return %c : tensor<16x32xf32, #b>
  }
}
