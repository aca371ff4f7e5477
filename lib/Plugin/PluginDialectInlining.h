//===- PluginDialectInlining.h - plugin ops may be inlined ------*- C++ -*-===//
#ifndef TPX_LIB_PLUGIN_PLUGINDIALECTINLINING_H
#define TPX_LIB_PLUGIN_PLUGINDIALECTINLINING_H

#include "llvm/ADT/StringRef.h"

#include <functional>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tpx {

/// Makes contexts made from `registry` treat the ops of every dialect for
/// which `isPluginDialect` holds as legal to inline, unless the dialect
/// registers its own DialectInlinerInterface.
void addPluginDialectInlining(
    mlir::DialectRegistry &registry,
    std::function<bool(llvm::StringRef)> isPluginDialect);

} // namespace tpx

#endif // TPX_LIB_PLUGIN_PLUGINDIALECTINLINING_H
