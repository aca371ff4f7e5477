//===- LLVMBackendGuard.h - LLVM's fatal errors as llvm::Error --*- C++ -*-===//
//
// LLVM's optimizer and code generators report some bad input by ending the
// process (`report_fatal_error`: "Cannot select", "Invalid $ operand
// number", "Symbol name with unsupported characters", ...). tpx is a
// library and must never abort its host process, so every emitter runs its
// LLVM work under this guard, which turns such an error (or a crash) into
// an llvm::Error carrying LLVM's message. The checks of LLVMModuleChecks.h
// reject the known causes first, with better messages; the guard is the
// backstop for the rest.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_TARGET_COMMON_LLVMBACKENDGUARD_H
#define TPX_TARGET_COMMON_LLVMBACKENDGUARD_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class LLVMContext;
} // namespace llvm

namespace tpx {

/// Runs `work`; if LLVM reports a fatal error or the work crashes, returns
/// an error "<what>: LLVM failed: <message>" instead. Everything `work`
/// allocated is then leaked, not destroyed (its state is unknown): create
/// the LLVM context, module and target machine inside `work`.
llvm::Error runLLVMGuarded(llvm::StringRef what,
                           llvm::function_ref<llvm::Error()> work);

/// Makes `context` append the message of every error diagnostic to
/// `messages` ("; "-separated). LLVM's default handler would print it and
/// exit the process (bad inline assembly, say).
void collectLLVMErrors(llvm::LLVMContext &context, std::string &messages);

} // namespace tpx

#endif // TPX_TARGET_COMMON_LLVMBACKENDGUARD_H
