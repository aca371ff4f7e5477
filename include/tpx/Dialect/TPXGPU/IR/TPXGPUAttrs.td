//===- TPXGPUAttrs.td - tpxgpu layout attributes --------------------------===//
//
// Two families of layouts:
//  * distributed layouts, the encodings of RankedTensorType: they say which
//    thread of which warp holds which element of a tensor in registers
//    (blocked, slice, nvidia_mma, amd_mfma, dot_op);
//  * shared-memory layouts, the encodings of !tpxgpu.memdesc: they say how a
//    tile is placed in shared memory (swizzled_shared, nvmma_shared).
//
// All of them print as `<{key = value, ...}>` so that a reader sees every
// parameter by name; the parsers and verifiers are in TPXGPULayouts.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_DIALECT_TPXGPU_IR_TPXGPUATTRS_TD
#define TPX_DIALECT_TPXGPU_IR_TPXGPUATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"
include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.td"

class TPXGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TPXGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

// A tensor encoding: RankedTensorType asks it to check the tensor's shape
// (verifyLayoutForShape) whenever such a tensor type is built.
class TPXGPU_DistributedAttr<string name, string attrMnemonic>
    : TPXGPU_Attr<name, attrMnemonic,
                  [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]>;

def TPXGPU_BlockedEncodingAttr
    : TPXGPU_DistributedAttr<"BlockedEncoding", "blocked"> {
  let summary = "each thread owns a contiguous block; threads and warps tile it";
  let description = [{
    `#tpxgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8],
    warpsPerCTA = [4, 1], order = [1, 0]}>`: along dimension `d` a thread
    holds `sizePerThread[d]` consecutive elements, a warp spans
    `threadsPerWarp[d]` such blocks and the CTA `warpsPerCTA[d]` warps.
    `order` lists dimensions fastest-varying first (for thread and register
    numbering). A tensor larger than the CTA tile wraps (a thread holds more
    blocks); a smaller one is replicated.
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
  }];
}

def TPXGPU_SliceEncodingAttr
    : TPXGPU_DistributedAttr<"SliceEncoding", "slice"> {
  let summary = "a parent layout with one dimension removed";
  let description = [{
    `#tpxgpu.slice<{dim = 1, parent = #blocked}>` distributes a tensor of
    rank `r - 1` as the rank-`r` parent would distribute it with dimension
    `dim` collapsed to size 1: the threads that differ only along `dim` hold
    the same elements. It is the layout of a reduction's result and of the
    operand of expand_dims.
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let extraClassDeclaration = [{
    unsigned getRank() const;
  }];
}

def TPXGPU_NvidiaMmaEncodingAttr
    : TPXGPU_DistributedAttr<"NvidiaMmaEncoding", "nvidia_mma"> {
  let summary = "accumulator layout of NVIDIA mma.sync (v2) or wgmma (v3)";
  let description = [{
    `#tpxgpu.nvidia_mma<{version = 3, warpsPerCTA = [4, 1],
    instrShape = [16, 64, 16]}>`. Version 2 is Ampere's warp-level
    `mma.sync` (instrShape `[16, 8]`); version 3 is Hopper's warp-group
    `wgmma` (instrShape `[16, N, K]`, N a multiple of 8 up to 256, K 8, 16 or
    32 by element width), where four consecutive warps along M form one
    warp group, so `warpsPerCTA[0]` is a multiple of 4. 32 threads per warp.
  }];
  let parameters = (ins "unsigned":$version,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let extraClassDeclaration = [{
    unsigned getRank() const { return getWarpsPerCTA().size(); }
    bool isHopper() const { return getVersion() == 3; }
  }];
}

def TPXGPU_AmdMfmaEncodingAttr
    : TPXGPU_DistributedAttr<"AmdMfmaEncoding", "amd_mfma"> {
  let summary = "accumulator layout of AMD CDNA matrix-core (MFMA) ops";
  let description = [{
    `#tpxgpu.amd_mfma<{version = 4, warpsPerCTA = [2, 2],
    instrShape = [32, 32, 16], isTransposed = false}>`. `version` is the
    CDNA generation (1-4; gfx950 is 4). instrShape is `[M, N, K]` of one
    MFMA instruction (32x32 or 16x16, K a power of two). With
    `isTransposed` each lane holds a row instead of a column of its
    accumulator block, which lets results be stored contiguously. Wavefronts
    have 64 lanes.
  }];
  let parameters = (ins "unsigned":$version,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape,
                        "bool":$isTransposed);
  let extraClassDeclaration = [{
    unsigned getRank() const { return getWarpsPerCTA().size(); }
  }];
}

def TPXGPU_DotOperandEncodingAttr
    : TPXGPU_DistributedAttr<"DotOperandEncoding", "dot_op"> {
  let summary = "register layout of operand A (0) or B (1) of a dot";
  let description = [{
    `#tpxgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>`: the layout
    in which the MMA whose accumulator layout is `parent` reads operand
    `opIdx`. `kWidth` is the number of consecutive K elements a thread holds
    (what one register load feeds the instruction); it is required for MMA
    parents and absent (0) for a blocked parent (an FMA dot). wgmma reads B
    only from shared memory, so `opIdx = 1` with a version-3 parent is
    rejected.
  }];
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent,
                        "unsigned":$kWidth);
  let extraClassDeclaration = [{
    unsigned getRank() const;
  }];
}

//===----------------------------------------------------------------------===//
// Shared-memory layouts. Not tensor encodings: a tensor with one is rejected
// (shared memory is reached through !tpxgpu.memdesc).
//===----------------------------------------------------------------------===//

def TPXGPU_SwizzledSharedEncodingAttr
    : TPXGPU_Attr<"SwizzledSharedEncoding", "swizzled_shared",
                  [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "XOR-swizzled shared layout (bank-conflict avoidance)";
  let description = [{
    `#tpxgpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8,
    order = [1, 0]}>`: rows (along `order[0]`, the contiguous dimension) are
    split into vectors of `vec` elements; row `r` XORs its vector index with
    `(r / perPhase) % maxPhase`. `vec = perPhase = maxPhase = 1` is the plain
    row-major (per `order`) layout. `order` covers the trailing dimensions of
    a memdesc; any leading dimensions beyond it are buffer dimensions.
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order);
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
  }];
}

def TPXGPU_PaddedSharedEncodingAttr
    : TPXGPU_Attr<"PaddedSharedEncoding", "padded_shared",
                  [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "row-major shared layout with padding after every row";
  let description = [{
    `#tpxgpu.padded_shared<{padding = 8, order = [1, 0]}>`: row-major per
    `order` (`order[0]` contiguous), with `padding` unused elements after
    every row of `order[0]`, so that threads reading down a column hit
    different banks. `padding = 0` is plain row-major. `order` covers the
    trailing dimensions of a memdesc; leading ones are buffer dimensions.
  }];
  let parameters = (ins "unsigned":$padding,
                        ArrayRefParameter<"unsigned">:$order);
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
  }];
}

