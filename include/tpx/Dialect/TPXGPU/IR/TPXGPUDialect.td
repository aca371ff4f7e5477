//===- TPXGPUDialect.td - the tpxgpu dialect (GPU-level IR) ---------------===//
//
// `tpxgpu` is the IR of the `ttgir` stage: tt programs whose tensors carry a
// distribution over threads, warps and the CTA (layout encodings), plus
// explicit shared memory (`!tpxgpu.memdesc`), asynchronous global->shared
// copies, mbarriers, TMA and warp-group MMA. TLX and the compiler's own
// pipeliner both lower onto these ops. See docs/tpxgpu-dialect.md.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_DIALECT_TPXGPU_IR_TPXGPUDIALECT_TD
#define TPX_DIALECT_TPXGPU_IR_TPXGPUDIALECT_TD

include "mlir/IR/OpBase.td"

def TPXGPU_Dialect : Dialect {
  let name = "tpxgpu";
  let cppNamespace = "::tpx::tpxgpu";
  let summary = "GPU-level tile programs: layouts, shared memory, async ops";
  let description = [{
    Distributed-tensor layouts (blocked, slice, NVIDIA MMA, AMD MFMA, dot
    operand), shared-memory descriptors with a leading buffer dimension for
    multi-buffering, asynchronous copies grouped by commit/wait, mbarriers,
    TMA and warp-group MMA with an asynchronous wait.

    The module attributes `tpxgpu.num-warps` and `tpxgpu.threads-per-warp`
    (default 32) give the context in which layouts are checked.
  }];
  let dependentDialects = ["::tpx::tt::TTDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // `tpxgpu.num-warps` / `tpxgpu.threads-per-warp` on the module.
  let hasOperationAttrVerify = 1;
  // `tpxgpu.tensor_map` on kernel arguments.
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();

    /// Module attribute: warps per CTA of every kernel in the module.
    static constexpr ::llvm::StringLiteral kNumWarpsAttrName =
        "tpxgpu.num-warps";
    /// Module attribute: threads per warp (32 NVIDIA, 64 AMD CDNA).
    static constexpr ::llvm::StringLiteral kThreadsPerWarpAttrName =
        "tpxgpu.threads-per-warp";
    static constexpr unsigned kDefaultThreadsPerWarp = 32;
    /// Module attribute: the thread-block cluster every kernel of the
    /// module is launched in (array<i32: x, y, z>, at most 8 CTAs; absent:
    /// clusters of one CTA). The program's code reads it (multicast copies,
    /// arrivals on a peer CTA's barriers); the launcher launches with it.
    static constexpr ::llvm::StringLiteral kClusterDimsAttrName =
        "tpxgpu.cluster-dims";
    static constexpr unsigned kMaxClusterSize = 8;

    // Facts one pass hands to another. The dialect owns (and verifies)
    // them, so no pass or driver includes a later conversion to read them.
    /// Module: the GPU the module is compiled for ("sm_90a", "gfx950"),
    /// set by convert-tt-to-tpxgpu; the SIMT lowering's shared helpers
    /// (thread ids, barriers, shuffles, predicated accesses) read the vendor
    /// from it. Absent: NVIDIA.
    static constexpr ::llvm::StringLiteral kTargetAttrName = "tpxgpu.target";
    /// Module: the NVIDIA code generator, "simt" or "scalar" (one thread).
    static constexpr ::llvm::StringLiteral kCodegenAttrName = "tpxgpu.codegen";
    /// Module: threads per block the kernel must be launched with (i32).
    static constexpr ::llvm::StringLiteral kBlockThreadsAttrName =
        "tpxgpu.block-threads";
    /// Module: dynamic shared memory the kernel needs, in bytes (i64).
    static constexpr ::llvm::StringLiteral kSharedBytesAttrName =
        "tpxgpu.shared-bytes";
    /// Op: byte offset of its shared-memory buffer (a local_alloc) or
    /// scratch (an op whose lowering exchanges data through shared memory),
    /// set by the shared-memory allocation pass (i64).
    static constexpr ::llvm::StringLiteral kSharedOffsetAttrName =
        "tpxgpu.shared-offset";
    /// Op (tt.load/store/atomics): per-dimension contiguity of the pointer
    /// operand (dense i64 array), from the AxisInfo analysis.
    static constexpr ::llvm::StringLiteral kContiguityAttrName =
        "tpxgpu.contiguity";
    /// Kernel argument: a TMA tensor map the launcher builds
    /// (#tpxgpu.tensor_map), set by tpxgpu-use-tma.
    static constexpr ::llvm::StringLiteral kTensorMapAttrName =
        "tpxgpu.tensor_map";
  }];
}

#endif // TPX_DIALECT_TPXGPU_IR_TPXGPUDIALECT_TD
