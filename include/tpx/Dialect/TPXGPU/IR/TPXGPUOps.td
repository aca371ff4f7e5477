//===- TPXGPUOps.td - tpxgpu operations -----------------------------------===//
//
// Semantic checks live in C++ verifiers (TPXGPUOps.cpp, TPXGPUAsyncOps.cpp)
// so that each diagnostic names the offending value in the user's terms.
// Memory effects are declared on two resources: tt's global memory and the
// CTA's shared memory; ops that order asynchronous work (commit, waits,
// barriers) read and write shared memory so that nothing is moved across
// them.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_DIALECT_TPXGPU_IR_TPXGPUOPS_TD
#define TPX_DIALECT_TPXGPU_IR_TPXGPUOPS_TD

include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.td"
include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.td"
include "tpx/Dialect/TPXGPU/IR/TPXGPUTypes.td"
include "tpx/Dialect/TT/IR/TTTypes.td"
include "tpx/Dialect/TT/IR/TTAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TPXGPU_SharedMemory : Resource<"::tpx::tpxgpu::SharedMemory">;
def TPXGPU_GlobalMemory : Resource<"::tpx::tt::GlobalMemory">;

// Checks every tensor operand and result against the module's warp size and
// warp count (see verifyLayoutsInContext).
def TPXGPU_LayoutsMatchModule : NativeOpTrait<"LayoutsMatchModule"> {
  let cppNamespace = "::tpx::tpxgpu";
}

// Lets the parser take the type of `to` from `from` (the format omits it);
// always true as a constraint, the C++ verifier checks it and says why.
class TPXGPU_TypeInferredFrom<string from, string to, string transform>
    : TypesMatchWith<"type of " # to # " follows from " # from, from, to,
                     transform, "true || std::equal_to<>()">;

class TPXGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TPXGPU_Dialect, mnemonic, !listconcat([TPXGPU_LayoutsMatchModule],
                                                traits)> {
  let hasVerifier = 1;
}

def TPXGPU_Tensor : RankedTensorOf<[TT_Float, TT_Int, TT_ScalarPtr]>;
def TPXGPU_PtrTensor : RankedTensorOf<[TT_ScalarPtr]>;

//===----------------------------------------------------------------------===//
// Layout conversion
//===----------------------------------------------------------------------===//

def TPXGPU_ConvertLayoutOp : TPXGPU_Op<"convert_layout", [Pure]> {
  let summary = "redistribute a tensor to another layout";
  let description = [{
    `%y = tpxgpu.convert_layout %x : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>`
    keeps shape and element type; only the encoding changes. Lowerings may
    go through scratch shared memory, which the op does not model. A
    conversion to the same type folds away.
  }];
  let arguments = (ins TPXGPU_Tensor:$src);
  let results = (outs TPXGPU_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Shared-memory allocation, views, loads and stores
//===----------------------------------------------------------------------===//

def TPXGPU_LocalAllocOp : TPXGPU_Op<"local_alloc", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "allocate a shared-memory buffer, optionally initialised";
  let description = [{
    `%m = tpxgpu.local_alloc : !tpxgpu.memdesc<3x64x64xf16, #s, mutable>`
    allocates an uninitialised (hence mutable) buffer;
    `%m = tpxgpu.local_alloc %t : tensor<64x64xf16, #b> -> !tpxgpu.memdesc<64x64xf16, #s>`
    allocates one holding `%t` (immutable unless marked `mutable`).
  }];
  let arguments = (ins Optional<TPXGPU_Tensor>:$src);
  let results = (outs TPXGPU_MemDescType:$result);
  let hasCustomAssemblyFormat = 1;
}

def TPXGPU_LocalDeallocOp : TPXGPU_Op<"local_dealloc", [
    MemoryEffects<[MemFree<TPXGPU_SharedMemory>]>]> {
  let summary = "free a buffer made by local_alloc";
  let arguments = (ins TPXGPU_MemDescType:$src);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src))";
}