def TPXGPU_NvmmaSharedEncodingAttr
    : TPXGPU_Attr<"NvmmaSharedEncoding", "nvmma_shared",
                  [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "the swizzle wgmma and TMA read and write (NVIDIA)";
  let description = [{
    `#tpxgpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false,
    elementBitWidth = 16}>`: 2-D tiles in the hardware's 32/64/128-byte
    swizzle modes (0: none), as TMA writes them and wgmma reads them.
    `transposed` says the tile is stored K-major for a B operand (or
    M-major for A). Applies to the two trailing dimensions of a memdesc.
  }];
  let parameters = (ins "unsigned":$swizzlingByteWidth, "bool":$transposed,
                        "unsigned":$elementBitWidth);
  let extraClassDeclaration = [{
    unsigned getRank() const { return 2; }
  }];
}


// Not a layout: what the launcher needs to build a TMA tensor map.
def TPXGPU_TensorMapAttr : AttrDef<TPXGPU_Dialect, "TensorMap"> {
  let mnemonic = "tensor_map";
  let summary = "how the launcher builds a kernel parameter's TMA tensor map";
  let description = [{
    On a kernel argument of type `!tt.tensordesc<tensor<BOXxT>>` that the
    launcher supplies (after the kernel's own arguments): the 128-byte
    tensor map `cuTensorMapEncodeTiled` makes from the kernel's other
    arguments. `base` is the index of the pointer argument; dimension `d`
    of the global shape (outermost first, as in TTIR) is kernel argument
    `shape_args[d]`, or the constant `shape_values[d]` where that is -1;
    the strides (in elements) likewise. `box` is the block one copy moves
    (outermost first), `swizzle` the bytes of the shared-memory swizzle (0,
    32, 64, 128) and `nan` whether reads outside the tensor give NaN
    instead of zero. Example:
    `#tpxgpu.tensor_map<base = 0, shape_args = [1, 2], shape_values = [0, 0],
    stride_args = [3, -1], stride_values = [0, 1], box = [64, 64],
    element_type = f16, swizzle = 128, nan = false>`.
  }];
  let parameters = (ins "unsigned":$base,
                        ArrayRefParameter<"int64_t">:$shapeArgs,
                        ArrayRefParameter<"int64_t">:$shapeValues,
                        ArrayRefParameter<"int64_t">:$strideArgs,
                        ArrayRefParameter<"int64_t">:$strideValues,
                        ArrayRefParameter<"int64_t">:$box,
                        "::mlir::Type":$elementType,
                        "unsigned":$swizzle,
                        "bool":$nan);
  let assemblyFormat = [{
    `<` `base` `=` $base `,` `shape_args` `=` `[` $shapeArgs `]` `,`
    `shape_values` `=` `[` $shapeValues `]` `,`
    `stride_args` `=` `[` $strideArgs `]` `,`
    `stride_values` `=` `[` $strideValues `]` `,` `box` `=` `[` $box `]` `,`
    `element_type` `=` $elementType `,` `swizzle` `=` $swizzle `,`
    `nan` `=` $nan `>`
  }];
  let genVerifyDecl = 1;
}

#endif // TPX_DIALECT_TPXGPU_IR_TPXGPUATTRS_TD
