// RUN: tpx-opt %s -split-input-file -verify-diagnostics

// Each case is malformed tpxgpu IR; the diagnostic must say what is wrong.
// invalid-exit-codes.test runs every case through a plain tpx-opt as well.

//===----------------------------------------------------------------------===//
// Layout attributes
//===----------------------------------------------------------------------===//

// expected-error @+1 {{blocked threadsPerWarp must multiply to a warp size (32 or 64), got 16}}
tt.func @warp_of_16(%x: tensor<64xf32, #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>>) {
  tt.return
}

// -----

// expected-error @+1 {{blocked order must be a permutation of 0..1, got [0, 0]}}
tt.func @bad_order(%x: tensor<64x64xf32, #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 0]}>>) {
  tt.return
}

// -----

// expected-error @+1 {{blocked layout parameters must have one entry per dimension; got sizePerThread 2, threadsPerWarp 2, warpsPerCTA 1, order 2}}
tt.func @ragged(%x: tensor<64x64xf32, #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4], order = [1, 0]}>>) {
  tt.return
}

// -----

// expected-error @+1 {{blocked sizePerThread must hold powers of two, got [3, 1]}}
tt.func @odd_size(%x: tensor<64x64xf32, #tpxgpu.blocked<{sizePerThread = [3, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) {
  tt.return
}

// -----

// expected-error @+1 {{#tpxgpu.blocked needs parameter 'order'}}
tt.func @missing_order(%x: tensor<64x64xf32, #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1]}>>) {
  tt.return
}

// -----

// expected-error @+1 {{unknown parameter 'warpsPerCta' in #tpxgpu.blocked}}
tt.func @typo(%x: tensor<64x64xf32, #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], warpsPerCta = [4, 1], order = [1, 0]}>>) {
  tt.return
}

// -----

// expected-error @+1 {{parameter 'sizePerThread' of #tpxgpu.blocked must be an array of non-negative integers, got 4 : i64}}
tt.func @scalar_for_array(%x: tensor<64x64xf32, #tpxgpu.blocked<{sizePerThread = 4, threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) {
  tt.return
}

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{slice dim 2 is out of range for a parent of rank 2}}
tt.func @slice_dim(%x: tensor<64xf32, #tpxgpu.slice<{dim = 2, parent = #blocked}>>) {
  tt.return
}

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{slice parent must be a blocked, slice or MMA layout, got #tpxgpu.dot_op}}
tt.func @slice_of_dot(%x: tensor<64xf32, #tpxgpu.slice<{dim = 0, parent = #tpxgpu.dot_op<{opIdx = 0, parent = #blocked}>}>>) {
  tt.return
}

// -----

// expected-error @+1 {{nvidia_mma version must be 2 (mma.sync) or 3 (wgmma), got 1}}
tt.func @mma_v1(%x: tensor<64x64xf32, #tpxgpu.nvidia_mma<{version = 1, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>) {
  tt.return
}

// -----

// expected-error @+1 {{nvidia_mma version 3 needs warpsPerCTA[0] to be a multiple of 4 (a warp group is 4 warps along M), got [2, 2]}}
tt.func @wgmma_split_group(%x: tensor<128x128xf32, #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 64, 16]}>>) {
  tt.return
}

// -----

// expected-error @+1 {{nvidia_mma version 3 needs instrShape [16, N, K] with N a multiple of 8 in [8, 256] and K 8, 16 or 32, got [16, 12, 16]}}
tt.func @wgmma_n12(%x: tensor<128x128xf32, #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 12, 16]}>>) {
  tt.return
}

// -----

// expected-error @+1 {{amd_mfma instrShape must be [32, 32, K] or [16, 16, K] with K a power of two, got [32, 16, 8]}}
tt.func @mfma_shape(%x: tensor<64x64xf32, #tpxgpu.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 16, 8]}>>) {
  tt.return
}

// -----

#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @+1 {{dot_op opIdx must be 0 (A) or 1 (B), got 2}}
tt.func @dot_op_idx(%x: tensor<64x64xf16, #tpxgpu.dot_op<{opIdx = 2, parent = #mma, kWidth = 2}>>) {
  tt.return
}

// -----

#mma = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @+1 {{dot_op with an MMA parent needs kWidth > 0}}
tt.func @dot_op_no_kwidth(%x: tensor<64x64xf16, #tpxgpu.dot_op<{opIdx = 0, parent = #mma}>>) {
  tt.return
}

// -----

#mma = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// expected-error @+1 {{wgmma reads operand B only from shared memory}}
tt.func @wgmma_register_b(%x: tensor<64x64xf16, #tpxgpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>) {
  tt.return
}

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{dot_op with a blocked parent (an FMA dot) takes no kWidth, got 4}}
tt.func @fma_kwidth(%x: tensor<64x64xf16, #tpxgpu.dot_op<{opIdx = 0, parent = #blocked, kWidth = 4}>>) {
  tt.return
}

