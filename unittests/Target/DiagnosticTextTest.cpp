//===- DiagnosticTextTest.cpp - diagnostics rendered as error text -------===//
#include "tpx/Support/DiagnosticText.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

/// Emits an error at `loc` (with the notes `addNotes` attaches) and returns
/// it as tpx renders it.
template <typename NotesFn>
std::string render(MLIRContext &context, Location loc, NotesFn addNotes) {
  std::string text;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    llvm::raw_string_ostream os(text);
    tpx::printDiagnostic(os, diag);
    return success();
  });
  InFlightDiagnostic diag = emitError(loc, "bad thing");
  addNotes(diag);
  diag.report();
  return text;
}

std::string render(MLIRContext &context, Location loc) {
  return render(context, loc, [](InFlightDiagnostic &) {});
}

TEST(DiagnosticText, FileLocationsAsMlirOptPrintsThem) {
  MLIRContext context;
  Location file = FileLineColLoc::get(&context, "k.py", 12, 8);
  EXPECT_EQ(render(context, file), "k.py:12:8: error: bad thing");
  // Names (Triton's argument locations) and fusions are looked through.
  Location named = NameLoc::get(StringAttr::get(&context, "x"), file);
  EXPECT_EQ(render(context, named), "k.py:12:8: error: bad thing");
  Location fused = FusedLoc::get(&context, {UnknownLoc::get(&context), file});
  EXPECT_EQ(render(context, fused), "k.py:12:8: error: bad thing");
  // Nothing to point at: no prefix, or the location as MLIR prints it.
  EXPECT_EQ(render(context, UnknownLoc::get(&context)), "error: bad thing");
  EXPECT_EQ(render(context, NameLoc::get(StringAttr::get(&context, "x"))),
            "loc(\"x\"): error: bad thing");
}

TEST(DiagnosticText, NotesAndCallSitesOnLinesOfTheirOwn) {
  MLIRContext context;
  Location callee = FileLineColLoc::get(&context, "lib.py", 3, 4);
  Location caller = FileLineColLoc::get(&context, "k.py", 20, 9);
  Location inlined = CallSiteLoc::get(callee, caller);
  EXPECT_EQ(render(context, inlined,
                   [&](InFlightDiagnostic &diag) {
                     diag.attachNote(caller) << "the value comes from here";
                     diag.attachNote() << "no location";
                   }),
            "lib.py:3:4: error: bad thing\n"
            "k.py:20:9: note: called from\n"
            "k.py:20:9: note: the value comes from here\n"
            "lib.py:3:4: note: no location");
}

} // namespace
