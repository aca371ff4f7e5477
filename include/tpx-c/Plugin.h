/*===- tpx-c/Plugin.h - The tpx plugin ABI (C only, versioned) ----*- C -*-===*\
|*                                                                            *|
|* A tpx plugin is a shared library that exports one symbol,                  *|
|*                                                                            *|
|*   const TpxPluginInfo *tpxGetPluginInfo(void);                             *|
|*                                                                            *|
|* returning a pointer to a static TpxPluginInfo that lists what the plugin  *|
|* adds: passes (with typed options), dialects, DSL operations and pipeline   *|
|* extensions. Only C types cross this boundary; MLIR objects travel as MLIR  *|
|* C-API handles (mlir-c/IR.h), which a C++ plugin converts with the inline   *|
|* unwrap() helpers of mlir/CAPI/IR.h (see tpx/Plugin/PluginSupport.h).       *|
|*                                                                            *|
|* Callbacks report failure by calling reporter->report(...) with a message   *|
|* and returning TPX_FAILURE; the host turns that into a diagnostic naming    *|
|* the plugin, never into an abort. docs/plugins.md is the full reference.    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef TPX_C_PLUGIN_H
#define TPX_C_PLUGIN_H

#include "mlir-c/IR.h"
#include "tpx-c/TpxVersion.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever the layout or meaning of any struct below changes. The    */
/* host refuses plugins whose apiVersion differs from its own.                */
/* 2: TpxPassInfo.validateOptions.                                            */
#define TPX_PLUGIN_API_VERSION 2

/* Marks tpxGetPluginInfo as exported even under -fvisibility=hidden.         */
#if defined(_WIN32)
#define TPX_PLUGIN_EXPORT __declspec(dllexport)
#else
#define TPX_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* Result of every plugin callback. */
typedef enum TpxStatus { TPX_SUCCESS = 0, TPX_FAILURE = 1 } TpxStatus;

/* Host-provided sink for error messages. A failing callback calls           */
/* report(opaque, message) (the host copies the text) and returns            */
/* TPX_FAILURE.                                                               */
typedef struct TpxReporter {
  void *opaque;
  void (*report)(void *opaque, const char *message);
} TpxReporter;

/*===------------------------------------------------------------------===*/
/* Passes                                                                 */
/*===------------------------------------------------------------------===*/

/* The type of a pass option or of a DSL keyword attribute. TPX_KIND_TYPE is */
/* only valid for DSL keyword attributes (an MLIR type written as text,      */
/* e.g. "f32", parsed by the host).                                           */
typedef enum TpxValueKind {
  TPX_KIND_INT = 0,
  TPX_KIND_FLOAT = 1,
  TPX_KIND_BOOL = 2,
  TPX_KIND_STRING = 3,
  TPX_KIND_TYPE = 4
} TpxValueKind;

/* A typed scalar. Only the member selected by `kind` is meaningful. */
typedef struct TpxScalar {
  TpxValueKind kind;
  int64_t intValue;
  double floatValue;
  int boolValue;
  const char *stringValue; /* STRING; for TYPE the type's text */
  MlirType typeValue;      /* TYPE only (set by the host) */
} TpxScalar;

/* Declaration of one pass option: `--my-pass=name=value` / `my-pass{name=v}`*/
typedef struct TpxPassOption {
  const char *name;        /* kebab-case, unique within the pass */
  const char *description; /* shown by --help */
  TpxScalar defaultValue;  /* kind selects the option's type (not TYPE) */
} TpxPassOption;

/* The option values of one pass run, in declaration order. */
typedef struct TpxOptionValues {
  size_t count;
  const TpxPassOption *declarations; /* the plugin's own array */
  const TpxScalar *values;           /* valid for the duration of run() */
} TpxOptionValues;

/* Runs the pass on `op` (an operation named like TpxPassInfo.anchorOp, or   */
/* any operation if that is NULL). May be called from several threads at     */
/* once on different operations.                                              */
typedef TpxStatus (*TpxPassRunFn)(MlirOperation op,
                                  const TpxOptionValues *options,
                                  void *userData, TpxReporter *reporter);

/* Inserts every dialect whose ops the pass creates (MLIR loads them before */
/* the pipeline runs; a pass may not load dialects while running).           */
typedef void (*TpxDependentDialectsFn)(MlirDialectRegistry registry,
                                       void *userData);

/* Checks the option values of one pass instance, once, when a pipeline     */
/* naming the pass is built (before anything runs). To reject them, report   */
/* why and return TPX_FAILURE: the pipeline is not built and the user gets   */
/* one error naming the pass, not one per operation the pass would run on.   */
typedef TpxStatus (*TpxValidateOptionsFn)(const TpxOptionValues *options,
                                          void *userData,
                                          TpxReporter *reporter);

typedef struct TpxPassInfo {
  const char *name;     /* kebab-case pass argument, e.g. "tt-my-pass" */
  const char *summary;  /* one line, shown by --help */
  const char *anchorOp; /* e.g. "builtin.module", "tt.func"; NULL = any op */
  const TpxPassOption *options;
  size_t numOptions;
  TpxPassRunFn run;
  void *userData;
  TpxDependentDialectsFn dependentDialects; /* may be NULL */
  TpxValidateOptionsFn validateOptions;     /* may be NULL (API 2) */
} TpxPassInfo;

/*===------------------------------------------------------------------===*/
/* Dialects                                                               */
/*===------------------------------------------------------------------===*/

/* Inserts the dialect (and any dialect it depends on) into `registry`.      */
/* Conversion passes of the dialect are declared as ordinary passes.          */
typedef TpxStatus (*TpxRegisterDialectFn)(MlirDialectRegistry registry,
                                          void *userData,
                                          TpxReporter *reporter);