// -----

// expected-error @+1 {{swizzled_shared vec, perPhase and maxPhase must be powers of two, got 3, 1, 8}}
tt.func @swizzle_vec(%m: !tpxgpu.memdesc<64x64xf16, #tpxgpu.swizzled_shared<{vec = 3, perPhase = 1, maxPhase = 8, order = [1, 0]}>>) {
  tt.return
}

// -----

// expected-error @+1 {{nvmma_shared swizzlingByteWidth must be 0, 32, 64 or 128 (the TMA/wgmma swizzle modes), got 48}}
tt.func @nvmma_swizzle(%m: !tpxgpu.memdesc<64x64xf16, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 48, elementBitWidth = 16}>>) {
  tt.return
}

//===----------------------------------------------------------------------===//
// Layouts on tensor shapes (verifyLayoutForShape)
//===----------------------------------------------------------------------===//

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{tensor of rank 1 cannot have a layout of rank 2}}
tt.func @rank_mismatch(%x: tensor<64xf32, #blocked>) {
  tt.return
}

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{dimension 0 of a tensor with layout #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}> must be a power of two, got 48x64}}
tt.func @not_power_of_two(%x: tensor<48x64xf32, #blocked>) {
  tt.return
}

// -----

#mma = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// expected-error @+1 {{tensor of shape 32x128 is not made of whole 64x128 MMA tiles (accumulator of}}
tt.func @partial_wgmma_tile(%x: tensor<32x128xf32, #mma>) {
  tt.return
}

// -----

#mfma = #tpxgpu.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
// expected-error @+1 {{tensor of shape 64x8 is not made of whole 32x16 MMA tiles (operand A of}}
tt.func @partial_mfma_k(%x: tensor<64x8xf16, #tpxgpu.dot_op<{opIdx = 0, parent = #mfma, kWidth = 8}>>) {
  tt.return
}

// -----

// expected-error @+1 {{is a shared-memory layout and cannot encode a tensor; shared memory is a !tpxgpu.memdesc}}
tt.func @shared_tensor(%x: tensor<64x64xf16, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>>) {
  tt.return
}

//===----------------------------------------------------------------------===//
// Module context: warp size and warp count
//===----------------------------------------------------------------------===//

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tpxgpu.threads-per-warp" = 64 : i32} {
  tt.func @wrong_warp_size(%x: tensor<64x64xf32, #blocked>) {
    // expected-error @+1 {{'arith.addf' op operand #0 has a layout for 32 threads per warp, but the module has 64 (tpxgpu.threads-per-warp)}}
    %0 = arith.addf %x, %x : tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tpxgpu.num-warps" = 8 : i32} {
  tt.func @wrong_warp_count(%p: !tt.ptr<f32>) {
    // expected-error @+1 {{'tt.splat' op result #0 has a layout for 4 warps, but the module has 8 (tpxgpu.num-warps)}}
    %0 = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#mfma = #tpxgpu.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 16]}>
#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// Without module attributes tpxgpu ops still check the default warp size.
tt.func @mfma_on_32_lanes(%x: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{'tpxgpu.convert_layout' op result #0 has a layout for 64 threads per warp, but the module has 32 (tpxgpu.threads-per-warp)}}
  %0 = tpxgpu.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mfma>
  tt.return
}

// -----

// expected-error @+1 {{'tpxgpu.num-warps' must be a positive power of two, got 3}}
module attributes {"tpxgpu.num-warps" = 3 : i32} {
}

// -----

// expected-error @+1 {{'tpxgpu.threads-per-warp' must be 32 (NVIDIA) or 64 (AMD CDNA), got 16}}
module attributes {"tpxgpu.threads-per-warp" = 16 : i32} {
}

// -----

// expected-error @+1 {{'tpxgpu.num-warps' is a module attribute; it cannot be set on 'tt.func'}}
tt.func @warps_on_func() attributes {"tpxgpu.num-warps" = 4 : i32} {
  tt.return
}

// -----

// expected-error @+1 {{unknown tpxgpu attribute 'tpxgpu.num-wraps'}}
module attributes {"tpxgpu.num-wraps" = 4 : i32} {
}

//===----------------------------------------------------------------------===//
// Facts passes hand on (codegen, block threads, shared bytes and offsets,
// contiguity)
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{'tpxgpu.codegen' must be "simt" or "scalar", got "one-thread"}}
module attributes {tpxgpu.codegen = "one-thread"} {
}

// -----

// expected-error @+1 {{'tpxgpu.codegen' must be "simt" or "scalar", got 1 : i32}}
module attributes {tpxgpu.codegen = 1 : i32} {
}

// -----

// expected-error @+1 {{'tpxgpu.codegen' is a module attribute; it cannot be set on 'tt.func'}}
tt.func @codegen_on_func() attributes {tpxgpu.codegen = "simt"} {
  tt.return
}

// -----

// expected-error @+1 {{'tpxgpu.block-threads' must be positive, got 0}}
module attributes {"tpxgpu.block-threads" = 0 : i32} {
}

// -----

// expected-error @+1 {{'tpxgpu.block-threads' must be an i32 integer, got 128 : i64}}
module attributes {"tpxgpu.block-threads" = 128 : i64} {
}

// -----

// expected-error @+1 {{'tpxgpu.shared-bytes' must be non-negative, got -16}}
module attributes {"tpxgpu.shared-bytes" = -16 : i64} {
}

// -----

// expected-error @+1 {{'tpxgpu.shared-bytes' must be an i64 integer, got "lots"}}
module attributes {"tpxgpu.shared-bytes" = "lots"} {
}

// -----

// expected-error @+1 {{'tpxgpu.shared-bytes' is a module attribute; it cannot be set on 'tt.func'}}
tt.func @shared_bytes_on_func() attributes {"tpxgpu.shared-bytes" = 0 : i64} {
  tt.return
}

// -----

tt.func @negative_offset() {
  // expected-error @+1 {{'tpxgpu.shared-offset' must be non-negative, got -4}}
  %c = arith.constant {"tpxgpu.shared-offset" = -4 : i64} 0 : i32
  tt.return
}

// -----

tt.func @offset_i32() {
  // expected-error @+1 {{'tpxgpu.shared-offset' must be an i64 integer, got 4 : i32}}
  %c = arith.constant {"tpxgpu.shared-offset" = 4 : i32} 0 : i32
  tt.return
}

// -----

// expected-error @+1 {{'tpxgpu.shared-offset' belongs on the op it describes, not on a module}}
module attributes {"tpxgpu.shared-offset" = 0 : i64} {
}

// -----

tt.func @zero_contiguity(%p: tensor<64x!tt.ptr<f32>>) {
  // expected-error @+1 {{'tpxgpu.contiguity' must hold positive entries, got array<i64: 0>}}
  %v = tt.load %p {tpxgpu.contiguity = array<i64: 0>} : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @contiguity_not_dense(%p: tensor<64x!tt.ptr<f32>>) {
  // expected-error @+1 {{'tpxgpu.contiguity' must be a dense i64 array (array<i64: ...>), got [4]}}
  %v = tt.load %p {tpxgpu.contiguity = [4]} : tensor<64x!tt.ptr<f32>>
  tt.return
}

//===----------------------------------------------------------------------===//
// !tpxgpu.memdesc
//===----------------------------------------------------------------------===//

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{memdesc encoding must be a shared-memory layout (#tpxgpu.swizzled_shared, #tpxgpu.padded_shared or #tpxgpu.nvmma_shared), got #tpxgpu.blocked}}
tt.func @register_layout_buffer(%m: !tpxgpu.memdesc<64x64xf16, #blocked>) {
  tt.return
}

// -----

// expected-error @+1 {{nvmma_shared layout is for 16-bit elements, but the memdesc holds 'f32'}}
tt.func @nvmma_width(%m: !tpxgpu.memdesc<64x64xf32, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16}>>) {
  tt.return
}

// -----

// expected-error @+1 {{memdesc shape does not fit in its alloc_shape (128 > 64)}}
tt.func @view_too_big(%m: !tpxgpu.memdesc<128x64xf16, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, alloc_shape = 64x64>) {
  tt.return
}

// -----

// expected-error @+1 {{memdesc of rank 1 is smaller than its layout's rank 2}}
tt.func @rank_below_layout(%m: !tpxgpu.memdesc<64xf16, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>>) {
  tt.return
}

// -----

// expected-error @+1 {{expected 'mutable' or 'alloc_shape' in memdesc}}
tt.func @readonly(%m: !tpxgpu.memdesc<64xf16, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, readonly>) {
  tt.return
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @convert_reshapes(%x: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{'tpxgpu.convert_layout' op changes the shape from 64x64 to 32x128; only the layout may change}}
  %0 = tpxgpu.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<32x128xf32, #blocked>
  tt.return
}

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @convert_from_plain(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{'tpxgpu.convert_layout' op source must be a tensor with a tpxgpu register layout (blocked, slice, nvidia_mma, amd_mfma or dot_op), got 'tensor<64x64xf32>'}}
  %0 = tpxgpu.convert_layout %x : tensor<64x64xf32> -> tensor<64x64xf32, #blocked>
  tt.return
}

// -----

#shared = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @uninitialised_immutable() {
  // expected-error @+1 {{'tpxgpu.local_alloc' op without an initial value must return a mutable buffer}}
  %0 = tpxgpu.local_alloc : !tpxgpu.memdesc<64x64xf16, #shared>
  tt.return
}

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @alloc_wrong_shape(%t: tensor<64x64xf16, #blocked>) {
  // expected-error @+1 {{'tpxgpu.local_alloc' op initial value shape 64x64 differs from the buffer shape 2x64x64}}
  %0 = tpxgpu.local_alloc %t : tensor<64x64xf16, #blocked> -> !tpxgpu.memdesc<2x64x64xf16, #shared, mutable>
  tt.return
}

// -----

#shared = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#row = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @index_tile_dim(%m: !tpxgpu.memdesc<64x64xf16, #shared, mutable>, %i: i32) {
  // expected-error @+1 {{'tpxgpu.memdesc_index' op needs a source with a leading buffer dimension (rank above its layout's 2)}}
  %0 = tpxgpu.memdesc_index %m[%i] : !tpxgpu.memdesc<64x64xf16, #shared, mutable> -> !tpxgpu.memdesc<64xf16, #row, mutable, alloc_shape = 64x64>
  tt.return
}

// -----

#shared = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @index_forgets_alloc(%m: !tpxgpu.memdesc<3x64x64xf16, #shared, mutable>, %i: i32) {
  // expected-error @+1 {{'tpxgpu.memdesc_index' op result type must be '!tpxgpu.memdesc<64x64xf16, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, mutable, alloc_shape = 3x64x64>' (the source without its leading dimension)}}
  %0 = tpxgpu.memdesc_index %m[%i] : !tpxgpu.memdesc<3x64x64xf16, #shared, mutable> -> !tpxgpu.memdesc<64x64xf16, #shared, mutable>
  tt.return
}

// -----

#shared = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @free_a_view(%m: !tpxgpu.memdesc<2x64x64xf16, #shared, mutable>, %i: i32) {
  %v = tpxgpu.memdesc_index %m[%i] : !tpxgpu.memdesc<2x64x64xf16, #shared, mutable> -> !tpxgpu.memdesc<64x64xf16, #shared, mutable, alloc_shape = 2x64x64>
  // expected-error @+1 {{'tpxgpu.local_dealloc' op frees a whole allocation, but its operand is a view of one}}
  tpxgpu.local_dealloc %v : !tpxgpu.memdesc<64x64xf16, #shared, mutable, alloc_shape = 2x64x64>
  tt.return
}

