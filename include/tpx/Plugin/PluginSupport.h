//===- PluginSupport.h - Header-only C++ layer for plugin authors -*- C++ -*-//
//
// Plugins implement the C ABI of tpx-c/Plugin.h; this header makes that
// pleasant from C++ without adding anything that crosses the boundary: it
// converts MLIR C-API handles with MLIR's inline unwrap()/wrap() helpers,
// reads typed pass options and DSL keywords by name, reports errors, and
// builds the static tables. It uses only libMLIR.so (which every plugin
// links) and nothing from libtpx.so. See docs/plugins.md.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_PLUGIN_PLUGINSUPPORT_H
#define TPX_PLUGIN_PLUGINSUPPORT_H

#include "tpx-c/Plugin.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Operation.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace tpx::plugin {

//===--- Values for the static tables ---------------------------------===//

inline TpxScalar intValue(int64_t value) {
  TpxScalar s{};
  s.kind = TPX_KIND_INT;
  s.intValue = value;
  return s;
}
inline TpxScalar floatValue(double value) {
  TpxScalar s{};
  s.kind = TPX_KIND_FLOAT;
  s.floatValue = value;
  return s;
}
inline TpxScalar boolValue(bool value) {
  TpxScalar s{};
  s.kind = TPX_KIND_BOOL;
  s.boolValue = value ? 1 : 0;
  return s;
}
/// `value` must outlive the plugin (a string literal).
inline TpxScalar stringValue(const char *value) {
  TpxScalar s{};
  s.kind = TPX_KIND_STRING;
  s.stringValue = value;
  return s;
}
/// A TYPE keyword's default, written as MLIR type text (e.g. "f32").
inline TpxScalar typeValue(const char *typeText) {
  TpxScalar s{};
  s.kind = TPX_KIND_TYPE;
  s.stringValue = typeText;
  return s;
}

//===--- Callbacks ----------------------------------------------------===//

/// Reports `message` and returns TPX_FAILURE: `return fail(reporter, ...)`.
inline TpxStatus fail(TpxReporter *reporter, const llvm::Twine &message) {
  std::string text = message.str();
  if (reporter && reporter->report)
    reporter->report(reporter->opaque, text.c_str());
  return TPX_FAILURE;
}

/// The value of pass option `name`, or null when the pass has none.
inline const TpxScalar *findOption(const TpxOptionValues *options,
                                   llvm::StringRef name) {
  for (size_t i = 0; options && i < options->count; ++i)
    if (name == options->declarations[i].name)
      return &options->values[i];
  return nullptr;
}
inline int64_t getInt(const TpxOptionValues *o, llvm::StringRef name) {
  const TpxScalar *v = findOption(o, name);
  return v ? v->intValue : 0;
}
inline double getFloat(const TpxOptionValues *o, llvm::StringRef name) {
  const TpxScalar *v = findOption(o, name);
  return v ? v->floatValue : 0.0;
}
inline bool getBool(const TpxOptionValues *o, llvm::StringRef name) {
  const TpxScalar *v = findOption(o, name);
  return v && v->boolValue;
}
inline llvm::StringRef getString(const TpxOptionValues *o,
                                 llvm::StringRef name) {
  const TpxScalar *v = findOption(o, name);
  return v && v->stringValue ? v->stringValue : "";
}

/// The keyword `name` of a DSL op call (the host passes every declared
/// keyword, defaults filled in), or null.
inline const TpxScalar *findKeyword(const TpxKeywordArg *kwargs, size_t count,
                                    llvm::StringRef name) {
  for (size_t i = 0; i < count; ++i)
    if (name == kwargs[i].name)
      return &kwargs[i].value;
  return nullptr;
}

/// A builder at the DSL op's insertion point.
inline mlir::OpBuilder makeBuilder(const TpxBuildContext *where) {
  mlir::OpBuilder builder(unwrap(where->context));
  if (mlirOperationIsNull(where->insertBefore))
    builder.setInsertionPointToEnd(unwrap(where->block));
  else
    builder.setInsertionPoint(unwrap(where->insertBefore));
  return builder;
}

/// A TpxRegisterDialectFn that inserts `Dialects...`.
template <typename... Dialects>
TpxStatus insertDialects(MlirDialectRegistry registry, void *, TpxReporter *) {
  unwrap(registry)->insert<Dialects...>();
  return TPX_SUCCESS;
}

/// A TpxDependentDialectsFn that inserts `Dialects...`.
template <typename... Dialects>
void dependOn(MlirDialectRegistry registry, void *) {
  unwrap(registry)->insert<Dialects...>();
}

} // namespace tpx::plugin

#endif // TPX_PLUGIN_PLUGINSUPPORT_H
