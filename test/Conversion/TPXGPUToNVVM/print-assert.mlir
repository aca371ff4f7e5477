// tt.print and tt.assert: each element is printed (checked) by its unique
// owner only (the canonical registers of the threads whose replicated lane
// and warp bits are zero), a scalar by thread 0, through vprintf with a
// stack buffer of the arguments allocated in the entry block. The lines
// are those of the CPU runtime: `pid (x, y, z) idx (<row-major index>)
// <prefix><value>`; a failed assert reports its element and calls
// __assertfail, which traps.
// RUN: tpx-opt %s -split-input-file --convert-tt-to-tpxgpu=num-warps=4 --tpxgpu-lower-layout-conversions --tpxgpu-allocate-shared-memory --convert-tpxgpu-to-nvvm -mlir-print-debuginfo=false | FileCheck %s

// CHECK-DAG: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
// CHECK-DAG: llvm.mlir.global internal constant @[[PFX:tpx_simt_str_[0-9]+]](" pid: \00")
// CHECK-DAG: llvm.mlir.global internal constant @[[SCALAR:tpx_simt_str_[0-9]+]]("pid (%d, %d, %d) %s%lld\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[UNSIGNED:tpx_simt_str_[0-9]+]]("pid (%d, %d, %d) idx (%3lld) %s%llu\0A\00")
// CHECK-LABEL: llvm.func @print_ints
// CHECK: %[[BUF:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, i64, ptr, i64)> {alignment = 8 : i64}
// A scalar: thread 0, its value sign-extended (isSigned).
// CHECK: %[[PID:.*]] = nvvm.read.ptx.sreg.ctaid.x
// CHECK: llvm.mlir.addressof @[[PFX]]
// CHECK: llvm.mlir.addressof @[[SCALAR]]
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[T0:.*]] = llvm.icmp "eq" %[[TID]]
// CHECK: scf.if %[[T0]] {
// CHECK: llvm.sext %[[PID]] : i32 to i64
// CHECK: llvm.call @vprintf
// CHECK: }
// 64 elements on 128 threads: lane bit 4 and both warp bits replicate.
// CHECK: llvm.mlir.addressof @[[UNSIGNED]]
// CHECK: llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: %[[LANE:.*]] = llvm.mlir.constant(16 : i32)
// CHECK: %[[WARP:.*]] = llvm.mlir.constant(3 : i32)
// CHECK: %[[OWNER:.*]] = llvm.and %{{.*}}, %{{.*}} : i1
// CHECK: scf.if %[[OWNER]] {
// Four registers, four lines; the element's row-major index and its
// value zero-extended (isSigned = 0).
// CHECK-COUNT-4: llvm.call @vprintf(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> i32
// CHECK-NOT: llvm.call @vprintf
// CHECK: llvm.return
tt.func public @print_ints(%p: !tt.ptr<i32>) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %pid = tt.get_program_id x : i32
  tt.print " pid: " {hex = false, isSigned = array<i32: 1>} : %pid : i32
  tt.print " r: " {hex = false, isSigned = array<i32: 0>} : %r : tensor<64xi32>
  tt.return
}

// -----

// CHECK-DAG: @[[FLOAT:tpx_simt_str_[0-9]+]]("pid (%d, %d, %d) idx (%3lld) %s%f\0A\00")
// CHECK-DAG: @[[HEX:tpx_simt_str_[0-9]+]]("pid (%d, %d, %d) idx (%3lld) %s0x%llx\0A\00")
// CHECK-LABEL: llvm.func @print_floats
// Floats print as f64, hex as their bits zero-extended.
// CHECK: llvm.mlir.addressof @[[FLOAT]]
// CHECK: %[[F:.*]] = llvm.fpext %{{.*}} : f16 to f64
// CHECK: llvm.store %[[F]], %{{.*}} : f64, !llvm.ptr
// CHECK: llvm.mlir.addressof @[[HEX]]
// CHECK: %[[B:.*]] = llvm.bitcast %{{.*}} : f16 to i16
// CHECK: %[[Z:.*]] = llvm.zext %[[B]] : i16 to i64
// CHECK: llvm.store %[[Z]], %{{.*}} : i64, !llvm.ptr
tt.func public @print_floats(%p: !tt.ptr<f16>) {
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %s = tt.splat %p : !tt.ptr<f16> -> tensor<512x!tt.ptr<f16>>
  %q = tt.addptr %s, %r : tensor<512x!tt.ptr<f16>>, tensor<512xi32>
  %x = tt.load %q : tensor<512x!tt.ptr<f16>>
  tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %x : tensor<512xf16>
  tt.print " bits: " {hex = true, isSigned = array<i32: 0>} : %x : tensor<512xf16>
  tt.return
}

