//===- DiagnosticText.h - MLIR diagnostics as error text -------*- C++ -*-===//
//
// Errors that tpx returns as text (the C API, pipeline stages) carry MLIR
// diagnostics rendered the way mlir-opt prints them, so that a front end
// can point at its own source: `file.py:12:8: error: message`, one line
// per diagnostic, then "called from" notes for a call-site location (code
// inlined from a tt.call) and one line per attached note. Unlike MLIR's
// SourceMgrDiagnosticHandler this never reads source files, so the text
// does not depend on the current directory.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_SUPPORT_DIAGNOSTICTEXT_H
#define TPX_SUPPORT_DIAGNOSTICTEXT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include "llvm/Support/raw_ostream.h"

namespace tpx {

inline llvm::StringRef getSeverityName(mlir::DiagnosticSeverity severity) {
  switch (severity) {
  case mlir::DiagnosticSeverity::Error:
    return "error";
  case mlir::DiagnosticSeverity::Warning:
    return "warning";
  case mlir::DiagnosticSeverity::Remark:
    return "remark";
  case mlir::DiagnosticSeverity::Note:
    return "note";
  }
  return "note";
}

/// `file:line:col: ` for the first file location inside `loc` (through
/// names, call sites and fusions), the location itself when it holds none,
/// nothing for an unknown location.
inline void printDiagnosticLocation(llvm::raw_ostream &os, mlir::Location loc) {
  if (auto file = loc->findInstanceOf<mlir::FileLineColLoc>()) {
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn() << ": ";
    return;
  }
  if (!llvm::isa<mlir::UnknownLoc>(loc))
    os << loc << ": ";
}

/// The innermost call site of `loc` looked through names, if it is one.
inline mlir::CallSiteLoc getCallSite(mlir::Location loc) {
  while (auto name = llvm::dyn_cast<mlir::NameLoc>(loc))
    loc = name.getChildLoc();
  return llvm::dyn_cast<mlir::CallSiteLoc>(loc);
}

/// Appends `diag` (and its notes) to `os`, one line each, no final newline.
inline void printDiagnostic(llvm::raw_ostream &os,
                            const mlir::Diagnostic &diag) {
  printDiagnosticLocation(os, diag.getLocation());
  os << getSeverityName(diag.getSeverity()) << ": " << diag;
  // An op inlined from a call: where it was called from (bounded, as in
  // MLIR, against pathological nesting).
  mlir::CallSiteLoc call = getCallSite(diag.getLocation());
  for (unsigned depth = 0; call && depth < 10; ++depth) {
    os << "\n";
    printDiagnosticLocation(os, call.getCaller());
    os << "note: called from";
    call = getCallSite(call.getCaller());
  }
  for (const mlir::Diagnostic &note : diag.getNotes()) {
    os << "\n";
    printDiagnosticLocation(os, note.getLocation());
    os << getSeverityName(note.getSeverity()) << ": " << note;
  }
}

} // namespace tpx

#endif // TPX_SUPPORT_DIAGNOSTICTEXT_H
