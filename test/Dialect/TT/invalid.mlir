// RUN: tpx-opt %s -split-input-file -verify-diagnostics

// Each case is malformed TTIR; the diagnostic must say what is wrong.
// invalid-exit-codes.test runs every case through a plain tpx-opt as well.

//===----------------------------------------------------------------------===//
// Types and argument attributes
//===----------------------------------------------------------------------===//

// expected-error @+1 {{pointee must be an integer, float, pointer or tensor type, got 'none'}}
tt.func @bad_pointee(%p: !tt.ptr<none>) {
  tt.return
}

// -----

// expected-error @+1 {{pointer address space must be non-negative, got -1}}
tt.func @negative_address_space(%p: !tt.ptr<f32, -1>) {
  tt.return
}

// -----

// expected-error @+1 {{block pointer must point to a statically shaped tensor}}
tt.func @dynamic_block_pointer(%p: !tt.ptr<tensor<?x16xf32>>) {
  tt.return
}

// -----

// expected-error @+1 {{block pointer cannot point to a tensor of pointers}}
tt.func @block_of_pointers(%p: !tt.ptr<tensor<16x!tt.ptr<f32>>>) {
  tt.return
}

// -----

// expected-error @+1 {{tensor descriptor block element must be an integer or float, got '!tt.ptr<f32>'}}
tt.func @descriptor_of_pointers(%d: !tt.tensordesc<tensor<16x!tt.ptr<f32>>>) {
  tt.return
}

// -----

// expected-error @+1 {{tensor descriptor block must have rank >= 1}}
tt.func @descriptor_rank_zero(%d: !tt.tensordesc<tensor<f32>>) {
  tt.return
}

// -----

// expected-error @+1 {{expected static shape}}
tt.func @descriptor_dynamic(%d: !tt.tensordesc<tensor<?x16xf16>>) {
  tt.return
}

// -----

// expected-error @+1 {{argument 0 attribute 'tt.divisibility' must be a positive integer}}
tt.func public @divisibility_zero(%p: !tt.ptr<f32> {tt.divisibility = 0 : i32}) {
  tt.return
}

// -----

// expected-error @+1 {{argument 1 attribute 'tt.divisibility' must be a positive integer}}
tt.func public @divisibility_not_integer(%p: !tt.ptr<f32>, %n: i32 {tt.divisibility = "16"}) {
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Functions and calls
//===----------------------------------------------------------------------===//

tt.func @unknown_callee(%x: f32) {
  // expected-error @+1 {{'tt.call' op 'missing' does not reference a tt.func in this module}}
  %0 = tt.call @missing(%x) : (f32) -> f32
  tt.return
}

// -----

tt.func private @takes_f32(%x: f32) -> f32 {
  tt.return %x : f32
}
tt.func @call_wrong_type(%x: i32) {
  // expected-error @+1 {{'tt.call' op operand 0 has type 'i32' but 'takes_f32' expects 'f32'}}
  %0 = tt.call @takes_f32(%x) : (i32) -> f32
  tt.return
}

// -----

tt.func private @takes_f32(%x: f32) -> f32 {
  tt.return %x : f32
}
tt.func @call_wrong_arity(%x: f32) {
  // expected-error @+1 {{'tt.call' op calls 'takes_f32' with 2 operands but it takes 1}}
  %0 = tt.call @takes_f32(%x, %x) : (f32, f32) -> f32
  tt.return
}

// -----

tt.func private @takes_f32(%x: f32) -> f32 {
  tt.return %x : f32
}
tt.func @call_wrong_results(%x: f32) {
  // expected-error @+1 {{'tt.call' op expects 0 results but 'takes_f32' returns 1}}
  tt.call @takes_f32(%x) : (f32) -> ()
  tt.return
}

// -----

tt.func @return_wrong_count(%x: f32) -> f32 {
  // expected-error @+1 {{'tt.return' op returns 0 values but 'return_wrong_count' declares 1 results}}
  tt.return
}

// -----

tt.func @return_wrong_type(%x: i32) -> f32 {
  // expected-error @+1 {{'tt.return' op value 0 has type 'i32' but 'return_wrong_type' declares result type 'f32'}}
  tt.return %x : i32
}

// -----

//===----------------------------------------------------------------------===//
// Program grid and tensor creation
//===----------------------------------------------------------------------===//

tt.func @bad_grid_axis() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'axis' [x, y, z]}}
  %0 = tt.get_program_id w : i32
  tt.return
}

