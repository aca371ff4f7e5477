//===- PluginRegistry.cpp - Check names, register, commit -----------------===//
#include "tpx/Plugin/PluginRegistry.h"
#include "tpx/Pipeline/PipelineExtension.h"
#include "tpx/Plugin/PluginFileChecks.h"
#include "tpx/Registration/TpxRegistration.h"

#include "PluginCrashGuard.h"
#include "PluginDialectInlining.h"
#include "PluginPass.h"
#include "PluginPipelineEditor.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <deque>
#include <mutex>

using namespace tpx;
using llvm::Error;
using llvm::StringRef;

static Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

namespace {
struct RegistryState {
  std::recursive_mutex mutex;
  std::vector<std::unique_ptr<LoadedPlugin>> plugins;
  mlir::DialectRegistry dialects;
  /// Dialect namespace -> provider ("tpx" or a plugin name).
  llvm::StringMap<std::string> dialectOwners;
  std::deque<PluginDslOp> dslOps; // deque: lookups hand out pointers
  /// Pass argument -> plugin, for messages about clashes between plugins.
  llvm::StringMap<std::string> passOwners;
  /// Per plugin pass: the names of its options.
  llvm::StringMap<std::vector<std::string>> passOptions;
};
} // namespace

static RegistryState &getState() {
  static RegistryState *state = [] {
    auto *state = new RegistryState(); // never freed: plugins stay loaded
    mlir::DialectRegistry builtin;
    registerTpxDialects(builtin);
    for (StringRef name : builtin.getDialectNames())
      state->dialectOwners[name] = "tpx";
    state->dialectOwners["builtin"] = "tpx";
    return state;
  }();
  return *state;
}

/// Rejects every name of `info` that clashes with tpx, with a loaded
/// plugin, or within the plugin itself.
static Error checkNamesAreFree(RegistryState &state,
                               const TpxPluginInfo &info) {
  StringRef plugin = info.name;
  for (const auto &loaded : state.plugins)
    if (loaded->name == plugin)
      return makeError("duplicate plugin name '" + plugin +
                       "': already loaded from " + loaded->file.path);
  // Each kind of name: none declared twice by the plugin, none already
  // taken (`takenBy` says by whom, as the end of the message, or "").
  auto check = [&](StringRef kind, auto names, auto takenBy) -> Error {
    llvm::StringSet<> seen;
    for (StringRef name : names) {
      if (!seen.insert(name).second)
        return makeError("duplicate " + kind + " name '" + name +
                         "': declared twice by plugin '" + plugin + "'");
      std::string owner = takenBy(name);
      if (!owner.empty())
        return makeError("duplicate " + kind + " name '" + name +
                         "': " + owner);
    }
    return Error::success();
  };
  auto namesOf = [](const auto *items, size_t count) {
    std::vector<StringRef> names;
    for (size_t i = 0; i < count; ++i)
      names.push_back(items[i].name);
    return names;
  };
  if (Error error = check(
          "pass", namesOf(info.passes, info.numPasses),
          [&](StringRef name) -> std::string {
            auto owner = state.passOwners.find(name);
            if (owner != state.passOwners.end())
              return "already registered by plugin '" + owner->second + "'";
            if (mlir::PassInfo::lookup(name) ||
                mlir::PassPipelineInfo::lookup(name))
              return "a tpx or MLIR pass is already registered under it";
            return "";
          }))
    return error;
  if (Error error = check("dialect", namesOf(info.dialects, info.numDialects),
                          [&](StringRef name) -> std::string {
                            auto owner = state.dialectOwners.find(name);
                            if (owner == state.dialectOwners.end())
                              return "";
                            return "already provided by " +
                                   (owner->second == "tpx"
                                        ? std::string("tpx")
                                        : "plugin '" + owner->second + "'");
                          }))
    return error;
  if (Error error = check("DSL op", namesOf(info.dslOps, info.numDslOps),
                          [&](StringRef name) -> std::string {
                            for (const PluginDslOp &op : state.dslOps)
                              if (name == op.info->name)
                                return "already provided by plugin '" +
                                       op.plugin + "'";
                            return "";
                          }))
    return error;
  if (Error error = check(
          "pipeline extension", namesOf(info.extensions, info.numExtensions),
          [&](StringRef name) -> std::string {
            if (const PipelineExtension *existing =
                    lookupPipelineExtension(name))
              return "already provided by '" + existing->provider + "'";
            return "";
          }))
    return error;
  return Error::success();
}

