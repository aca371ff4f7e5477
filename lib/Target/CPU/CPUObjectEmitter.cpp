//===- CPUObjectEmitter.cpp - LLVM dialect -> host object file ------------===//
#include "tpx/Target/CPU/CPUTarget.h"
#include "tpx/Pipeline/StageEmitter.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

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

namespace {
/// Keeps LLVM's error diagnostics (the default handler would exit).
struct CollectingDiagnosticHandler : public llvm::DiagnosticHandler {
  explicit CollectingDiagnosticHandler(std::string &messages)
      : messages(messages) {}
  bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
    if (info.getSeverity() != llvm::DS_Error)
      return true;
    llvm::raw_string_ostream os(messages);
    llvm::DiagnosticPrinterRawOStream printer(os);
    if (!messages.empty())
      os << "; ";
    info.print(printer);
    return true;
  }
  std::string &messages;
};
} // namespace

std::string tpx::getHostCPUDescription() {
  std::string description = llvm::sys::getProcessTriple() + "/" +
                            llvm::sys::getHostCPUName().str();
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    if (feature.second)
      description += "+" + feature.first().str();
  return description;
}

llvm::Expected<std::string> tpx::emitCPUObject(mlir::ModuleOp module) {
  initializeNativeTarget();
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
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
  llvmContext.setDiagnosticHandler(
      std::make_unique<CollectingDiagnosticHandler>(llvmErrors));
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, llvmContext, "tpx_kernel");
  if (!llvmModule)
    return makeError("the module could not be translated to LLVM IR (is it "
                     "fully in the LLVM dialect? run the llir stage first)");
  llvmModule->setDataLayout((*machine)->createDataLayout());
  llvmModule->setTargetTriple((*machine)->getTargetTriple());

  // -O3 lets LLVM's loop vectorizer work on the element loops.
  auto optimize = mlir::makeOptimizingTransformer(3, 0, machine->get());
  if (llvm::Error error = optimize(llvmModule.get()))
    return std::move(error);

  llvm::SmallString<0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  if ((*machine)->addPassesToEmitFile(codegen, os, nullptr,
                                      llvm::CodeGenFileType::ObjectFile))
    return makeError("the host target cannot emit object files");
  codegen.run(*llvmModule);
  if (!llvmErrors.empty())
    return makeError("LLVM could not compile the kernel for the host: " +
                     llvmErrors);
  return std::string(object.str());
}

namespace {
struct CPUObjectEmitter : public StageEmitter {
  llvm::Expected<std::string> emit(const EmitterInput &input) override {
    return emitCPUObject(input.module);
  }
};
} // namespace

void tpx::registerCPUTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerStageEmitter("cpu", "obj", std::make_unique<CPUObjectEmitter>());
  });
}