typedef struct TpxDialectInfo {
  const char *name; /* the dialect namespace, e.g. "tpxex" */
  TpxRegisterDialectFn registerDialect;
  void *userData;
} TpxDialectInfo;

/*===------------------------------------------------------------------===*/
/* DSL operations                                                         */
/*===------------------------------------------------------------------===*/

/* Declaration of one keyword attribute of a DSL op, e.g. alpha=0.5. */
typedef struct TpxKeywordInfo {
  const char *name;
  const char *description;
  int required;           /* nonzero: the caller must pass it */
  TpxScalar defaultValue; /* kind = the attribute's type; the default if
                             not required */
} TpxKeywordInfo;

/* A keyword attribute as passed by a caller. */
typedef struct TpxKeywordArg {
  const char *name;
  TpxScalar value;
} TpxKeywordArg;

/* Where and in which context a DSL op builds its IR. insertBefore may be    */
/* null, meaning "at the end of block".                                       */
typedef struct TpxBuildContext {
  MlirContext context;
  MlirLocation location;
  MlirBlock block;
  MlirOperation insertBefore;
} TpxBuildContext;

/* Builds the op's IR. `kwargs` holds every declared keyword, in declaration */
/* order, with defaults filled in and kinds checked by the host. The         */
/* callback writes at most maxResults values to `results` and their number   */
/* to *numResults; their types are the op's result types.                     */
typedef TpxStatus (*TpxDslBuildFn)(const TpxBuildContext *where,
                                   const MlirValue *operands,
                                   size_t numOperands,
                                   const TpxKeywordArg *kwargs,
                                   size_t numKwargs, MlirValue *results,
                                   size_t maxResults, size_t *numResults,
                                   void *userData, TpxReporter *reporter);

typedef struct TpxDslOpInfo {
  const char *name;    /* e.g. "scaled_add"; unique across plugins */
  const char *summary; /* one line */
  int numOperands;     /* exact operand count, or -1 for variadic */
  const TpxKeywordInfo *keywords;
  size_t numKeywords;
  TpxDslBuildFn build;
  void *userData;
} TpxDslOpInfo;

/*===------------------------------------------------------------------===*/
/* Pipeline extensions                                                    */
/*===------------------------------------------------------------------===*/

/* Host-provided editor of one pipeline. Stage names are the target's        */
/* (`ttir`, `ttgir`, `llir`, ...); a pass entry is written in MLIR pipeline   */
/* syntax, e.g. "canonicalize" or "tt-my-pass{factor=2}"; `anchor` names the  */
/* first entry of the stage whose pass name matches. Every function returns  */
/* TPX_FAILURE (and reports why through the editor's reporter) when the      */
/* stage or anchor does not exist or the entry does not parse.                */
typedef struct TpxPipelineEditor {
  void *opaque;
  const char *target; /* e.g. "cpu", "sm_90a", "gfx950" */
  int (*hasStage)(void *opaque, const char *stage);
  TpxStatus (*insertBefore)(void *opaque, const char *stage,
                            const char *anchor, const char *entry);
  TpxStatus (*insertAfter)(void *opaque, const char *stage, const char *anchor,
                           const char *entry);
  TpxStatus (*replace)(void *opaque, const char *stage, const char *anchor,
                       const char *entry);
  TpxStatus (*remove)(void *opaque, const char *stage, const char *anchor);
  /* entries: a comma-separated pass list, e.g. "cse,canonicalize" */
  TpxStatus (*replaceStage)(void *opaque, const char *stage,
                            const char *entries);
  TpxStatus (*append)(void *opaque, const char *stage, const char *entry);
} TpxPipelineEditor;

typedef TpxStatus (*TpxPipelineExtensionFn)(const TpxPipelineEditor *editor,
                                            void *userData,
                                            TpxReporter *reporter);

typedef struct TpxPipelineExtensionInfo {
  const char *name; /* what users select, e.g. via tpx.pipeline = ["name"] */
  const char *summary;
  TpxPipelineExtensionFn apply;
  void *userData;
} TpxPipelineExtensionInfo;

/*===------------------------------------------------------------------===*/
/* The plugin                                                             */
/*===------------------------------------------------------------------===*/

typedef struct TpxPluginInfo {
  uint32_t apiVersion; /* TPX_PLUGIN_API_VERSION */
  uint32_t structSize; /* sizeof(TpxPluginInfo) */
  const char *name;    /* unique among loaded plugins */
  const char *version; /* the plugin's own version, free form */
  const char *tpxVersion; /* TPX_VERSION_STRING the plugin was built with */
  const TpxPassInfo *passes;
  size_t numPasses;
  const TpxDialectInfo *dialects;
  size_t numDialects;
  const TpxDslOpInfo *dslOps;
  size_t numDslOps;
  const TpxPipelineExtensionInfo *extensions;
  size_t numExtensions;
} TpxPluginInfo;

/* Fills the header fields of a TpxPluginInfo initializer. */
#define TPX_PLUGIN_INFO_HEADER(NAME, VERSION)                                  \
  TPX_PLUGIN_API_VERSION, (uint32_t)sizeof(TpxPluginInfo), NAME, VERSION,      \
      TPX_VERSION_STRING

/* The entry symbol every plugin exports. */
typedef const TpxPluginInfo *(*TpxGetPluginInfoFn)(void);
#define TPX_PLUGIN_ENTRY_SYMBOL "tpxGetPluginInfo"

#ifdef __cplusplus
}
#endif

#endif /* TPX_C_PLUGIN_H */
