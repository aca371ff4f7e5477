//===- StageText.h - the text one pipeline stage produced -------*- C++ -*-===//
#ifndef TPX_PIPELINE_STAGETEXT_H
#define TPX_PIPELINE_STAGETEXT_H

#include <string>

namespace tpx {

/// The output of one stage that produces text: printed MLIR (`ttir`,
/// `ttgir`, `llir`) or an emitter's text (`ptx`).
struct StageText {
  std::string stage;
  std::string text;
};

} // namespace tpx

#endif // TPX_PIPELINE_STAGETEXT_H
