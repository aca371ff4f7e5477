//===- DiagnosticCollector.h - Diagnostics of a stage as text ---*- C++ -*-===//
//
// Internal to lib/Pipeline. Collects the diagnostics emitted while a stage
// runs, so that the error returned to the caller carries them (a C API
// caller has no stderr).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_PIPELINE_DIAGNOSTICCOLLECTOR_H
#define TPX_LIB_PIPELINE_DIAGNOSTICCOLLECTOR_H

#include "tpx/Support/DiagnosticText.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tpx {

class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext *context)
      : handler(context, [this](mlir::Diagnostic &diag) {
          llvm::raw_string_ostream os(text);
          if (!text.empty())
            os << "\n";
          printDiagnostic(os, diag);
          return mlir::success();
        }) {}
  const std::string &str() const { return text; }

private:
  std::string text;
  mlir::ScopedDiagnosticHandler handler;
};

} // namespace tpx

#endif // TPX_LIB_PIPELINE_DIAGNOSTICCOLLECTOR_H