// -----

tt.func @range_empty() {
  // expected-error @+1 {{'tt.make_range' op start (8) must be less than end (8)}}
  %0 = tt.make_range {end = 8 : i32, start = 8 : i32} : tensor<0xi32>
  tt.return
}

// -----

tt.func @range_wrong_size() {
  // expected-error @+1 {{'tt.make_range' op result has 32 elements but the range [0, 16) has 16}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<32xi32>
  tt.return
}

// -----

tt.func @range_wrong_element() {
  // expected-error @+1 {{'tt.make_range' op result element type must be i32, got 'i64'}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi64>
  tt.return
}

// -----

tt.func @splat_of_tensor(%t: tensor<4xf32>) {
  // expected-error @+1 {{'tt.splat' op source must be a scalar, got 'tensor<4xf32>'}}
  %0 = tt.splat %t : tensor<4xf32> -> tensor<4x4xf32>
  tt.return
}

// -----

tt.func @splat_element_mismatch(%x: f32) {
  // expected-error @+1 {{'tt.splat' op result element type 'f16' differs from the source type 'f32'}}
  %0 = tt.splat %x : f32 -> tensor<4xf16>
  tt.return
}

// -----

tt.func @unsplat_many(%t: tensor<2xf32>) {
  // expected-error @+1 {{'tt.unsplat' op source must hold exactly one element, got 'tensor<2xf32>'}}
  %0 = tt.unsplat %t : tensor<2xf32>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

tt.func @broadcast_non_unit(%t: tensor<2x8xf32>) {
  // expected-error @+1 {{'tt.broadcast' op dimension 0 of size 2 cannot broadcast to 4 (only size-1 dimensions broadcast)}}
  %0 = tt.broadcast %t : tensor<2x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @broadcast_rank(%t: tensor<8xf32>) {
  // expected-error @+1 {{'tt.broadcast' op source rank 1 differs from result rank 2}}
  %0 = tt.broadcast %t : tensor<8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @expand_dims_axis(%t: tensor<8xf32>) {
  // expected-error @+1 {{'tt.expand_dims' op axis 2 is out of range [0, 1]}}
  %0 = tt.expand_dims %t {axis = 2 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  tt.return
}

// -----

tt.func @expand_dims_result(%t: tensor<8xf32>) {
  // expected-error @+1 {{'tt.expand_dims' op result type 'tensor<8x1xf32>' does not match the source with a size-1 dimension inserted at axis 0}}
  %0 = tt.expand_dims %t {axis = 0 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  tt.return
}

// -----

tt.func @reshape_count(%t: tensor<8x4xf32>) {
  // expected-error @+1 {{'tt.reshape' op source has 32 elements but the result has 64}}
  %0 = tt.reshape %t : tensor<8x4xf32> -> tensor<64xf32>
  tt.return
}

// -----

tt.func @reshape_element(%t: tensor<8x4xf32>) {
  // expected-error @+1 {{'tt.reshape' op element type changes from 'f32' to 'i32'}}
  %0 = tt.reshape %t : tensor<8x4xf32> -> tensor<32xi32>
  tt.return
}

// -----

tt.func @trans_not_permutation(%t: tensor<8x4xf32>) {
  // expected-error @+1 {{'tt.trans' op order must be a permutation of [0, 2)}}
  %0 = tt.trans %t {order = array<i32: 1, 1>} : tensor<8x4xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @trans_result(%t: tensor<8x4xf32>) {
  // expected-error @+1 {{'tt.trans' op result dimension 0 is 8 but source dimension 1 is 4}}
  %0 = tt.trans %t {order = array<i32: 1, 0>} : tensor<8x4xf32> -> tensor<8x4xf32>
  tt.return
}

// -----

// expected-note @+1 {{prior use here}}
tt.func @cat_mismatched(%a: tensor<8xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{use of value '%b' expects different type than prior uses: 'tensor<8xf32>' vs 'tensor<4xf32>'}}
  %0 = tt.cat %a, %b : tensor<8xf32> -> tensor<12xf32>
  tt.return
}

// -----

tt.func @cat_count(%a: tensor<8xf32>) {
  // expected-error @+1 {{'tt.cat' op result has 32 elements but the operands hold 16}}
  %0 = tt.cat %a, %a : tensor<8xf32> -> tensor<32xf32>
  tt.return
}

// -----

tt.func @join_result(%a: tensor<8xf32>) {
  // expected-error @+1 {{'tt.join' op result 'tensor<2x8xf32>' must be the operand shape with a new minor dimension of size 2}}
  %0 = tt.join %a, %a : tensor<8xf32> -> tensor<2x8xf32>
  tt.return
}

// -----

tt.func @split_not_two(%a: tensor<8x4xf32>) {
  // expected-error @+1 {{'tt.split' op source's last dimension must have size 2, got 'tensor<8x4xf32>'}}
  %0, %1 = tt.split %a : tensor<8x4xf32> -> tensor<8xf32>
  tt.return
}

// -----

tt.func @gather_rank(%src: tensor<8x4xf32>, %idx: tensor<8xi32>) {
  // expected-error @+1 {{'tt.gather' op source rank 2 differs from indices rank 1}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<8x4xf32>, tensor<8xi32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @gather_axis(%src: tensor<8x4xf32>, %idx: tensor<8x4xi32>) {
  // expected-error @+1 {{'tt.gather' op axis 2 is out of range [0, 2)}}
  %0 = tt.gather %src[%idx] {axis = 2 : i32} : (tensor<8x4xf32>, tensor<8x4xi32>) -> tensor<8x4xf32>
  tt.return
}

// -----

tt.func @histogram_2d(%src: tensor<8x4xi32>) {
  // expected-error @+1 {{'tt.histogram' op source and result must be 1-D tensors}}
  %0 = tt.histogram %src : tensor<8x4xi32> -> tensor<16xi32>
  tt.return
}

// -----

tt.func @histogram_float(%src: tensor<8xf32>) {
  // expected-error @+1 {{'src' must be ranked tensor of signless integer values, but got 'tensor<8xf32>'}}
  %0 = tt.histogram %src : tensor<8xf32> -> tensor<16xi32>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Casts and arithmetic
//===----------------------------------------------------------------------===//

tt.func @int_to_ptr_i32(%x: i32) {
  // expected-error @+1 {{'tt.int_to_ptr' op operand #0 must be 64-bit signless integer or ranked tensor of 64-bit signless integer values, but got 'i32'}}
  %0 = tt.int_to_ptr %x : i32 -> !tt.ptr<f32>
  tt.return
}

// -----

tt.func @ptr_to_int_shape(%p: tensor<4x!tt.ptr<f32>>) {
  // expected-error @+1 {{'tt.ptr_to_int' op operand #0 ('tensor<4x!tt.ptr<f32>>') and result #0 ('tensor<8xi64>') must have the same shape}}
  %0 = tt.ptr_to_int %p : tensor<4x!tt.ptr<f32>> -> tensor<8xi64>
  tt.return
}

// -----

tt.func @bitcast_width(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tt.bitcast' op source element 'f32' (32 bits) and result element 'i16' (16 bits) differ in width}}
  %0 = tt.bitcast %x : tensor<4xf32> -> tensor<4xi16>
  tt.return
}

// -----

tt.func @fp_to_fp_no_rounding(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tt.fp_to_fp' op narrowing 'f32' to 'f8E4M3FN' needs a rounding mode}}
  %0 = tt.fp_to_fp %x : tensor<4xf32> -> tensor<4xf8E4M3FN>
  tt.return
}

// -----

tt.func @fp_to_fp_bad_rounding(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'rounding' [rtz, rtne]}}
  %0 = tt.fp_to_fp %x, rounding = rtp : tensor<4xf32> -> tensor<4xf16>
  tt.return
}

// -----

tt.func @fp_to_fp_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'tt.fp_to_fp' op operand #0 must be floating-point or ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = tt.fp_to_fp %x : tensor<4xi32> -> tensor<4xf16>
  tt.return
}

// -----

tt.func @clampf_bad_nan(%x: f32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'propagateNan' [none, all]}}
  %0 = tt.clampf %x, %x, %x, propagateNan = some : f32
  tt.return
}

// -----

tt.func @mulhiui_float(%x: f32) {
  // expected-error @+1 {{'tt.mulhiui' op operand #0 must be signless integer or ranked tensor of signless integer values, but got 'f32'}}
  %0 = tt.mulhiui %x, %x : f32
  tt.return
}

// -----

tt.func @extern_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tt.extern_elementwise' op operand #0 ('tensor<4xf32>') and result #0 ('tensor<8xf32>') must have the same shape}}
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<4xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @inline_asm_pack(%x: tensor<4xi32>) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op packed_element must be at least 1, got 0}}
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 0 : i32, pure = true} %x : tensor<4xi32> -> tensor<4xi32>
  tt.return
}