// -----

#shared = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @free_a_full_window(%m: !tpxgpu.memdesc<64x64xf16, #shared, mutable>) {
  %v = tpxgpu.memdesc_subview %m[0, 0] : !tpxgpu.memdesc<64x64xf16, #shared, mutable> -> !tpxgpu.memdesc<64x64xf16, #shared, mutable>
  // expected-error @+1 {{'tpxgpu.local_dealloc' op frees a whole allocation, but its operand is a view of one}}
  tpxgpu.local_dealloc %v : !tpxgpu.memdesc<64x64xf16, #shared, mutable>
  tt.return
}

// -----

#shared = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @subview_out_of_bounds(%m: !tpxgpu.memdesc<64x64xf16, #shared>) {
  // expected-error @+1 {{'tpxgpu.memdesc_subview' op window [48, 80) along dimension 1 exceeds the source's size 64}}
  %0 = tpxgpu.memdesc_subview %m[0, 48] : !tpxgpu.memdesc<64x64xf16, #shared> -> !tpxgpu.memdesc<64x32xf16, #shared, alloc_shape = 64x64>
  tt.return
}

// -----

#shared = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @subview_offsets(%m: !tpxgpu.memdesc<64x64xf16, #shared>) {
  // expected-error @+1 {{'tpxgpu.memdesc_subview' op expects 2 offsets (one per source dimension), got 1}}
  %0 = tpxgpu.memdesc_subview %m[32] : !tpxgpu.memdesc<64x64xf16, #shared> -> !tpxgpu.memdesc<32x64xf16, #shared, alloc_shape = 64x64>
  tt.return
}

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @store_immutable(%t: tensor<64x64xf16, #blocked>, %m: !tpxgpu.memdesc<64x64xf16, #shared>) {
  // expected-error @+1 {{'tpxgpu.local_store' op cannot write into an immutable buffer (the destination is '!tpxgpu.memdesc<64x64xf16, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>>'; allocate it `mutable`)}}
  tpxgpu.local_store %t, %m : tensor<64x64xf16, #blocked> -> !tpxgpu.memdesc<64x64xf16, #shared>
  tt.return
}

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @load_wrong_element(%m: !tpxgpu.memdesc<64x64xf16, #shared>) {
  // expected-error @+1 {{'tpxgpu.local_load' op result element type 'f32' differs from the buffer element type 'f16'}}
  %0 = tpxgpu.local_load %m : !tpxgpu.memdesc<64x64xf16, #shared> -> tensor<64x64xf32, #blocked>
  tt.return
}

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @copy_wrong_pointee(%p: tensor<64x64x!tt.ptr<f32>, #blocked>, %m: !tpxgpu.memdesc<64x64xf16, #shared, mutable>) {
  // expected-error @+1 {{'tpxgpu.async_copy_global_to_local' op pointee tensor element type 'f32' differs from the destination buffer element type 'f16'}}
  %0 = tpxgpu.async_copy_global_to_local %p, %m : tensor<64x64x!tt.ptr<f32>, #blocked> -> !tpxgpu.memdesc<64x64xf16, #shared, mutable>
  tt.return
}

