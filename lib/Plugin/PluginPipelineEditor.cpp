//===- PluginPipelineEditor.cpp - Pipelines edited through C --------------===//
//
// The C function table handed to pipeline extensions. Each function parses
// its pass-entry text and applies one Pipeline edit; failures are recorded
// (the first one wins) and reported as TPX_FAILURE, so a plugin that ignores
// a return value still cannot make an edit silently disappear.
//
//===----------------------------------------------------------------------===//
#include "PluginPipelineEditor.h"
#include "PluginCrashGuard.h"
#include "PluginPass.h"

using namespace tpx;
using llvm::Error;

namespace {
struct EditorState {
  Pipeline *pipeline;
  std::string firstError;

  TpxStatus record(Error error) {
    if (!error)
      return TPX_SUCCESS;
    std::string message = llvm::toString(std::move(error));
    if (firstError.empty())
      firstError = message;
    return TPX_FAILURE;
  }
};

EditorState &self(void *opaque) { return *static_cast<EditorState *>(opaque); }

llvm::StringRef str(const char *text) { return text ? text : ""; }

/// Parses `entry` and applies `edit` with it.
template <typename Edit>
TpxStatus withEntry(void *opaque, const char *entry, Edit edit) {
  auto parsed = PassEntry::parse(str(entry));
  if (!parsed)
    return self(opaque).record(parsed.takeError());
  return self(opaque).record(edit(std::move(*parsed)));
}
} // namespace

Error tpx::applyPluginPipelineExtension(const TpxPipelineExtensionInfo &info,
                                        Pipeline &pipeline) {
  EditorState state{&pipeline, {}};
  TpxPipelineEditor editor;
  editor.opaque = &state;
  editor.target = pipeline.getTarget().c_str();
  editor.hasStage = [](void *opaque, const char *stage) -> int {
    return self(opaque).pipeline->getStage(str(stage)) != nullptr;
  };
  editor.insertBefore = [](void *opaque, const char *stage, const char *anchor,
                           const char *entry) {
    return withEntry(opaque, entry, [&](PassEntry e) {
      return self(opaque).pipeline->insertBefore(str(stage), str(anchor),
                                                 std::move(e));
    });
  };
  editor.insertAfter = [](void *opaque, const char *stage, const char *anchor,
                          const char *entry) {
    return withEntry(opaque, entry, [&](PassEntry e) {
      return self(opaque).pipeline->insertAfter(str(stage), str(anchor),
                                                std::move(e));
    });
  };
  editor.replace = [](void *opaque, const char *stage, const char *anchor,
                      const char *entry) {
    return withEntry(opaque, entry, [&](PassEntry e) {
      return self(opaque).pipeline->replace(str(stage), str(anchor),
                                            std::move(e));
    });
  };
  editor.remove = [](void *opaque, const char *stage, const char *anchor) {
    return self(opaque).record(
        self(opaque).pipeline->remove(str(stage), str(anchor)));
  };
  editor.replaceStage = [](void *opaque, const char *stage,
                           const char *entries) {
    auto parsed = PassEntry::parseList(str(entries));
    if (!parsed)
      return self(opaque).record(parsed.takeError());
    return self(opaque).record(
        self(opaque).pipeline->replaceStage(str(stage), std::move(*parsed)));
  };
  editor.append = [](void *opaque, const char *stage, const char *entry) {
    return withEntry(opaque, entry, [&](PassEntry e) {
      return self(opaque).pipeline->append(str(stage), std::move(e));
    });
  };

  PluginReporter reporter;
  TpxStatus status = TPX_FAILURE;
  if (std::optional<std::string> crash = runGuarded(
          [&] { status = info.apply(&editor, info.userData, reporter.get()); }))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "it crashed: " + *crash);
  if (!state.firstError.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   state.firstError);
  if (status != TPX_SUCCESS)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   reporter.str());
  return Error::success();
}