// -----

tt.func @inline_asm_pack_divides(%x: tensor<6xi32>) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op tensor of 6 elements is not a multiple of packed_element 4}}
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %x : tensor<6xi32> -> tensor<6xi32>
  tt.return
}

// -----

// LLVM would end the process on a reference past the operands.
tt.func @inline_asm_operand_out_of_range(%x: tensor<4xi32>) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op assembly refers to operand $5, but it has 2 operands ($0 to $1: the results, then the arguments)}}
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $5;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<4xi32> -> tensor<4xi32>
  tt.return
}

// -----

tt.func @inline_asm_braced_operand(%x: i32) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op assembly refers to operand $2, but it has 2 operands}}
  %0 = tt.elementwise_inline_asm "mov.b32 ${0}, ${2:x};" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : i32 -> i32
  tt.return
}

// -----

// With packed_element > 1 every element of a 32-bit type is an operand of
// its own; narrower types share 32-bit registers.
tt.func @inline_asm_packed_constraint_count(%x: tensor<8xi32>) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op constraints "=r,r" describe 2 operands, but the op has 1 result and 1 argument, which take 8 assembly operands with packed_element = 4}}
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %x : tensor<8xi32> -> tensor<8xi32>
  tt.return
}

// -----

tt.func @inline_asm_constraint_count(%x: i32) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op constraints "=r,r,r" describe 3 operands, but the op has 1 result and 1 argument}}
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r,r", packed_element = 1 : i32, pure = true} %x : i32 -> i32
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Pointers, loads and stores
//===----------------------------------------------------------------------===//

