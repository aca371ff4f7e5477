//===- PluginTrialLoad.cpp - load a plugin in a throwaway process ---------===//
#include "PluginTrialLoad.h"

#include "tpx-c/Plugin.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace tpx;

/// How long the child may take: loading a plugin is milliseconds.
static constexpr auto kTrialTimeout = std::chrono::seconds(20);

/// The child: default signal actions (no stack dumps from the host's
/// handlers), no output, then dlopen, the entry symbol, dlclose. Only
/// _exit: the host's atexit handlers and destructors are not the child's.
[[noreturn]] static void runTrial(const char *path) {
  for (int signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP})
    std::signal(signal, SIG_DFL);
  int null = open("/dev/null", O_WRONLY);
  if (null >= 0) {
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
  }
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    _exit(0); // the parent's own dlopen reports why
  if (void *entry = dlsym(handle, TPX_PLUGIN_ENTRY_SYMBOL))
    (void)reinterpret_cast<TpxGetPluginInfoFn>(entry)();
  dlclose(handle); // runs the plugin's finalizers
  _exit(0);
}

std::optional<std::string> tpx::trialLoadPlugin(llvm::StringRef path) {
  if (const char *enabled = std::getenv("TPX_PLUGIN_TRIAL_LOAD"))
    if (std::strcmp(enabled, "0") == 0)
      return std::nullopt;
  std::string file = path.str();
  pid_t child = fork();
  if (child < 0)
    return std::nullopt; // no trial possible; the checks before still ran
  if (child == 0)
    runTrial(file.c_str());

  auto deadline = std::chrono::steady_clock::now() + kTrialTimeout;
  int status = 0;
  while (true) {
    pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child)
      break;
    if (done < 0 && errno != EINTR)
      return std::nullopt;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return std::string("loading it did not finish within 20 s in a trial "
                         "process (a hanging initializer?); not loaded");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (WIFSIGNALED(status))
    return "it crashed while being loaded, queried and unloaded in a trial "
           "process (" +
           std::string(strsignal(WTERMSIG(status))) + ", signal " +
           std::to_string(WTERMSIG(status)) +
           "): its initializers, entry symbol or finalizers are broken; "
           "not loaded";
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    return "it ended a trial process with exit code " +
           std::to_string(WEXITSTATUS(status)) +
           " while being loaded (a plugin must not exit); not loaded";
  return std::nullopt;
}
