//===- TLXOps.td - tlx operations -----------------------------------------===//
#ifndef TPX_TLX_TLXOPS_TD
#define TPX_TLX_TLXOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "tpx/Dialect/TT/IR/TTAttrs.td"
include "tpx/Dialect/TT/IR/TTTypes.td"
include "TLX/TLXTypes.td"

// The program's local memory (shared memory on a GPU): what buffers live in.
def TLX_LocalMemory : Resource<"::tpx::tlx::LocalMemory">;
// tt's global memory (the C++ class tt's loads and stores name).
def TLX_GlobalMemory : Resource<"::tpx::tt::GlobalMemory">;

class TLX_Op<string mnemonic, list<Trait> traits = []>
    : Op<TLX_Dialect, mnemonic, traits>;

// Lets the parser infer the type of `to` from `from` (the assembly format
// omits it); the C++ verifiers check the relation and name what is wrong.
class TLX_TypeInferredFrom<string from, string to, string transform>
    : TypesMatchWith<"type of " # to # " follows from " # from, from, to,
                     transform, "true || std::equal_to<>()">;

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

def TLX_LocalAllocOp : TLX_Op<"local_alloc",
    [MemoryEffects<[MemAlloc<TLX_LocalMemory>]>]> {
  let summary = "allocate buffers in local memory for the program";
  let description = [{
    `%a = tlx.local_alloc : !tlx.buffer<3x64x64xf16>` allocates three 64x64
    f16 buffers (the leading dimension counts buffers). With `reuse`, the
    new buffers alias the bytes of an earlier allocation, which must be at
    least as large.
  }];
  let arguments = (ins Optional<TLX_Buffer>:$reuse);
  let results = (outs TLX_Buffer:$result);
  let assemblyFormat = [{
    attr-dict `:` type($result) (`reuse` $reuse^ `:` type($reuse))?
  }];
  let hasVerifier = 1;
}