/// Runs the dialect callbacks into a scratch registry, so that a failing
/// callback leaves the real one untouched.
static Error registerDialects(const TpxPluginInfo &info,
                              mlir::DialectRegistry &scratch) {
  for (size_t i = 0; i < info.numDialects; ++i) {
    const TpxDialectInfo &dialect = info.dialects[i];
    mlir::DialectRegistry one;
    PluginReporter reporter;
    TpxStatus status = TPX_FAILURE;
    if (std::optional<std::string> crash = runGuarded([&] {
          status = dialect.registerDialect(wrap(&one), dialect.userData,
                                           reporter.get());
        }))
      return makeError("registration callback of dialect '" +
                       StringRef(dialect.name) + "' crashed: " + *crash);
    if (status != TPX_SUCCESS)
      return makeError("registration callback of dialect '" +
                       StringRef(dialect.name) + "' failed: " + reporter.str());
    if (!llvm::is_contained(one.getDialectNames(), StringRef(dialect.name)))
      return makeError("registration callback of dialect '" +
                       StringRef(dialect.name) +
                       "' did not register a dialect with that namespace");
    one.appendTo(scratch);
  }
  return Error::success();
}

static Error loadOneFile(StringRef path, const PluginWarningHandler &warn) {
  RegistryState &state = getState();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  llvm::SmallString<256> realPath;
  if (!llvm::sys::fs::real_path(path, realPath))
    for (const auto &loaded : state.plugins)
      if (loaded->file.realPath == realPath)
        return Error::success(); // The same file again: nothing to do.

  auto opened = openPlugin(path, warn);
  if (!opened)
    return opened.takeError();
  if (!*opened)
    return Error::success(); // Skipped with a warning.
  OpenedPlugin &file = **opened;
  const TpxPluginInfo &info = *file.info;
  auto prefixed = [&](Error error) {
    return makeError(path + ": " + llvm::toString(std::move(error)));
  };
  if (Error error = checkNamesAreFree(state, info))
    return prefixed(std::move(error));
  mlir::DialectRegistry scratch;
  if (Error error = registerDialects(info, scratch))
    return prefixed(std::move(error));

  // Commit. Nothing below can fail: every name was checked above.
  auto plugin = std::make_unique<LoadedPlugin>();
  plugin->name = info.name;
  plugin->version = info.version;
  plugin->file = std::move(file);
  for (size_t i = 0; i < info.numPasses; ++i) {
    registerPluginPass(plugin->name, info.passes[i]);
    state.passOwners[info.passes[i].name] = plugin->name;
    std::vector<std::string> &options = state.passOptions[info.passes[i].name];
    for (size_t o = 0; o < info.passes[i].numOptions; ++o)
      options.push_back(info.passes[i].options[o].name);
  }
  scratch.appendTo(state.dialects);
  for (size_t i = 0; i < info.numDialects; ++i)
    state.dialectOwners[info.dialects[i].name] = plugin->name;
  for (size_t i = 0; i < info.numDslOps; ++i)
    state.dslOps.push_back({plugin->name, &info.dslOps[i]});
  for (size_t i = 0; i < info.numExtensions; ++i) {
    const TpxPipelineExtensionInfo *extension = &info.extensions[i];
    PipelineExtension entry;
    entry.name = extension->name;
    entry.summary = extension->summary ? extension->summary : "";
    entry.provider = plugin->name;
    entry.apply = [extension](Pipeline &pipeline) {
      return applyPluginPipelineExtension(*extension, pipeline);
    };
    llvm::cantFail(registerPipelineExtension(std::move(entry)));
  }
  state.plugins.push_back(std::move(plugin));
  return Error::success();
}