def TPXGPU_MemDescIndexOp : TPXGPU_Op<"memdesc_index", [Pure]> {
  let summary = "select buffer `index` of a multi-buffered memdesc";
  let description = [{
    `%b = tpxgpu.memdesc_index %m[%i] : !tpxgpu.memdesc<3x64x64xf16, #s, mutable> -> !tpxgpu.memdesc<64x64xf16, #s, mutable, alloc_shape = 3x64x64>`
    drops the leading (buffer) dimension. The index is not range-checked at
    run time.
  }];
  let arguments = (ins TPXGPU_MemDescType:$src, I32:$index);
  let results = (outs TPXGPU_MemDescType:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->`
    qualified(type($result))
  }];
}

def TPXGPU_MemDescTransOp : TPXGPU_Op<"memdesc_trans", [Pure]> {
  let summary = "the same nvmma_shared bytes seen with the two tile dimensions swapped";
  let description = [{
    `%t = tpxgpu.memdesc_trans %m : !tpxgpu.memdesc<64x128xf16, #nvmma> -> !tpxgpu.memdesc<128x64xf16, #nvmma_t>`
    swaps the last two dimensions of the shape and of the alloc shape and
    flips the layout's `transposed` flag: element (i, j) of the result is
    element (j, i) of the source, at the same address (an nvmma_shared
    layout is defined by which dimension is contiguous). A K-contiguous
    buffer read as a wgmma B operand (attention's K^T) is such a view.
  }];
  let arguments = (ins TPXGPU_MemDescType:$src);
  let results = (outs TPXGPU_MemDescType:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TPXGPU_MemDescReinterpretOp : TPXGPU_Op<"memdesc_reinterpret", [Pure]> {
  let summary = "the same bytes seen as a memdesc of another shape, type or layout";
  let description = [{
    `%r = tpxgpu.memdesc_reinterpret %m : !tpxgpu.memdesc<2x64x64xf16, #a, mutable> -> !tpxgpu.memdesc<64x64xf32, #b, mutable>`
    starts at the source's first byte; the result is a whole view (its
    alloc shape is its shape) addressed by its own layout, and its bytes
    fit in the source's (TLX's `local_alloc(reuse=)` and
    `local_reinterpret`). What one view wrote reads back through the other
    as those bytes under the other's layout. The allocator sees the result
    as a view of the source's allocation, so the bytes stay live while
    either is.
  }];
  let arguments = (ins TPXGPU_MemDescType:$src);
  let results = (outs TPXGPU_MemDescType:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
}

def TPXGPU_MemDescSubviewOp : TPXGPU_Op<"memdesc_subview", [Pure]> {
  let summary = "a rectangular window of a memdesc at static or dynamic offsets";
  let description = [{
    `%w = tpxgpu.memdesc_subview %m[0, %k] : !tpxgpu.memdesc<64x64xf16, #s> -> !tpxgpu.memdesc<64x16xf16, #s, alloc_shape = 64x64>`
    keeps the rank; the result's shape is the window's size. Static offsets
    are checked to keep the window inside the source.
  }];
  let arguments = (ins TPXGPU_MemDescType:$src, Variadic<I32>:$offsets,
                       DenseI64ArrayAttr:$static_offsets);
  let results = (outs TPXGPU_MemDescType:$result);
  let assemblyFormat = [{
    $src custom<DynamicIndexList>($offsets, $static_offsets) attr-dict `:`
    qualified(type($src)) `->` qualified(type($result))
  }];
}

def TPXGPU_LocalLoadOp : TPXGPU_Op<"local_load", [
    MemoryEffects<[MemRead<TPXGPU_SharedMemory>]>]> {
  let summary = "read a shared-memory buffer into a distributed tensor";
  let description = [{
    `%t = tpxgpu.local_load %m token %w : !tpxgpu.memdesc<64x64xf16, #s> -> tensor<64x64xf16, #dot_a>`.
    The optional token (from `async_wait`) ties the read to the wait that
    made the data visible.
  }];
  let arguments = (ins TPXGPU_MemDescType:$src, Optional<TPXGPU_AsyncTokenType>:$token);
  let results = (outs TPXGPU_Tensor:$result);
  let assemblyFormat = [{
    $src (`token` $token^)? attr-dict `:` qualified(type($src)) `->`
    type($result)
  }];
}

def TPXGPU_LocalStoreOp : TPXGPU_Op<"local_store", [
    MemoryEffects<[MemWrite<TPXGPU_SharedMemory>]>]> {
  let summary = "write a distributed tensor into a mutable buffer";
  let arguments = (ins TPXGPU_Tensor:$src, TPXGPU_MemDescType:$dst);
  let assemblyFormat = [{
    $src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))
  }];
}

