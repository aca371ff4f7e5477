//===- KernelEntry.cpp - the tpx-nvidia-emit-kernel pass ------------------===//
//
// The lowered kernel `@k(user args..., pidX, pidY, pidZ, numX, numY, numZ)`
// becomes the internal `@k.tpx_body`, and a new `@k(user args...)` marked
// `nvvm.kernel` reads the grid from the special registers and calls it:
//
//   if (tid.x == 0 && tid.y == 0 && tid.z == 0)
//     k.tpx_body(args..., ctaid.x, ctaid.y, ctaid.z,
//                nctaid.x, nctaid.y, nctaid.z);
//
// The one-thread path (kernels the SIMT code generator does not cover) runs
// a whole program on one thread: the lowering is sequential loops over
// tensors, so any other thread would repeat every store, atomic and print.
// The module records block_threads = 1 for the launcher; the guard keeps
// the kernel correct when a different launcher uses a Triton-like block of
// num_warps * 32 threads. Only the one-thread pipeline runs this pass (the
// SIMT lowering makes its own entry).
//
//===----------------------------------------------------------------------===//
#include "LLVMBuilderUtils.h"

#include "tpx/Conversion/TTToCPU/TTToCPU.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringSet.h"

namespace tpx {
#define GEN_PASS_DEF_TPXNVIDIAEMITKERNEL
#include "tpx/Target/NVIDIA/NVIDIAPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx::nvidia;

/// External functions the CUDA toolchain provides to PTX (ptxas resolves
/// them as system calls), plus libdevice's `__nv_*` (linked by the PTX
/// emitter).
static bool hasDeviceImplementation(StringRef name) {
  static const llvm::StringSet<> provided = {"vprintf", "malloc", "free",
                                             "__assertfail"};
  return provided.contains(name) || name.starts_with("__nv_") ||
         name.starts_with("llvm.");
}

/// Reads one special register as i32.
template <typename OpTy> static Value readRegister(OpBuilder &b, Location loc) {
  return OpTy::create(b, loc, b.getI32Type());
}

static LogicalResult emitEntry(LLVM::LLVMFuncOp body, ModuleOp module) {
  LLVM::LLVMFunctionType type = body.getFunctionType();
  unsigned numParams = type.getNumParams();
  if (numParams < tpx::kCPUGridArgCount)
    return body.emitError("kernel lacks the six grid arguments that "
                          "convert-tt-to-cpu adds");
  for (unsigned i = numParams - tpx::kCPUGridArgCount; i < numParams; ++i)
    if (!type.getParamType(i).isInteger(32))
      return body.emitError("kernel's trailing grid arguments are not i32");
  if (!isa<LLVM::LLVMVoidType>(type.getReturnType()))
    return body.emitError("kernel returns a value; kernels must return void");

  std::string name = body.getName().str();
  std::string bodyName = name + ".tpx_body";
  if (module.lookupSymbol(bodyName))
    return body.emitError("symbol '") << bodyName << "' already exists";
  if (failed(SymbolTable::replaceAllSymbolUses(
          body, StringAttr::get(module.getContext(), bodyName), module)))
    return body.emitError("cannot rename kernel body");
  body.setName(bodyName);
  body.setLinkage(LLVM::Linkage::Internal);
  body->removeAttr("tpx.kernel");

  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = body.getLoc();
  unsigned numUser = numParams - tpx::kCPUGridArgCount;
  SmallVector<Type> params(type.getParams().take_front(numUser));
  auto entry = LLVM::LLVMFuncOp::create(
      b, loc, name, LLVM::LLVMFunctionType::get(type.getReturnType(), params));
  entry->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  entry->setAttr("tpx.kernel", b.getUnitAttr());
  // The user arguments keep their attributes.
  if (ArrayAttr argAttrs = body.getArgAttrsAttr())
    entry.setArgAttrsAttr(
        b.getArrayAttr(argAttrs.getValue().take_front(numUser)));

  Block *start = entry.addEntryBlock(b);
  Block *run = entry.addBlock(), *exit = entry.addBlock();
  b.setInsertionPointToStart(start);
  Type i32 = b.getI32Type();
  Value zero = constantInt(b, loc, i32, 0);
  Value tid = LLVM::OrOp::create(
      b, loc,
      LLVM::OrOp::create(b, loc, readRegister<NVVM::ThreadIdXOp>(b, loc),
                         readRegister<NVVM::ThreadIdYOp>(b, loc)),
      readRegister<NVVM::ThreadIdZOp>(b, loc));
  Value first =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, tid, zero);
  LLVM::CondBrOp::create(b, loc, first, run, exit);

  b.setInsertionPointToStart(run);
  SmallVector<Value> args(start->getArguments());
  args.push_back(readRegister<NVVM::BlockIdXOp>(b, loc));
  args.push_back(readRegister<NVVM::BlockIdYOp>(b, loc));
  args.push_back(readRegister<NVVM::BlockIdZOp>(b, loc));
  args.push_back(readRegister<NVVM::GridDimXOp>(b, loc));
  args.push_back(readRegister<NVVM::GridDimYOp>(b, loc));
  args.push_back(readRegister<NVVM::GridDimZOp>(b, loc));
  LLVM::CallOp::create(b, loc, body, args);
  LLVM::BrOp::create(b, loc, exit);

  b.setInsertionPointToStart(exit);
  LLVM::ReturnOp::create(b, loc, ValueRange());
  return success();
}

namespace {
struct EmitKernelPass
    : public tpx::impl::TPXNVIDIAEmitKernelBase<EmitKernelPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<LLVM::LLVMFuncOp> kernels;
    bool failedCheck = false;
    module.walk([&](LLVM::LLVMFuncOp fn) {
      if (fn->hasAttr("tpx.kernel") && !fn.isExternal())
        kernels.push_back(fn);
      // A declaration nobody on the device defines would only fail later,
      // in ptxas, with a less helpful message.
      if (fn.isExternal() && !hasDeviceImplementation(fn.getName()) &&
          !SymbolTable::symbolKnownUseEmpty(fn, module)) {
        fn.emitError("kernel calls external function '")
            << fn.getName()
            << "', which has no device implementation on NVIDIA targets "
               "(only libdevice __nv_* functions, vprintf, malloc and free "
               "are available)";
        failedCheck = true;
      }
    });
    if (failedCheck)
      return signalPassFailure();
    if (kernels.empty()) {
      module.emitError("no kernel to emit: no llvm.func is marked tpx.kernel "
                       "(run convert-tt-to-cpu and the LLVM lowering first)");
      return signalPassFailure();
    }
    for (LLVM::LLVMFuncOp kernel : kernels)
      if (failed(emitEntry(kernel, module)))
        return signalPassFailure();
    // The launcher sizes the block from this: one thread per program.
    module->setAttr(tpx::tpxgpu::TPXGPUDialect::kBlockThreadsAttrName,
                    IntegerAttr::get(IntegerType::get(&getContext(), 32), 1));
  }
};
} // namespace
