//===- TTToCPUPasses.td - lowering tt to host code ------------------------===//
#ifndef TPX_CONVERSION_TTTOCPU_PASSES_TD
#define TPX_CONVERSION_TTTOCPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTTToCPU : Pass<"convert-tt-to-cpu", "::mlir::ModuleOp"> {
  let summary = "Lower tt kernels to tensor, linalg, scf and llvm ops for the host";
  let description = [{
    Every tt function becomes a func.func whose pointer arguments are i64
    addresses and which takes six trailing i32 arguments: the program id and
    the number of programs along x, y and z. Tensor values stay tensors
    (bufferized later); memory accesses become loops of scalar LLVM loads,
    stores and atomics guarded by their masks; tt.dot becomes linalg.matmul;
    reductions and scans become loops that apply their combine regions.
    Block pointers and tensor descriptors are split into their scalar parts.

    With `bounds-check`, every element access first asks the CPU runtime
    whether it lies inside one of the launch's buffers; an access outside is
    skipped and reported by the launch as an error naming the address.
  }];
  let options = [
    Option<"boundsCheck", "bounds-check", "bool", /*default=*/"false",
           "Check every memory access against the launch's buffers">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect", "::mlir::tensor::TensorDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::ub::UBDialect", "::mlir::bufferization::BufferizationDialect"
  ];
}

def TPXCPUEmitEntryPoints : Pass<"tpx-cpu-emit-entry-points", "::mlir::ModuleOp"> {
  let summary = "Add a uniform launch entry to every CPU kernel";
  let description = [{
    For each public kernel `@k` (already in the LLVM dialect) adds
    `@k.tpx_entry(ptr args, i32 pidX, i32 pidY, i32 pidZ, i32 numX, i32 numY,
    i32 numZ)` that loads each argument from the pointer array `args` and
    calls `@k`, so the runtime launches any kernel through one signature.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TPXCPUGuardIntegerDivision
    : Pass<"tpx-cpu-guard-integer-division", "::mlir::ModuleOp"> {
  let summary = "Keep integer division by zero from trapping the host";
  let description = [{
    Integer division by zero (and signed MIN / -1) is undefined in Triton;
    on a GPU it yields an unspecified value, but the host's divide
    instruction traps (SIGFPE) and would end the process running the
    kernel. Every `arith` integer division and remainder gets a divisor of 1
    where it would be 0, or -1 under MIN: `x / 0` is then `x` and `x % 0` is
    0, one of the values the undefined operation may have. Runs on the CPU
    path after `convert-tt-to-cpu`; constant divisors fold the guard away.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // TPX_CONVERSION_TTTOCPU_PASSES_TD
