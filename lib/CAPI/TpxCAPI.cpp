//===- TpxCAPI.cpp - The tpx host C API (tpx-c/Tpx.h) ---------------------===//
#include "tpx-c/Tpx.h"

#include "CAPIUtils.h"

#include "tpx/Compiler/Compiler.h"
#include "tpx/Pipeline/PipelineExtension.h"
#include "tpx/Pipeline/PipelineRunner.h"
#include "tpx/Plugin/PluginCacheKey.h"
#include "tpx/Plugin/PluginRegistry.h"
#include "tpx/Registration/TpxRegistration.h"
#include "tpx/Support/DiagnosticText.h"
#include "tpx/Support/SourceNesting.h"
#include "tpx/Target/Common/LLVMBackendGuard.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/SourceMgr.h"

#include <cstdlib>
#include <cstring>

using namespace tpx;

using namespace tpx::capi;

void tpxStringFree(char *string) { std::free(string); }

TpxStatus tpxLoadPlugin(const char *path, char **error) {
  if (!path)
    return fail("tpxLoadPlugin: null path", error);
  return done(loadPlugin(path), error);
}

TpxStatus tpxLoadPluginPaths(const char *paths, char **error) {
  return done(loadPluginPaths(paths ? paths : ""), error);
}

TpxStatus tpxLoadPluginsFromEnv(char **error) {
  return done(loadPluginsFromEnvironment(), error);
}

size_t tpxGetNumPlugins(void) { return getLoadedPlugins().size(); }

const TpxPluginInfo *tpxGetPlugin(size_t index) {
  auto plugins = getLoadedPlugins();
  return index < plugins.size() ? plugins[index]->file.info : nullptr;
}

const char *tpxGetPluginPath(size_t index) {
  auto plugins = getLoadedPlugins();
  return index < plugins.size() ? plugins[index]->file.realPath.c_str()
                                : nullptr;
}

size_t tpxGetNumDslOps(void) { return getPluginDslOps().size(); }

const TpxDslOpInfo *tpxGetDslOp(size_t index) {
  auto ops = getPluginDslOps();
  return index < ops.size() ? ops[index].info : nullptr;
}

const TpxDslOpInfo *tpxLookupDslOp(const char *name) {
  const PluginDslOp *op = lookupPluginDslOp(name ? name : "");
  return op ? op->info : nullptr;
}

TpxStatus tpxBuildDslOp(const char *name, const TpxBuildContext *where,
                        const MlirValue *operands, size_t numOperands,
                        const TpxKeywordArg *kwargs, size_t numKwargs,
                        MlirValue *results, size_t maxResults,
                        size_t *numResults, char **error) {
  if (!name || !where || (numOperands && !operands) || (numKwargs && !kwargs))
    return fail("tpxBuildDslOp: null argument", error);
  llvm::SmallVector<MlirValue> built;
  if (llvm::Error e =
          buildPluginDslOp(name, *where, llvm::ArrayRef(operands, numOperands),
                           llvm::ArrayRef(kwargs, numKwargs), built))
    return fail(std::move(e), error);
  if (built.size() > maxResults || (!results && !built.empty()))
    return fail("DSL op '" + llvm::Twine(name) + "' produced " +
                    llvm::Twine(built.size()) + " results, room for " +
                    llvm::Twine(maxResults),
                error);
  for (size_t i = 0; i < built.size(); ++i)
    results[i] = built[i];
  if (numResults)
    *numResults = built.size();
  return TPX_SUCCESS;
}

TpxStatus tpxPushPipelineSelection(const char *const *names, size_t count,
                                   char **error) {
  std::vector<std::string> list;
  for (size_t i = 0; i < count; ++i) {
    if (!names || !names[i])
      return fail("tpxPushPipelineSelection: null name", error);
    list.push_back(names[i]);
  }
  return done(pushPipelineSelection(list), error);
}

