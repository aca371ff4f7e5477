//===- DslFunctionCAPI.cpp - tpxBuildDslOpFunction ------------------------===//
//
// A front end that builds its kernel as text (the Python package) cannot
// hand tpxBuildDslOp the MLIR values it needs. Instead it asks for the op
// wrapped in a private tt.func over block arguments of the operand types,
// pastes that function into its module and emits a tt.call; the `inline`
// pass at the start of the ttir stage puts the op's IR in place of the
// call. The op is built by the same code as tpxBuildDslOp, so keyword
// checks, defaults and plugin errors are the same.
//
//===----------------------------------------------------------------------===//
#include "tpx-c/Tpx.h"

#include "CAPIUtils.h"

#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Plugin/PluginRegistry.h"
#include "tpx/Support/DiagnosticText.h"
#include "tpx/Support/SourceNesting.h"
#include "tpx/Target/Common/LLVMBackendGuard.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace tpx;
using namespace tpx::capi;
using llvm::Twine;

namespace {

/// Builds one function; the state of one tpxBuildDslOpFunction call.
class DslFunctionBuilder {
public:
  DslFunctionBuilder(llvm::StringRef opName)
      : opName(opName), context(createContext()),
        handler(context.get(), [this](mlir::Diagnostic &diag) {
          record(diag);
          return mlir::success();
        }) {
    context->getOrLoadDialect<tt::TTDialect>();
  }

  llvm::Expected<std::string> build(llvm::ArrayRef<const char *> operandTypes,
                                    llvm::ArrayRef<TpxKeywordArg> kwargs,
                                    llvm::StringRef functionName,
                                    const char *location);

private:
  llvm::Error error(const Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "DSL op '" + opName + "': " + message);
  }
  /// Keeps a diagnostic in both forms (see takeDiagnostics).
  void record(const mlir::Diagnostic &diag) {
    llvm::raw_string_ostream full(diagnostics);
    if (!diagnostics.empty())
      full << "\n";
    printDiagnostic(full, diag);
    // The parser names its buffer after the text it parses; the column is
    // what says where in it the problem is.
    llvm::raw_string_ostream brief(parseErrors);
    if (!parseErrors.empty())
      brief << "; ";
    brief << diag;
    if (auto at = diag.getLocation()->findInstanceOf<mlir::FileLineColLoc>())
      brief << " (at column " << at.getColumn() << ")";
  }
  /// The diagnostics reported since the last call: rendered as for any
  /// error, or (`ofParser`) as "message (at column N)" each.
  std::string takeDiagnostics(bool ofParser = false) {
    std::string text = ofParser ? parseErrors : diagnostics;
    diagnostics.clear();
    parseErrors.clear();
    return text;
  }
  llvm::Expected<mlir::Type> parseOperandType(size_t index, const char *text);
  llvm::Expected<mlir::Location> parseLocation(const char *text);

  std::string opName;
  std::unique_ptr<mlir::MLIRContext> context;
  std::string diagnostics, parseErrors;
  mlir::ScopedDiagnosticHandler handler;
};

} // namespace

llvm::Expected<mlir::Type>
DslFunctionBuilder::parseOperandType(size_t index, const char *text) {
  std::string what = "operand #" + std::to_string(index) + " type";
  if (!text)
    return error(what + " is null");
  if (auto deep = findExcessiveNesting(text))
    return error(what + " '" + text + "' is not a type: " + *deep);
  mlir::Type type;
  // MLIR's parser can crash on some malformed input: guarded.
  if (llvm::Error crash = runLLVMGuarded("parsing a type", [&] {
        type = mlir::parseType(text, context.get());
        return llvm::Error::success();
      }))
    return error(what + " '" + text + "': " + llvm::toString(std::move(crash)));
  if (!type)
    return error(what + " '" + text +
                 "' is not a type: " + takeDiagnostics(/*ofParser=*/true));
  return type;
}

