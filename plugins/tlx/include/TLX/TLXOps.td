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

#endif // TPX_TLX_TLXOPS_TD
