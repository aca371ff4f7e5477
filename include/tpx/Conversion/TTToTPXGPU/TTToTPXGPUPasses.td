//===- TTToTPXGPUPasses.td - placing tt tensors in tpxgpu layouts ---------===//
#ifndef TPX_CONVERSION_TTTOTPXGPU_PASSES_TD
#define TPX_CONVERSION_TTTOTPXGPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTTToTPXGPU : Pass<"convert-tt-to-tpxgpu", "::mlir::ModuleOp"> {
  let summary = "Give every tensor of a TTIR module a distributed layout";
  let description = [{
    The first pass of the `ttgir` stage. Sets the module attributes
    `tpxgpu.num-warps`, `tpxgpu.threads-per-warp` and (given `target`)
    `tpxgpu.target`, gives every ranked
    tensor value a distributed layout (#tpxgpu.blocked by default, slices
    for reductions and expand_dims operands, nvidia_mma / dot_op around
    tt.dot) and inserts tpxgpu.convert_layout wherever an operand's layout
    differs from the one its user needs. Nothing is lowered. The rules are
    in docs/tpxgpu-dialect.md, section "convert-tt-to-tpxgpu".
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Warps per CTA (a power of two)">,
    Option<"threadsPerWarp", "threads-per-warp", "unsigned", /*default=*/"32",
           "Threads per warp (32 for NVIDIA, 64 for AMD CDNA)">,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The GPU compiled for (sm_90a, gfx950), recorded as the module's "
           "tpxgpu.target; the driver fills it in">
  ];
  let dependentDialects = ["::tpx::tpxgpu::TPXGPUDialect"];
}

