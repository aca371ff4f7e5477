//===- LLVMModuleChecks.cpp - what an LLVM backend can compile ------------===//
#include "tpx/Target/Common/LLVMModuleChecks.h"
#include "tpx/Support/InlineAsmOperands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace tpx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Operands `$N` can name: outputs and inputs, not clobbers.
static unsigned countAsmOperands(const llvm::InlineAsm &assembly) {
  unsigned count = 0;
  for (const llvm::InlineAsm::ConstraintInfo &constraint :
       assembly.ParseConstraints())
    if (constraint.Type != llvm::InlineAsm::isClobber)
      ++count;
  return count;
}

/// The architecture part of a target intrinsic's name ("x86" in
/// "llvm.x86.sse2.pause"), if `name` is `llvm.<arch>.*` for an architecture
/// LLVM knows.
static std::optional<llvm::StringRef> getIntrinsicArch(llvm::StringRef name) {
  if (!name.consume_front("llvm."))
    return std::nullopt;
  llvm::StringRef prefix = name.split('.').first;
  static const char *const kArchPrefixes[] = {
      "aarch64",   "amdgcn", "arm",  "bpf",  "dx",   "hexagon",
      "loongarch", "mips",   "nvvm", "ppc",  "r600", "riscv",
      "s390",      "spv",    "ve",   "wasm", "x86",  "xcore"};
  for (const char *arch : kArchPrefixes)
    if (prefix == arch)
      return prefix;
  return std::nullopt;
}

/// Math intrinsics the NVPTX backend has no instruction and no library for
/// (it would ask for a libcall that does not exist on the device): on
/// NVIDIA, math becomes libdevice calls in the llir stage instead.
static bool isMathWithoutNVPTXLowering(llvm::StringRef name) {
  static const char *const kMath[] = {
      "exp", "exp10", "log",  "log10", "pow",   "powi", "sin",  "cos",
      "tan", "asin",  "acos", "atan",  "atan2", "sinh", "cosh", "tanh"};
  if (!name.consume_front("llvm."))
    return false;
  llvm::StringRef base = name.split('.').first;
  return llvm::is_contained(kMath, base);
}

llvm::Error tpx::checkModuleForBackend(const llvm::Module &module,
                                       llvm::StringRef target) {
  llvm::Triple triple(module.getTargetTriple());
  llvm::StringRef ownArch = llvm::Triple::getArchTypePrefix(triple.getArch());
  for (const llvm::Function &function : module.functions()) {
    llvm::StringRef name = function.getName();
    if (function.isDeclaration() && name.starts_with("llvm.")) {
      if (auto arch = getIntrinsicArch(name); arch && *arch != ownArch)
        return makeError("the kernel calls the " + *arch + " intrinsic '" +
                         name + "', which target '" + target + "' (" +
                         triple.getArchName() + ") cannot compile");
      if (!function.isIntrinsic())
        return makeError("the kernel calls '" + name +
                         "', which is not an LLVM intrinsic");
      if (triple.isNVPTX() && !function.use_empty() &&
          isMathWithoutNVPTXLowering(name))
        return makeError(
            "the kernel calls '" + name + "', which target '" + target +
            "' has no instruction for: on NVIDIA, math must become libdevice "
            "calls (the llir stage's tpx-nvidia-math-to-libdevice pass, "
            "before convert-math-to-llvm, is missing from the pipeline?)");
    }
    for (const llvm::Instruction &instruction : llvm::instructions(function)) {
      auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
      if (!call || !call->isInlineAsm())
        continue;
      auto *assembly = llvm::cast<llvm::InlineAsm>(call->getCalledOperand());
      unsigned operands = countAsmOperands(*assembly);
      if (auto bad =
              findBadAsmOperandReference(assembly->getAsmString(), operands))
        return makeError(
            "inline assembly in '" + name + "' refers to operand $" +
            (*bad == ~0u ? std::string("<huge>") : std::to_string(*bad)) +
            ", but has " + std::to_string(operands) + " operand" +
            (operands == 1 ? "" : "s") + ": \"" + assembly->getAsmString() +
            "\"");
    }
  }
  return llvm::Error::success();
}
