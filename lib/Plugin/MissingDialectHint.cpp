//===- MissingDialectHint.cpp - "is this a plugin's dialect?" -------------===//
//
// A kernel that uses a plugin's dialect without the plugin loaded fails in
// MLIR's parser with a generic message ("Dialect `oot' not found for custom
// op 'oot.axpy'", "operation being parsed with an unregistered dialect")
// that suggests -allow-unregistered-dialect rather than the real fix. A
// diagnostic handler recognises those messages and adds a hint naming
// --load-plugin and TRITON_PLUGIN_PATHS, for every tool and the C API.
//
// The handler must run before the tool's own printing handler, i.e. be
// registered after it (handlers run newest first), yet tools and MLIR's
// MlirOptMain create their contexts and handlers themselves. So it is
// installed by a dialect extension when the tt dialect (or func) loads,
// which the parser does at the kernel's first op, after the tool set up its
// handlers. A file whose unknown op comes before any tt or func op gets
// MLIR's message alone.
//
//===----------------------------------------------------------------------===//
#include "tpx/Plugin/PluginRegistry.h"

#include "tpx/Dialect/TT/IR/TTDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"

using namespace tpx;
using llvm::StringRef;

/// Present in every hint, so that a diagnostic gets it once even when
/// several handlers are installed.
static constexpr StringRef kHintMarker = "is not registered by tpx";

/// The hint for an unregistered-dialect error, or "" for other messages.
static std::string getHint(StringRef message) {
  // "Dialect `oot' not found for custom op 'oot.axpy' "
  if (message.consume_front("Dialect `")) {
    StringRef name = message.take_until([](char c) { return c == '\''; });
    if (name.empty() || !message.drop_front(name.size())
                             .starts_with("' not found for custom op"))
      return "";
    return "(dialect '" + name.str() + "' " + kHintMarker.str() +
           " or by any loaded plugin: if a plugin provides it, load the "
           "plugin with --load-plugin=FILE or TRITON_PLUGIN_PATHS)";
  }
  // Generic ops, types and attributes of a dialect nobody registered.
  if (message.contains("unregistered dialect"))
    return "(its dialect " + kHintMarker.str() +
           " or by any loaded plugin: if a plugin provides it, load the "
           "plugin with --load-plugin=FILE or TRITON_PLUGIN_PATHS)";
  return "";
}

static void installHintHandler(mlir::MLIRContext *context) {
  context->getDiagEngine().registerHandler([](mlir::Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error) {
      std::string message = diag.str();
      if (!StringRef(message).contains(kHintMarker)) {
        std::string hint = getHint(StringRef(message).trim());
        if (!hint.empty())
          diag << (StringRef(message).ends_with(" ") ? "" : " ") << hint;
      }
    }
    // Not handled: the tool's own handler prints the (amended) diagnostic.
    return mlir::failure();
  });
}

void tpx::addMissingDialectHint(mlir::DialectRegistry &registry) {
  registry.addExtension(+[](mlir::MLIRContext *context, tt::TTDialect *) {
    installHintHandler(context);
  });
  registry.addExtension(
      +[](mlir::MLIRContext *context, mlir::func::FuncDialect *) {
        installHintHandler(context);
      });
}
