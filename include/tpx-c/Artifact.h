/*===- tpx-c/Artifact.h - Compile to a launchable kernel, launch it -*- C
-*-===*\
|*                                                                            *|
|* tpxCompileKernel runs the whole pipeline of a target on TTIR text, through *|
|* the on-disk compile cache, and returns an artifact: the binary plus its    *|
|* metadata (kernel name, argument ABI, warps, shared memory, target) and    *|
|* the IR after each stage.                                                   *|
|* tpxLaunch runs an artifact over a 3-D grid; arguments are checked against *|
|* the kernel's ABI and every failure comes back as an error message.         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef TPX_C_ARTIFACT_H
#define TPX_C_ARTIFACT_H

#include "tpx-c/Tpx.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TpxArtifact TpxArtifact;

/* Options of tpxCompileKernel; zero-initialise, set structSize = sizeof.   */
/* Zero fields take their defaults.                                         */
typedef struct TpxKernelOptions {
  uint32_t structSize;
  const char *target;       /* "cpu", "sm_90a", ... (null: "cpu")          */
  uint32_t numWarps;        /* 0: 4                                         */
  uint32_t numStages;       /* 0: 3                                         */
  const char *dumpDir;      /* per-stage dumps (bypasses the cache)         */
  const char *pipelineText; /* run this pipeline instead of the effective one */
  int boundsCheck;          /* CPU: check accesses against the buffers      */
  int noCache;              /* do not read or write the compile cache       */
  /* Added last: run this named pipeline of the target ("simt" or         */
  /* "one-thread" on sm_90a) instead of the one the compiler picks; null:  */
  /* the compiler picks (on sm_90a: simt, or an error naming the op simt   */
  /* does not cover). Read only when structSize covers it, so callers     */
  /* built against the header without it keep working.                     */
  const char *targetPipeline;
} TpxKernelOptions;

/* Compiles the kernel in `source` (TTIR text). The effective pipeline is    */
/* the target's default plus the scoped selection plus `tpx.pipeline`.       */
TPX_CAPI_EXPORTED TpxStatus tpxCompileKernel(const char *source,
                                             const TpxKernelOptions *options,
                                             TpxArtifact **artifact,
                                             char **error);
TPX_CAPI_EXPORTED void tpxArtifactDestroy(TpxArtifact *artifact);

/* Metadata as JSON (kernel, args with kind/name/type, num_warps, ...);     */
/* free with tpxStringFree.                                                  */
TPX_CAPI_EXPORTED char *tpxArtifactGetMetadata(const TpxArtifact *artifact);
TPX_CAPI_EXPORTED const char *tpxArtifactGetKernelName(const TpxArtifact *a);
TPX_CAPI_EXPORTED const void *tpxArtifactGetBinary(const TpxArtifact *a,
                                                   size_t *size);
/* The IR after stage `stage` ("ttir", "ttgir", "llir", "ptx" on NVIDIA;  */
/* "ttir", "llir" on the CPU) as text, NUL-terminated, with its length in   */
/* *size (when not null); null if the artifact has no such stage. Binary    */
/* stages (cubin, obj) are the binary only. Owned by the artifact.          */
TPX_CAPI_EXPORTED const char *tpxArtifactGetStage(const TpxArtifact *artifact,
                                                  const char *stage,
                                                  size_t *size);
/* The names of the artifact's text stages in pipeline order, comma-        */
/* separated ("ttir,ttgir,llir,ptx"); free with tpxStringFree.              */
TPX_CAPI_EXPORTED char *tpxArtifactGetStageNames(const TpxArtifact *artifact);
/* 1 if the artifact came from the compile cache. */
TPX_CAPI_EXPORTED int tpxArtifactWasCached(const TpxArtifact *artifact);

typedef enum TpxLaunchArgKind {
  TPX_ARG_BUFFER = 0, /* data + bytes                        */
  TPX_ARG_INT = 1,    /* intValue, converted to the param type */
  TPX_ARG_FLOAT = 2   /* floatValue, converted to the param type */
} TpxLaunchArgKind;

typedef struct TpxLaunchArg {
  TpxLaunchArgKind kind;
  void *data;
  size_t bytes;
  int64_t intValue;
  double floatValue;
} TpxLaunchArg;

/* Runs every program of grid[0] x grid[1] x grid[2] to completion.        */
/* Buffers are host memory. A "cpu" artifact runs on a thread pool          */
/* (numThreads = 0 uses every hardware thread); a "gfx*" artifact (an       */
/* hsaco) runs on an AMD GPU through the HIP runtime (tpxGetHIPDeviceArch), */
/* each buffer copied to the device and back, numThreads ignored. Other    */
/* targets are an error (the Python runtime launches sm_* itself).          */
TPX_CAPI_EXPORTED TpxStatus tpxLaunch(const TpxArtifact *artifact,
                                      const uint32_t grid[3],
                                      const TpxLaunchArg *args, size_t numArgs,
                                      uint32_t numThreads, char **error);

#ifdef __cplusplus
}
#endif

#endif /* TPX_C_ARTIFACT_H */