// -----

#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @copy_other_without_mask(%p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: !tpxgpu.memdesc<64x64xf16, #shared, mutable>, %o: tensor<64x64xf16, #blocked>) {
  // expected-error @+1 {{'tpxgpu.async_copy_global_to_local' op 'other' needs a mask (it fills masked-off elements)}}
  %0 = tpxgpu.async_copy_global_to_local %p, %m other %o : tensor<64x64x!tt.ptr<f16>, #blocked> -> !tpxgpu.memdesc<64x64xf16, #shared, mutable>
  tt.return
}

// -----

#bar = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @two_word_barrier(%b: !tpxgpu.memdesc<2xi64, #bar, mutable>) {
  // expected-error @+1 {{'tpxgpu.init_barrier' op barrier must be a 1-element i64 buffer (!tpxgpu.memdesc<1xi64, ...>), got '!tpxgpu.memdesc<2xi64, #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, mutable>'}}
  tpxgpu.init_barrier %b, 1 : !tpxgpu.memdesc<2xi64, #bar, mutable>
  tt.return
}

// -----

#bar = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @zero_arrivals(%b: !tpxgpu.memdesc<1xi64, #bar, mutable>) {
  // expected-error @+1 {{'tpxgpu.init_barrier' op attribute 'count' failed to satisfy constraint}}
  tpxgpu.init_barrier %b, 0 : !tpxgpu.memdesc<1xi64, #bar, mutable>
  tt.return
}