llvm::Expected<mlir::Location>
DslFunctionBuilder::parseLocation(const char *text) {
  if (!text)
    return mlir::Location(mlir::UnknownLoc::get(context.get()));
  if (auto deep = findExcessiveNesting(text))
    return error("location '" + Twine(text) + "' does not parse: " + *deep);
  mlir::Attribute attr;
  if (llvm::Error crash = runLLVMGuarded("parsing a location", [&] {
        attr = mlir::parseAttribute(text, context.get());
        return llvm::Error::success();
      }))
    return error("location '" + Twine(text) +
                 "': " + llvm::toString(std::move(crash)));
  auto loc = llvm::dyn_cast_if_present<mlir::LocationAttr>(attr);
  if (!loc) {
    std::string why = attr ? "" : ": " + takeDiagnostics(/*ofParser=*/true);
    return error("location '" + Twine(text) +
                 "' is not an MLIR location such as loc(\"k.py\":12:8)" + why);
  }
  return mlir::Location(loc);
}

llvm::Expected<std::string>
DslFunctionBuilder::build(llvm::ArrayRef<const char *> operandTypes,
                          llvm::ArrayRef<TpxKeywordArg> kwargs,
                          llvm::StringRef functionName, const char *location) {
  // The op first, so that a misspelt name is the error, not its operands.
  if (!lookupPluginDslOp(opName))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unknown DSL op '" + opName + "'");
  if (functionName.empty())
    return error("the function name is empty");
  llvm::SmallVector<mlir::Type> types;
  for (auto [index, text] : llvm::enumerate(operandTypes)) {
    auto type = parseOperandType(index, text);
    if (!type)
      return type.takeError();
    types.push_back(*type);
  }
  auto loc = parseLocation(location);
  if (!loc)
    return loc.takeError();

  // The function lives in a module of its own, which verification needs.
  mlir::OpBuilder builder(context.get());
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::ModuleOp::create(*loc);
  builder.setInsertionPointToEnd(module->getBody());
  auto function = tt::FuncOp::create(builder, *loc, functionName,
                                     builder.getFunctionType(types, {}));
  function.setPrivate();
  // Arguments are named %a0, %a1, ... when printed (their NameLocs).
  llvm::SmallVector<mlir::Location> argLocs;
  for (size_t i = 0; i < types.size(); ++i)
    argLocs.push_back(mlir::NameLoc::get(
        builder.getStringAttr("a" + std::to_string(i)), *loc));
  mlir::Block *body = builder.createBlock(
      &function.getBody(), function.getBody().end(), types, argLocs);

  llvm::SmallVector<MlirValue> operands;
  for (mlir::BlockArgument argument : body->getArguments())
    operands.push_back(wrap(mlir::Value(argument)));
  TpxBuildContext where = {wrap(context.get()), wrap(*loc), wrap(body),
                           MlirOperation{nullptr}};
  llvm::SmallVector<MlirValue> results;
  if (llvm::Error e =
          buildPluginDslOp(opName, where, operands, kwargs, results))
    return std::move(e);

  llvm::SmallVector<mlir::Value> values;
  llvm::SmallVector<mlir::Type> resultTypes;
  for (MlirValue result : results) {
    values.push_back(unwrap(result));
    resultTypes.push_back(values.back().getType());
  }
  builder.setInsertionPointToEnd(body);
  tt::ReturnOp::create(builder, *loc, values);
  function.setFunctionType(builder.getFunctionType(types, resultTypes));
  takeDiagnostics();
  if (mlir::failed(mlir::verify(*module)))
    return error("the IR the plugin built does not verify:\n" +
                 takeDiagnostics());

  std::string text;
  llvm::raw_string_ostream os(text);
  function->print(os, mlir::OpPrintingFlags()
                          .enableDebugInfo(/*enable=*/true,
                                           /*prettyForm=*/false)
                          .printNameLocAsPrefix(true));
  return text;
}

TpxStatus tpxBuildDslOpFunction(const char *opName,
                                const char *const *operandTypes,
                                size_t numOperands, const TpxKeywordArg *kwargs,
                                size_t numKwargs, const char *functionName,
                                const char *location, char **text,
                                char **error) {
  if (!opName || !functionName || !text || (numOperands && !operandTypes) ||
      (numKwargs && !kwargs))
    return fail("tpxBuildDslOpFunction: null argument", error);
  DslFunctionBuilder builder(opName);
  auto printed =
      builder.build(llvm::ArrayRef(operandTypes, numOperands),
                    llvm::ArrayRef(kwargs, numKwargs), functionName, location);
  if (!printed)
    return fail(printed.takeError(), error);
  *text = copyString(*printed);
  return TPX_SUCCESS;
}