tt.func @addptr_shape(%p: tensor<8x!tt.ptr<f32>>, %o: tensor<4xi32>) {
  // expected-error @+1 {{'tt.addptr' op operand #1 ('tensor<4xi32>') and result #0 ('tensor<8x!tt.ptr<f32>>') must have the same shape}}
  %0 = tt.addptr %p, %o : tensor<8x!tt.ptr<f32>>, tensor<4xi32>
  tt.return
}

// -----

tt.func @addptr_float_offset(%p: !tt.ptr<f32>, %o: f32) {
  // expected-error @+1 {{'tt.addptr' op operand #1 must be signless integer or ranked tensor of signless integer values, but got 'f32'}}
  %0 = tt.addptr %p, %o : !tt.ptr<f32>, f32
  tt.return
}

// -----

// expected-note @+1 {{prior use here}}
tt.func @load_mask_shape(%p: tensor<8x!tt.ptr<f32>>, %m: tensor<4xi1>) {
  // expected-error @+1 {{use of value '%m' expects different type than prior uses: 'tensor<8xi1>' vs 'tensor<4xi1>'}}
  %0 = tt.load %p, %m : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @load_other_without_mask(%p: tensor<8x!tt.ptr<f32>>, %o: tensor<8xf32>) {
  // expected-error @+1 {{'tt.load' op 'other' needs a mask}}
  %0 = "tt.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<8x!tt.ptr<f32>>, tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @load_result_type(%p: tensor<8x!tt.ptr<f32>>) {
  // expected-error @+1 {{'tt.load' op result type 'tensor<8xf16>' must be 'tensor<8xf32>', what 'tensor<8x!tt.ptr<f32>>' points to}}
  %0 = "tt.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<8x!tt.ptr<f32>>) -> tensor<8xf16>
  tt.return
}

// -----

tt.func @load_bad_cache(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'cache' [none, ca, cg, wb, cs, wt, cv]}}
  %0 = tt.load %p cacheModifier = lu : !tt.ptr<f32>
  tt.return
}

