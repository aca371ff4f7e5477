//===- PluginPipelineEditor.h - Pipelines edited through C ------*- C++ -*-===//
// Internal to lib/Plugin.
#ifndef TPX_LIB_PLUGIN_PLUGINPIPELINEEDITOR_H
#define TPX_LIB_PLUGIN_PLUGINPIPELINEEDITOR_H

#include "tpx-c/Plugin.h"
#include "tpx/Pipeline/Pipeline.h"

namespace tpx {

/// Runs a plugin's extension callback on `pipeline` through a
/// TpxPipelineEditor; the first failed edit or the callback's own failure
/// is returned with its message.
llvm::Error applyPluginPipelineExtension(const TpxPipelineExtensionInfo &info,
                                         Pipeline &pipeline);

} // namespace tpx

#endif // TPX_LIB_PLUGIN_PLUGINPIPELINEEDITOR_H
