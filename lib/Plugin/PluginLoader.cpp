//===- PluginLoader.cpp - Open and validate one plugin file ---------------===//
#include "tpx/Plugin/PluginLoader.h"
#include "tpx/Plugin/PluginFileChecks.h"

#include "PluginCrashGuard.h"
#include "PluginTrialLoad.h"
#include "Plural.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <dlfcn.h>

using namespace tpx;
using llvm::Error;
using llvm::StringRef;

static Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

void tpx::printPluginWarning(const std::string &message) {
  llvm::errs() << "warning: " << message << "\n";
}

std::string tpx::sha256Hex(StringRef bytes) {
  auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(bytes));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

/// Texts longer than this are taken for unterminated garbage.
static constexpr size_t kMaxTextBytes = size_t(1) << 20;

/// Checks that an optional text field (a summary, a description, a string
/// default) is a terminated string. Reading it is the point: openPlugin
/// validates under a crash guard, so a wild pointer fails here, as an
/// error, rather than later wherever tpx first prints the text.
static Error checkText(const char *text, const llvm::Twine &what) {
  if (text && strnlen(text, kMaxTextBytes) == kMaxTextBytes)
    return makeError(what + " is not a NUL-terminated string");
  return Error::success();
}

static bool isKebabName(StringRef name) {
  return !name.empty() && llvm::isAlpha(name.front()) &&
         llvm::all_of(name, [](char c) {
           return llvm::isAlnum(c) || c == '-' || c == '_' || c == '.';
         });
}