// -----

#bar = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @wait_immutable_barrier(%b: !tpxgpu.memdesc<1xi64, #bar>, %phase: i32) {
  // expected-error @+1 {{'tpxgpu.wait_barrier' op cannot write into an immutable buffer (the barrier is}}
  tpxgpu.wait_barrier %b, %phase : !tpxgpu.memdesc<1xi64, #bar>
  tt.return
}

// -----

#bar = #tpxgpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16}>
tt.func @tma_coords(%d: !tt.tensordesc<tensor<64x64xf16>>, %x: i32, %b: !tpxgpu.memdesc<1xi64, #bar, mutable>, %m: !tpxgpu.memdesc<64x64xf16, #nvmma, mutable>) {
  // expected-error @+1 {{'tpxgpu.async_tma_copy_global_to_local' op expects 2 coordinates (the descriptor's block rank), got 1}}
  tpxgpu.async_tma_copy_global_to_local %d[%x] %m, %b : !tt.tensordesc<tensor<64x64xf16>>, !tpxgpu.memdesc<1xi64, #bar, mutable> -> !tpxgpu.memdesc<64x64xf16, #nvmma, mutable>
  tt.return
}

// -----

#sw = #tpxgpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tt.func @tma_store_swizzled(%d: !tt.tensordesc<tensor<64x64xf16>>, %x: i32, %m: !tpxgpu.memdesc<64x64xf16, #sw>) {
  // expected-error @+1 {{'tpxgpu.async_tma_copy_local_to_global' op TMA moves shared memory in the nvmma_shared layout, got #tpxgpu.swizzled_shared}}
  tpxgpu.async_tma_copy_local_to_global %d[%x, %x] %m : !tt.tensordesc<tensor<64x64xf16>>, !tpxgpu.memdesc<64x64xf16, #sw>
  tt.return
}

