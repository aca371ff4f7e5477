//===- StageRunner.cpp - One stage's passes in a PassManager --------------===//
#include "StageRunner.h"
#include "DiagnosticCollector.h"

#include "tpx/Plugin/PluginRegistry.h"

#include "mlir/Pass/PassRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace tpx;
using llvm::Error;
using llvm::StringRef;

static Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Adds the canonical file of every plugin whose pass `entries` (nested
/// pipelines included) name.
static void collectPluginFiles(llvm::ArrayRef<PassEntry> entries,
                               std::vector<std::string> &files) {
  for (const PassEntry &entry : entries) {
    if (entry.isNested) {
      auto nested = PassEntry::parseList(entry.nested);
      if (nested)
        collectPluginFiles(*nested, files);
      else
        llvm::consumeError(nested.takeError());
      continue;
    }
    if (const LoadedPlugin *plugin = findPluginOfPass(entry.name))
      if (!llvm::is_contained(files, plugin->file.realPath))
        files.push_back(plugin->file.realPath);
  }
}

/// Adds `entries` to `pm` the way MlirOptMain adds command-line passes: a
/// pass through its registry entry, into a pass manager with implicit
/// nesting, so that a pass anchored on another op than `pm`'s is nested
/// under that op. (MLIR's textual pipeline parser forces explicit nesting
/// and rejects such a pass with "did you intend to nest?".) Nested entries
/// like `tt.func(...)` get a nested pass manager that nests the same way.
/// Errors name the entry.
static Error addEntries(mlir::OpPassManager &pm,
                        llvm::ArrayRef<PassEntry> entries) {
  pm.setNesting(mlir::OpPassManager::Nesting::Implicit);
  for (const PassEntry &entry : entries) {
    auto fail = [&](const llvm::Twine &message) {
      return makeError("entry '" + entry.str() + "': " + message);
    };
    if (entry.isNested) {
      auto nested = PassEntry::parseList(entry.nested);
      if (!nested)
        return fail(llvm::toString(nested.takeError()));
      mlir::OpPassManager &nestedPm =
          entry.name == "any" ? pm.nestAny() : pm.nest(entry.name);
      if (Error error = addEntries(nestedPm, *nested))
        return error;
      continue;
    }
    const mlir::PassRegistryEntry *registered =
        mlir::PassInfo::lookup(entry.name);
    if (!registered)
      registered = mlir::PassPipelineInfo::lookup(entry.name);
    if (!registered)
      return fail("'" + entry.name +
                  "' does not refer to a registered pass or pass pipeline");
    std::string message;
    if (mlir::failed(registered->addToPipeline(
            pm, entry.options, [&](const llvm::Twine &error) {
              message = llvm::StringRef(error.str()).trim().str();
              return mlir::failure();
            }))) {
      // Plugin passes name themselves (PluginPass.cpp); MLIR's own messages
      // name no pass, and for a bad value LLVM's option parser prints its
      // message to stderr and passes nothing on.
      if (llvm::StringRef(message).starts_with("invalid options for pass"))
        return fail(message);
      llvm::StringRef reason = llvm::StringRef(message).trim();
      reason.consume_front("<Pass-Options-Parser>: ");
      return fail("invalid options for pass '" + entry.name + "': " +
                  (reason.empty() ? "cannot parse '" + entry.options + "'"
                                  : reason.str()));
    }
  }
  return Error::success();
}

llvm::Expected<StagePassManager>
StagePassManager::build(const Stage &stage, mlir::MLIRContext *context) {
  StagePassManager built;
  built.stageName = stage.name;
  built.passManager =
      std::make_unique<mlir::PassManager>(context, stage.anchor);
  if (Error error = addEntries(*built.passManager, stage.passes))
    return makeError("stage '" + stage.name + "': invalid pass pipeline '" +
                     stage.pipelineString() +
                     "': " + llvm::toString(std::move(error)));
  collectPluginFiles(stage.passes, built.pluginFiles);
  return std::move(built);
}

namespace {
/// Where MLIR's crash reproducer writes: the file, or for every failure
/// after the first of one run, nowhere.
class ReproducerStream : public mlir::ReproducerStream {
public:
  /// Writes to `fd` (owned).
  ReproducerStream(std::string path, int fd)
      : path(std::move(path)),
        file(std::make_unique<llvm::raw_fd_ostream>(fd, /*shouldClose=*/true)) {
  }
  /// Discards what MLIR writes; `path` holds the first failure's reproducer.
  explicit ReproducerStream(std::string path) : path(std::move(path)) {}
  /// A reproducer is best effort: a failed write (a full disk) must not end
  /// the process, which the stream's destructor would do.
  ~ReproducerStream() override {
    if (file) {
      file->close();
      file->clear_error();
    }
  }
  StringRef description() override { return path; }
  llvm::raw_ostream &os() override { return file ? *file : llvm::nulls(); }

private:
  std::string path;
  std::unique_ptr<llvm::raw_fd_ostream> file;
};
} // namespace

/// Where reproducers go: RunOptions::reproducerDir, else
/// $TPX_REPRODUCER_DIR, else the system temporary directory.
static std::string getReproducerDirectory(const RunOptions &options) {
  if (!options.reproducerDir.empty())
    return options.reproducerDir;
  if (const char *dir = std::getenv("TPX_REPRODUCER_DIR"); dir && *dir)
    return dir;
  llvm::SmallString<128> temp;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, temp);
  return std::string(temp);
}

