// RUN: tpx-opt %s --verify-diagnostics --convert-tpxgpu-to-nvvm

// tpxgpu.buffer_load / buffer_store are CDNA buffer instructions: NVIDIA has
// no lowering for them.

#b = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32, tpxgpu.target = "sm_90a"} {
  tt.func public @k(%x: !tt.ptr<f32>, %offs: tensor<512xi32, #b>) {
    // expected-error @below {{'tpxgpu.buffer_load' is an AMD (CDNA) buffer access; it has no NVIDIA lowering}}
    // expected-error @below {{failed to legalize operation 'tpxgpu.buffer_load'}}
    %a = tpxgpu.buffer_load %x[%offs] : !tt.ptr<f32>, tensor<512xi32, #b> -> tensor<512xf32, #b>
    tpxgpu.buffer_store %a, %x[%offs] : tensor<512xf32, #b>, tensor<512xi32, #b> -> !tt.ptr<f32>
    tt.return
  }
}
