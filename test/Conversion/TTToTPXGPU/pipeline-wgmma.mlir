// tpxgpu-pipeline-wgmma: a loop-carried warp-group dot becomes async with
// its staged operands double-buffered by iteration parity; one dot stays
// in flight (pendings = 1) and the loop result is drained (pendings = 0).
// RUN: tpx-opt %s --convert-tt-to-tpxgpu="num-warps=8" --tpxgpu-use-wgmma --canonicalize --tpxgpu-remove-layout-conversions --canonicalize --tpxgpu-pipeline-wgmma -mlir-print-debuginfo=false | FileCheck %s
// RUN: tpx-opt %s --convert-tt-to-tpxgpu="num-warps=8" --tpxgpu-use-wgmma --canonicalize --tpxgpu-remove-layout-conversions --canonicalize --tpxgpu-pipeline-wgmma="num-stages=1" -mlir-print-debuginfo=false | FileCheck %s --check-prefix=SYNC

// CHECK-LABEL: tt.func public @loop
// CHECK: %[[BA:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<2x128x64xf16, #{{.*}}, mutable>
// CHECK: %[[BB:.*]] = tpxgpu.local_alloc : !tpxgpu.memdesc<2x64x128xf16, #{{.*}}, mutable>
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %[[LB:.*]] to %{{.*}} step %[[ST:.*]] iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK: %[[K:.*]] = arith.subi %[[I]], %[[LB]]
// CHECK: %[[J:.*]] = arith.divsi %[[K]], %[[ST]]
// CHECK: %[[SLOT:.*]] = arith.remsi %[[J]], %{{.*}}
// CHECK: tpxgpu.barrier
// CHECK: %[[VA:.*]] = tpxgpu.memdesc_index %[[BA]][%[[SLOT]]]
// CHECK: tpxgpu.local_store %{{.*}}, %[[VA]]
// CHECK: %[[VB:.*]] = tpxgpu.memdesc_index %[[BB]][%[[SLOT]]]
// CHECK: tpxgpu.local_store %{{.*}}, %[[VB]]
// CHECK: %[[D:.*]] = tpxgpu.warp_group_dot %[[VA]], %[[VB]], %[[ACC]] async
// CHECK: %[[W:.*]]:3 = tpxgpu.warp_group_dot_wait %[[D]], %[[VA]], %[[VB]] pendings = 1
// CHECK: scf.yield %[[W]]#0
// CHECK: tpxgpu.warp_group_dot_wait %[[R]] pendings = 0

// SYNC-NOT: warp_group_dot{{.*}} async
// SYNC-NOT: warp_group_dot_wait
module {
  tt.func public @loop(%pa: tensor<128x64x!tt.ptr<f16>>, %pb: tensor<64x128x!tt.ptr<f16>>, %n: i32) -> tensor<128x128xf32> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<128x128xf32>) : i32 {
      %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>>
      %b = tt.load %pb : tensor<64x128x!tt.ptr<f16>>
      %d = tt.dot %a, %b, %acc : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    tt.return %r : tensor<128x128xf32>
  }
}
