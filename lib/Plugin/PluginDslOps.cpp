//===- PluginDslOps.cpp - Build a plugin's DSL op -------------------------===//
//
// The host checks a call against the op's declaration before the plugin
// sees it, so plugins get exactly their declared keywords, in order, with
// the declared kinds: unknown or missing keywords and wrong kinds are the
// caller's errors, reported here with the op's name.
//
//===----------------------------------------------------------------------===//
#include "tpx/Plugin/PluginRegistry.h"

#include "PluginCrashGuard.h"
#include "PluginPass.h"
#include "Plural.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"

using namespace tpx;
using llvm::Error;
using llvm::StringRef;

static Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static const char *kindName(TpxValueKind kind) {
  switch (kind) {
  case TPX_KIND_INT:
    return "int";
  case TPX_KIND_FLOAT:
    return "float";
  case TPX_KIND_BOOL:
    return "bool";
  case TPX_KIND_STRING:
    return "string";
  case TPX_KIND_TYPE:
    return "type";
  }
  return "unknown";
}

/// Converts a caller's value to the declared kind (int -> float is the one
/// widening allowed, as in Python) or reports the mismatch.
static Error coerce(const TpxKeywordInfo &declared, TpxScalar value,
                    mlir::MLIRContext *context, TpxScalar &out,
                    const llvm::Twine &op) {
  TpxValueKind want = declared.defaultValue.kind;
  if (want == TPX_KIND_FLOAT && value.kind == TPX_KIND_INT) {
    value.floatValue = static_cast<double>(value.intValue);
    value.kind = TPX_KIND_FLOAT;
  }
  if (value.kind != want)
    return makeError("DSL op '" + op + "': keyword '" + declared.name +
                     "' must be " + kindName(want) + ", got " +
                     kindName(value.kind));
  if ((want == TPX_KIND_STRING || want == TPX_KIND_TYPE) && !value.stringValue)
    return makeError("DSL op '" + op + "': keyword '" + declared.name +
                     "' has a null string");
  if (want == TPX_KIND_TYPE) {
    mlir::Type type =
        mlir::parseType(value.stringValue, context,
                        /*numRead=*/nullptr, /*isKnownNoEnd=*/false);
    if (!type)
      return makeError("DSL op '" + op + "': keyword '" + declared.name +
                       "': '" + value.stringValue + "' is not a type");
    value.typeValue = wrap(type);
  }
  out = value;
  return Error::success();
}

Error tpx::buildPluginDslOp(StringRef name, const TpxBuildContext &where,
                            llvm::ArrayRef<MlirValue> operands,
                            llvm::ArrayRef<TpxKeywordArg> kwargs,
                            llvm::SmallVectorImpl<MlirValue> &results) {
  const PluginDslOp *op = lookupPluginDslOp(name);
  if (!op)
    return makeError("unknown DSL op '" + name + "'");
  const TpxDslOpInfo &info = *op->info;
  mlir::MLIRContext *context = unwrap(where.context);
  if (!context || !unwrap(where.block))
    return makeError("DSL op '" + name +
                     "': the build context needs a "
                     "context and a block");
  if (info.numOperands >= 0 &&
      operands.size() != static_cast<size_t>(info.numOperands))
    return makeError("DSL op '" + name + "' takes " +
                     countOf(info.numOperands, "operand") + ", got " +
                     llvm::Twine(operands.size()));
  for (auto [i, operand] : llvm::enumerate(operands))
    if (!unwrap(operand))
      return makeError("DSL op '" + name + "': operand #" + llvm::Twine(i) +
                       " is null");

  llvm::SmallVector<TpxKeywordArg> complete(info.numKeywords);
  llvm::SmallVector<bool> given(info.numKeywords, false);
  for (const TpxKeywordArg &arg : kwargs) {
    StringRef argName = arg.name ? arg.name : "";
    size_t index = 0;
    while (index < info.numKeywords && argName != info.keywords[index].name)
      ++index;
    if (index == info.numKeywords)
      return makeError("DSL op '" + name + "' has no keyword '" + argName +
                       "'");
    if (given[index])
      return makeError("DSL op '" + name + "': keyword '" + argName +
                       "' given twice");
    given[index] = true;
    complete[index].name = info.keywords[index].name;
    if (Error error = coerce(info.keywords[index], arg.value, context,
                             complete[index].value, name))
      return error;
  }
  for (size_t i = 0; i < info.numKeywords; ++i) {
    if (given[i])
      continue;
    const TpxKeywordInfo &keyword = info.keywords[i];
    if (keyword.required)
      return makeError("DSL op '" + name + "' needs keyword '" + keyword.name +
                       "'");
    complete[i].name = keyword.name;
    if (Error error = coerce(keyword, keyword.defaultValue, context,
                             complete[i].value, name))
      return error;
  }

  // The op's builder may create ops of its plugin's dialects: load them now
  // (a context only registers plugin dialects; creating an op of an unloaded
  // dialect would abort inside MLIR).
  for (const LoadedPlugin *plugin : getLoadedPlugins()) {
    if (plugin->name != op->plugin)
      continue;
    const TpxPluginInfo *pluginInfo = plugin->file.info;
    for (size_t i = 0; i < pluginInfo->numDialects; ++i) {
      const char *dialect = pluginInfo->dialects[i].name;
      if (!context->getOrLoadDialect(dialect))
        return makeError("DSL op '" + name + "' of plugin '" + op->plugin +
                         "' needs dialect '" + dialect +
                         "', which this context does not register (create "
                         "it with tpxContextCreate after loading plugins)");
    }
  }

  // Generous room for results; the plugin reports how many it wrote.
  constexpr size_t kMaxResults = 16;
  MlirValue produced[kMaxResults] = {};
  size_t numProduced = 0;
  PluginReporter reporter;
  TpxStatus status = TPX_FAILURE;
  if (std::optional<std::string> crash = runGuarded([&] {
        status =
            info.build(&where, operands.data(), operands.size(),
                       complete.data(), complete.size(), produced, kMaxResults,
                       &numProduced, info.userData, reporter.get());
      }))
    return makeError("DSL op '" + name + "' of plugin '" + op->plugin +
                     "' crashed: " + *crash);
  if (status != TPX_SUCCESS)
    return makeError("DSL op '" + name + "' of plugin '" + op->plugin +
                     "' failed: " + reporter.str());
  if (numProduced > kMaxResults)
    return makeError("DSL op '" + name + "' of plugin '" + op->plugin +
                     "' reported " + countOf(numProduced, "result") +
                     ", more than the " + llvm::Twine(kMaxResults) +
                     " allowed");
  for (size_t i = 0; i < numProduced; ++i) {
    if (!unwrap(produced[i]))
      return makeError("DSL op '" + name + "' of plugin '" + op->plugin +
                       "' reported a null result #" + llvm::Twine(i));
    results.push_back(produced[i]);
  }
  return Error::success();
}