def TLX_LocalViewOp : TLX_Op<"local_view", [Pure]> {
  let summary = "one buffer of a multi-buffer allocation";
  let arguments = (ins TLX_Buffer:$buffers, I32:$index);
  let results = (outs TLX_Buffer:$result);
  let assemblyFormat = [{
    $buffers `[` $index `]` attr-dict `:` type($buffers) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TLX_LocalTransOp : TLX_Op<"local_trans", [Pure]> {
  let summary = "a view of a buffer with its dimensions permuted";
  let arguments = (ins TLX_Buffer:$src, DenseI32ArrayAttr:$order);
  let results = (outs TLX_Buffer:$result);
  let assemblyFormat = [{
    $src attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TLX_LocalSliceOp : TLX_Op<"local_slice", [Pure]> {
  let summary = "a view of a rectangular part of a buffer";
  let arguments = (ins TLX_Buffer:$src, DenseI64ArrayAttr:$offsets);
  let results = (outs TLX_Buffer:$result);
  let assemblyFormat = [{
    $src attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TLX_LocalReinterpretOp : TLX_Op<"local_reinterpret", [Pure]> {
  let summary = "the bytes of a buffer seen with another shape or type";
  let arguments = (ins TLX_Buffer:$src);
  let results = (outs TLX_Buffer:$result);
  let assemblyFormat = [{
    $src attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TLX_LocalLoadOp : TLX_Op<"local_load",
    [MemoryEffects<[MemRead<TLX_LocalMemory>]>]> {
  let summary = "read a buffer into a tensor";
  let arguments = (ins TLX_Buffer:$buffer, Optional<TLX_AsyncToken>:$token);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $buffer (`token` $token^)? attr-dict `:` type($buffer) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TLX_LocalStoreOp : TLX_Op<"local_store",
    [MemoryEffects<[MemWrite<TLX_LocalMemory>]>]> {
  let summary = "write a tensor into a buffer";
  let arguments = (ins TLX_Buffer:$buffer, AnyRankedTensor:$value);
  let assemblyFormat = [{
    $buffer `,` $value attr-dict `:` type($buffer) `,` type($value)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Async copies from global memory
//===----------------------------------------------------------------------===//

def TLX_AsyncLoadOp : TLX_Op<"async_load", [AttrSizedOperandSegments,
    TLX_TypeInferredFrom<"ptrs", "mask", "::tpx::tt::getI1SameShape($_self)">,
    TLX_TypeInferredFrom<"ptrs", "other", "::tpx::tt::getPointeeTypeOf($_self)">,
    MemoryEffects<[MemRead<TLX_GlobalMemory>, MemWrite<TLX_LocalMemory>]>]> {
  let summary = "start copying a tensor of pointers' elements into a buffer";
  let description = [{
    Element `i` of the buffer receives `*ptrs[i]`, or `other[i]` (zero when
    absent) where `mask[i]` is false. The copy is complete once a
    `async_wait_group` leaves fewer groups pending than the commit group
    holding it; reading the buffer before is undefined.
  }];
  let arguments = (ins TT_PtrTensor:$ptrs, TLX_Buffer:$buffer,
    Optional<TT_BoolTensor>:$mask, Optional<AnyRankedTensor>:$other,
    DefaultValuedAttr<TT_CacheModifierAttr, "::tpx::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::tpx::tt::EvictionPolicy::NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let results = (outs TLX_AsyncToken:$token);
  let assemblyFormat = [{
    $ptrs `,` $buffer (`mask` $mask^)? (`other` $other^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($ptrs) `,` type($buffer)
  }];
  let hasVerifier = 1;
}

def TLX_AsyncCommitGroupOp : TLX_Op<"async_commit_group",
    [MemoryEffects<[MemWrite<TLX_LocalMemory>]>]> {
  let summary = "close the group of async copies started since the last one";
  let arguments = (ins Variadic<TLX_AsyncToken>:$tokens);
  let results = (outs TLX_AsyncToken:$result);
  let assemblyFormat = "$tokens attr-dict";
}

def TLX_AsyncWaitGroupOp : TLX_Op<"async_wait_group",
    [MemoryEffects<[MemRead<TLX_LocalMemory>, MemWrite<TLX_LocalMemory>]>]> {
  let summary = "wait until at most `pendings` commit groups are in flight";
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings,
                       Variadic<TLX_AsyncToken>:$tokens);
  let results = (outs TLX_AsyncToken:$result);
  let assemblyFormat = "$pendings (`,` $tokens^)? attr-dict";
}

//===----------------------------------------------------------------------===//
// Async tensor-core dots
//===----------------------------------------------------------------------===//

def TLX_AsyncDotOp : TLX_Op<"async_dot", [AllTypesMatch<["c", "d"]>,
    MemoryEffects<[MemRead<TLX_LocalMemory>]>]> {
  let summary = "start a matrix product of buffers (or a tensor and a buffer)";
  let description = [{
    `d = a @ b + c` for an MxK `a` (a buffer or a tensor), a KxN buffer `b`
    and an MxN accumulator `c`; with `use_acc` false at run time, `c` is
    ignored (`d = a @ b`). The result may be read once a
    `async_dot_wait` has retired the dot.
  }];
  let arguments = (ins AnyTypeOf<[TLX_Buffer, AnyRankedTensor]>:$a,
    AnyTypeOf<[TLX_Buffer, AnyRankedTensor]>:$b, AnyRankedTensor:$c,
    Optional<I1>:$useAcc,
    DefaultValuedAttr<TT_InputPrecisionAttr, "::tpx::tt::InputPrecision::TF32">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs AnyRankedTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`use_acc` $useAcc^)?
    attr-dict `:` type($a) `,` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TLX_AsyncDotWaitOp : TLX_Op<"async_dot_wait", [
    AllTypesMatch<["inputs", "outputs"]>,
    MemoryEffects<[MemRead<TLX_LocalMemory>]>]> {
  let summary = "wait until at most `pendings` async dots are in flight";
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings,
                       Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$outputs);
  let assemblyFormat = [{
    $pendings (`,` $inputs^ `:` type($inputs))? attr-dict
  }];
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "int32_t":$pendings,
                                 "::mlir::ValueRange":$inputs)>];
}

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

def TLX_AllocBarriersOp : TLX_Op<"alloc_barriers",
    [MemoryEffects<[MemAlloc<TLX_LocalMemory>, MemWrite<TLX_LocalMemory>]>]> {
  let summary = "allocate and initialise mbarriers";
  let description = [{
    Each barrier's phases complete after `arrive_count` arrivals (and every
    transaction byte expected in the phase).
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntPositive]>:$arriveCount);
  let results = (outs TLX_Barriers:$result);
  let assemblyFormat = "`arrive_count` `=` $arriveCount attr-dict `:` type($result)";
}

def TLX_BarrierViewOp : TLX_Op<"barrier_view", [Pure]> {
  let summary = "one barrier of an allocation";
  let arguments = (ins TLX_Barriers:$barriers, I32:$index);
  let results = (outs TLX_Barrier:$result);
  let assemblyFormat = [{
    $barriers `[` $index `]` attr-dict `:` type($barriers)
  }];
  let hasVerifier = 1;
}

def TLX_BarrierWaitOp : TLX_Op<"barrier_wait",
    [MemoryEffects<[MemRead<TLX_LocalMemory>, MemWrite<TLX_LocalMemory>]>]> {
  let summary = "wait until the barrier's phase of parity `phase` completes";
  let arguments = (ins TLX_Barrier:$barrier, I32:$phase, Optional<I1>:$pred);
  let assemblyFormat = "$barrier `,` $phase (`pred` $pred^)? attr-dict";
}

def TLX_BarrierArriveOp : TLX_Op<"barrier_arrive",
    [MemoryEffects<[MemRead<TLX_LocalMemory>, MemWrite<TLX_LocalMemory>]>]> {
  let summary = "arrive `count` times on the barrier";
  let description = [{
    With `cta %rank`: on the barrier at the same place in CTA `%rank` of
    the cluster (a kernel launched in clusters, tpxgpu.cluster-dims).
  }];
  let arguments = (ins TLX_Barrier:$barrier,
                       ConfinedAttr<I32Attr, [IntPositive]>:$count,
                       Optional<I32>:$remote_cta_rank);
  let assemblyFormat = [{
    $barrier `,` $count (`cta` $remote_cta_rank^)? attr-dict
  }];
  let hasVerifier = 1;
}

def TLX_BarrierExpectBytesOp : TLX_Op<"barrier_expect_bytes",
    [MemoryEffects<[MemRead<TLX_LocalMemory>, MemWrite<TLX_LocalMemory>]>]> {
  let summary = "arrive once, expecting `bytes` from async copies this phase";
  let arguments = (ins TLX_Barrier:$barrier, I32:$bytes, Optional<I1>:$pred);
  let assemblyFormat = "$barrier `,` $bytes (`pred` $pred^)? attr-dict";
}

def TLX_NamedBarrierOp : TLX_Op<"named_barrier",
    [MemoryEffects<[MemRead<TLX_LocalMemory>, MemWrite<TLX_LocalMemory>]>]> {
  let summary = "arrive at (and, unless `arrive_only`, wait for) barrier `id`";
  let description = [{
    Hardware barrier `id` (bar.sync / bar.arrive) completes when `count`
    threads have arrived; the executing warps count `threads` (the front
    end fills in the task's or kernel's number of threads).
  }];
  let arguments = (ins I32:$id, I32:$count,
                       ConfinedAttr<I32Attr, [IntPositive]>:$threads,
                       UnitAttr:$arriveOnly);
  let assemblyFormat = "$id `,` $count attr-dict";
}

//===----------------------------------------------------------------------===//
// TMA: block copies through tensor descriptors
//===----------------------------------------------------------------------===//

def TLX_AsyncDescriptorLoadOp : TLX_Op<"async_descriptor_load", [
    AttrSizedOperandSegments,
    MemoryEffects<[MemRead<TLX_GlobalMemory>, MemWrite<TLX_LocalMemory>]>]> {
  let summary = "copy a block through a descriptor into a buffer (TMA)";
  let description = [{
    The block at `offsets` (elements outside the tensor read as the
    descriptor's padding) lands in `buffer`; its bytes count as transaction
    bytes of `barrier`'s current phase. With `multicast %mask` (bit r: CTA
    r of the cluster) it lands in the same buffer of every CTA in the mask
    and counts on each one's `barrier`.
  }];
  let arguments = (ins TT_TensorDesc:$desc, Variadic<I32>:$offsets,
    TLX_Buffer:$buffer, TLX_Barrier:$barrier, Optional<I32>:$multicast,
    DefaultValuedAttr<TT_CacheModifierAttr, "::tpx::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::tpx::tt::EvictionPolicy::NORMAL">:$evict);
  let assemblyFormat = [{
    $desc `[` $offsets `]` `,` $buffer `,` $barrier
    (`multicast` $multicast^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($desc) `,` type($buffer)
  }];
  let hasVerifier = 1;
}

def TLX_AsyncDescriptorStoreOp : TLX_Op<"async_descriptor_store", [
    MemoryEffects<[MemRead<TLX_LocalMemory>, MemWrite<TLX_GlobalMemory>]>]> {
  let summary = "copy a buffer through a descriptor into global memory";
  let arguments = (ins TT_TensorDesc:$desc, Variadic<I32>:$offsets,
                       TLX_Buffer:$buffer);
  let assemblyFormat = [{
    $desc `[` $offsets `]` `,` $buffer attr-dict `:` type($desc) `,`
    type($buffer)
  }];
  let hasVerifier = 1;
}

def TLX_AsyncDescriptorStoreWaitOp : TLX_Op<"async_descriptor_store_wait",
    [MemoryEffects<[MemRead<TLX_LocalMemory>]>]> {
  let summary = "wait until at most `pendings` descriptor stores are pending";
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings);
  let assemblyFormat = "$pendings attr-dict";
}

def TLX_FenceAsyncSharedOp : TLX_Op<"fence_async_shared",
    [MemoryEffects<[MemRead<TLX_LocalMemory>, MemWrite<TLX_LocalMemory>]>]> {
  let summary = "order earlier shared-memory writes before async-proxy reads";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

// NoTerminator is a trait libMLIR checks through its TypeID, which does not
// match across compilers (libMLIR is built with clang, tpx with GCC): the
// task regions end in an explicit (implicit in the custom syntax)
// terminator instead.
def TLX_AsyncTasksOp : TLX_Op<"async_tasks", [
    SingleBlockImplicitTerminator<"TaskRegionEndOp">,
    RecursiveMemoryEffects]> {
  let summary = "tasks of the program that run concurrently";
  let description = [{
    The region holds only `tlx.async_task` ops; each runs concurrently with
    the others on warps of its own (on the CPU, a thread of its own). The
    op completes when every task has.
  }];
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$body attr-dict";
  let hasVerifier = 1;
}

def TLX_AsyncTaskOp : TLX_Op<"async_task", [
    SingleBlockImplicitTerminator<"TaskRegionEndOp">,
    RecursiveMemoryEffects, HasParent<"AsyncTasksOp">]> {
  let summary = "one task (with `replicate` copies) of an async_tasks region";
  let description = [{
    The `default` task runs on the kernel's `num_warps` warps; every other
    task on `num_warps` warps of its own (from `warp_group_start_id` when
    given), with `num_regs` registers per thread when given, `replicate`
    times.
  }];
  let arguments = (ins UnitAttr:$isDefault, OptionalAttr<I32Attr>:$numWarps,
                       OptionalAttr<I32Attr>:$numRegs,
                       DefaultValuedAttr<I32Attr, "1">:$replicate,
                       OptionalAttr<I32Attr>:$warpGroupStartId);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

def TLX_TaskRegionEndOp : TLX_Op<"task_region_end", [Pure, Terminator,
    ParentOneOf<["AsyncTasksOp", "AsyncTaskOp"]>]> {
  let summary = "the end of an async_tasks or async_task region";
  let assemblyFormat = "attr-dict";
}

def TLX_AsyncTaskReplicaIdOp : TLX_Op<"async_task_replica_id", [Pure]> {
  let summary = "which copy of a replicated task runs (0 ... replicate-1)";
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

// Not Pure: the value differs between the tasks of a program (on the CPU
// each task stands for its first thread), so an id must not be merged with
// or hoisted out of one computed in another task.
def TLX_ThreadIdOp : TLX_Op<"thread_id", [
    MemoryEffects<[MemRead<TLX_LocalMemory>]>]> {
  let summary = "the executing thread's index in its block along `axis`";
  let description = [{
    threadIdx.x/y/z on a GPU (blocks are one-dimensional, so axes 1 and 2
    are 0). On the CPU a program's task runs as its first thread: the id is
    the first thread of the task's warps (0 in the default task).
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>,
                                              IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
}

def TLX_VoteBallotSyncOp : TLX_Op<"vote_ballot_sync", [
    MemoryEffects<[MemRead<TLX_LocalMemory>, MemWrite<TLX_LocalMemory>]>]> {
  let summary = "the lanes of the warp in `mask` whose predicate holds";
  let description = [{
    Bit n of the result is set when lane n is in `mask` and its `pred`
    holds (NVIDIA: `vote.sync.ballot.b32`; the lanes in `mask` must all run
    it). On the CPU, where a program runs as one thread and so a scalar is
    the same in every lane, it is `mask` where `pred` holds, else 0.
  }];
  let arguments = (ins I1:$pred, I32Attr:$mask);
  let results = (outs I32:$result);
  let assemblyFormat = "$pred `,` $mask attr-dict";
}

def TLX_ClusterCTARankOp : TLX_Op<"cluster_cta_rank", [Pure]> {
  let summary = "this CTA's rank in its thread-block cluster";
  let description = [{
    0 to the cluster's size - 1 (x fastest); 0 in a kernel without
    clusters (tpxgpu.cluster-dims). The CPU runs a cluster's programs at
    once and numbers them the same way.
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict";
}

def TLX_ClusterBarrierOp : TLX_Op<"cluster_barrier", [
    MemoryEffects<[MemRead<TLX_LocalMemory>, MemWrite<TLX_LocalMemory>,
                   MemRead<TLX_GlobalMemory>, MemWrite<TLX_GlobalMemory>]>]> {
  let summary = "every thread of the cluster waits for all the others";
  let description = [{
    Outside async tasks only (every thread of every CTA of the cluster must
    reach it). Accesses before it are visible to the whole cluster after
    it. Without clusters it is a barrier of the program (on the CPU, whose
    program runs as one thread outside tasks, nothing to wait for).
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def TLX_Clock64Op : TLX_Op<"clock64", [
    MemoryEffects<[MemRead<TLX_LocalMemory>, MemWrite<TLX_LocalMemory>]>]> {
  let summary = "a 64-bit clock";
  let results = (outs I64:$result);
  let assemblyFormat = "attr-dict";
}

// The address of a function, for a target runtime that starts it (the CPU
// lowering's task trampolines); resolved after the function is an
// llvm.func.
def TLX_FunctionAddressOp : TLX_Op<"function_address", [Pure]> {
  let summary = "the address of function `callee`, as an integer";
  let arguments = (ins FlatSymbolRefAttr:$callee);
  let results = (outs I64:$result);
  let assemblyFormat = "$callee attr-dict";
}

#endif // TPX_TLX_TLXOPS_TD
