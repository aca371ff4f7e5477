// RUN: tpx-opt %s | tpx-opt | FileCheck %s

// tpxgpu.buffer_load / buffer_store print and parse back.

#b = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32, tpxgpu.target = "gfx950"} {
  // CHECK-LABEL: tt.func @buffers
  // CHECK: %[[A:.*]] = tpxgpu.buffer_load %arg0[%arg1] : !tt.ptr<f32>, tensor<256xi32, #blocked> -> tensor<256xf32, #blocked>
  // CHECK: %[[B:.*]] = tpxgpu.buffer_load %arg0[%arg1] mask %arg2 other %[[A]] cacheModifier = cv volatile {tpxgpu.contiguity = array<i64: 4>} : !tt.ptr<f32>, tensor<256xi32, #blocked> -> tensor<256xf32, #blocked>
  // CHECK: tpxgpu.buffer_store %[[B]], %arg0[%arg1] mask %arg2 cacheModifier = wt : tensor<256xf32, #blocked>, tensor<256xi32, #blocked> -> !tt.ptr<f32>
  // CHECK: tpxgpu.buffer_load %arg3[%arg1] : !tt.ptr<!tt.ptr<i8>>, tensor<256xi32, #blocked> -> tensor<256x!tt.ptr<i8>, #blocked>
  tt.func @buffers(%base: !tt.ptr<f32>, %offs: tensor<256xi32, #b>, %m: tensor<256xi1, #b>, %pp: !tt.ptr<!tt.ptr<i8>>) {
    %a = tpxgpu.buffer_load %base[%offs] : !tt.ptr<f32>, tensor<256xi32, #b> -> tensor<256xf32, #b>
    %b = tpxgpu.buffer_load %base[%offs] mask %m other %a cacheModifier = cv volatile {tpxgpu.contiguity = array<i64: 4>} : !tt.ptr<f32>, tensor<256xi32, #b> -> tensor<256xf32, #b>
    tpxgpu.buffer_store %b, %base[%offs] mask %m cacheModifier = wt : tensor<256xf32, #b>, tensor<256xi32, #b> -> !tt.ptr<f32>
    %p = tpxgpu.buffer_load %pp[%offs] : !tt.ptr<!tt.ptr<i8>>, tensor<256xi32, #b> -> tensor<256x!tt.ptr<i8>, #b>
    tt.return
  }
}