// -----

// Operands of different shapes print in turn, each in its own layout; a
// print without operands prints the prefix (and, as the CPU runtime does,
// a 0) once per program.
// CHECK-DAG: @[[M:tpx_simt_str_[0-9]+]](" m: \00")
// CHECK-DAG: @[[NONE:tpx_simt_str_[0-9]+]](" none\00")
// CHECK-LABEL: llvm.func @print_two_2d
// 16x16 elements on 128 threads: two each, index = 16 * row + column.
// CHECK: llvm.mlir.addressof @[[M]]
// CHECK: %[[ROW:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT: llvm.mul %{{.*}}, %[[ROW]] : i32
// CHECK: llvm.sext %{{.*}} : i32 to i64
// CHECK: llvm.call @vprintf
// CHECK: llvm.sext %{{.*}} : i32 to i64
// CHECK: llvm.call @vprintf
// The 16xi8: sign-extended bytes.
// CHECK: llvm.sext %{{.*}} : i8 to i64
// CHECK: llvm.call @vprintf
// CHECK: llvm.mlir.addressof @[[NONE]]
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.store %[[ZERO]]
// CHECK: llvm.call @vprintf
tt.func public @print_two_2d(%p: !tt.ptr<i8>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %a = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %b = tt.broadcast %a : tensor<16x1xi32> -> tensor<16x16xi32>
  %c = arith.trunci %r : tensor<16xi32> to tensor<16xi8>
  tt.print " m: " {hex = false, isSigned = array<i32: 1, 1>} : %b, %c : tensor<16x16xi32>, tensor<16xi8>
  tt.print " none" {hex = false, isSigned = array<i32>}
  tt.return
}

// -----

// CHECK-DAG: llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)
// CHECK-DAG: @[[MSG:tpx_simt_str_[0-9]+]]("x must be non-negative\00")
// CHECK-DAG: @[[FMT:tpx_simt_str_[0-9]+]]("device-side assertion failed in program (%d, %d, %d), element %lld: %s\0A\00")
// CHECK-DAG: @[[FILE:tpx_simt_str_[0-9]+]]("kernel.ttir\00")
// CHECK-DAG: @[[FN:tpx_simt_str_[0-9]+]]("tt.assert\00")
// CHECK-DAG: @[[MSG2:tpx_simt_str_[0-9]+]]("n must be positive\00")
// CHECK-LABEL: llvm.func @asserts
// CHECK: %[[M:.*]] = llvm.mlir.addressof @[[MSG]]
// CHECK: %[[F:.*]] = llvm.mlir.addressof @[[FMT]]
// CHECK: %[[FI:.*]] = llvm.mlir.addressof @[[FILE]]
// CHECK: %[[FU:.*]] = llvm.mlir.addressof @[[FN]]
// CHECK: scf.if %{{.*}} {
// CHECK: %[[FAILED:.*]] = llvm.xor %{{.*}}, %{{.*}} : i1
// CHECK: scf.if %[[FAILED]] {
// CHECK: llvm.call @vprintf(%[[F]], %{{.*}})
// CHECK: %[[LINE:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[CHAR:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.call @__assertfail(%[[M]], %[[FI]], %[[LINE]], %[[FU]], %[[CHAR]])
// The scalar: thread 0, element -1.
// CHECK: llvm.mlir.addressof @[[MSG2]]
// CHECK: llvm.mlir.constant(-1 : i64)
// CHECK: llvm.call @__assertfail
tt.func public @asserts(%p: !tt.ptr<i32>, %n: i32) {
  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %s = tt.splat %p : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
  %q = tt.addptr %s, %r : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
  %x = tt.load %q : tensor<256x!tt.ptr<i32>>
  %z = arith.constant dense<0> : tensor<256xi32>
  %ok = arith.cmpi sge, %x, %z : tensor<256xi32>
  tt.assert %ok, "x must be non-negative" : tensor<256xi1>
  %c0 = arith.constant 0 : i32
  %nok = arith.cmpi sgt, %n, %c0 : i32
  tt.assert %nok, "n must be positive" : i1
  tt.return
}