//===----------------------------------------------------------------------===//
// Asynchronous global -> shared copies (cp.async / buffer loads)
//===----------------------------------------------------------------------===//

def TPXGPU_AsyncCopyGlobalToLocalOp
    : TPXGPU_Op<"async_copy_global_to_local", [AttrSizedOperandSegments,
        TPXGPU_TypeInferredFrom<"src", "mask", "::tpx::tt::getI1SameShape($_self)">,
        TPXGPU_TypeInferredFrom<"src", "other", "::tpx::tt::getPointeeTypeOf($_self)">,
        MemoryEffects<[MemRead<TPXGPU_GlobalMemory>,
                       MemWrite<TPXGPU_SharedMemory>]>]> {
  let summary = "start copying through a tensor of pointers into shared memory";
  let description = [{
    `%tok = tpxgpu.async_copy_global_to_local %ptrs, %buf mask %m other %o : tensor<64x64x!tt.ptr<f16>, #b> -> !tpxgpu.memdesc<64x64xf16, #s, mutable>`.
    Masked-off elements are written as `other` (zero when absent). The copy
    completes only after a later `async_commit_group` and an `async_wait`
    that retires its group.
  }];
  let arguments = (ins TPXGPU_PtrTensor:$src, TPXGPU_MemDescType:$dst,
    Optional<RankedTensorOf<[I1]>>:$mask, Optional<TPXGPU_Tensor>:$other,
    DefaultValuedAttr<TT_CacheModifierAttr, "::tpx::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::tpx::tt::EvictionPolicy::NORMAL">:$evict,
    UnitAttr:$isVolatile);
  let results = (outs TPXGPU_AsyncTokenType:$token);
  let assemblyFormat = [{
    $src `,` $dst (`mask` $mask^)? (`other` $other^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($src) `->` qualified(type($dst))
  }];
}

def TPXGPU_AsyncCommitGroupOp : TPXGPU_Op<"async_commit_group", [
    MemoryEffects<[MemRead<TPXGPU_SharedMemory>,
                   MemWrite<TPXGPU_SharedMemory>]>]> {
  let summary = "close the group of async copies issued since the last commit";
  let description = [{
    `%g = tpxgpu.async_commit_group tokens %t0, %t1`. The tokens name the copies
    the group holds (for analyses); the hardware groups every copy this
    thread issued since the previous commit.
  }];
  let arguments = (ins Variadic<TPXGPU_AsyncTokenType>:$tokens);
  let results = (outs TPXGPU_AsyncTokenType:$groupToken);
  // The keyword keeps an empty group from reading the next line's result
  // name as an operand.
  let assemblyFormat = "(`tokens` $tokens^)? attr-dict";
  let hasVerifier = 0;
}

def TPXGPU_AsyncWaitOp : TPXGPU_Op<"async_wait", [
    MemoryEffects<[MemRead<TPXGPU_SharedMemory>,
                   MemWrite<TPXGPU_SharedMemory>]>]> {
  let summary = "wait until at most `num` committed groups are still in flight";
  let description = [{
    `%w = tpxgpu.async_wait %g0 num = 1`: groups retire in commit order, so
    with `num = N` every group but the N most recent is complete and its
    data visible to this thread (a CTA barrier is still needed before other
    threads read it).
  }];
  let arguments = (ins Variadic<TPXGPU_AsyncTokenType>:$asyncToken,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$num);
  let results = (outs TPXGPU_AsyncTokenType:$retToken);
  let assemblyFormat = "($asyncToken^)? `num` `=` $num attr-dict";
  let hasVerifier = 0;
}

//===----------------------------------------------------------------------===//
// AMD buffer loads and stores (CDNA MUBUF, addressed by 32-bit offsets)
//===----------------------------------------------------------------------===//

class TPXGPU_BufferOp<string mnemonic, list<Trait> traits = []>
    : TPXGPU_Op<mnemonic, traits> {
  code extraBufferDeclaration = [{
    /// The bytes of every element an op reaches must lie in
    /// [0, kMaxBytes): the lowering's buffer resource holds kMaxBytes
    /// records, so an offset the pass proved below it is in range and the
    /// lowering's masked-off offset (0x80000000) is not.
    static constexpr int64_t kMaxBytes = 0x7FFFFFFE;
  }];
}

def TPXGPU_BufferLoadOp : TPXGPU_BufferOp<"buffer_load", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TPXGPU_TypeInferredFrom<"result", "mask", "::tpx::tt::getI1SameShape($_self)">,
    TPXGPU_TypeInferredFrom<"result", "other", "$_self">]> {
  let summary = "load a tensor at i32 element offsets from one scalar base pointer";
  let description = [{
    `%v = tpxgpu.buffer_load %base[%offsets] mask %m other %o : !tt.ptr<f32>, tensor<256xi32, #b> -> tensor<256xf32, #b>`
    reads element `i` at `%base + %offsets[i]` (in elements of the pointee)
    where `%m[i]` holds, and is `%o[i]` (zero without `other`) elsewhere.
    `%base` is one global pointer for the whole tensor (kept in scalar
    registers); the offsets have the result's shape and layout. Every
    element read lies, in bytes from `%base`, in [0, 0x7FFFFFFE)
    (tpxgpu-convert-to-buffer-ops proves it); behaviour is undefined
    otherwise. AMD only: a CDNA buffer load whose masked-off lanes read out
    of the buffer's range, which returns zero without a branch.
    The op may carry `tpxgpu.contiguity` (of `%base + %offsets`, as on
    tt.load) for the lowering's vector width.
  }];
  let arguments = (ins TT_ScalarPtr:$base, RankedTensorOf<[I32]>:$offsets,
    Optional<RankedTensorOf<[I1]>>:$mask, Optional<TPXGPU_Tensor>:$other,
    DefaultValuedAttr<TT_CacheModifierAttr, "::tpx::tt::CacheModifier::NONE">:$cache,
    UnitAttr:$isVolatile);
  let results = (outs TPXGPU_Tensor:$result);
  let assemblyFormat = [{
    $base `[` $offsets `]` (`mask` $mask^)? (`other` $other^)?
    oilist(`cacheModifier` `=` $cache | `volatile` $isVolatile)
    attr-dict `:` qualified(type($base)) `,` type($offsets) `->` type($result)
  }];
  let extraClassDeclaration = extraBufferDeclaration;
}

