//===- LLVMBackendGuard.cpp - LLVM's fatal errors as llvm::Error ----------===//
#include "tpx/Target/Common/LLVMBackendGuard.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <mutex>

using namespace tpx;

/// The message of the fatal error the guarded work on this thread hit;
/// null outside guarded work.
static thread_local std::string *guardedMessage = nullptr;

/// One process-wide handler (LLVM has one slot); it acts only for threads
/// inside runLLVMGuarded. For any other thread it prints what LLVM's
/// default handler prints, and LLVM then ends the process as it would have.
static void handleFatalError(void *, const char *reason, bool) {
  if (guardedMessage) {
    *guardedMessage = reason;
    if (llvm::CrashRecoveryContext *context =
            llvm::CrashRecoveryContext::GetCurrent())
      context->HandleExit(1); // unwinds to RunSafely; does not return
  }
  llvm::errs() << "LLVM ERROR: " << reason << "\n";
}

llvm::Error tpx::runLLVMGuarded(llvm::StringRef what,
                                llvm::function_ref<llvm::Error()> work) {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::CrashRecoveryContext::Enable();
    llvm::install_fatal_error_handler(handleFatalError, nullptr);
  });
  std::string message;
  std::string *outer = guardedMessage;
  guardedMessage = &message;
  llvm::Error result = llvm::Error::success();
  llvm::CrashRecoveryContext context;
  bool finished = context.RunSafely([&] {
    // The Error is created inside and moved out only on normal return.
    llvm::Error error = work();
    result = std::move(error);
  });
  guardedMessage = outer;
  if (finished)
    return result;
  // `result` was never assigned, so it is still the success value.
  llvm::consumeError(std::move(result));
  if (message.empty())
    message =
        llvm::CrashRecoveryContext::isCrash(context.RetCode) &&
                context.RetCode > 128
            ? "crashed: " + std::string(strsignal(context.RetCode - 128)) +
                  " (signal " + std::to_string(context.RetCode - 128) + ")"
            : "stopped with exit code " + std::to_string(context.RetCode);
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 what + ": LLVM failed: " + message);
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

void tpx::collectLLVMErrors(llvm::LLVMContext &context, std::string &messages) {
  context.setDiagnosticHandler(
      std::make_unique<CollectingDiagnosticHandler>(messages));
}