// -----

#mma2 = #tpxgpu.nvidia_mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#nvmma = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16}>
tt.func @wgmma_on_ampere_layout(%a: !tpxgpu.memdesc<64x64xf16, #nvmma>, %b: !tpxgpu.memdesc<64x64xf16, #nvmma>, %c: tensor<64x64xf32, #mma2>) {
  // expected-error @+1 {{'tpxgpu.warp_group_dot' op accumulator must have an nvidia_mma version 3 (wgmma) layout}}
  %0 = tpxgpu.warp_group_dot %a, %b, %c : !tpxgpu.memdesc<64x64xf16, #nvmma>, !tpxgpu.memdesc<64x64xf16, #nvmma> -> tensor<64x64xf32, #mma2>
  tt.return
}

// -----

#mma = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16}>
tt.func @wgmma_k_mismatch(%a: !tpxgpu.memdesc<64x32xf16, #nvmma>, %b: !tpxgpu.memdesc<64x64xf16, #nvmma>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tpxgpu.warp_group_dot' op K of A (64x32) differs from K of B (64x64)}}
  %0 = tpxgpu.warp_group_dot %a, %b, %c : !tpxgpu.memdesc<64x32xf16, #nvmma>, !tpxgpu.memdesc<64x64xf16, #nvmma> -> tensor<64x64xf32, #mma>
  tt.return
}