def TPXGPU_BufferStoreOp : TPXGPU_BufferOp<"buffer_store", [
    MemoryEffects<[MemWrite<TPXGPU_GlobalMemory>]>,
    TPXGPU_TypeInferredFrom<"value", "mask", "::tpx::tt::getI1SameShape($_self)">]> {
  let summary = "store a tensor at i32 element offsets from one scalar base pointer";
  let description = [{
    `tpxgpu.buffer_store %v, %base[%offsets] mask %m : tensor<256xf32, #b>, tensor<256xi32, #b> -> !tt.ptr<f32>`
    writes element `i` to `%base + %offsets[i]` where `%m[i]` holds; the
    same range rule as `buffer_load` applies. Masked-off lanes store out of
    the buffer's range, which the hardware drops.
  }];
  let arguments = (ins TPXGPU_Tensor:$value, TT_ScalarPtr:$base,
    RankedTensorOf<[I32]>:$offsets, Optional<RankedTensorOf<[I1]>>:$mask,
    DefaultValuedAttr<TT_CacheModifierAttr, "::tpx::tt::CacheModifier::NONE">:$cache);
  let assemblyFormat = [{
    $value `,` $base `[` $offsets `]` (`mask` $mask^)?
    oilist(`cacheModifier` `=` $cache)
    attr-dict `:` type($value) `,` type($offsets) `->` qualified(type($base))
  }];
  let extraClassDeclaration = extraBufferDeclaration;
}

//===----------------------------------------------------------------------===//
// mbarriers (a 1-element i64 shared buffer each)
//===----------------------------------------------------------------------===//