// -----

tt.func @load_bad_eviction(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'evict' [evict_normal, evict_first, evict_last]}}
  %0 = tt.load %p evictionPolicy = evict_never : !tt.ptr<f32>
  tt.return
}

// -----

tt.func @boundary_check_on_plain_pointer(%p: tensor<8x!tt.ptr<f32>>) {
  // expected-error @+1 {{'tt.load' op boundaryCheck applies only to block pointers (!tt.ptr<tensor<..>>)}}
  %0 = tt.load %p {boundaryCheck = array<i32: 0>} : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @padding_on_plain_pointer(%p: tensor<8x!tt.ptr<f32>>) {
  // expected-error @+1 {{'tt.load' op padding applies only to block pointers}}
  %0 = tt.load %p {padding = 1 : i32} : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @bad_padding_value(%p: !tt.ptr<tensor<8xf32>>) {
  // expected-error @+1 {{'tt.load' op attribute 'padding' failed to satisfy constraint: padding option: 1 (zero), 2 (nan)}}
  %0 = tt.load %p {padding = 3 : i32} : !tt.ptr<tensor<8xf32>>
  tt.return
}

// -----

tt.func @block_pointer_with_mask(%p: !tt.ptr<tensor<8xf32>>, %m: i1) {
  // expected-error @+1 {{'tt.load' op a block pointer access takes boundaryCheck, not a mask}}
  %0 = tt.load %p, %m : !tt.ptr<tensor<8xf32>>
  tt.return
}

// -----

tt.func @boundary_check_out_of_range(%p: !tt.ptr<tensor<8x8xf32>>, %v: tensor<8x8xf32>) {
  // expected-error @+1 {{'tt.store' op boundaryCheck dimension 2 is out of range for a rank-2 block}}
  tt.store %p, %v {boundaryCheck = array<i32: 2>} : !tt.ptr<tensor<8x8xf32>>
  tt.return
}

// -----

// expected-note @+1 {{prior use here}}
tt.func @store_value_type(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf16>) {
  // expected-error @+1 {{use of value '%v' expects different type than prior uses: 'tensor<8xf32>' vs 'tensor<8xf16>'}}
  tt.store %p, %v : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

tt.func @rmw_bad_op(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'atomic_rmw_op' [and, or, xor, add, fadd, max, min, umax, umin, exch]}}
  %0 = tt.atomic_rmw sub, relaxed, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
  tt.return
}

// -----

tt.func @rmw_bad_semantic(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'sem' [relaxed, acquire, release, acq_rel]}}
  %0 = tt.atomic_rmw add, seq_cst, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
  tt.return
}

// -----

tt.func @rmw_bad_scope(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'scope' [gpu, cta, sys]}}
  %0 = tt.atomic_rmw add, relaxed, cluster, %p, %v : (!tt.ptr<i32>, i32) -> i32
  tt.return
}

// -----

tt.func @rmw_fadd_int(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'tt.atomic_rmw' op fadd needs floating-point values, got 'i32'}}
  %0 = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
  tt.return
}

// -----

tt.func @rmw_umax_float(%p: !tt.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tt.atomic_rmw' op umax needs integer values, got 'f32'}}
  %0 = tt.atomic_rmw umax, relaxed, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
  tt.return
}

// -----

tt.func @rmw_value_type(%p: !tt.ptr<f32>, %v: f16) {
  // expected-error @+1 {{'tt.atomic_rmw' op value type 'f16' must be 'f32', what '!tt.ptr<f32>' points to}}
  %0 = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (!tt.ptr<f32>, f16) -> f16
  tt.return
}

// -----