// -----

#mma = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #tpxgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16}>
tt.func @wgmma_register_a_layout(%a: tensor<64x64xf16, #blocked>, %b: !tpxgpu.memdesc<64x64xf16, #nvmma>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tpxgpu.warp_group_dot' op register operand A must have a #tpxgpu.dot_op layout with opIdx = 0 and the accumulator's layout as parent}}
  %0 = tpxgpu.warp_group_dot %a, %b, %c : tensor<64x64xf16, #blocked>, !tpxgpu.memdesc<64x64xf16, #nvmma> -> tensor<64x64xf32, #mma>
  tt.return
}

// -----

#mma = #tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16}>
tt.func @wgmma_mixed_types(%a: !tpxgpu.memdesc<64x64xf16, #nvmma>, %b: !tpxgpu.memdesc<64x64xbf16, #nvmma>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tpxgpu.warp_group_dot' op operands A ('f16') and B ('bf16') must have the same element type}}
  %0 = tpxgpu.warp_group_dot %a, %b, %c : !tpxgpu.memdesc<64x64xf16, #nvmma>, !tpxgpu.memdesc<64x64xbf16, #nvmma> -> tensor<64x64xf32, #mma>
  tt.return
}

// -----

tt.func @memdesc_trans_swizzled(%m: !tpxgpu.memdesc<64x32xf16, #tpxgpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>>) {
  // expected-error @+1 {{transposes a 2-D view of an nvmma_shared or 2-D padded_shared buffer}}
  %t = tpxgpu.memdesc_trans %m : !tpxgpu.memdesc<64x32xf16, #tpxgpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>> -> !tpxgpu.memdesc<32x64xf16, #tpxgpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>>
  tt.return
}

// -----

tt.func @memdesc_trans_flag(%m: !tpxgpu.memdesc<64x32xf16, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>>) {
  // expected-error @+1 {{the source's last two dimensions swapped and its layout transposed}}
  %t = tpxgpu.memdesc_trans %m : !tpxgpu.memdesc<64x32xf16, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>> -> !tpxgpu.memdesc<32x64xf16, #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>>
  tt.return
}

// -----

