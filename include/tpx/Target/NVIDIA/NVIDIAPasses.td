//===- NVIDIAPasses.td - LLVM-dialect passes of the NVIDIA target ---------===//
#ifndef TPX_TARGET_NVIDIA_PASSES_TD
#define TPX_TARGET_NVIDIA_PASSES_TD

include "mlir/Pass/PassBase.td"

def TPXNVIDIASelectCodegen
    : Pass<"tpx-nvidia-select-codegen", "::mlir::ModuleOp"> {
  let summary = "Mark the module with the NVIDIA code generator that covers it";
  let description = [{
    Runs the coverage check the compiler driver runs to pick the NVIDIA
    pipeline (`findSIMTBlocker`, NVIDIATarget.h) and records its answer:
    `tpxgpu.codegen = "simt"` when convert-tpxgpu-to-nvvm covers every op and
    type, else `tpxgpu.codegen = "scalar"` and a remark naming the first op
    that is not covered. No default pipeline contains this pass (the driver
    makes the choice between the `simt` and `one-thread` pipelines itself);
    it exists so that `tpx-opt` can show and test the decision.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Warps per program, as convert-tt-to-tpxgpu will use">,
  ];
}

def TPXNVIDIAMathToLibdevice
    : Pass<"tpx-nvidia-math-to-libdevice", "::mlir::ModuleOp"> {
  let summary = "Lower scalar math (and arith.remf) ops to libdevice calls";
  let description = [{
    Rewrites the scalar `math` ops left by the loop lowering (exp, log, sin,
    tanh, pow, erf, ...) and `arith.remf` into calls of libdevice's `__nv_*`
    functions, using MLIR's upstream libdevice patterns. The PTX emitter
    links libdevice.10.bc into the module, so the calls resolve there. Must
    run before `convert-math-to-llvm`: the LLVM intrinsics it would produce
    (llvm.exp, llvm.sin, ...) have no NVPTX lowering.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TPXNVIDIAFPContract : Pass<"tpx-nvidia-fp-contract", "::mlir::ModuleOp"> {
  let summary = "Let LLVM fuse float multiplies and adds into FMAs";
  let description = [{
    Marks every `llvm.fmul`, `llvm.fadd` and `llvm.fsub` (scalars and
    vectors) `contract`, so that the NVPTX backend may fuse a multiply
    feeding an add into one `fma.rn` (one rounding instead of two). This is
    Triton's default (`enable_fp_fusion=True`): flash attention's
    `qk * scale - m` and layernorm's `x * w + b` become single FMAs, as in
    Triton's PTX. A pipeline without this pass (a pipeline text, or a
    plugin's edit, that removes it) rounds every operation on its own, as
    the CPU target does. Ops already marked keep their other flags.
  }];
}

def TPXNVIDIACopiesToLoops
    : Pass<"tpx-nvidia-copies-to-loops", "::mlir::ModuleOp"> {
  let summary = "Rewrite memref.copy as linalg.copy, which becomes loops";
  let description = [{
    Bufferization copies strided buffers (join, split, cat, tensors passed
    to calls) with memref.copy, which the LLVM lowering turns into a call of
    the host runtime's `memrefCopy` -- absent on the GPU. As linalg.copy it
    becomes loops in convert-linalg-to-loops instead. Runs on the one-thread
    path, before that pass.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def TPXNVIDIALowerRuntimeCalls
    : Pass<"tpx-nvidia-lower-runtime-calls", "::mlir::ModuleOp"> {
  let summary = "Give the CPU runtime entry points device implementations";
  let description = [{
    `convert-tt-to-cpu` lowers tt.print and tt.assert to calls of
    `tpx_cpu_print` and `tpx_cpu_assert_fail`, which the CPU runtime
    provides. On the GPU this pass defines both in the module: print formats
    its line with `vprintf`; assert prints the program, element and message
    with `vprintf`, then calls `__assertfail`, which traps the kernel so that
    the launch fails with CUDA_ERROR_ASSERT. Bounds checking
    (`tpx_cpu_check_access`) is CPU-only and is rejected with an error.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TPXNVIDIAEmitKernel : Pass<"tpx-nvidia-emit-kernel", "::mlir::ModuleOp"> {
  let summary = "Add an NVVM kernel entry to every lowered tt kernel";
  let description = [{
    For each lowered kernel `@k` (an llvm.func marked `tpx.kernel`, which
    takes the user arguments plus six trailing i32 grid arguments), renames
    the body to `@k.tpx_body` (internal) and adds `@k`, an `nvvm.kernel`
    taking only the user arguments. The entry reads the program ids from
    %ctaid and the number of programs from %nctaid and calls the body on
    thread (0, 0, 0) of the block only: this first NVIDIA path runs each
    program sequentially on one thread, so stores, atomics and prints happen
    exactly once. Fails if the module calls an external function that has no
    device implementation. Only the `one-thread` pipeline runs it (the SIMT
    lowering makes its own entry).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // TPX_TARGET_NVIDIA_PASSES_TD