tt.func @rmw_mask_shape(%p: tensor<8x!tt.ptr<i32>>, %v: tensor<8xi32>, %m: tensor<4xi1>) {
  // expected-error @+1 {{'tt.atomic_rmw' op mask type 'tensor<4xi1>' must be 'tensor<8xi1>' (i1 shaped like the pointers)}}
  %0 = tt.atomic_rmw add, relaxed, gpu, %p, %v, %m : (tensor<8x!tt.ptr<i32>>, tensor<8xi32>, tensor<4xi1>) -> tensor<8xi32>
  tt.return
}

// -----

tt.func @cas_type(%p: !tt.ptr<i64>, %c: i32, %v: i64) {
  // expected-error @+1 {{'tt.atomic_cas' op cmp and val must both be 'i64', what '!tt.ptr<i64>' points to}}
  %0 = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (!tt.ptr<i64>, i32, i64) -> i64
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Block pointers and tensor descriptors
//===----------------------------------------------------------------------===//

tt.func @tensor_ptr_count(%p: !tt.ptr<f16>, %s: i64, %o: i32) {
  // expected-error @+1 {{'tt.make_tensor_ptr' op needs 2 shape, stride and offset values for a rank-2 block, got 1}}
  %0 = tt.make_tensor_ptr %p, [%s], [%s], [%o] {order = array<i32: 0>} : <tensor<16x16xf16>>
  tt.return
}

// -----

tt.func @tensor_ptr_order(%p: !tt.ptr<f16>, %s: i64, %o: i32) {
  // expected-error @+1 {{'tt.make_tensor_ptr' op order must be a permutation of [0, 2)}}
  %0 = tt.make_tensor_ptr %p, [%s, %s], [%s, %s], [%o, %o] {order = array<i32: 0, 2>} : <tensor<16x16xf16>>
  tt.return
}

// -----

// expected-note @+1 {{prior use here}}
tt.func @tensor_ptr_base(%p: !tt.ptr<f32>, %s: i64, %o: i32) {
  // expected-error @+1 {{use of value '%p' expects different type than prior uses: '!tt.ptr<f16>' vs '!tt.ptr<f32>'}}
  %0 = tt.make_tensor_ptr %p, [%s], [%s], [%o] {order = array<i32: 0>} : <tensor<16xf16>>
  tt.return
}

// -----

// expected-note @+1 {{prior use here}}
tt.func @tensor_ptr_shape_i32(%p: !tt.ptr<f16>, %s: i32, %t: i64, %o: i32) {
  // expected-error @+1 {{use of value '%s' expects different type than prior uses: 'i64' vs 'i32'}}
  %0 = tt.make_tensor_ptr %p, [%s], [%t], [%o] {order = array<i32: 0>} : <tensor<16xf16>>
  tt.return
}

// -----

tt.func @advance_count(%p: !tt.ptr<tensor<16x16xf16>>, %o: i32) {
  // expected-error @+1 {{'tt.advance' op needs 2 offsets for a rank-2 block, got 1}}
  %0 = tt.advance %p, [%o] : <tensor<16x16xf16>>
  tt.return
}

// -----

tt.func @advance_scalar_pointer(%p: !tt.ptr<f16>, %o: i32) {
  // expected-error @+1 {{'tt.advance' op operand #0 must be block pointer (pointer to a tensor), but got '!tt.ptr<f16>'}}
  %0 = tt.advance %p, [%o] : <f16>
  tt.return
}

// -----

tt.func @descriptor_rank(%p: !tt.ptr<f16>, %s: i32, %t: i64) {
  // expected-error @+1 {{'tt.make_tensor_descriptor' op needs 2 shape and stride values for a rank-2 block, got 1}}
  %0 = tt.make_tensor_descriptor %p, [%s], [%t] : <f16>, <tensor<16x16xf16>>
  tt.return
}

// -----

tt.func @descriptor_base(%p: !tt.ptr<f32>, %s: i32, %t: i64) {
  // expected-error @+1 {{'tt.make_tensor_descriptor' op base points to 'f32' but the block holds 'f16'}}
  %0 = tt.make_tensor_descriptor %p, [%s], [%t] : <f32>, <tensor<16xf16>>
  tt.return
}

// -----

tt.func @descriptor_too_many_dims(%p: !tt.ptr<f16>, %s: i32, %t: i64) {
  // expected-error @+1 {{'tt.make_tensor_descriptor' op descriptor rank must be at most 5, got 6}}
  %0 = tt.make_tensor_descriptor %p, [%s, %s, %s, %s, %s, %s], [%t, %t, %t, %t, %t, %t] : <f16>, <tensor<1x1x1x1x2x8xf16>>
  tt.return
}

// -----

tt.func @descriptor_load_indices(%d: !tt.tensordesc<tensor<16x16xf16>>, %i: i32) {
  // expected-error @+1 {{'tt.descriptor_load' op needs 2 indices for a rank-2 descriptor, got 1}}
  %0 = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<16x16xf16>> -> tensor<16x16xf16>
  tt.return
}

// -----

tt.func @descriptor_load_result(%d: !tt.tensordesc<tensor<16x16xf16>>, %i: i32) {
  // expected-error @+1 {{'tt.descriptor_load' op result type 'tensor<16x16xf32>' does not match the descriptor block 'tensor<16x16xf16>'}}
  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<16x16xf16>> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @descriptor_store_source(%d: !tt.tensordesc<tensor<16x16xf16>>, %i: i32, %v: tensor<8x16xf16>) {
  // expected-error @+1 {{'tt.descriptor_store' op source type 'tensor<8x16xf16>' does not match the descriptor block 'tensor<16x16xf16>'}}
  tt.descriptor_store %d[%i, %i], %v : !tt.tensordesc<tensor<16x16xf16>>, tensor<8x16xf16>
  tt.return
}

// -----

tt.func @descriptor_reduce_kind(%d: !tt.tensordesc<tensor<16xi32>>, %i: i32, %v: tensor<16xi32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [add, min, max, inc, dec, and, or, xor]}}
  tt.descriptor_reduce mul, %d[%i], %v : !tt.tensordesc<tensor<16xi32>>, tensor<16xi32>
  tt.return
}

