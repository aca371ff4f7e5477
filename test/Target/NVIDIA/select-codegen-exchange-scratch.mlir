// RUN: tpx-opt %s -split-input-file --tpx-nvidia-select-codegen="num-warps=8" --verify-diagnostics | FileCheck %s

// tt.cat, tt.gather and tt.histogram exchange whole tensors through shared
// memory: with 8 warps the register budget admits 65536-element tensors,
// whose 256 KiB do not fit in a block's 227 KiB.

// CHECK: module attributes {tpxgpu.codegen = "simt"}
module {
  tt.func public @gather_fits(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 32768 : i32, start = 0 : i32} : tensor<32768xi32>
    %x = arith.sitofp %r : tensor<32768xi32> to tensor<32768xf32>
    %g = tt.gather %x[%r] {axis = 0 : i32} : (tensor<32768xf32>, tensor<32768xi32>) -> tensor<32768xf32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32768x!tt.ptr<f32>>
    %pp = tt.addptr %ps, %r : tensor<32768x!tt.ptr<f32>>, tensor<32768xi32>
    tt.store %pp, %g : tensor<32768x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// CHECK: module attributes {tpxgpu.codegen = "scalar"}
module {
  tt.func public @cat_too_large(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 32768 : i32, start = 0 : i32} : tensor<32768xi32>
    %x = arith.sitofp %r : tensor<32768xi32> to tensor<32768xf32>
    // expected-remark @below {{the SIMT code generator does not cover a 'tt.cat' that exchanges 262144 bytes through shared memory (at most 232448) ('tt.cat'); only the one-thread pipeline (--target-pipeline one-thread) compiles this kernel}}
    %c = tt.cat %x, %x : tensor<32768xf32> -> tensor<65536xf32>
    %r2 = tt.make_range {end = 65536 : i32, start = 0 : i32} : tensor<65536xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
    %pp = tt.addptr %ps, %r2 : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
    tt.store %pp, %c : tensor<65536x!tt.ptr<f32>>
    tt.return
  }
}
