// tt.join and tt.split are register interleavings on the SIMT path: the
// joined tensor holds each pair in one thread's adjacent registers (the new
// minor dimension first in `order`, sizePerThread 2), so the join
// interleaves its operands' registers and the split takes the even and the
// odd ones.
// RUN: tpx-opt %s --convert-tt-to-tpxgpu -mlir-print-debuginfo=false | FileCheck %s --check-prefix=LAYOUT
// RUN: tpx-opt %s --convert-tt-to-tpxgpu --tpxgpu-remove-layout-conversions --convert-tpxgpu-to-nvvm --canonicalize -mlir-print-debuginfo=false | FileCheck %s --check-prefix=NVVM

// LAYOUT-DAG: #[[B:.*]] = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// LAYOUT-DAG: #[[J:.*]] = #tpxgpu.blocked<{sizePerThread = [4, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// LAYOUT-LABEL: tt.func public @interleave
// LAYOUT: tt.join %{{.*}}, %{{.*}} : tensor<512xf32, #[[B]]> -> tensor<512x2xf32, #[[J]]>
// LAYOUT: tt.split %{{.*}} : tensor<512x2xf32, #[[J]]> -> tensor<512xf32, #[[B]]>
// LAYOUT-NOT: tpxgpu.convert_layout

// Four registers a thread in, eight out: no shuffles, no shared memory.
// NVVM-LABEL: llvm.func @interleave
// NVVM-NOT: nvvm.shfl
// NVVM-NOT: llvm.store {{.*}} !llvm.ptr<3>
// NVVM: llvm.return
module {
  tt.func public @interleave(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
    %px = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
    %qx = tt.addptr %px, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    %a = tt.load %qx : tensor<512x!tt.ptr<f32>>
    %py = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
    %qy = tt.addptr %py, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    %b = tt.load %qy : tensor<512x!tt.ptr<f32>>
    %j = tt.join %a, %b : tensor<512xf32> -> tensor<512x2xf32>
    %lo, %hi = tt.split %j : tensor<512x2xf32> -> tensor<512xf32>
    %s = arith.subf %hi, %lo : tensor<512xf32>
    %po = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
    %qo = tt.addptr %po, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    tt.store %qo, %s : tensor<512x!tt.ptr<f32>>
    tt.return
  }
}
