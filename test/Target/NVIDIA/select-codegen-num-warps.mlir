// RUN: tpx-opt %s -split-input-file --tpx-nvidia-select-codegen="num-warps=8" | FileCheck %s
// With 8 warps a 65536-element i32 tile takes 256 registers a thread: SIMT.
// CHECK: module attributes {tpxgpu.codegen = "simt"}
module {
  tt.func public @tile_fits(%x: !tt.ptr<f32>) {
    %r = tt.make_range {end = 65536 : i32, start = 0 : i32} : tensor<65536xi32>
    tt.return
  }
}
