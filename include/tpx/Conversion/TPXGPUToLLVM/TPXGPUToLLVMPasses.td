//===- TPXGPUToLLVMPasses.td - SIMT code generation for NVIDIA and AMD ----===//
//
// Two passes over one set of patterns (lib/Conversion/TPXGPUToLLVM): what
// differs between the vendors (thread ids, barriers, shuffles, predicated
// memory accesses, the kernel's attributes) is chosen by the module's
// tpxgpu.target inside the shared helpers.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_CONVERSION_TPXGPUTOLLVM_PASSES_TD
#define TPX_CONVERSION_TPXGPUTOLLVM_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTPXGPUToNVVM : Pass<"convert-tpxgpu-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lower a TTIR module with tpxgpu layouts to LLVM and NVVM";
  let description = [{
    Every tensor becomes, in each thread, a struct of the registers its
    linear layout assigns; tt ops become per-register LLVM ops, predicated
    PTX memory accesses, warp shuffles, shared-memory exchanges and
    mma.sync; the kernel becomes an `nvvm.kernel` llvm.func launched with
    num-warps * 32 threads. Scalar arith/math/scf/cf are left for the
    upstream conversions that follow. It runs only in the NVIDIA `simt`
    pipeline; kernels it does not cover take the `one-thread` pipeline,
    which does not contain it (docs/nvidia-target.md).
  }];
  // scf: tt.map_elementwise regions of several blocks become
  // scf.execute_region (left, like the input's scf, for convert-scf-to-cf).
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def ConvertTPXGPUToROCDL : Pass<"convert-tpxgpu-to-rocdl", "::mlir::ModuleOp"> {
  let summary = "Lower a TTIR module with tpxgpu layouts to LLVM and ROCDL";
  let description = [{
    The AMD twin of convert-tpxgpu-to-nvvm, over the same patterns: every
    tensor becomes, in each thread of a wave64 wavefront, a struct of the
    registers its linear layout assigns. Thread and workgroup ids are ROCDL
    ops, barriers are workgroup fences around `s_barrier`, cross-lane
    moves are `ds_bpermute`, masked memory accesses are branches around
    plain loads and stores (the wavefront's exec mask), atomics are LLVM
    atomicrmw / cmpxchg at agent scope, and shared memory is LDS
    (address space 3). The kernel becomes an llvm.func with `rocdl.kernel`
    and its flat work-group size. NVIDIA-only ops (wgmma, TMA, mbarriers,
    cp.async, warp specialization) are errors naming the op and the target.
    The module's `tpxgpu.target` must be an AMD GPU; without one, `chip` is
    recorded (docs/amd-target.md).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"gfx950\"",
           "The AMD GPU when the module names none">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::ROCDL::ROCDLDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TPX_CONVERSION_TPXGPUTOLLVM_PASSES_TD
