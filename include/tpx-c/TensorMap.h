/*===-- tpx-c/TensorMap.h - TMA tensor maps for a launch ----------*- C -*-===*\
|*                                                                            *|
|* A kernel compiled with TMA takes, after its own arguments, one 128-byte  *|
|* tensor map per entry of its metadata's "tensor_maps" list. A launcher     *|
|* that packs the arguments itself (the Python runtime) makes a plan from    *|
|* the metadata once and encodes the maps for every launch from the values   *|
|* of the kernel's arguments; the maps go into the launch's parameter list   *|
|* after the arguments, in order.                                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef TPX_C_TENSORMAP_H
#define TPX_C_TENSORMAP_H

#include "tpx-c/Tpx.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TpxTensorMapPlan TpxTensorMapPlan;

/* Parses the "tensor_maps" of an artifact's metadata JSON (none: a plan of */
/* zero maps).                                                              */
TPX_CAPI_EXPORTED TpxStatus tpxTensorMapPlanCreate(const char *metadataJSON,
                                                   TpxTensorMapPlan **plan,
                                                   char **error);
TPX_CAPI_EXPORTED void tpxTensorMapPlanDestroy(TpxTensorMapPlan *plan);
/* How many tensor maps the kernel takes.                                   */
TPX_CAPI_EXPORTED size_t tpxTensorMapPlanCount(const TpxTensorMapPlan *plan);
/* Writes count * 128 bytes of tensor maps to `maps` (64-byte aligned).      */
/* args[i] is the value of kernel argument i: a pointer as its device        */
/* address, an integer as itself. Fails (without a GPU too) on a misaligned  */
/* base or stride, a bad extent, or a driver without TMA.                    */
TPX_CAPI_EXPORTED TpxStatus tpxTensorMapPlanEncode(const TpxTensorMapPlan *plan,
                                                   const int64_t *args,
                                                   size_t numArgs, void *maps,
                                                   char **error);

#ifdef __cplusplus
}
#endif

#endif /* TPX_C_TENSORMAP_H */
