/*===- tpx-c/Tpx.h - The tpx host C API ---------------------------*- C -*-===*\
|*                                                                            *|
|* What a front end (the Python package, a C program) calls: load plugins,   *|
|* scope pipeline selections, build plugin DSL ops, compile, get the cache-  *|
|* key material of the current configuration, and ask for a GPU runtime.     *|
|*                                                                            *|
|* Functions that can fail return TPX_FAILURE and, when `error` is not null, *|
|* store a malloc'ed message ("<path>: <cause>" for plugin errors) the caller*|
|* frees with tpxStringFree. Nothing here aborts the process.                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef TPX_C_TPX_H
#define TPX_C_TPX_H

#include "tpx-c/Plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define TPX_CAPI_EXPORTED __declspec(dllexport)
#else
#define TPX_CAPI_EXPORTED __attribute__((visibility("default")))
#endif

/* Frees a string returned by this API. Null is accepted. */
TPX_CAPI_EXPORTED void tpxStringFree(char *string);

/*===--- Plugins -----------------------------------------------------===*/

/* Loads one plugin file, or every *.so in a directory (sorted). Loading the */
/* same file twice is a no-op. Warnings (e.g. a Triton-only plugin skipped)  */
/* go to stderr.                                                              */
TPX_CAPI_EXPORTED TpxStatus tpxLoadPlugin(const char *path, char **error);

/* Loads every entry of a colon-separated list (empty entries ignored). */
TPX_CAPI_EXPORTED TpxStatus tpxLoadPluginPaths(const char *paths,
                                               char **error);

/* Loads $TRITON_PLUGIN_PATHS (no-op when unset or empty). */
TPX_CAPI_EXPORTED TpxStatus tpxLoadPluginsFromEnv(char **error);

TPX_CAPI_EXPORTED size_t tpxGetNumPlugins(void);
/* The info struct of the i-th loaded plugin (load order), or null. */
TPX_CAPI_EXPORTED const TpxPluginInfo *tpxGetPlugin(size_t index);
/* The absolute path of the i-th loaded plugin's file, symbolic links      */
/* resolved, or null. Owned by tpx, valid for the life of the process. A    */
/* front end finds what the plugin ships beside its .so (e.g. its Python    */
/* module) from it.                                                          */
TPX_CAPI_EXPORTED const char *tpxGetPluginPath(size_t index);

/*===--- DSL ops -----------------------------------------------------===*/

TPX_CAPI_EXPORTED size_t tpxGetNumDslOps(void);
/* The declaration of the i-th DSL op of all loaded plugins, or null. */
TPX_CAPI_EXPORTED const TpxDslOpInfo *tpxGetDslOp(size_t index);
/* The declaration of the DSL op called `name`, or null. */
TPX_CAPI_EXPORTED const TpxDslOpInfo *tpxLookupDslOp(const char *name);

/* Builds DSL op `name` at `where` with `operands` and keyword arguments.    */
/* Keywords are matched by name: unknown ones, missing required ones and     */
/* kind mismatches (an INT is accepted for a FLOAT) are errors; TYPE         */
/* keywords are given as text in stringValue. The results are written as for*/
/* TpxDslBuildFn.                                                             */
TPX_CAPI_EXPORTED TpxStatus tpxBuildDslOp(
    const char *name, const TpxBuildContext *where, const MlirValue *operands,
    size_t numOperands, const TpxKeywordArg *kwargs, size_t numKwargs,
    MlirValue *results, size_t maxResults, size_t *numResults, char **error);