class TPXGPU_MBarrierOp<string mnemonic, list<Trait> traits = []>
    : TPXGPU_Op<mnemonic, !listconcat([
        MemoryEffects<[MemRead<TPXGPU_SharedMemory>,
                       MemWrite<TPXGPU_SharedMemory>]>], traits)>;

def TPXGPU_InitBarrierOp : TPXGPU_MBarrierOp<"init_barrier"> {
  let summary = "initialise an mbarrier expecting `count` arrivals per phase";
  let arguments = (ins TPXGPU_MemDescType:$barrier,
                       ConfinedAttr<I32Attr, [IntPositive]>:$count);
  let assemblyFormat = "$barrier `,` $count attr-dict `:` qualified(type($barrier))";
}

def TPXGPU_InvalBarrierOp : TPXGPU_MBarrierOp<"inval_barrier"> {
  let summary = "end an mbarrier's life, so its bytes (or a new init) may follow";
  let arguments = (ins TPXGPU_MemDescType:$barrier);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
}

def TPXGPU_BarrierExpectOp : TPXGPU_MBarrierOp<"barrier_expect"> {
  let summary = "announce `size` bytes of transactions (TMA) for this phase";
  let arguments = (ins TPXGPU_MemDescType:$barrier,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$size,
                       Optional<I1>:$pred);
  let assemblyFormat = [{
    $barrier `,` $size (`,` $pred^)? attr-dict `:` qualified(type($barrier))
  }];
}

def TPXGPU_ArriveBarrierOp : TPXGPU_MBarrierOp<"arrive_barrier",
                                               [AttrSizedOperandSegments]> {
  let summary = "arrive `count` times on an mbarrier";
  let description = [{
    With `cta %rank`, the arrival is on the barrier at the same place in
    the shared memory of CTA `%rank` of the cluster (NVIDIA: `mapa` and
    `mbarrier.arrive.release.cluster`), which releases this CTA's prior
    accesses to that CTA's waiters.
  }];
  let arguments = (ins TPXGPU_MemDescType:$barrier,
                       ConfinedAttr<I32Attr, [IntPositive]>:$count,
                       Optional<I1>:$pred, Optional<I32>:$remote_rank);
  let assemblyFormat = [{
    $barrier `,` $count (`,` $pred^)? (`cta` $remote_rank^)? attr-dict `:`
    qualified(type($barrier))
  }];
}