TpxStatus tpxPopPipelineSelection(char **error) {
  return done(popPipelineSelection(), error);
}

/// tpx and plugin dialects, and every pass a pipeline may name.
mlir::MLIRContext *tpx::capi::createContext() {
  registerTpxPasses();
  mlir::DialectRegistry registry;
  registerTpxDialects(registry);
  appendPluginDialects(registry);
  return new mlir::MLIRContext(registry);
}

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
tpx::capi::parseSource(mlir::MLIRContext *context, const char *source) {
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(context, [&](mlir::Diagnostic &diag) {
    llvm::raw_string_ostream os(diagnostics);
    printDiagnostic(os, diag);
    os << "\n";
    return mlir::success();
  });
  if (auto deep = findExcessiveNesting(source))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot parse the source: " + *deep);
  // MLIR's parser can crash on some malformed input: guarded.
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (llvm::Error crash = runLLVMGuarded("parsing the source", [&] {
        module = mlir::parseSourceString<mlir::ModuleOp>(source, context);
        return llvm::Error::success();
      }))
    return std::move(crash);
  if (!module)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot parse the source:\n" + diagnostics);
  return module;
}

MlirContext tpxContextCreate(void) { return wrap(createContext()); }

void tpxContextDestroy(MlirContext context) { delete unwrap(context); }

TpxStatus tpxCompileString(const char *source, const TpxCompileOptions *options,
                           char **output, size_t *outputSize, char **error) {
  if (!source || !options || !options->target || !output)
    return fail("tpxCompileString: null argument", error);
  if (options->structSize < sizeof(TpxCompileOptions))
    return fail("tpxCompileString: TpxCompileOptions.structSize is too small",
                error);
  std::unique_ptr<mlir::MLIRContext> context(createContext());
  auto module = parseSource(context.get(), source);
  if (!module)
    return fail(module.takeError(), error);

  // The stages a compile runs, chosen per kernel as compileModule does
  // (with the default launch options); a pipeline text runs as given.
  CompileOptions compile;
  compile.target = options->target;
  if (options->pipelineText) {
    auto pipeline = Pipeline::parse(options->pipelineText);
    if (!pipeline)
      return fail(pipeline.takeError(), error);
    pipeline->setTarget(options->target);
    compile.pipelineOverride = std::move(*pipeline);
  }
  auto candidates = getCompilePipelines(**module, compile);
  if (!candidates)
    return fail(candidates.takeError(), error);
  RunOptions run;
  run.stopAfter = options->stopAfter ? options->stopAfter : "";
  run.dumpDir = options->dumpDir ? options->dumpDir : "";
  run.overrideDir = options->overrideDir ? options->overrideDir : "";
  auto ran = runKernelPipelines(*candidates, *module, compile, run);
  if (!ran)
    return fail(ran.takeError(), error);
  RunResult *result = &ran->run;
  *output = static_cast<char *>(std::malloc(result->output.size() + 1));
  std::memcpy(*output, result->output.data(), result->output.size());
  (*output)[result->output.size()] = '\0';
  if (outputSize)
    *outputSize = result->output.size();
  return TPX_SUCCESS;
}

TpxStatus tpxGetPipelineText(const char *target, char **text, char **error) {
  if (!target || !text)
    return fail("tpxGetPipelineText: null argument", error);
  auto pipeline = getEffectivePipeline(target);
  if (!pipeline)
    return fail(pipeline.takeError(), error);
  *text = copyString(pipeline->print());
  return TPX_SUCCESS;
}

TpxStatus tpxGetCacheKeyMaterial(const char *target, char **material,
                                 char **error) {
  if (!target || !material)
    return fail("tpxGetCacheKeyMaterial: null argument", error);
  auto pipeline = getEffectivePipeline(target);
  if (!pipeline)
    return fail(pipeline.takeError(), error);
  *material = copyString(getCacheKeyMaterial(*pipeline));
  return TPX_SUCCESS;
}