// A tensor map's swizzle is one of TMA's.
// expected-error@+1 {{swizzle must be 0, 32, 64 or 128 bytes, got 48}}
tt.func @tensor_map_swizzle(%p: !tt.ptr<f16>, %d: !tt.tensordesc<tensor<64x64xf16>> {tpxgpu.tensor_map = #tpxgpu.tensor_map<base = 0, shape_args = [-1, -1], shape_values = [64, 64], stride_args = [-1, -1], stride_values = [64, 1], box = [64, 64], element_type = f16, swizzle = 48, nan = false>}) {
  tt.return
}

// -----

// A box row wider than the swizzle needs several boxes, not one.
// expected-error@+1 {{the box's inner dimension (256 bytes) is wider than its 128-byte swizzle}}
tt.func @tensor_map_wide_box(%p: !tt.ptr<f16>, %d: !tt.tensordesc<tensor<64x128xf16>> {tpxgpu.tensor_map = #tpxgpu.tensor_map<base = 0, shape_args = [-1, -1], shape_values = [64, 128], stride_args = [-1, -1], stride_values = [128, 1], box = [64, 128], element_type = f16, swizzle = 128, nan = false>}) {
  tt.return
}

// -----

// The map is built from arguments before it.
// expected-error@+1 {{the tensor map of argument 0 may only name arguments before it}}
tt.func @tensor_map_names_later(%d: !tt.tensordesc<tensor<64x64xf16>> {tpxgpu.tensor_map = #tpxgpu.tensor_map<base = 1, shape_args = [-1, -1], shape_values = [64, 64], stride_args = [-1, -1], stride_values = [64, 1], box = [64, 64], element_type = f16, swizzle = 128, nan = false>}, %p: !tt.ptr<f16>) {
  tt.return
}

// -----

// The descriptor argument is a descriptor of the map's box.
// expected-error@+1 {{does not match its tensor map's box and element type}}
tt.func @tensor_map_box_type(%p: !tt.ptr<f16>, %d: !tt.tensordesc<tensor<32x64xf16>> {tpxgpu.tensor_map = #tpxgpu.tensor_map<base = 0, shape_args = [-1, -1], shape_values = [64, 64], stride_args = [-1, -1], stride_values = [64, 1], box = [64, 64], element_type = f16, swizzle = 128, nan = false>}) {
  tt.return
}

// -----

// Only descriptor (or lowered pointer) arguments carry a map.
// expected-error@+1 {{'tpxgpu.tensor_map' is for a !tt.tensordesc (or, lowered, !llvm.ptr) argument, got 'i32'}}
tt.func @tensor_map_on_int(%p: !tt.ptr<f16>, %d: i32 {tpxgpu.tensor_map = #tpxgpu.tensor_map<base = 0, shape_args = [-1, -1], shape_values = [64, 64], stride_args = [-1, -1], stride_values = [64, 1], box = [64, 64], element_type = f16, swizzle = 128, nan = false>}) {
  tt.return
}

// -----

// A reinterpreted view must fit in the bytes of the view it starts from
// (here one of two 64x64 f16 buffers, 64 x (128 + 16) bytes).
tt.func @memdesc_reinterpret_too_large(%m: !tpxgpu.memdesc<2x64x64xf16, #tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>, mutable>) {
  %c0 = arith.constant 0 : i32
  %v = tpxgpu.memdesc_index %m[%c0] : !tpxgpu.memdesc<2x64x64xf16, #tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>, mutable> -> !tpxgpu.memdesc<64x64xf16, #tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>, mutable, alloc_shape = 2x64x64>
  // expected-error @+1 {{result needs 17408 bytes, more than the source's 9216}}
  %r = tpxgpu.memdesc_reinterpret %v : !tpxgpu.memdesc<64x64xf16, #tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>, mutable, alloc_shape = 2x64x64> -> !tpxgpu.memdesc<64x64xf32, #tpxgpu.padded_shared<{padding = 4, order = [1, 0]}>, mutable>
  tt.return
}

// -----

tt.func @memdesc_reinterpret_window(%m: !tpxgpu.memdesc<2x64x64xf16, #tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>, mutable>) {
  // expected-error @+1 {{result must be a whole view (alloc_shape = shape)}}
  %r = tpxgpu.memdesc_reinterpret %m : !tpxgpu.memdesc<2x64x64xf16, #tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>, mutable> -> !tpxgpu.memdesc<64x64xf16, #tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>, mutable, alloc_shape = 2x64x64>
  tt.return
}

// -----

// expected-error @+1 {{'tpxgpu.cluster-dims' must be array<i32: x, y, z>}}
module attributes {"tpxgpu.cluster-dims" = array<i32: 2, 1>} {
}

// -----

// expected-error @+1 {{'tpxgpu.cluster-dims' must hold positive extents}}
module attributes {"tpxgpu.cluster-dims" = array<i32: 2, 0, 1>} {
}

// -----

// expected-error @+1 {{makes 16 CTAs a cluster; at most 8 are portable}}
module attributes {"tpxgpu.cluster-dims" = array<i32: 4, 4, 1>} {
}

// -----

module {
  // expected-error @+1 {{'tpxgpu.cluster-dims' is a module attribute}}
  tt.func @f() attributes {"tpxgpu.cluster-dims" = array<i32: 2, 1, 1>} {
    tt.return
  }
}
