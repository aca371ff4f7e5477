//===- PluginCrashGuard.cpp - Calls into plugin code that may crash -------===//
#include "PluginCrashGuard.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Signals.h"

#include <string.h>

using namespace tpx;

static void doNothingOnSignal(void *) {}

std::optional<std::string>
tpx::runGuarded(llvm::function_ref<void()> callback) {
  // Crash recovery's signal handlers must sit on top of LLVM's own (the
  // stack trace printer of InitLLVM), whichever a tool sets up first: LLVM
  // installs its handlers only once, so registering them now (adding a
  // callback does that) keeps a tool that calls InitLLVM after loading
  // plugins from burying ours, which would print a stack dump before every
  // recovered crash. A crash outside plugin code still reaches LLVM's
  // handlers: recovery re-raises signals it has no context for.
  static const bool llvmHandlersRegistered =
      (llvm::sys::AddSignalHandler(doNothingOnSignal, nullptr), true);
  (void)llvmHandlersRegistered;
  // Enabled on every call: MLIR's crash reproducer disables crash recovery
  // whenever its last reproducer context ends.
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext context;
  if (context.RunSafely(callback))
    return std::nullopt;
  // RetCode is 128 + the signal for a signal (as a shell reports it), or the
  // exit code of a fatal error that exited.
  if (context.RetCode > 128) {
    int signal = context.RetCode - 128;
    const char *name = strsignal(signal);
    return std::string(name ? name : "signal") + " (signal " +
           std::to_string(signal) + ")";
  }
  return "a fatal error (exit code " + std::to_string(context.RetCode) + ")";
}
