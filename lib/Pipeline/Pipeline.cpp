//===- Pipeline.cpp - Pipeline stages and their edits ---------------------===//
#include "tpx/Pipeline/Pipeline.h"

#include "llvm/ADT/STLExtras.h"

using namespace tpx;
using llvm::Error;
using llvm::StringRef;

static Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string Stage::pipelineString() const {
  std::string result = anchor + "(";
  for (auto [i, entry] : llvm::enumerate(passes)) {
    if (i)
      result += ",";
    result += entry.str();
  }
  return result + ")";
}

int Stage::find(StringRef entryName) const {
  for (auto [i, entry] : llvm::enumerate(passes))
    if (entry.name == entryName)
      return static_cast<int>(i);
  return -1;
}

Stage *Pipeline::getStage(StringRef name) {
  for (Stage &stage : stages)
    if (stage.name == name)
      return &stage;
  return nullptr;
}

const Stage *Pipeline::getStage(StringRef name) const {
  return const_cast<Pipeline *>(this)->getStage(name);
}

Error Pipeline::addStage(Stage stage) {
  if (getStage(stage.name))
    return makeError("pipeline already has a stage '" + stage.name + "'");
  stages.push_back(std::move(stage));
  return Error::success();
}

llvm::Expected<Stage *> Pipeline::lookupStage(StringRef name) {
  if (Stage *stage = getStage(name))
    return stage;
  std::string known;
  for (const Stage &stage : stages)
    known += (known.empty() ? "" : ", ") + stage.name;
  return makeError("pipeline of target '" + target + "' has no stage '" + name +
                   "' (stages: " + known + ")");
}

llvm::Expected<size_t> Pipeline::lookupEntry(Stage &stage, StringRef anchor) {
  int index = stage.find(anchor);
  if (index < 0)
    return makeError("stage '" + stage.name + "' has no pass '" + anchor +
                     "' (passes: " + stage.pipelineString() + ")");
  return static_cast<size_t>(index);
}

Error Pipeline::editAtEntry(
    StringRef stageName, StringRef anchor,
    llvm::function_ref<void(std::vector<PassEntry> &, size_t)> edit) {
  auto stage = lookupStage(stageName);
  if (!stage)
    return stage.takeError();
  auto index = lookupEntry(**stage, anchor);
  if (!index)
    return index.takeError();
  edit((*stage)->passes, *index);
  return Error::success();
}

Error Pipeline::insertBefore(StringRef stageName, StringRef anchor,
                             PassEntry entry) {
  return editAtEntry(stageName, anchor, [&](auto &passes, size_t index) {
    passes.insert(passes.begin() + index, std::move(entry));
  });
}

Error Pipeline::insertAfter(StringRef stageName, StringRef anchor,
                            PassEntry entry) {
  return editAtEntry(stageName, anchor, [&](auto &passes, size_t index) {
    passes.insert(passes.begin() + index + 1, std::move(entry));
  });
}

Error Pipeline::replace(StringRef stageName, StringRef anchor,
                        PassEntry entry) {
  return editAtEntry(stageName, anchor, [&](auto &passes, size_t index) {
    passes[index] = std::move(entry);
  });
}

Error Pipeline::remove(StringRef stageName, StringRef anchor) {
  return editAtEntry(stageName, anchor, [&](auto &passes, size_t index) {
    passes.erase(passes.begin() + index);
  });
}

Error Pipeline::replaceStage(StringRef stageName,
                             std::vector<PassEntry> entries) {
  auto stage = lookupStage(stageName);
  if (!stage)
    return stage.takeError();
  (*stage)->passes = std::move(entries);
  return Error::success();
}

Error Pipeline::append(StringRef stageName, PassEntry entry) {
  auto stage = lookupStage(stageName);
  if (!stage)
    return stage.takeError();
  (*stage)->passes.push_back(std::move(entry));
  return Error::success();
}

bool Pipeline::operator==(const Pipeline &other) const {
  if (target != other.target || name != other.name ||
      stages.size() != other.stages.size())
    return false;
  for (auto [a, b] : llvm::zip(stages, other.stages))
    if (a.name != b.name || a.kind != b.kind || a.anchor != b.anchor ||
        a.passes != b.passes)
      return false;
  return true;
}