/// Makes `<dir>/<stem>.reproducer-XXXXXX.mlir` when MLIR asks for a stream
/// (only on failure) and records its path in `written`. MLIR asks once per
/// failing pass run (a pass that fails on several functions, or first from
/// its instrumentation and then again when the run ends); the first failure
/// is the one to replay, so later ones are not written again.
static mlir::ReproducerStreamFactory
makeReproducerFactory(std::string directory, std::string stem,
                      std::string &written) {
  return [directory, stem, &written](
             std::string &error) -> std::unique_ptr<mlir::ReproducerStream> {
    if (!written.empty())
      return std::make_unique<ReproducerStream>(written);
    if (std::error_code ec = llvm::sys::fs::create_directories(directory)) {
      error = directory + ": cannot create: " + ec.message();
      return nullptr;
    }
    llvm::SmallString<256> model(directory);
    llvm::sys::path::append(model, stem + ".reproducer-%%%%%%.mlir");
    int fd = -1;
    llvm::SmallString<256> path;
    if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, path)) {
      error = std::string(model) + ": cannot create: " + ec.message();
      return nullptr;
    }
    written = std::string(path);
    return std::make_unique<ReproducerStream>(written, fd);
  };
}

Error StagePassManager::run(mlir::ModuleOp module, const RunOptions &options,
                            StringRef kernel) {
  mlir::MLIRContext *context = module.getContext();
  DiagnosticCollector diagnostics(context);
  std::string reproducer;
  // Plugin passes are the code tpx cannot vouch for: a stage that runs one
  // keeps a copy of the IR before each pass (MLIR's local reproducer), so a
  // failure or a crash (which the plugin pass turns into a failure) leaves
  // a file that replays just that pass. MLIR makes local reproducers only
  // without threads; the context gets its threading back afterwards.
  bool reproduce = options.crashReproducers && !pluginFiles.empty();
  bool restoreThreading = reproduce && context->isMultithreadingEnabled();
  if (restoreThreading)
    context->disableMultithreading();
  llvm::scope_exit restore([&] {
    if (restoreThreading)
      context->disableMultithreading(false);
  });
  if (reproduce)
    passManager->enableCrashReproducerGeneration(
        makeReproducerFactory(getReproducerDirectory(options),
                              (kernel + "." + stageName).str(), reproducer),
        /*genLocalReproducer=*/true);

  if (mlir::succeeded(passManager->run(module)))
    return Error::success();
  std::string message = "stage '" + stageName + "' failed";
  if (!diagnostics.str().empty())
    message += ":\n" + diagnostics.str();
  if (!reproducer.empty())
    message +=
        "\nreplay: tpx-opt --load-plugin=" + llvm::join(pluginFiles, ":") +
        " --run-reproducer " + reproducer;
  return makeError(message);
}
