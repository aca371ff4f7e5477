//===- PluginLoader.cpp - Open and validate one plugin file ---------------===//
#include "tpx/Plugin/PluginLoader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

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

/// Checks the ELF header ourselves: dlopen's message for a text file
/// ("invalid ELF header" or worse) does not say what is wrong clearly.
static Error checkSharedLibrary(StringRef bytes) {
  if (bytes.size() < 18 || !bytes.starts_with("\x7f"
                                              "ELF"))
    return makeError("not a shared library (no ELF header)");
  // e_type is a 16-bit field at offset 16, in the file's byte order.
  bool littleEndian = bytes[5] == 1;
  uint16_t type = littleEndian ? uint8_t(bytes[16]) | (uint8_t(bytes[17]) << 8)
                               : (uint8_t(bytes[16]) << 8) | uint8_t(bytes[17]);
  constexpr uint16_t kSharedObject = 3; // ET_DYN
  if (type != kSharedObject)
    return makeError("not a shared library (ELF file of type " +
                     llvm::Twine(type) + ", expected ET_DYN)");
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
  case TPX_KIND_STRING:
    return Error::success();
  case TPX_KIND_TYPE:
    if (allowType)
      return Error::success();
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
  if (pass.numOptions && !pass.options)
    return makeError("pass '" + name + "' declares " +
                     llvm::Twine(pass.numOptions) + " options but no array");
  for (size_t i = 0; i < pass.numOptions; ++i) {
    const TpxPassOption &option = pass.options[i];
    if (!option.name || !isKebabName(option.name))
      return makeError("option #" + llvm::Twine(i) + " of pass '" + name +
                       "' has a null or malformed name");
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
  if (op.numOperands < -1)
    return makeError("DSL op '" + name + "' has invalid numOperands " +
                     llvm::Twine(op.numOperands));
  if (op.numKeywords && !op.keywords)
    return makeError("DSL op '" + name + "' declares " +
                     llvm::Twine(op.numKeywords) + " keywords but no array");
  for (size_t i = 0; i < op.numKeywords; ++i) {
    const TpxKeywordInfo &keyword = op.keywords[i];
    if (!keyword.name || !isIdentifier(keyword.name))
      return makeError("keyword #" + llvm::Twine(i) + " of DSL op '" + name +
                       "' has a null or malformed name");
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
  auto checkArray = [](const void *array, size_t count,
                       StringRef what) -> Error {
    if (count && !array)
      return makeError("malformed plugin info: " + llvm::Twine(count) + " " +
                       what + " declared but the array is null");
    return Error::success();
  };
  if (Error error = checkArray(info->passes, info->numPasses, "passes"))
    return error;
  if (Error error = checkArray(info->dialects, info->numDialects, "dialects"))
    return error;
  if (Error error = checkArray(info->dslOps, info->numDslOps, "DSL ops"))
    return error;
  if (Error error =
          checkArray(info->extensions, info->numExtensions, "extensions"))
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
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    std::error_code ec = buffer.getError();
    if (ec == std::errc::no_such_file_or_directory)
      return makeError(path + ": no such file or directory");
    return makeError(path + ": cannot read: " + ec.message());
  }
  if (Error error = checkSharedLibrary((*buffer)->getBuffer()))
    return prefixed(std::move(error));
  plugin.contentHash = sha256Hex((*buffer)->getBuffer());
  llvm::SmallString<256> realPath;
  if (llvm::sys::fs::real_path(path, realPath))
    realPath = path;
  plugin.realPath = std::string(realPath);

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
  plugin.info = getInfo();
  if (Error error = validatePluginInfo(plugin.info))
    return prefixed(std::move(error));
  return std::optional<OpenedPlugin>(std::move(plugin));
}
