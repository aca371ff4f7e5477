// TLX's named barriers count threads of 32-lane warps; on gfx950 a TLX
// warp is a 64-lane wavefront, so tlx-lower-to-tpxgpu scales the count:
// 256 threads (8 warps: two replicas of a 4-warp task) become 512, the
// threads of those 8 wavefronts. On sm_90a the count stays.
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --convert-tt-to-tpxgpu="num-warps=4 threads-per-warp=64 target=gfx950" --tlx-lower-to-tpxgpu --canonicalize -mlir-print-debuginfo=false | FileCheck %s --check-prefix=AMD
// RUN: tpx-opt --load-plugin %example_plugins/tlx/TpxTLX.so %s --convert-tt-to-tpxgpu="num-warps=4" --tlx-lower-to-tpxgpu --canonicalize -mlir-print-debuginfo=false | FileCheck %s --check-prefix=NV

// AMD-LABEL: tt.func @barriers
// AMD-DAG: %[[ID:.*]] = arith.constant 9 : i32
// AMD-DAG: %[[N:.*]] = arith.constant 512 : i32
// AMD: tpxgpu.named_barrier %[[ID]], %[[N]]{{$}}
// AMD: tpxgpu.named_barrier %[[ID]], %[[N]] arrive_only
// NV-LABEL: tt.func @barriers
// NV-DAG: %[[ID:.*]] = arith.constant 9 : i32
// NV-DAG: %[[N:.*]] = arith.constant 256 : i32
// NV: tpxgpu.named_barrier %[[ID]], %[[N]]{{$}}
// NV: tpxgpu.named_barrier %[[ID]], %[[N]] arrive_only
tt.func @barriers() {
  %id = arith.constant 9 : i32
  %n = arith.constant 256 : i32
  tlx.named_barrier %id, %n {threads = 256 : i32}
  tlx.named_barrier %id, %n {arriveOnly, threads = 256 : i32}
  tt.return
}
