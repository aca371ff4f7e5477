/* Shared bits of the tiny test plugins: each .c file is one failure mode. */
#ifndef TPX_TEST_PLUGIN_H
#define TPX_TEST_PLUGIN_H
#include "tpx-c/Plugin.h"

static TpxStatus noopRun(MlirOperation op, const TpxOptionValues *options,
                         void *userData, TpxReporter *reporter) {
  (void)op, (void)options, (void)userData, (void)reporter;
  return TPX_SUCCESS;
}

#define TEST_PASS(NAME)                                                        \
  { NAME, "test pass", 0, 0, 0, noopRun, 0, 0 }

#define EXPORT_INFO(INFO)                                                      \
  TPX_PLUGIN_EXPORT const TpxPluginInfo *tpxGetPluginInfo(void) {              \
    return &INFO;                                                              \
  }
#endif