static bool isIdentifier(StringRef name) {
  return !name.empty() &&
         (llvm::isAlpha(name.front()) || name.front() == '_') &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

static Error checkScalarKind(const TpxScalar &scalar, bool allowType,
                             const llvm::Twine &what) {
  switch (scalar.kind) {
  case TPX_KIND_INT:
  case TPX_KIND_FLOAT:
  case TPX_KIND_BOOL:
    return Error::success();
  case TPX_KIND_STRING:
    return checkText(scalar.stringValue, what + "'s default");
  case TPX_KIND_TYPE:
    if (allowType)
      return checkText(scalar.stringValue, what + "'s default");
    break;
  }
  return makeError(what + " has invalid kind " +
                   llvm::Twine(static_cast<int>(scalar.kind)));
}

static Error checkPass(const TpxPassInfo &pass, size_t index) {
  if (!pass.name || !isKebabName(pass.name))
    return makeError("pass #" + llvm::Twine(index) +
                     " has a null or malformed name (expected kebab-case)");
  StringRef name = pass.name;
  if (!pass.run)
    return makeError("pass '" + name + "' has a null run callback");
  if (Error error =
          checkText(pass.summary, "the summary of pass '" + name + "'"))
    return error;
  if (Error error =
          checkText(pass.anchorOp, "the anchor op of pass '" + name + "'"))
    return error;
  if (pass.numOptions && !pass.options)
    return makeError("pass '" + name + "' declares " +
                     countOf(pass.numOptions, "option") + " but no array");
  for (size_t i = 0; i < pass.numOptions; ++i) {
    const TpxPassOption &option = pass.options[i];
    if (!option.name || !isKebabName(option.name))
      return makeError("option #" + llvm::Twine(i) + " of pass '" + name +
                       "' has a null or malformed name");
    if (Error error =
            checkText(option.description, "the description of option '" +
                                              StringRef(option.name) +
                                              "' of pass '" + name + "'"))
      return error;
    if (Error error = checkScalarKind(option.defaultValue, /*allowType=*/false,
                                      "option '" + StringRef(option.name) +
                                          "' of pass '" + name + "'"))
      return error;
    for (size_t j = 0; j < i; ++j)
      if (StringRef(pass.options[j].name) == option.name)
        return makeError("pass '" + name + "' declares option '" + option.name +
                         "' twice");
  }
  return Error::success();
}

static Error checkDslOp(const TpxDslOpInfo &op, size_t index) {
  if (!op.name || !isIdentifier(op.name))
    return makeError("DSL op #" + llvm::Twine(index) +
                     " has a null or malformed name (expected an identifier)");
  StringRef name = op.name;
  if (!op.build)
    return makeError("DSL op '" + name + "' has a null build callback");
  if (Error error =
          checkText(op.summary, "the summary of DSL op '" + name + "'"))
    return error;
  if (op.numOperands < -1)
    return makeError("DSL op '" + name + "' has invalid numOperands " +
                     llvm::Twine(op.numOperands));
  if (op.numKeywords && !op.keywords)
    return makeError("DSL op '" + name + "' declares " +
                     countOf(op.numKeywords, "keyword") + " but no array");
  for (size_t i = 0; i < op.numKeywords; ++i) {
    const TpxKeywordInfo &keyword = op.keywords[i];
    if (!keyword.name || !isIdentifier(keyword.name))
      return makeError("keyword #" + llvm::Twine(i) + " of DSL op '" + name +
                       "' has a null or malformed name");
    if (Error error =
            checkText(keyword.description, "the description of keyword '" +
                                               StringRef(keyword.name) +
                                               "' of DSL op '" + name + "'"))
      return error;
    if (Error error = checkScalarKind(keyword.defaultValue, /*allowType=*/true,
                                      "keyword '" + StringRef(keyword.name) +
                                          "' of DSL op '" + name + "'"))
      return error;
  }
  return Error::success();
}

Error tpx::validatePluginInfo(const TpxPluginInfo *info) {
  if (!info)
    return makeError("tpxGetPluginInfo returned null");
  if (info->apiVersion != TPX_PLUGIN_API_VERSION)
    return makeError("plugin API version " + llvm::Twine(info->apiVersion) +
                     " is not supported (this tpx supports version " +
                     llvm::Twine(TPX_PLUGIN_API_VERSION) + ")");
  if (info->structSize < sizeof(TpxPluginInfo))
    return makeError("malformed plugin info: structSize is " +
                     llvm::Twine(info->structSize) + ", expected at least " +
                     llvm::Twine(sizeof(TpxPluginInfo)));
  if (!info->tpxVersion)
    return makeError("malformed plugin info: tpxVersion is null");
  {
    // Plugins see tpx's C++ headers, so major.minor must match exactly.
    llvm::SmallVector<StringRef> built, host;
    StringRef(info->tpxVersion).split(built, '.');
    StringRef(TPX_VERSION_STRING).split(host, '.');
    if (built.size() < 2 || built[0] != host[0] || built[1] != host[1])
      return makeError("built against tpx " + StringRef(info->tpxVersion) +
                       ", but this is tpx " TPX_VERSION_STRING
                       " (major.minor must match; rebuild the plugin)");
  }
  if (!info->name || !isKebabName(info->name))
    return makeError("malformed plugin info: plugin name is null or not a "
                     "name ([A-Za-z][A-Za-z0-9._-]*)");
  if (!info->version)
    return makeError("malformed plugin info: version of plugin '" +
                     StringRef(info->name) + "' is null");
  if (Error error = checkText(info->version, "malformed plugin info: version"))
    return error;
  auto checkArray = [](const void *array, size_t count, StringRef noun,
                       StringRef pluralNoun = "") -> Error {
    if (count && !array)
      return makeError(
          "malformed plugin info: " + countOf(count, noun, pluralNoun) +
          " declared but the array is null");
    return Error::success();
  };
  if (Error error = checkArray(info->passes, info->numPasses, "pass", "passes"))
    return error;
  if (Error error = checkArray(info->dialects, info->numDialects, "dialect"))
    return error;
  if (Error error = checkArray(info->dslOps, info->numDslOps, "DSL op"))
    return error;
  if (Error error = checkArray(info->extensions, info->numExtensions,
                               "pipeline extension"))
    return error;
  for (size_t i = 0; i < info->numPasses; ++i)
    if (Error error = checkPass(info->passes[i], i))
      return error;
  for (size_t i = 0; i < info->numDialects; ++i) {
    const TpxDialectInfo &dialect = info->dialects[i];
    if (!dialect.name || !isIdentifier(dialect.name))
      return makeError("dialect #" + llvm::Twine(i) +
                       " has a null or malformed name");
    if (!dialect.registerDialect)
      return makeError("dialect '" + StringRef(dialect.name) +
                       "' has a null registration callback");
  }
  for (size_t i = 0; i < info->numDslOps; ++i)
    if (Error error = checkDslOp(info->dslOps[i], i))
      return error;
  for (size_t i = 0; i < info->numExtensions; ++i) {
    const TpxPipelineExtensionInfo &extension = info->extensions[i];
    if (!extension.name || !isKebabName(extension.name))
      return makeError("pipeline extension #" + llvm::Twine(i) +
                       " has a null or malformed name");
    if (!extension.apply)
      return makeError("pipeline extension '" + StringRef(extension.name) +
                       "' has a null apply callback");
    if (Error error =
            checkText(extension.summary, "the summary of pipeline extension '" +
                                             StringRef(extension.name) + "'"))
      return error;
  }
  return Error::success();
}

llvm::Expected<std::optional<OpenedPlugin>>
tpx::openPlugin(StringRef path, const PluginWarningHandler &warn) {
  auto prefixed = [&](Error error) {
    return makeError(path + ": " + llvm::toString(std::move(error)));
  };
  OpenedPlugin plugin;
  plugin.path = path.str();
  {
    // The one read of the file: the ELF checks and the content hash see the
    // same bounded bytes (PluginFileChecks.h says why nothing else reads).
    auto buffer = readPluginFile(path);
    if (!buffer)
      return prefixed(buffer.takeError());
    StringRef bytes = (*buffer)->getBuffer();
    if (Error error = checkPluginElf(bytes))
      return prefixed(std::move(error));
    plugin.contentHash = sha256Hex(bytes);
  }
  // Front ends find what a plugin ships beside it from this path
  // (tpxGetPluginPath), so it is absolute even if resolving links fails.
  llvm::SmallString<256> realPath;
  if (llvm::sys::fs::real_path(path, realPath)) {
    realPath = path;
    llvm::sys::fs::make_absolute(realPath);
  }
  plugin.realPath = std::string(realPath);

  // Broken code (which no check of the file can see) crashes a throwaway
  // process, not this one.
  if (std::optional<std::string> why = trialLoadPlugin(plugin.realPath))
    return makeError(path + ": " + *why);

  // Failed plugins are never dlclose'd: their static constructors may have
  // registered things (command-line options, TypeIDs) that must outlive us.
  dlerror();
  void *handle = dlopen(plugin.realPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *message = dlerror();
    return makeError(path + ": cannot load shared library: " +
                     (message ? message : "unknown dlopen error"));
  }
  plugin.handle = handle;
  void *entry = dlsym(handle, TPX_PLUGIN_ENTRY_SYMBOL);
  if (!entry) {
    if (dlsym(handle, "tritonGetPluginInfo")) {
      warn(path.str() +
           ": exports Triton's 'tritonGetPluginInfo' but not "
           "'tpxGetPluginInfo'; skipped (a Triton plugin is not a tpx plugin)");
      return std::optional<OpenedPlugin>();
    }
    return makeError(path + ": no entry symbol '" TPX_PLUGIN_ENTRY_SYMBOL
                            "' (not a tpx plugin)");
  }
  auto getInfo = reinterpret_cast<TpxGetPluginInfoFn>(entry);
  if (std::optional<std::string> crash =
          runGuarded([&] { plugin.info = getInfo(); }))
    return makeError(path + ": " TPX_PLUGIN_ENTRY_SYMBOL " crashed: " + *crash);
  // The info is the plugin's memory: a wild pointer in it must not take the
  // process down either.
  std::string problem;
  if (std::optional<std::string> crash = runGuarded([&] {
        if (Error error = validatePluginInfo(plugin.info))
          problem = llvm::toString(std::move(error));
      }))
    return makeError(path + ": reading the plugin info crashed (" + *crash +
                     "): a pointer in it is invalid");
  if (!problem.empty())
    return makeError(path + ": " + problem);
  return std::optional<OpenedPlugin>(std::move(plugin));
}