def TPXGPU_BarrierCompleteTxOp : TPXGPU_MBarrierOp<"barrier_complete_tx"> {
  let summary = "count `size` bytes of transactions as done on this phase";
  let description = [{
    What a TMA copy does to its barrier when its bytes have landed, done by
    the program: one thread of the threads that run it removes `size` bytes
    from the phase's pending transactions (which `barrier_expect` added).
    It orders nothing itself: the writes it stands for must be complete and
    visible first (a `tpxgpu.barrier` among the writers before it). AMD's
    stand-in for TMA copies (tlx's async_descriptor_load on gfx950) ends
    with it. On NVIDIA: `mbarrier.complete_tx`.
  }];
  let arguments = (ins TPXGPU_MemDescType:$barrier,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$size,
                       Optional<I1>:$pred);
  let assemblyFormat = [{
    $barrier `,` $size (`,` $pred^)? attr-dict `:` qualified(type($barrier))
  }];
}

def TPXGPU_WaitBarrierOp : TPXGPU_MBarrierOp<"wait_barrier"> {
  let summary = "wait until the mbarrier's phase with parity `phase` completes";
  let arguments = (ins TPXGPU_MemDescType:$barrier, I32:$phase, Optional<I1>:$pred);
  let assemblyFormat = [{
    $barrier `,` $phase (`,` $pred^)? attr-dict `:` qualified(type($barrier))
  }];
}

def TPXGPU_BarrierOp : TPXGPU_Op<"barrier", [
    MemoryEffects<[MemRead<TPXGPU_SharedMemory>, MemWrite<TPXGPU_SharedMemory>,
                   MemRead<TPXGPU_GlobalMemory>, MemWrite<TPXGPU_GlobalMemory>]>]> {
  let summary = "CTA-wide execution and shared-memory barrier";
  let description = [{
    Every thread of the CTA waits here; shared-memory writes before it are
    visible to every thread after it.
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 0;
}

def TPXGPU_NamedBarrierOp : TPXGPU_Op<"named_barrier", [
    MemoryEffects<[MemRead<TPXGPU_SharedMemory>, MemWrite<TPXGPU_SharedMemory>,
                   MemRead<TPXGPU_GlobalMemory>, MemWrite<TPXGPU_GlobalMemory>]>]> {
  let summary = "barrier `id` among `count` threads (bar.sync / bar.arrive)";
  let description = [{
    `tpxgpu.named_barrier %id, %count` (`arrive_only`): every thread that
    runs it arrives at barrier `id` (0 to 15); the barrier completes when
    `count` threads (a multiple of the warp size) have arrived, by this op
    with or without `arrive_only`. Without `arrive_only` a thread then
    waits for that. Shared-memory writes before an arrival are visible to
    the threads the barrier releases. Barrier 0 with every thread of the
    CTA is `tpxgpu.barrier`. On NVIDIA `bar.sync` / `bar.arrive`; on AMD
    (no named barriers: `s_barrier` is workgroup-wide) a counter per id in
    LDS that each wavefront arrives at once and waits on (ROCDLBarriers.h).
  }];
  let arguments = (ins I32:$id, I32:$count, UnitAttr:$arrive_only);
  let assemblyFormat = "$id `,` $count (`arrive_only` $arrive_only^)? attr-dict";
  let hasVerifier = 0;
}

def TPXGPU_FenceAsyncSharedOp : TPXGPU_Op<"fence_async_shared", [
    MemoryEffects<[MemRead<TPXGPU_SharedMemory>, MemWrite<TPXGPU_SharedMemory>]>]> {
  let summary = "order this thread's shared-memory accesses with the async proxy";
  let description = [{
    Ordinary stores and `cp.async` copies write shared memory through the
    generic proxy; `warp_group_dot` and TMA stores read it through the
    async proxy. A thread's generic-proxy writes before the fence are
    visible to async-proxy reads after it (with a `tpxgpu.barrier` between
    them when other threads issue the reads). On NVIDIA:
    `fence.proxy.async.shared::cta`.
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 0;
}

//===----------------------------------------------------------------------===//
// Thread-block clusters (tpxgpu.cluster-dims)
//===----------------------------------------------------------------------===//

def TPXGPU_ClusterCTARankOp : TPXGPU_Op<"cluster_cta_rank", [Pure]> {
  let summary = "this CTA's rank in its cluster (0 without clusters)";
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 0;
}

def TPXGPU_FenceMBarrierInitOp : TPXGPU_Op<"fence_mbarrier_init", [
    MemoryEffects<[MemRead<TPXGPU_SharedMemory>, MemWrite<TPXGPU_SharedMemory>]>]> {
  let summary = "make this thread's mbarrier inits visible to the cluster";
  let description = [{
    Orders the `init_barrier`s before it (of the thread that ran them)
    before the cluster's later accesses to those barriers: a
    `cluster_barrier` after it lets peer CTAs arrive on them and
    multicast into them. On NVIDIA: `fence.mbarrier_init.release.cluster`.
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 0;
}

def TPXGPU_ClusterBarrierOp : TPXGPU_Op<"cluster_barrier", [
    MemoryEffects<[MemRead<TPXGPU_SharedMemory>, MemWrite<TPXGPU_SharedMemory>,
                   MemRead<TPXGPU_GlobalMemory>, MemWrite<TPXGPU_GlobalMemory>]>]> {
  let summary = "every thread of every CTA of the cluster waits here";
  let description = [{
    Accesses before it (shared memory of any CTA of the cluster, global
    memory) are visible to every thread of the cluster after it. Without
    clusters it is a barrier of the CTA. On NVIDIA:
    `barrier.cluster.arrive` then `barrier.cluster.wait`.
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 0;
}

//===----------------------------------------------------------------------===//
// TMA (Hopper tensor memory accelerator)
//===----------------------------------------------------------------------===//

def TPXGPU_AsyncTMACopyGlobalToLocalOp
    : TPXGPU_Op<"async_tma_copy_global_to_local", [AttrSizedOperandSegments,
        MemoryEffects<[MemRead<TPXGPU_GlobalMemory>,
                       MemWrite<TPXGPU_SharedMemory>]>]> {
  let summary = "TMA load of one block; completion is signalled on an mbarrier";
  let description = [{
    `tpxgpu.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar, %pred : !tt.tensordesc<tensor<64x64xf16>>, !tpxgpu.memdesc<1xi64, #bs, mutable> -> !tpxgpu.memdesc<64x64xf16, #nvmma, mutable>`.
    The block's bytes count as transactions of the barrier's current phase
    (see `barrier_expect`).

    With `multicast %mask` (i16, bit r for CTA r of the cluster) the block
    lands at the same place in the shared memory of every CTA in the mask,
    and its bytes count on each one's barrier at the barrier's place.
  }];
  let arguments = (ins TT_TensorDesc:$desc, Variadic<I32>:$coord,
                       TPXGPU_MemDescType:$barrier, TPXGPU_MemDescType:$dst,
                       Optional<I1>:$pred, Optional<I16>:$multicast,
    DefaultValuedAttr<TT_CacheModifierAttr, "::tpx::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::tpx::tt::EvictionPolicy::NORMAL">:$evict);
  let assemblyFormat = [{
    $desc `[` $coord `]` $dst `,` $barrier (`,` $pred^)?
    (`multicast` $multicast^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($desc)) `,` qualified(type($barrier)) `->`
    qualified(type($dst))
  }];
}

def TPXGPU_AsyncTMACopyLocalToGlobalOp
    : TPXGPU_Op<"async_tma_copy_local_to_global", [
        MemoryEffects<[MemRead<TPXGPU_SharedMemory>,
                       MemWrite<TPXGPU_GlobalMemory>]>]> {
  let summary = "TMA store of one block from shared memory";
  let description = [{
    Completion is awaited with `async_tma_store_wait`; the source buffer
    must not be overwritten before then.
  }];
  let arguments = (ins TT_TensorDesc:$desc, Variadic<I32>:$coord,
                       TPXGPU_MemDescType:$src);
  let assemblyFormat = [{
    $desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,`
    qualified(type($src))
  }];
}

def TPXGPU_AsyncTMAStoreWaitOp : TPXGPU_Op<"async_tma_store_wait", [
    MemoryEffects<[MemRead<TPXGPU_SharedMemory>,
                   MemWrite<TPXGPU_SharedMemory>]>]> {
  let summary = "wait until at most `pendings` TMA stores still read shared memory";
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings);
  let assemblyFormat = "`pendings` `=` $pendings attr-dict";
  let hasVerifier = 0;
}

//===----------------------------------------------------------------------===//
// Warp-group MMA (Hopper wgmma)
//===----------------------------------------------------------------------===//

def TPXGPU_WarpGroupDotOp : TPXGPU_Op<"warp_group_dot", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    AllTypesMatch<["c", "d"]>]> {
  let summary = "D = A * B + C on a warp group (wgmma), possibly asynchronous";
  let description = [{
    `%d = tpxgpu.warp_group_dot %a, %b, %c async : !tpxgpu.memdesc<128x64xf16, #s>, !tpxgpu.memdesc<64x128xf16, #s> -> tensor<128x128xf32, #mma>`.
    A is a shared buffer or a register tensor in the `dot_op` (opIdx 0)
    layout of C's encoding; B is a shared buffer; C has a version-3
    `nvidia_mma` encoding. With `async` the result must not be read before
    a `warp_group_dot_wait` that returns it. `%useC` false ignores C (treats
    it as zero). `maxNumImpreciseAcc` bounds fp8 accumulation in reduced
    precision (0: full precision).
  }];
  let arguments = (ins AnyTypeOf<[TPXGPU_Tensor, TPXGPU_MemDescType]>:$a,
    TPXGPU_MemDescType:$b, TPXGPU_Tensor:$c, Optional<I1>:$useC,
    DefaultValuedAttr<TT_InputPrecisionAttr, "::tpx::tt::InputPrecision::IEEE">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc,
    UnitAttr:$isAsync);
  let results = (outs TPXGPU_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` $useC^)? (`async` $isAsync^)?
    oilist(`inputPrecision` `=` $inputPrecision)
    attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `->` type($d)
  }];
}

def TPXGPU_WarpGroupDotWaitOp : TPXGPU_Op<"warp_group_dot_wait", [
    DeclareOpInterfaceMethods<InferTypeOpInterface>,
    MemoryEffects<[MemRead<TPXGPU_SharedMemory>,
                   MemWrite<TPXGPU_SharedMemory>]>]> {
  let summary = "wait until at most `pendings` async warp-group dots are in flight";
  let description = [{
    `%r:2 = tpxgpu.warp_group_dot_wait %d, %a pendings = 0 : tensor<..>, !tpxgpu.memdesc<..>`
    returns its inputs unchanged; using the results (not the inputs) after
    the wait is what orders reads of an async dot's result, and of buffers
    it reads, after the dot.
  }];
  let arguments = (ins Variadic<AnyTypeOf<[TPXGPU_Tensor, TPXGPU_MemDescType]>>:$inputs,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings);
  let results = (outs Variadic<AnyTypeOf<[TPXGPU_Tensor, TPXGPU_MemDescType]>>:$outputs);
  let assemblyFormat = [{
    $inputs `pendings` `=` $pendings attr-dict `:` qualified(type($inputs))
  }];
  let hasVerifier = 0;
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

// An explicit terminator rather than NoTerminator: that trait is checked
// through a TypeID, which differs between libMLIR and code built with
// another compiler (plugins).
def TPXGPU_WarpSpecializeOp : TPXGPU_Op<"warp_specialize", [
    SingleBlockImplicitTerminator<"WarpYieldOp">, RecursiveMemoryEffects]> {
  let summary = "partitions of a program that run concurrently on their own warps";
  let description = [{
    ```
    tpxgpu.warp_specialize num_warps = [4, 1] warp_starts = [0, 4]
        num_regs = [0, 40] {
      ...   // warps 0..3: tensors have layouts over 4 warps
    }, {
      ...   // warp 4: tensors have layouts over 1 warp
    }
    ```
    Partition `i` runs on warps `warp_starts[i] .. warp_starts[i] +
    num_warps[i] - 1` of the block; the tensors in it have layouts over
    its `num_warps[i]` warps, and thread ids in its lowering count from
    its first thread. A partition that asks for `num_regs[i]` (0: none)
    registers per thread gets them with `setmaxnreg` (whole warp groups
    only). The partitions run concurrently; the op completes when every
    one has.

    Every warp of the block runs the code around the op, whose tensors
    have the module's layouts (`tpxgpu.num-warps`): warp `w` computes the
    elements of warp `w mod num-warps` (the layouts' warp bits), so warps
    beyond the module's duplicate others there. The block has as many
    warps as the module or the partitions need, whichever is more.

    Values from above are the ones the code around computed in the same
    thread: scalars and memdescs, which are the same in every thread, and
    tensors only where that gives the partition's own layout -- the
    layout is over the partition's warp count and the partition starts at
    a multiple of it.
  }];
  let arguments = (ins DenseI32ArrayAttr:$numWarps,
                       DenseI32ArrayAttr:$warpStarts,
                       DenseI32ArrayAttr:$numRegs);
  let regions = (region VariadicRegion<SizedRegion<1>>:$partitions);
  let assemblyFormat = [{
    `num_warps` `=` $numWarps `warp_starts` `=` $warpStarts
    `num_regs` `=` $numRegs $partitions attr-dict
  }];
  let extraClassDeclaration = [{
    /// The first warp after every partition's.
    unsigned getEndWarp();
  }];
}

def TPXGPU_WarpYieldOp : TPXGPU_Op<"warp_yield", [Pure, Terminator,
    HasParent<"WarpSpecializeOp">]> {
  let summary = "the end of a warp_specialize partition";
  let assemblyFormat = "attr-dict";
  let hasVerifier = 0;
}

#endif // TPX_DIALECT_TPXGPU_IR_TPXGPUOPS_TD
