// What tlx-lower-to-tpxgpu cannot lower for gfx950 is an error naming the
// op and the reason.
// RUN: not tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --split-input-file --convert-tt-to-tpxgpu="num-warps=4 threads-per-warp=64 target=gfx950" --tlx-lower-to-tpxgpu 2>&1 | FileCheck %s

// gfx950 has no xf32 MFMA.
tt.func @tf32_dot() {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<1x64x64xf32>
  %a = tlx.local_view %bufs[%c0] : !tlx.buffer<1x64x64xf32> -> !tlx.buffer<64x64xf32>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  // CHECK: [[@LINE+1]]:{{.*}} error: tlx-lower-to-tpxgpu: 'tlx.async_dot' is not lowered for AMD GPUs yet: an async_dot other than f16 x f16, bf16 x bf16 or of 8-bit floats into f32, or int8 into i32
  %d = tlx.async_dot %a, %a, %acc {inputPrecision = 2 : i32} : !tlx.buffer<64x64xf32>, !tlx.buffer<64x64xf32> -> tensor<64x64xf32>
  tt.return
}

// -----

// An int8 dot whose K is below the MFMA's 32.
tt.func @int8_dot_k16() {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffer<1x64x16xi8>
  %bbufs = tlx.local_alloc : !tlx.buffer<1x16x64xi8>
  %a = tlx.local_view %bufs[%c0] : !tlx.buffer<1x64x16xi8> -> !tlx.buffer<64x16xi8>
  %b = tlx.local_view %bbufs[%c0] : !tlx.buffer<1x16x64xi8> -> !tlx.buffer<16x64xi8>
  %acc = arith.constant dense<0> : tensor<64x64xi32>
  // CHECK: [[@LINE+1]]:{{.*}} error: tlx-lower-to-tpxgpu: 'tlx.async_dot' is not lowered for AMD GPUs yet: an async_dot whose tile fits no MFMA block of gfx950 (M and N multiples of 32 with K of 32, or of 16 with K of 64)
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<64x16xi8>, !tlx.buffer<16x64xi8> -> tensor<64x64xi32>
  tt.return
}
