//===- CPUObjectEmitter.cpp - LLVM dialect -> host object file ------------===//
#include "tpx/Pipeline/StageEmitter.h"
#include "tpx/Runtime/CPULauncher.h"
#include "tpx/Target/CPU/CPUTarget.h"
#include "tpx/Target/Common/LLVMBackendGuard.h"
#include "tpx/Target/Common/LLVMModuleChecks.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>
#include <mutex>

using namespace tpx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // tt.elementwise_inline_asm becomes LLVM inline assembly.
    llvm::InitializeNativeTargetAsmParser();
  });
}

std::string tpx::getCPUArch() {
  const char *arch = std::getenv("TPX_CPU_ARCH");
  return arch && *arch ? arch : "host";
}

std::string tpx::getCPUTargetDescription() {
  std::string arch = getCPUArch();
  std::string description = llvm::sys::getProcessTriple() + "/";
  if (arch != "host")
    return description + arch;
  description += llvm::sys::getHostCPUName().str();
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    if (feature.second)
      description += "+" + feature.first().str();
  return description;
}

/// The target machine builder for $TPX_CPU_ARCH: the host CPU with all its
/// features, or a named CPU of the host's architecture with only that
/// CPU's features ("x86-64" is the baseline every x86-64 machine runs).
static llvm::Expected<llvm::orc::JITTargetMachineBuilder>
getTargetMachineBuilder() {
  std::string arch = getCPUArch();
  if (arch == "host")
    return llvm::orc::JITTargetMachineBuilder::detectHost();
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return makeError("no LLVM target for the host triple '" + triple.str() +
                     "': " + error);
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, arch, ""));
  if (!subtarget || !subtarget->isCPUStringValid(arch))
    return makeError("TPX_CPU_ARCH='" + arch + "' is not a CPU of " +
                     triple.getArchName() +
                     " that LLVM knows (use 'host', or a CPU name such as "
                     "x86-64, x86-64-v3 or znver4)");
  llvm::orc::JITTargetMachineBuilder builder(triple);
  builder.setCPU(arch);
  return builder;
}

/// Every symbol the object leaves undefined must be one the CPU runtime
/// defines or the process provides (libc, libm) when the kernel is linked;
/// otherwise the kernel would compile and fail only when it is loaded.
static llvm::Error checkUndefinedSymbols(llvm::StringRef object) {
  auto file = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(object, "kernel.o"));
  if (!file)
    return makeError("the emitted object cannot be read back: " +
                     llvm::toString(file.takeError()));
  static std::once_flag processSymbols;
  std::call_once(processSymbols, [] {
    llvm::sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
  });
  for (const llvm::object::SymbolRef &symbol : (*file)->symbols()) {
    auto flags = symbol.getFlags();
    if (!flags || !(*flags & llvm::object::SymbolRef::SF_Undefined))
      continue;
    auto name = symbol.getName();
    if (!name)
      return makeError("the emitted object has an unreadable symbol: " +
                       llvm::toString(name.takeError()));
    if (name->empty() || *name == "_GLOBAL_OFFSET_TABLE_" ||
        isDefinedByCPURuntime(*name) ||
        llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(name->str()))
      continue;
    return makeError("the kernel calls '" + *name +
                     "', which is defined neither in the kernel, nor by the "
                     "tpx CPU runtime, nor by the process's libraries (an "
                     "unknown extern_elementwise symbol?)");
  }
  return llvm::Error::success();
}

/// Compiles `module` into `object`; runs under runLLVMGuarded.
static llvm::Error compileToObject(mlir::ModuleOp module,
                                   llvm::SmallString<0> &object) {
  auto builder = getTargetMachineBuilder();
  if (!builder)
    return builder.takeError();
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  // Position independent: the runtime links objects anywhere in memory.
  builder->setRelocationModel(llvm::Reloc::PIC_);
  auto machine = builder->createTargetMachine();
  if (!machine)
    return machine.takeError();

  llvm::LLVMContext llvmContext;
  // LLVM's default handler exits the process on an error (bad inline
  // assembly, say); collect the messages and return them instead.
  std::string llvmErrors;
  collectLLVMErrors(llvmContext, llvmErrors);
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, llvmContext, "tpx_kernel");
  if (!llvmModule)
    return makeError("the module could not be translated to LLVM IR (is it "
                     "fully in the LLVM dialect? run the llir stage first)");
  llvmModule->setDataLayout((*machine)->createDataLayout());
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  if (auto error = checkModuleForBackend(*llvmModule, "cpu"))
    return error;

  // -O3 lets LLVM's loop vectorizer work on the element loops.
  auto optimize = mlir::makeOptimizingTransformer(3, 0, machine->get());
  if (llvm::Error error = optimize(llvmModule.get()))
    return error;

  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  if ((*machine)->addPassesToEmitFile(codegen, os, nullptr,
                                      llvm::CodeGenFileType::ObjectFile))
    return makeError("the host target cannot emit object files");
  codegen.run(*llvmModule);
  if (!llvmErrors.empty())
    return makeError("LLVM could not compile the kernel for the host: " +
                     llvmErrors);
  return llvm::Error::success();
}

llvm::Expected<std::string> tpx::emitCPUObject(mlir::ModuleOp module) {
  initializeNativeTarget();
  llvm::SmallString<0> object;
  if (auto error = runLLVMGuarded("compiling the kernel for the CPU", [&] {
        return compileToObject(module, object);
      }))
    return std::move(error);
  if (auto error = checkUndefinedSymbols(object))
    return std::move(error);
  return std::string(object.str());
}

void tpx::registerCPUTarget() { registerBuiltinTargetBackends(); }