def TPXGPURemoveLayoutConversions
    : Pass<"tpxgpu-remove-layout-conversions", "::mlir::ModuleOp"> {
  let summary = "Remove tpxgpu.convert_layout ops that recomputation or "
                "loop-carried layouts make unnecessary";
  let description = [{
    A layout conversion that moves data between threads goes through shared
    memory with two barriers. This pass removes the ones it can:
    - rematerialization: `convert_layout(x)` where `x` is computed only from
      constants, splats, make_range, expand_dims, broadcast and elementwise
      ops (no memory access) is replaced by recomputing `x` directly in the
      wanted layout; a conversion of a conversion becomes one conversion;
    - forward propagation: a conversion out of an MMA-based layout moves
      past the elementwise ops and reductions that use its result, so that
      they compute in that layout; it and rematerialization run in turns
      until neither changes anything (folding two conversions into one can
      free a conversion to move on: `max(m, max(s, 1) * scale)`);
    - loop-carried layouts: an scf.for argument that is only read through a
      conversion to layout L and whose yielded value is a conversion from L
      is carried in L (the MMA accumulator of a matmul loop), with one
      conversion before and after the loop instead of two per iteration;
      an argument whose yielded value is computed in an MMA-based layout
      (through a chain of conversions, or an elementwise op of one) is
      carried in that layout (attention's softmax statistics, a pipelined
      attention's P);
    - stores from the source layout (NVIDIA targets): a `local_store` of a
      conversion's result stores the conversion's source instead when that
      store is free of bank conflicts (tpxgpu::getSharedAccessCost), saving
      the round trip through scratch (an MMA accumulator into an
      NVMMA-swizzled buffer).
    Unused ops left behind are erased by the canonicalize that follows.
  }];
  let dependentDialects = ["::tpx::tpxgpu::TPXGPUDialect"];
}

def TPXGPUPrefetchLoads : Pass<"tpxgpu-prefetch-loads", "::mlir::ModuleOp"> {
  let summary = "Issue a loop's tensor loads one iteration ahead";
  let description = [{
    Software pipelining through registers: in an scf.for whose tensor
    loads depend only on the induction variable, loop-carried values that
    are advanced without memory access (pointer increments, masks) and
    loop invariants, the loads of iteration i+1 are issued at the top of
    iteration i and carried to it, and the loads of iteration 0 move before
    the loop. The loads then run while the rest of the iteration computes.
    Prefetched loads are predicated on the iteration existing, so nothing
    is read that the original loop would not read. Runs when `num-stages`
    is 2 or more; the NVIDIA `simt` pipeline runs it in the ttgir stage
    after tpxgpu-pipeline-async-copies, on the loads that pass left.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", /*default=*/"3",
           "Triton's num_stages: 1 disables prefetching">
  ];
}

def TPXGPULowerTensorDescriptors
    : Pass<"tpxgpu-lower-tensor-descriptors", "::mlir::ModuleOp"> {
  let summary = "Rewrite in-kernel tensor descriptors as pointer tensors";
  let description = [{
    A `tt.descriptor_load` / `tt.descriptor_store` through a descriptor
    that `tt.make_tensor_descriptor` builds in the kernel becomes the
    equivalent masked `tt.load` / `tt.store` of a pointer tensor:
    base + sum over d of (index[d] + range(block[d])) * stride[d], masked to
    0 <= index < shape in every dimension, padding with zero (or NaN for
    `padding = nan`). The layout passes and the SIMT code generator then
    treat it like any other access (vectorized along a unit stride). A
    descriptor that arrives another way (a kernel argument, a loop-carried
    value) is left for the one-thread path. Hopper's TMA engine is not used
    yet.
  }];
}

def TPXGPUDecomposeScaledDots
    : Pass<"tpxgpu-decompose-scaled-dots", "::mlir::ModuleOp"> {
  let summary = "Rewrite tt.dot_scaled as decoded, scaled bf16 operands of a tt.dot";
  let description = [{
    Hopper has no microscaled tensor-core instructions: each operand of a
    `tt.dot_scaled` is decoded to bf16 (e2m1 nibbles unpacked with
    and/shift, tt.join and tt.reshape and decoded in integer arithmetic;
    e4m3/e5m2 by `tt.fp_to_fp`; fp16 kept when both operands are unscaled
    fp16), multiplied by its e8m0 scales broadcast over their 32-element
    groups of K (2^(s-127), exact), and fed to an ordinary `tt.dot`, which
    the layout passes place and tpxgpu-use-wgmma runs on wgmma. fp6
    operands (e2m3, e3m2) are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TPXGPUUseTMA : Pass<"tpxgpu-use-tma", "::mlir::ModuleOp"> {
  let summary = "Move tensor-descriptor blocks with the copy engine (TMA)";
  let description = [{
    For each `tt.make_tensor_descriptor` that tpxgpu-lower-tensor-descriptors
    left (TensorMaps.h: made from the kernel's arguments, loaded and stored
    whole), the kernel gets a new last argument, a `!tt.tensordesc` of the
    TMA box carrying `tpxgpu.tensor_map` (how the launcher builds the map).
    A `tt.descriptor_load` becomes a TMA copy into an `nvmma_shared` buffer
    completed on an mbarrier (init, expect the block's bytes, one copy per
    box, wait, invalidate) and a `local_load` into the load's layout; a
    `tt.descriptor_store` becomes a `local_alloc` of the value, a proxy
    fence and a TMA store awaited before the buffer is released. The
    barriers these need are explicit `tpxgpu.barrier` ops. Runs right after
    convert-tt-to-tpxgpu.
  }];
  let dependentDialects = ["::tpx::tpxgpu::TPXGPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def TPXGPULowerBlockPointers
    : Pass<"tpxgpu-lower-block-pointers", "::mlir::ModuleOp"> {
  let summary = "Rewrite block pointers as offsets and pointer tensors";
  let description = [{
    A block pointer (`tt.make_tensor_ptr`) is carried as its i32 offsets:
    `tt.advance` adds to them, an scf.for that carries the pointer carries
    the offsets instead, and `tt.load` / `tt.store` through it become masked
    accesses of the pointer tensor base + sum over d of (offset[d] +
    range(block[d])) * stride[d], masked along the `boundaryCheck`
    dimensions and padded with zero (or NaN). A function where a block
    pointer is used any other way (a kernel argument, scf.if or scf.while,
    a call) is left for the one-thread path. The `order` attribute only
    describes memory order and does not change the addresses.
  }];
}

def TPXGPUUseWarpGroupDots
    : Pass<"tpxgpu-use-wgmma", "::mlir::ModuleOp"> {
  let summary = "Run tt.dot on Hopper's warp-group MMA (wgmma)";
  let description = [{
    Runs right after convert-tt-to-tpxgpu on sm_90 modules. A tt.dot
    becomes a `tpxgpu.warp_group_dot` with a version-3 accumulator when
    wgmma has a form for its types -- f16 x f16 or bf16 x bf16 into f32
    (which convert-tt-to-tpxgpu gave an mma.sync accumulator), f32 x f32
    into f32 with inputPrecision = tf32, any pair of e4m3/e5m2 into f32,
    i8 x i8 into i32 (FMA accumulators until then) -- and can run it: the
    module's warps a multiple of four (one warp group is four warps along
    M), M a multiple of 64, K of the instruction's K (32 bytes: 16, 8 or
    32 elements), and a warp group's share of N a multiple of 16. B, and
    A unless it is computed from another dot (attention's P), are copied
    into shared memory (`local_alloc`) in the `nvmma_shared` layout with
    the widest swizzle (128, 64 or 32 bytes) the tile's contiguous extent
    allows; B is K-major (transposed) for every type but f16/bf16, whose
    wgmma alone can transpose an operand. A computed A stays in registers
    in the `dot_op` layout of the accumulator. Warps go along M first
    (each warp group owns whole rows, so a chained dot's A is already in
    its registers), then along N; one instruction covers a warp group's
    whole share of N (up to 256). Other dots keep mma.sync or FMAs.
  }];
  let dependentDialects = ["::tpx::tpxgpu::TPXGPUDialect"];
}

def TPXGPUPipelineWarpGroupDots
    : Pass<"tpxgpu-pipeline-wgmma", "::mlir::ModuleOp"> {
  let summary = "Overlap a loop's warp-group dot with its next operands' stores";
  let description = [{
    For a synchronous `warp_group_dot` in an scf.for whose accumulator the
    loop carries (result yielded back into it) and whose B (and A, if
    staged) is a `local_alloc` in the body: the staging buffers become
    two-buffered mutable allocations before the loop, indexed by the
    iteration's parity (`memdesc_index` + `local_store`); the dot becomes
    `async` followed by `warp_group_dot_wait ... pendings = 1`, and a
    `pendings = 0` wait after the loop gives the result. Dot j then runs
    while iteration j+1 stores its operands. One dot per loop; nothing
    happens when `num-stages` is below 2.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", /*default=*/"3",
           "Triton's num_stages: below 2 leaves dots synchronous">
  ];
  let dependentDialects = ["::tpx::tpxgpu::TPXGPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def TPXGPUPipelineAsyncCopies
    : Pass<"tpxgpu-pipeline-async-copies", "::mlir::ModuleOp"> {
  let summary = "Feed a loop's warp-group dots with multi-buffered cp.async copies";
  let description = [{
    For an scf.for whose body loads a dot operand (`tt.load` without a
    non-zero `other`, its only user a `local_alloc` read only by
    synchronous `warp_group_dot`s of the body, copies of at least 4 bytes
    per `tpxgpu.contiguity`): with S = `num-stages` and D = S - 1, each such
    operand gets an S-buffer mutable `local_alloc` before the loop. The
    loads of iterations 0..D-1 become `async_copy_global_to_local` into
    buffers 0..D-1 before the loop, one `async_commit_group` per iteration;
    iteration i waits for its group (`async_wait num = D-1`) before the
    dot's fence and barrier, then copies iteration i+D's operands into
    buffer (i+D) mod S (which the barrier proves every thread has finished
    reading, in iteration i-1) and commits, and the dot reads buffer i mod
    S. The pointers and other loop values the copies need are carried D
    iterations ahead in new iter_args; masks gain `iteration < upper
    bound`, so copies past the end read nothing. After the loop,
    `async_wait num = 0` and a barrier retire the copies still in flight.
    With `async-dots`, a loop whose only dot accumulates into a value the
    loop carries keeps that dot in flight: it becomes `async`, followed by
    `warp_group_dot_wait ... pendings = 1` (dot i-1 retires), then a
    barrier (every warp group has retired it) before the copies, which
    then overwrite the buffer dot i-1 read; `pendings = 0` after the loop.
    Only a dot of at least `async-dots-min-k-steps` wgmma instructions
    along K per iteration stays in flight (default 4: on the H200 the
    128x256x64 matmuls gained 1-3.5% at 16 bits, 4 K steps, and lost 2-3%
    in e4m3, 2 K steps, session 19).
    Loops it cannot prove it may rewrite are left as they are (the
    register path, tpxgpu-prefetch-loads and tpxgpu-pipeline-wgmma, then
    applies). Nothing happens when `num-stages` is below 2.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", /*default=*/"3",
           "Triton's num_stages: shared buffers per pipelined operand">,
    Option<"asyncDots", "async-dots", "bool", /*default=*/"false",
           "Keep a loop's only dot in flight across iterations when the loop "
           "carries its accumulator (async, one wgmma group pending, a second "
           "barrier before the copies)">,
    Option<"asyncDotsOneBarrier", "async-dots-one-barrier", "bool",
           /*default=*/"false",
           "With async-dots and num-stages >= 3: copies run S-2 iterations "
           "ahead, right after the wait that retires dot i-1, so that the "
           "iteration keeps one barrier">,
    Option<"asyncDotsMinKSteps", "async-dots-min-k-steps", "unsigned",
           /*default=*/"4",
           "With async-dots: the fewest wgmma K steps (32 bytes of K each) "
           "a dot's iteration must have to stay in flight">
  ];
  let dependentDialects = ["::tpx::tpxgpu::TPXGPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def TPXGPUAllocateSharedMemory
    : Pass<"tpxgpu-allocate-shared-memory", "::mlir::ModuleOp"> {
  let summary = "Give every shared-memory buffer and scratch user its offset";
  let description = [{
    The last pass of the `ttgir` stage (SIMT modules only). Every
    `tpxgpu.local_alloc` gets `tpxgpu.shared-offset` (bytes into the
    kernel's dynamic shared memory); buffers whose live ranges (from the
    alloc to the last use of it or of any view of it, through scf control
    flow; a buffer used in a loop and defined outside is live through the
    whole loop) do not overlap share bytes. Ops whose lowering stages data
    in shared memory (shape ops that move data between threads, cross-warp
    reductions, scans, atomics) get a scratch offset live only at that op;
    layout conversions that need shared memory are local_allocs by then
    (tpxgpu-lower-layout-conversions). The module gets
    `tpxgpu.shared-bytes`, the high-water mark. The analysis is
    `tpx/Analysis/SharedMemoryAllocation.h`; `test-print-shared-allocation`
    prints its result.
  }];
  let dependentDialects = ["::tpx::tpxgpu::TPXGPUDialect"];
}

def TPXGPULowerLayoutConversions
    : Pass<"tpxgpu-lower-layout-conversions", "::mlir::ModuleOp"> {
  let summary = "Make layout conversions that need shared memory explicit "
                "local_alloc / local_load";
  let description = [{
    A `tpxgpu.convert_layout` whose layouts give threads different elements
    (tpxgpu::conversionNeedsSharedMemory) becomes
    `tpxgpu.barrier; %m = tpxgpu.local_alloc %x; tpxgpu.barrier;
    %y = tpxgpu.local_load %m` on a `#tpxgpu.padded_shared` buffer: row-major
    with 16 bytes of padding after every row, so that threads reading down
    a column hit different banks (ldmatrix reads mma.sync operands from it).
    The first barrier waits for earlier readers of the bytes the allocation
    may reuse; it is left out in a kernel when nothing before the
    conversion can have touched shared memory, or right after another
    barrier. The second makes the stores visible to the loads.

    In an scf.for whose body touches shared memory only through top-level
    conversions (a matmul's operand conversions), each conversion gets a
    two-buffer allocation before the loop and uses buffer
    ((iv - lb) / step) % 2 (memdesc_index, local_store, barrier,
    local_load): a buffer written in iteration j is next written in j + 2,
    and the conversion's barrier in j + 1 separates that from the reads in
    j, so the first barrier is not needed. One barrier before the loop
    separates it from earlier users.

    Conversions that rename registers stay. Pointer tensors go through
    shared memory as i64 (tt.ptr_to_int / tt.int_to_ptr). Runs at the end
    of the NVIDIA `simt` ttgir stage, before tpxgpu-allocate-shared-memory;
    convert-tpxgpu-to-nvvm rejects a convert_layout that still needs
    shared memory.
  }];
  let dependentDialects = ["::tpx::tpxgpu::TPXGPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def TPXGPUAnnotateContiguity
    : Pass<"tpxgpu-annotate-contiguity", "::mlir::ModuleOp"> {
  let summary = "Record how many elements one vector access may move";
  let description = [{
    Runs the AxisInfo analysis (`tpx/Analysis/AxisInfo.h`) and puts
    `tpxgpu.contiguity` (a dense i64 array, one entry per dimension) on
    every `tt.load`, `tt.store`, `tt.atomic_rmw`, `tt.atomic_cas` and
    `tpxgpu.async_copy_global_to_local` whose pointer is a tensor. Entry d is the largest power of two v such that,
    cut into runs of v elements along d starting at multiples of v, the
    pointers of every run are consecutive, its first address is a multiple
    of v times the pointee's bytes, and the mask (when there is one) is
    the same over the run. convert-tpxgpu-to-nvvm moves at most that many
    registers per instruction, so an access without the attribute moves
    one element per instruction. A pass that later changes such an op's
    pointer or mask must drop the attribute or run this pass again. It runs
    before tpxgpu-pipeline-async-copies (which reads the loads' widths) and
    again near the end of the NVIDIA ttgir stage.
  }];
}

def TPXGPUConvertToBufferOps
    : Pass<"tpxgpu-convert-to-buffer-ops", "::mlir::ModuleOp"> {
  let summary = "Turn AMD global loads and stores off one base pointer into "
                "buffer loads and stores";
  let description = [{
    A `tt.load` or `tt.store` whose pointer tensor is a scalar global
    pointer splatted and advanced by i32 offset tensors
    (`tt.addptr(tt.splat(%base), %offsets)`, possibly through further
    `tt.addptr`s, `tt.broadcast`, `tt.expand_dims` and
    `tpxgpu.convert_layout`) becomes a `tpxgpu.buffer_load` /
    `tpxgpu.buffer_store` of `%base` at the summed offsets, when MLIR's
    integer range analysis proves every element's bytes lie in
    [0, 0x7FFFFFFE) from `%base`. The analysis is given the ranges of tt's
    index ops (make_range, get_program_id, get_num_programs, and the shape
    ops, which keep their operand's values). Anything else stays as it is.
    The op keeps the access's `tpxgpu.contiguity`, so the pass runs after
    the last tpxgpu-annotate-contiguity. For AMD (CDNA) only.
  }];
  let dependentDialects = ["::tpx::tpxgpu::TPXGPUDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // TPX_CONVERSION_TTTOTPXGPU_PASSES_TD