Error tpx::loadPlugin(StringRef path, const PluginWarningHandler &warn) {
  if (!llvm::sys::fs::is_directory(path))
    return loadOneFile(path, warn);
  // A directory: every *.so in it, sorted so the load order is stable. An
  // entry that is not a regular file (a FIFO, a device, a directory, a
  // dangling link) cannot be a plugin and is skipped with a warning rather
  // than failing the whole folder; it is never opened. A regular *.so that
  // is not a valid plugin is an error, as when named directly.
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (llvm::sys::path::extension(it->path()) != ".so")
      continue;
    llvm::sys::fs::file_status status;
    if (std::error_code statError =
            llvm::sys::fs::status(it->path(), status, /*Follow=*/true)) {
      warn(it->path() + ": skipped: cannot stat: " + statError.message());
      continue;
    }
    if (std::optional<std::string> kind = describeNonRegularFile(status)) {
      warn(it->path() + ": skipped: not a regular file (" + *kind + ")");
      continue;
    }
    files.push_back(it->path());
  }
  if (ec)
    return makeError(path + ": cannot list directory: " + ec.message());
  llvm::sort(files);
  for (const std::string &file : files)
    if (Error error = loadOneFile(file, warn))
      return error;
  return Error::success();
}

Error tpx::loadPluginPaths(StringRef paths, const PluginWarningHandler &warn) {
  llvm::SmallVector<StringRef> entries;
  paths.split(entries, ':', -1, /*KeepEmpty=*/false);
  for (StringRef entry : entries)
    if (Error error = loadPlugin(entry, warn))
      return error;
  return Error::success();
}

Error tpx::loadPluginsFromEnvironment(const PluginWarningHandler &warn) {
  const char *paths = std::getenv("TRITON_PLUGIN_PATHS");
  if (!paths)
    return Error::success();
  return loadPluginPaths(paths, warn);
}

std::vector<const LoadedPlugin *> tpx::getLoadedPlugins() {
  RegistryState &state = getState();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  std::vector<const LoadedPlugin *> plugins;
  for (const auto &plugin : state.plugins)
    plugins.push_back(plugin.get());
  return plugins;
}

const LoadedPlugin *tpx::findPluginOfPass(StringRef argument) {
  RegistryState &state = getState();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  auto owner = state.passOwners.find(argument);
  if (owner == state.passOwners.end())
    return nullptr;
  for (const auto &plugin : state.plugins)
    if (plugin->name == owner->second)
      return plugin.get();
  return nullptr;
}

bool tpx::pluginPassHasOption(StringRef pass, StringRef option) {
  RegistryState &state = getState();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  auto options = state.passOptions.find(pass);
  return options != state.passOptions.end() &&
         llvm::is_contained(options->second, option);
}

void tpx::appendPluginDialects(mlir::DialectRegistry &registry) {
  RegistryState &state = getState();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  state.dialects.appendTo(registry);
  addMissingDialectHint(registry);
  addPluginDialectInlining(registry, [](StringRef dialect) {
    RegistryState &state = getState();
    std::lock_guard<std::recursive_mutex> lock(state.mutex);
    auto owner = state.dialectOwners.find(dialect);
    return owner != state.dialectOwners.end() && owner->second != "tpx";
  });
}

std::vector<PluginDslOp> tpx::getPluginDslOps() {
  RegistryState &state = getState();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  return std::vector<PluginDslOp>(state.dslOps.begin(), state.dslOps.end());
}

const PluginDslOp *tpx::lookupPluginDslOp(StringRef name) {
  RegistryState &state = getState();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  for (const PluginDslOp &op : state.dslOps)
    if (name == op.info->name)
      return &op;
  return nullptr;
}