// -----

tt.func @descriptor_gather_block(%d: !tt.tensordesc<tensor<2x64xf16>>, %x: tensor<8xi32>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op descriptor block must be 1xN, got 'tensor<2x64xf16>'}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<2x64xf16>>, tensor<8xi32>, i32) -> tensor<8x64xf16>
  tt.return
}

// -----

tt.func @descriptor_gather_result(%d: !tt.tensordesc<tensor<1x64xf16>>, %x: tensor<8xi32>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op tensor 'tensor<4x64xf16>' must be 'tensor<8x64xf16>' (one row of the block per x offset)}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<8xi32>, i32) -> tensor<4x64xf16>
  tt.return
}

// -----

tt.func @descriptor_scatter_i16_offsets(%d: !tt.tensordesc<tensor<1x64xf16>>, %x: tensor<8xi16>, %y: i32, %v: tensor<8x64xf16>) {
  // expected-error @+1 {{'tt.descriptor_scatter' op operand #1 must be ranked tensor of 32-bit signless integer values, but got 'tensor<8xi16>'}}
  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<1x64xf16>>, tensor<8xi16>, i32, tensor<8x64xf16>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

tt.func @dot_k_mismatch(%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.dot' op reduction dimensions differ: a is 'tensor<16x32xf16>' and b is 'tensor<16x16xf16>'}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_result_shape(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.dot' op result 'tensor<16x16xf32>' must be 16x8 (a's rows by b's columns)}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_mixed(%a: tensor<16x16xf16>, %b: tensor<16x16xi8>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.dot' op operands must both be floating point or both integer, got 'f16' and 'i8'}}
  %0 = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xi8> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_rank_one(%a: tensor<16xf16>, %c: tensor<16xf32>) {
  // expected-error @+1 {{'tt.dot' op operands must be 2-D (or batched 3-D), got rank 1}}
  %0 = tt.dot %a, %a, %c : tensor<16xf16> * tensor<16xf16> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @dot_bad_precision(%a: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'inputPrecision' [tf32, tf32x3, ieee, bf16x3, bf16x6]}}
  %0 = tt.dot %a, %a, %c, inputPrecision = fp64 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_scaled_bad_format(%a: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'a_elem_type' [e4m3, e5m2, e2m3, e3m2, e2m1, bf16, fp16]}}
  %0 = tt.dot_scaled %a, %a, %c lhs = e8m0 rhs = bf16 {fastMath = false} : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_scaled_rank(%a: tensor<2x16x16xbf16>, %c: tensor<2x16x16xf32>) {
  // expected-error @+1 {{'tt.dot_scaled' op operands must be 2-D}}
  %0 = tt.dot_scaled %a, %a, %c lhs = bf16 rhs = bf16 {fastMath = false} : tensor<2x16x16xbf16> * tensor<2x16x16xbf16> -> tensor<2x16x16xf32>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Ops with combine regions
//===----------------------------------------------------------------------===//

tt.func @reduce_region_arity(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.reduce' op combine region must take 2 arguments (two per source), got 3}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32, %c: f32):
    tt.reduce.return %a : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_region_type(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.reduce' op combine region argument 1 must be 'f32', got 'f16'}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f16):
    tt.reduce.return %a : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_yield_count(%x: tensor<16xf32>, %i: tensor<16xi32>) {
  // expected-error @+1 {{'tt.reduce' op combine region must yield 2 values, got 1}}
  %0:2 = "tt.reduce"(%x, %i) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    tt.reduce.return %a : f32
  }) : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32)
  tt.return
}

// -----

tt.func @reduce_result(%x: tensor<16x8xf32>) {
  // expected-error @+1 {{'tt.reduce' op result type 'tensor<16xf32>' must be 'tensor<8xf32>' (the source reduced along axis 0)}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x8xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @reduce_axis(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.reduce' op axis 1 is out of range [0, 1)}}
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_sources_shape(%x: tensor<16xf32>, %i: tensor<8xi32>) {
  // expected-error @+1 {{'tt.reduce' op all sources must have the same shape}}
  %0:2 = "tt.reduce"(%x, %i) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    tt.reduce.return %a, %ai : f32, i32
  }) : (tensor<16xf32>, tensor<8xi32>) -> (f32, i32)
  tt.return
}

