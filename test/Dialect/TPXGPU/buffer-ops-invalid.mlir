// RUN: tpx-opt %s -split-input-file -verify-diagnostics

// Malformed tpxgpu.buffer_load / buffer_store: each diagnostic says what is
// wrong.

#b = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32} {
  tt.func @wrong_element(%base: !tt.ptr<f16>, %offs: tensor<256xi32, #b>) {
    // expected-error @below {{result elements must be 'f16', what '!tt.ptr<f16>' points to, got 'f32'}}
    %a = tpxgpu.buffer_load %base[%offs] : !tt.ptr<f16>, tensor<256xi32, #b> -> tensor<256xf32, #b>
    tt.return
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
#c = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32} {
  tt.func @offsets_layout(%base: !tt.ptr<f32>, %offs: tensor<256xi32, #c>) {
    // expected-error @below {{offsets must be 'tensor<256xi32, #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>' (the result's shape and layout, i32 elements)}}
    %a = tpxgpu.buffer_load %base[%offs] : !tt.ptr<f32>, tensor<256xi32, #c> -> tensor<256xf32, #b>
    tt.return
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32} {
  tt.func @shared_base(%base: !tt.ptr<f32, 3>, %offs: tensor<256xi32, #b>) {
    // expected-error @below {{base must be a global pointer (address space 1), got '!tt.ptr<f32, 3>'}}
    %a = tpxgpu.buffer_load %base[%offs] : !tt.ptr<f32, 3>, tensor<256xi32, #b> -> tensor<256xf32, #b>
    tt.return
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32} {
  tt.func @other_without_mask(%base: !tt.ptr<f32>, %offs: tensor<256xi32, #b>, %o: tensor<256xf32, #b>) {
    // expected-error @below {{'other' needs a mask (it fills masked-off elements)}}
    %a = "tpxgpu.buffer_load"(%base, %offs, %o) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>}> : (!tt.ptr<f32>, tensor<256xi32, #b>, tensor<256xf32, #b>) -> tensor<256xf32, #b>
    tt.return
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32} {
  tt.func @store_modifier_on_load(%base: !tt.ptr<f32>, %offs: tensor<256xi32, #b>) {
    // expected-error @below {{cache modifier 'wt' does not apply to a load; expected one of 'ca', 'cg', 'cs', 'cv'}}
    %a = tpxgpu.buffer_load %base[%offs] cacheModifier = wt : !tt.ptr<f32>, tensor<256xi32, #b> -> tensor<256xf32, #b>
    tt.return
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32} {
  tt.func @block_base(%base: !tt.ptr<tensor<256xf32>>, %offs: tensor<256xi32, #b>, %v: tensor<256xf32, #b>) {
    // expected-error @below {{operand #1 must be pointer to a scalar, but got '!tt.ptr<tensor<256xf32>>'}}
    tpxgpu.buffer_store %v, %base[%offs] : tensor<256xf32, #b>, tensor<256xi32, #b> -> !tt.ptr<tensor<256xf32>>
    tt.return
  }
}

// -----

#b = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32} {
  tt.func @undistributed(%base: !tt.ptr<f32>, %offs: tensor<256xi32>, %v: tensor<256xf32>) {
    // expected-error @below {{value must be a tensor with a tpxgpu register layout}}
    tpxgpu.buffer_store %v, %base[%offs] : tensor<256xf32>, tensor<256xi32> -> !tt.ptr<f32>
    tt.return
  }
}
