//===- HIPRuntimeCAPI.cpp - the HIP runtime through the C API -------------===//
#include "CAPIUtils.h"

#include "tpx/Runtime/HIPRuntime.h"

using namespace tpx;
using namespace tpx::capi;

TpxStatus tpxGetHIPDeviceArch(char **arch, char **error) {
  if (!arch)
    return fail("tpxGetHIPDeviceArch: null argument", error);
  *arch = nullptr;
  auto runtime = hip::getRuntime();
  if (!runtime)
    return fail(runtime.takeError(), error);
  *arch = copyString((*runtime)->deviceArch);
  return TPX_SUCCESS;
}