// -----

tt.func @reduce_two_blocks(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.reduce' op expects region #0 to have 0 or 1 blocks}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    cf.br ^bb1
  ^bb1:
    tt.reduce.return %a : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_return_outside(%x: f32) {
  // expected-error @+1 {{'tt.reduce.return' op expects parent op 'tt.reduce'}}
  tt.reduce.return %x : f32
}

// -----

tt.func @scan_result(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.scan' op result #0 must be variadic of ranked tensor of floating-point or signless integer or pointer to a scalar values, but got 'f32'}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    tt.scan.return %a : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @scan_yield_type(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tt.scan' op combine region yields 'i64' at position 0 but the source element type is 'i32'}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: i32, %b: i32):
    %w = arith.extsi %a : i32 to i64
    tt.scan.return %w : i64
  }) : (tensor<16xi32>) -> tensor<16xi32>
  tt.return
}

// -----

tt.func @map_args(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.map_elementwise' op scalar region must take 2 arguments (2 per source), got 1}}
  %0 = "tt.map_elementwise"(%x) <{pack = 2 : i32}> ({
  ^bb0(%a: f32):
    tt.map_elementwise.return %a, %a : f32, f32
  }) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @map_yields(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.map_elementwise' op scalar region must yield 1 values, got 2}}
  %0 = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%a: f32):
    tt.map_elementwise.return %a, %a : f32, f32
  }) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @map_shape(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.map_elementwise' op all sources and results must have the same shape}}
  %0 = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%a: f32):
    tt.map_elementwise.return %a : f32
  }) : (tensor<16xf32>) -> tensor<8xf32>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

tt.func @print_signedness(%x: i32, %y: i32) {
  // expected-error @+1 {{'tt.print' op isSigned has 1 entries but there are 2 arguments}}
  tt.print " xy: " {hex = false, isSigned = array<i32: 1>} : %x, %y : i32, i32
  tt.return
}

// -----

tt.func @assert_not_bool(%x: tensor<4xi32>) {
  // expected-error @+1 {{'tt.assert' op operand #0 must be 1-bit signless integer or ranked tensor of 1-bit signless integer values, but got 'tensor<4xi32>'}}
  tt.assert %x, "x" : tensor<4xi32>
  tt.return
}