/* Builds DSL op `opName` as a function a front end can paste into its     */
/* module and call: in a fresh context with every tpx and plugin dialect,   */
/*                                                                            */
/*   tt.func private @<functionName>(%a0: <operandTypes[0]>, ...)            */
/*       -> (<the op's result types>) {                                      */
/*     <the op, built by tpxBuildDslOp on %a0, %a1, ...>                      */
/*     tt.return <its results>                                               */
/*   }                                                                        */
/*                                                                            */
/* operandTypes are MLIR type texts ("tensor<1024xf32>", "f32",              */
/* "!tt.ptr<f32>"); keywords are checked as for tpxBuildDslOp (TYPE values   */
/* as text). `location` (may be null: unknown) is an MLIR location,           */
/* `loc("k.py":12:8)`, given to every op built. On success *text holds the  */
/* printed tt.func, with its locations, parseable inside a module (free with */
/* tpxStringFree). Errors (unknown op, operand count, a type or location    */
/* that does not parse, keywords, what the plugin reports, IR that does not  */
/* verify) name the op.                                                       */
TPX_CAPI_EXPORTED TpxStatus tpxBuildDslOpFunction(
    const char *opName, const char *const *operandTypes, size_t numOperands,
    const TpxKeywordArg *kwargs, size_t numKwargs, const char *functionName,
    const char *location, char **text, char **error);

/*===--- Pipeline selection ------------------------------------------===*/

/* Selects pipeline extensions (by name) for every compile that starts      */
/* after this call, until the matching tpxPopPipelineSelection. Selections  */
/* nest; an unknown extension name is an error and pushes nothing.           */
TPX_CAPI_EXPORTED TpxStatus tpxPushPipelineSelection(const char *const *names,
                                                     size_t count,
                                                     char **error);
/* Ends the innermost selection; an error when none is active. */
TPX_CAPI_EXPORTED TpxStatus tpxPopPipelineSelection(char **error);

/*===--- Compiling ---------------------------------------------------===*/

/* A context with every tpx and plugin dialect registered. */
TPX_CAPI_EXPORTED MlirContext tpxContextCreate(void);
TPX_CAPI_EXPORTED void tpxContextDestroy(MlirContext context);

/* Options of a compile; zero-initialise, set structSize = sizeof. */
typedef struct TpxCompileOptions {
  uint32_t structSize;
  const char *target;       /* "cpu", "sm_90a", "gfx950"... (required) */
  const char *stopAfter;    /* last stage to run; null = all */
  const char *dumpDir;      /* per-stage IR dumps; null = none */
  const char *overrideDir;  /* per-stage IR overrides; null = none */
  const char *pipelineText; /* run this pipeline text instead of the
                               effective one; null = effective */
} TpxCompileOptions;

/* Parses `source` (TTIR text) and runs the effective pipeline of the module */
/* (defaults + scoped selection + tpx.pipeline attributes). On success       */
/* *output holds the last stage's output (IR text or binary) and            */
/* *outputSize its length.                                                    */
TPX_CAPI_EXPORTED TpxStatus tpxCompileString(const char *source,
                                             const TpxCompileOptions *options,
                                             char **output, size_t *outputSize,
                                             char **error);

/* The effective pipeline text of `target` under the current selection. */
TPX_CAPI_EXPORTED TpxStatus tpxGetPipelineText(const char *target,
                                               char **text, char **error);

/* Cache-key material: the content hash of every loaded plugin (not its     */
/* path) and the effective pipeline text of `target` under the current       */
/* selection.                                                                 */
TPX_CAPI_EXPORTED TpxStatus tpxGetCacheKeyMaterial(const char *target,
                                                   char **material,
                                                   char **error);

/*===--- GPU runtimes ------------------------------------------------===*/

/* Loads the HIP runtime (dlopen of libamdhip64.so, .so.6, .so.5, or only   */
/* $TPX_HIP_LIBRARY when set) and its device 0 (HIP_VISIBLE_DEVICES picks   */
/* the GPU). On success *arch holds the device's target ID, e.g.           */
/* "gfx950:sramecc+:xnack-" (free with tpxStringFree). Fails without a GPU */
/* too, never aborting: "no AMD GPU runtime: libamdhip64.so not found (set */
/* TPX_HIP_LIBRARY to its path; tried ...)", "no AMD GPU: ... sees no      */
/* device", or the failing HIP call. Loaded once per process; the answer   */
/* (success or failure) does not change. tpxLaunch of a gfx* artifact uses */
/* the same runtime.                                                         */
TPX_CAPI_EXPORTED TpxStatus tpxGetHIPDeviceArch(char **arch, char **error);

#ifdef __cplusplus
}
#endif

#endif /* TPX_C_TPX_H */
