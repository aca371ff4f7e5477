// The tlx dialect registers SIMTLoweringDialectInterface: the NVIDIA
// coverage check lets TLX kernels take the SIMT path (the ops' tensors are
// still checked as for any op), and convert-tt-to-tpxgpu keeps the tlx ops'
// unencoded tensors, bracketed by unrealized casts for tlx-lower-to-tpxgpu.
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s -split-input-file --tpx-nvidia-select-codegen 2>&1 | FileCheck %s --check-prefix=CODEGEN
// (The second module's 48-row tensors have no layout: convert-tt-to-tpxgpu
// rejects them, hence `not`.)
// RUN: not tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s -split-input-file --convert-tt-to-tpxgpu="num-warps=4" --mlir-print-debuginfo=false 2>/dev/null | FileCheck %s --check-prefix=PLACED

// The first module takes the SIMT path; the second does not, for its
// tensor shape (remarks reach stderr before the modules reach stdout).
// CODEGEN-DAG: module attributes {tpxgpu.codegen = "simt"}
// CODEGEN-DAG: module attributes {tpxgpu.codegen = "scalar"}
// CODEGEN-DAG: remark: the SIMT code generator does not cover a tensor dimension that is not a power of two ('tlx.async_load')
// PLACED-LABEL: tt.func public @copy
// PLACED: %[[P:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<64x64x!tt.ptr<f16>, #blocked{{[0-9]*}}> to tensor<64x64x!tt.ptr<f16>>
// PLACED: tlx.async_load %[[P]], %{{.*}} : tensor<64x64x!tt.ptr<f16>>, <64x64xf16>
// PLACED: %[[L:.*]] = tlx.local_load %{{.*}} : <64x64xf16> -> tensor<64x64xf16>
// PLACED: %[[R:.*]] = builtin.unrealized_conversion_cast %[[L]] : tensor<64x64xf16> to tensor<64x64xf16, #blocked{{[0-9]*}}>
// PLACED: arith.addf %[[R]], %[[R]] : tensor<64x64xf16, #blocked{{[0-9]*}}>
module {
  tt.func public @copy(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>) {
    %c0 = arith.constant 0 : i32
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %c64 = arith.constant dense<64> : tensor<64x1xi32>
    %rs = arith.muli %rows, %c64 : tensor<64x1xi32>
    %rb = tt.broadcast %rs : tensor<64x1xi32> -> tensor<64x64xi32>
    %cb = tt.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
    %off = arith.addi %rb, %cb : tensor<64x64xi32>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %xp = tt.addptr %xs, %off : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %ys = tt.splat %y : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %yp = tt.addptr %ys, %off : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %bufs = tlx.local_alloc : !tlx.buffer<1x64x64xf16>
    %b = tlx.local_view %bufs[%c0] : !tlx.buffer<1x64x64xf16> -> !tlx.buffer<64x64xf16>
    %t = tlx.async_load %xp, %b : tensor<64x64x!tt.ptr<f16>>, !tlx.buffer<64x64xf16>
    %g = tlx.async_commit_group %t
    %w = tlx.async_wait_group 0, %g
    %v = tlx.local_load %b token %w : !tlx.buffer<64x64xf16> -> tensor<64x64xf16>
    %v2 = arith.addf %v, %v : tensor<64x64xf16>
    tt.store %yp, %v2 : tensor<64x64x!tt.ptr<f16>>
    tt.return
  }
}

// -----

// The tensors of tlx ops are still checked (a dimension that is not a
// power of two keeps the kernel off the SIMT path).
module {
  tt.func public @odd(%x: tensor<48x64x!tt.ptr<f16>>) {
    %c0 = arith.constant 0 : i32
    %bufs = tlx.local_alloc : !tlx.buffer<1x48x64xf16>
    %b = tlx.local_view %bufs[%c0] : !tlx.buffer<1x48x64xf16> -> !tlx.buffer<48x64xf16>
    %t = tlx.async_load %x, %b : tensor<48x64x!tt.ptr<f16>>, !tlx.buffer<48x64xf16>
    tt.return
  }
}
