//===- AMDGCNEmitter.cpp - LLVM dialect -> AMDGCN assembly ----------------===//
//
// The `amdgcn` stage: the module after llir (LLVM dialect with ROCDL ops) is
// translated to LLVM IR for amdgcn-amd-amdhsa, gets the ROCm device
// libraries it calls, is optimized at -O3 with everything but the kernels
// internal, and the AMDGPU backend prints it as assembly for the chip.
//
//===----------------------------------------------------------------------===//
#include "AMDGPUTargetInit.h"
#include "DeviceLibs.h"
#include "tpx/Target/AMD/AMDTarget.h"
#include "tpx/Target/Common/LLVMBackendGuard.h"
#include "tpx/Target/Common/LLVMModuleChecks.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/Internalize.h"

using namespace tpx;

/// Code object v5, what ROCm 5.x and later load; the device libraries'
/// `__oclc_ABI_version` is the same number.
static constexpr unsigned kCodeObjectVersion = 500;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static bool isKernel(const llvm::Function &f) {
  return f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL;
}

/// A function that is declared but defined nowhere other than LLVM
/// intrinsics: the HSA runtime resolves no external functions.
static llvm::Error checkUndefinedFunctions(llvm::Module &module) {
  for (llvm::Function &f : module.functions()) {
    if (!f.isDeclaration() || f.isIntrinsic() || f.use_empty())
      continue;
    return makeError("the kernel calls '" + f.getName() +
                     "', which is defined neither in the module nor in the "
                     "ROCm device libraries");
  }
  return llvm::Error::success();
}

/// The code-object version the module asks for (a module flag the lowering
/// may set), or v5, which then becomes the module's.
static unsigned getCodeObjectVersion(llvm::Module &module) {
  if (auto *flag = llvm::mdconst::extract_or_null<llvm::ConstantInt>(
          module.getModuleFlag("amdhsa_code_object_version")))
    return static_cast<unsigned>(flag->getZExtValue());
  module.addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version",
                       kCodeObjectVersion);
  return kCodeObjectVersion;
}

/// Compiles `module` for `chip` into assembly; runs under runLLVMGuarded.
static llvm::Error compileToAMDGCN(mlir::ModuleOp module, llvm::StringRef chip,
                                   llvm::SmallString<0> &assembly) {
  auto target = amd::getAMDGPUTarget(chip);
  if (!target)
    return target.takeError();
  // No features beyond the chip's own: gfx9 chips default to wave64.
  std::unique_ptr<llvm::TargetMachine> machine((*target)->createTargetMachine(
      llvm::Triple(amd::kAMDGPUTriple), chip, /*Features=*/"",
      llvm::TargetOptions(), std::nullopt, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return makeError("cannot create the AMDGPU target machine for '" + chip +
                     "'");

  llvm::LLVMContext llvmContext;
  std::string llvmErrors;
  collectLLVMErrors(llvmContext, llvmErrors);
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, llvmContext, "tpx_kernel");
  if (!llvmModule)
    return makeError("the module could not be translated to LLVM IR (is it "
                     "fully in the LLVM dialect with ROCDL ops? run the llir "
                     "stage first)");
  llvmModule->setTargetTriple(machine->getTargetTriple());
  llvmModule->setDataLayout(machine->createDataLayout());
  if (llvm::none_of(llvmModule->functions(), [](llvm::Function &f) {
        return isKernel(f) && !f.isDeclaration();
      }))
    return makeError("the module has no kernel (an llvm.func with the "
                     "rocdl.kernel attribute): the llir stage must lower the "
                     "kernel to ROCDL");
  unsigned codeObjectVersion = getCodeObjectVersion(*llvmModule);
  bool wave64 =
      machine->getMCSubtargetInfo()->checkFeatures("+wavefrontsize64");
  if (auto error =
          amd::linkDeviceLibs(*llvmModule, chip, wave64, codeObjectVersion))
    return error;
  if (auto error = checkUndefinedFunctions(*llvmModule))
    return error;
  if (auto error = checkModuleForBackend(*llvmModule, chip))
    return error;
  // Everything but the kernels becomes internal, so that -O3 inlines the
  // device-library functions and drops what is unused.
  llvm::internalizeModule(*llvmModule, [](const llvm::GlobalValue &value) {
    auto *f = llvm::dyn_cast<llvm::Function>(&value);
    return f && isKernel(*f);
  });

  auto optimize = mlir::makeOptimizingTransformer(3, 0, machine.get());
  if (llvm::Error error = optimize(llvmModule.get()))
    return error;

  llvm::raw_svector_ostream os(assembly);
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, os, nullptr,
                                   llvm::CodeGenFileType::AssemblyFile))
    return makeError("the AMDGPU backend cannot emit assembly");
  codegen.run(*llvmModule);
  if (!llvmErrors.empty())
    return makeError("LLVM could not compile the kernel for " + chip + ": " +
                     llvmErrors);
  return llvm::Error::success();
}

llvm::Expected<std::string> tpx::amd::emitAMDGCN(mlir::ModuleOp module,
                                                 llvm::StringRef chip) {
  llvm::SmallString<0> assembly;
  if (auto error = runLLVMGuarded(
          "compiling the kernel to AMDGCN for " + chip.str(),
          [&] { return compileToAMDGCN(module, chip, assembly); }))
    return std::move(error);
  return std::string(assembly.str());
}

namespace {
/// The module after the llir stage -> AMDGCN assembly.
struct AMDGCNStageEmitter : public StageEmitter {
  llvm::Expected<std::string> emit(const EmitterInput &input) override {
    return amd::emitAMDGCN(input.module, input.target);
  }
  bool producesText() const override { return true; }
};
} // namespace

std::unique_ptr<StageEmitter> tpx::amd::createAMDGCNStageEmitter() {
  return std::make_unique<AMDGCNStageEmitter>();
}
