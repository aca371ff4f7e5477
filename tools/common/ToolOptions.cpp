//===- ToolOptions.cpp - what tpx-compile and tpx-run check alike ---------===//
#include "ToolOptions.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace tpx::tools;

std::optional<std::string> tpx::tools::checkNumWarps(int64_t value) {
  if (value >= 1 && value <= kMaxNumWarps &&
      llvm::isPowerOf2_64(static_cast<uint64_t>(value)))
    return std::nullopt;
  return llvm::formatv("must be a power of two from 1 to {0}, got {1}",
                       kMaxNumWarps, value)
      .str();
}

std::optional<std::string> tpx::tools::checkNumStages(int64_t value) {
  if (value >= 1 && value <= kMaxNumStages)
    return std::nullopt;
  return llvm::formatv("must be from 1 (no software pipelining) to {0}, got "
                       "{1}",
                       kMaxNumStages, value)
      .str();
}

void tpx::tools::hideUnrelatedOptions(llvm::cl::OptionCategory &category) {
  // cl::HideUnrelatedOptions knows LLVM's generic category (--help,
  // --version, ...), which is not public; let it decide what is unrelated,
  // then turn its ReallyHidden into Hidden for options that were visible.
  llvm::StringMap<llvm::cl::OptionHidden> before;
  for (auto &entry : llvm::cl::getRegisteredOptions())
    before[entry.first] = entry.second->getOptionHiddenFlag();
  llvm::cl::HideUnrelatedOptions(category);
  for (auto &entry : llvm::cl::getRegisteredOptions()) {
    llvm::cl::Option *option = entry.second;
    if (option->getOptionHiddenFlag() == llvm::cl::ReallyHidden &&
        before.lookup(entry.first) != llvm::cl::ReallyHidden)
      option->setHiddenFlag(llvm::cl::Hidden);
  }
}
