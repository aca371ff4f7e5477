//===- PTXEmitter.cpp - LLVM dialect -> PTX through the NVPTX backend -----===//
#include "PTXSymbolNames.h"
#include "tpx/Target/Common/LLVMBackendGuard.h"
#include "tpx/Target/Common/LLVMModuleChecks.h"
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <cstdlib>
#include <mutex>

// The NVPTX backend's initializers (exported by libLLVM.so; the generic
// InitializeAllTargets would also drag in every other backend).
extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();
extern "C" void LLVMInitializeNVPTXAsmPrinter();

using namespace tpx;

static constexpr const char *kTriple = "nvptx64-nvidia-cuda";
// PTX ISA 8.4 (CUDA 12.4): new enough for every sm_90a feature, old enough
// for any ptxas of CUDA 12.4 or later.
static constexpr const char *kPTXFeatures = "+ptx84";

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string tpx::getCUDAHome() {
  const char *home = std::getenv("CUDA_HOME");
  return home && *home ? home : "/usr/local/cuda";
}

/// Shared (and const, local) memory addresses are 32 bits wide on every
/// NVIDIA GPU; NVPTX's default data layout makes them 64-bit pointers, and
/// then every shared address computation in a loop (cp.async and wgmma
/// descriptor addresses, the staging stores) is two 32-bit SASS
/// instructions, plus conversions. NVPTX exposes the 32-bit layout only as
/// this option (its data layout follows it), set once for the process.
static void useShortSharedPointers() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("nvptx-short-ptr");
  if (it == options.end())
    return;
  if (auto *option = static_cast<llvm::cl::opt<bool> *>(it->second))
    option->setValue(true);
}

static std::unique_ptr<llvm::TargetMachine>
createTargetMachine(llvm::StringRef chip, std::string &error) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    useShortSharedPointers();
  });
  llvm::Triple triple(kTriple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, chip, kPTXFeatures, llvm::TargetOptions(), std::nullopt,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
}

/// Links libdevice into `module` when it calls any `__nv_*` function. Only
/// the functions used are linked; they are internalized afterwards.
static llvm::Error linkLibdevice(llvm::Module &module) {
  bool needed = llvm::any_of(module.functions(), [](llvm::Function &f) {
    return f.isDeclaration() && f.getName().starts_with("__nv_");
  });
  if (!needed)
    return llvm::Error::success();
  llvm::SmallString<256> path(getCUDAHome());
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError("libdevice not found at '" + path +
                     "' (the kernel uses libdevice math functions; set "
                     "CUDA_HOME to a CUDA toolkit): " +
                     buffer.getError().message());
  auto libdevice =
      llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), module.getContext());
  if (!libdevice)
    return makeError("cannot read libdevice '" + path +
                     "': " + llvm::toString(libdevice.takeError()));
  // libdevice's own triple ("nvptx64-nvidia-gpulibs") differs on purpose.
  (*libdevice)->setTargetTriple(module.getTargetTriple());
  (*libdevice)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(*libdevice),
                                llvm::Linker::LinkOnlyNeeded))
    return makeError("linking libdevice '" + path + "' failed");
  return llvm::Error::success();
}

/// A function that is declared but defined nowhere, other than the ones the
/// CUDA driver provides to PTX and LLVM intrinsics.
static llvm::Error checkUndefinedFunctions(llvm::Module &module) {
  for (llvm::Function &f : module.functions()) {
    if (!f.isDeclaration() || f.isIntrinsic() || f.use_empty())
      continue;
    llvm::StringRef name = f.getName();
    // __nvvm_reflect (libdevice's configuration queries) is folded by the
    // NVVMReflect pass of the NVPTX optimization pipeline.
    if (name == "vprintf" || name == "malloc" || name == "free" ||
        name == "__assertfail" || name == "__nvvm_reflect")
      continue;
    return makeError("the kernel calls '" + name +
                     "', which is defined neither in the module nor in "
                     "libdevice");
  }
  return llvm::Error::success();
}

/// Compiles `module` into `ptx`; runs under runLLVMGuarded.
static llvm::Error compileToPTX(mlir::ModuleOp module, llvm::StringRef chip,
                                llvm::SmallString<0> &ptx) {
  std::string error;
  auto machine = createTargetMachine(chip, error);
  if (!machine)
    return makeError("cannot create the NVPTX target machine for '" + chip +
                     "': " + error);

  llvm::LLVMContext llvmContext;
  std::string llvmErrors;
  collectLLVMErrors(llvmContext, llvmErrors);
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, llvmContext, "tpx_kernel");
  if (!llvmModule)
    return makeError("the module could not be translated to LLVM IR (is it "
                     "fully in the LLVM dialect? run the llir stage first)");
  llvmModule->setTargetTriple(machine->getTargetTriple());
  llvmModule->setDataLayout(machine->createDataLayout());
  if (auto err = nvidia::makeSymbolNamesValidForPTX(*llvmModule))
    return err;
  if (auto err = linkLibdevice(*llvmModule))
    return err;
  if (auto err = checkUndefinedFunctions(*llvmModule))
    return err;
  if (auto err = checkModuleForBackend(*llvmModule, chip))
    return err;
  // libdevice asks __nvvm_reflect("__CUDA_FTZ"); keep denormals (IEEE, as
  // on the CPU) rather than flushing them to zero.
  llvmModule->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                            uint32_t(0));
  // Everything but the kernels becomes internal, so that -O3 inlines the
  // body and drops what is unused.
  llvm::internalizeModule(*llvmModule, [](const llvm::GlobalValue &value) {
    auto *f = llvm::dyn_cast<llvm::Function>(&value);
    return f && f->getCallingConv() == llvm::CallingConv::PTX_Kernel;
  });

  auto optimize = mlir::makeOptimizingTransformer(3, 0, machine.get());
  if (llvm::Error err = optimize(llvmModule.get()))
    return err;
  if (llvm::Function *reflect = llvmModule->getFunction("__nvvm_reflect"))
    if (!reflect->use_empty())
      return makeError("__nvvm_reflect calls survived optimization (the "
                       "NVVMReflect pass did not run)");

  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, os, nullptr,
                                   llvm::CodeGenFileType::AssemblyFile))
    return makeError("the NVPTX backend cannot emit assembly");
  codegen.run(*llvmModule);
  if (!llvmErrors.empty())
    return makeError("LLVM could not compile the kernel to PTX: " + llvmErrors);
  return llvm::Error::success();
}

llvm::Expected<std::string> tpx::emitPTX(mlir::ModuleOp module,
                                         llvm::StringRef chip) {
  llvm::SmallString<0> ptx;
  if (auto error =
          runLLVMGuarded("compiling the kernel to PTX for " + chip.str(),
                         [&] { return compileToPTX(module, chip, ptx); }))
    return std::move(error);
  return std::string(ptx.str());
}
