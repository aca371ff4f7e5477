// RUN: tpx-opt %s -split-input-file --tpx-nvidia-select-codegen --verify-diagnostics | FileCheck %s

// An ordinary tile kernel takes the SIMT code generator.
// CHECK: module attributes {tpxgpu.codegen = "simt"}
module {
  tt.func public @vadd(%x: !tt.ptr<f32>, %n: i32) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %q = tt.addptr %p, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %v = tt.load %q : tensor<128x!tt.ptr<f32>>
    %w = arith.addf %v, %v : tensor<128xf32>
    tt.store %q, %w : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Anything the SIMT lowering does not cover sends the kernel to the
// one-thread path, with a remark naming it.
// CHECK: module attributes {tpxgpu.codegen = "scalar"}
module {
  tt.func public @extern_call(%x: f32, %p: !tt.ptr<f32>) {
    // expected-remark @below {{the SIMT code generator does not cover external functions other than libdevice's ('tt.extern_elementwise'); only the one-thread pipeline (--target-pipeline one-thread) compiles this kernel}}
    %y = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "my_expf"} : (f32) -> f32
    tt.store %p, %y : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Debug ops, inline assembly and map_elementwise (its scalar region and
// terminator included) are covered (DebugPatterns.cpp, InlineAsmPatterns.cpp
// in lib/Conversion/TPXGPUToNVVM).
// CHECK: module attributes {tpxgpu.codegen = "simt"}
module {
  tt.func public @debug_and_asm(%p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %pid = tt.get_program_id x : i32
    tt.print " pid: " {hex = false, isSigned = array<i32: 1>} : %pid : i32
    tt.print " r: " {hex = true, isSigned = array<i32: 0>} : %r : tensor<128xi32>
    %z = arith.constant dense<0> : tensor<128xi32>
    %ok = arith.cmpi sge, %r, %z : tensor<128xi32>
    tt.assert %ok, "r must be non-negative" : tensor<128xi1>
    %a = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %r : tensor<128xi32> -> tensor<128xi32>
    %m = "tt.map_elementwise"(%a) <{pack = 2 : i32}> ({
    ^bb0(%a0: i32, %a1: i32):
      %s = arith.addi %a0, %a1 : i32
      cf.br ^bb1
    ^bb1:
      tt.map_elementwise.return %s, %a1 : i32, i32
    }) : (tensor<128xi32>) -> tensor<128xi32>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
    %q = tt.addptr %ps, %r : tensor<128x!tt.ptr<i32>>, tensor<128xi32>
    tt.store %q, %m : tensor<128x!tt.ptr<i32>>
    tt.return
  }
}

// -----

// fp8 values are bytes on the SIMT path: loaded, stored and fed to dots
// that run on wgmma (a 64x64 tile on 4 warps, K a multiple of 32).
// CHECK: module attributes {tpxgpu.codegen = "simt"}
module {
  tt.func public @fp8_copy(%x: !tt.ptr<f8E4M3FN>) {
    %v = tt.load %x : !tt.ptr<f8E4M3FN>
    tt.store %x, %v : !tt.ptr<f8E4M3FN>
    tt.return
  }
}

// -----

// CHECK: module attributes {tpxgpu.codegen = "simt"}
module {
  tt.func public @fp8_wgmma(%a: tensor<64x32x!tt.ptr<f8E4M3FN>>, %b: tensor<32x64x!tt.ptr<f8E5M2>>, %c: tensor<64x64x!tt.ptr<f32>>) {
    %acc = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %x = tt.load %a : tensor<64x32x!tt.ptr<f8E4M3FN>>
    %y = tt.load %b : tensor<32x64x!tt.ptr<f8E5M2>>
    %d = tt.dot %x, %y, %acc : tensor<64x32xf8E4M3FN> * tensor<32x64xf8E5M2> -> tensor<64x64xf32>
    tt.store %c, %d : tensor<64x64x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Computing with fp8 is left to the one-thread path; an fp8 dot wgmma
// cannot run (32 rows: a warp group computes 64) is covered
// (convert-tt-to-tpxgpu widens its operands to f16).
// CHECK: module attributes {tpxgpu.codegen = "scalar"}
module {
  tt.func public @fp8_convert(%x: !tt.ptr<f8E4M3FN>, %y: !tt.ptr<f32>) {
    %v = tt.load %x : !tt.ptr<f8E4M3FN>
    // expected-remark @below {{does not cover 8-bit float values in this op}}
    %w = arith.extf %v : f8E4M3FN to f32
    tt.store %y, %w : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Moving fp8 bytes is covered: bitcasts to and from i8 (tl.abs of fp8,
// fp8 views of int8 buffers), shape ops and selects.
// CHECK: module attributes {tpxgpu.codegen = "simt"}
module {
  tt.func public @fp8_bytes(%x: tensor<32x16x!tt.ptr<i8>>, %y: tensor<16x32x!tt.ptr<f8E5M2>>, %c: i1) {
    %v = tt.load %x : tensor<32x16x!tt.ptr<i8>>
    %f = tt.bitcast %v : tensor<32x16xi8> -> tensor<32x16xf8E4M3FN>
    %t = tt.trans %f {order = array<i32: 1, 0>} : tensor<32x16xf8E4M3FN> -> tensor<16x32xf8E4M3FN>
    %e = tt.bitcast %t : tensor<16x32xf8E4M3FN> -> tensor<16x32xf8E5M2>
    %z = arith.constant dense<0.0> : tensor<16x32xf8E5M2>
    %s = arith.select %c, %e, %z : tensor<16x32xf8E5M2>
    tt.store %y, %s : tensor<16x32x!tt.ptr<f8E5M2>>
    tt.return
  }
}

// -----

// CHECK: module attributes {tpxgpu.codegen = "simt"}
module {
  tt.func public @fp8_small_dot(%x: tensor<32x32xf8E4M3FN>, %y: tensor<32x64xf8E4M3FN>, %c: tensor<32x64x!tt.ptr<f32>>) {
    %acc = arith.constant dense<0.000000e+00> : tensor<32x64xf32>
    %d = tt.dot %x, %y, %acc : tensor<32x32xf8E4M3FN> * tensor<32x64xf8E4M3FN> -> tensor<32x64xf32>
    tt.store %c, %d : tensor<32x64x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// f32/f64 max and min are two integer atomics split by sign (SIMT); f16's
// are not covered.
// CHECK: module attributes {tpxgpu.codegen = "simt"}
module {
  tt.func public @fmax(%x: !tt.ptr<f32>, %v: f32) {
    %o = tt.atomic_rmw max, acq_rel, gpu, %x, %v : (!tt.ptr<f32>, f32) -> f32
    tt.return
  }
}

// -----

// CHECK: module attributes {tpxgpu.codegen = "scalar"}
module {
  tt.func public @fmax_f16(%x: !tt.ptr<f16>, %v: f16) {
    // expected-remark @below {{does not cover this atomic kind and type}}
    %o = tt.atomic_rmw max, acq_rel, gpu, %x, %v : (!tt.ptr<f16>, f16) -> f16
    tt.return
  }
}

// -----

// CHECK: module attributes {tpxgpu.codegen = "scalar"}
module {
  tt.func public @blockptr(%base: !tt.ptr<f32>, %n: i64, %s: i64, %o: i32) {
    // expected-remark @below {{does not cover block pointers}}
    %bp = tt.make_tensor_ptr %base, [%n], [%s], [%o] {order = array<i32: 0>} : <tensor<64xf32>>
    %v = tt.load %bp : !tt.ptr<tensor<64xf32>>
    tt.return
  }
}

// -----

// A tensor past the register file in each thread (65536 f32 over 128
// threads: 512 registers) goes to the one-thread path, where ptxas does
// not spend minutes on it.
// CHECK: module attributes {tpxgpu.codegen = "scalar"}
module {
  tt.func public @huge_tile(%x: !tt.ptr<f32>) {
    // expected-remark @below {{does not cover a tensor that needs 512 registers per thread with num_warps = 4 (at most 256)}}
    %r = tt.make_range {end = 65536 : i32, start = 0 : i32} : tensor<65536xi32>
    tt.return
  }
}


// -----

// The SIMT atom.cas covers 16-, 32- and 64-bit elements, as Triton's
// atomic_cas does (atom.cas.b16).
// CHECK: module attributes {tpxgpu.codegen = "simt"}
module {
  tt.func public @cas_f16(%p: !tt.ptr<f16>, %c: f16, %v: f16) {
    %r = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (!tt.ptr<f16>, f16, f16) -> f16
    tt.return
  }
}

// -----

// cat, gather and histogram (with and without a mask) go through shared
// memory on the SIMT path.
// CHECK: module attributes {tpxgpu.codegen = "simt"}
module {
  tt.func public @cat_gather_histogram(%p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %c = tt.cat %r, %r : tensor<64xi32> -> tensor<128xi32>
    %i = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %g = tt.gather %c[%i] {axis = 0 : i32} : (tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
    %lim = arith.constant dense<100> : tensor<128xi32>
    %m = arith.cmpi slt, %i, %lim : tensor<128xi32>
    %h = tt.histogram %g, %m : tensor<128xi32> -> tensor<16xi32>
    %h2 = tt.histogram %g : tensor<128xi32> -> tensor<16xi64>
    %o = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
    %pp = tt.addptr %ps, %o : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
    tt.store %pp, %h : tensor<16x!tt.ptr<i32>>
    tt.return
  }
}

// -----

// The counts are 32- or 64-bit shared-memory atomics.
// CHECK: module attributes {tpxgpu.codegen = "scalar"}
module {
  tt.func public @histogram_i16(%p: !tt.ptr<i16>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    // expected-remark @below {{the SIMT code generator does not cover histograms with other counts than i32 or i64 ('tt.histogram'); only the one-thread pipeline (--target-pipeline one-thread) compiles this kernel}}
    %h = tt.histogram %r : tensor<64xi32> -> tensor<16xi16>
    %o = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %ps = tt.splat %p : !tt.ptr<i16> -> tensor<16x!tt.ptr<i16>>
    %pp = tt.addptr %ps, %o : tensor<16x!tt.ptr<i16>>, tensor<16xi32>
    tt.store %pp, %h : tensor<16x!tt.ptr<i16>>
    tt.return
  }
}
