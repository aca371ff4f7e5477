// RUN: tpx-opt %s -split-input-file --convert-tpxgpu-to-nvvm -verify-diagnostics

#pad = #tpxgpu.padded_shared<{padding = 4, order = [1, 0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32} {
  tt.func private @no_offset() {
    // expected-error @below {{has no tpxgpu.shared-offset: run tpxgpu-allocate-shared-memory before convert-tpxgpu-to-nvvm}}
    // expected-error @below {{failed to legalize operation}}
    %m = tpxgpu.local_alloc : !tpxgpu.memdesc<32x32xf32, #pad, mutable>
    tt.return
  }
}

// -----

#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"tpxgpu.num-warps" = 4 : i32} {
  tt.func private @off_atom(%m: !tpxgpu.memdesc<64x64xf16, #nv>) {
    // expected-error @below {{is not addressed by translation in its layout}}
    // expected-error @below {{failed to legalize operation}}
    %v = tpxgpu.memdesc_subview %m[1, 0] : !tpxgpu.memdesc<64x64xf16, #nv> -> !tpxgpu.memdesc<8x64xf16, #nv, alloc_shape = 64x64>
    tt.return
  }
}

// -----

#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"tpxgpu.num-warps" = 4 : i32} {
  tt.func private @dynamic(%m: !tpxgpu.memdesc<64x64xf16, #nv>, %k: i32) {
    // expected-error @below {{with dynamic offsets is not supported by the NVVM lowering yet}}
    // expected-error @below {{failed to legalize operation}}
    %v = tpxgpu.memdesc_subview %m[0, %k] : !tpxgpu.memdesc<64x64xf16, #nv> -> !tpxgpu.memdesc<64x16xf16, #nv, alloc_shape = 64x64>
    tt.return
  }
}

// -----

// cp.async zero-fills: a non-zero `other` is an error, not a wrong answer.
#b = #tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tpxgpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func private @copy_other(%p: tensor<128x32x!tt.ptr<f16>, #b>, %m: tensor<128x32xi1, #b>) {
    %one = arith.constant dense<1.000000e+00> : tensor<128x32xf16, #b>
    %buf = tpxgpu.local_alloc {"tpxgpu.shared-offset" = 0 : i64} : !tpxgpu.memdesc<128x32xf16, #nv, mutable>
    // expected-error @below {{with an 'other' that is not zero is not supported: masked-off elements are zeros}}
    // expected-error @below {{failed to legalize operation}}
    %t = tpxgpu.async_copy_global_to_local %p, %buf mask %m other %one {tpxgpu.contiguity = array<i64: 1, 8>} : tensor<128x32x!tt.ptr<f16>, #b> -> !tpxgpu.memdesc<128x32xf16, #nv, mutable>
    tt.return
  }
}
