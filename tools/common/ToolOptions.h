//===- ToolOptions.h - what tpx-compile and tpx-run check alike -*- C++ -*-===//
//
// Launch options that both tools take (num_warps / num_stages, from the
// command line or a case file) are checked by the same rules, and both
// tools show only their own options in --help.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_TOOLS_COMMON_TOOLOPTIONS_H
#define TPX_TOOLS_COMMON_TOOLOPTIONS_H

#include "llvm/Support/CommandLine.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tpx::tools {

/// Warps per program: a power of two in [1, kMaxNumWarps], as in Triton
/// (32 warps of 32 threads is the 1024-thread limit of a CUDA block). The
/// CPU target ignores the value but it is checked all the same, so that a
/// case or command line is valid for every target.
constexpr int64_t kMaxNumWarps = 32;
/// Software pipelining depth: 1 (no pipelining) to kMaxNumStages.
constexpr int64_t kMaxNumStages = 16;

/// Why `value` is not a valid num_warps, or nullopt when it is.
std::optional<std::string> checkNumWarps(int64_t value);
/// Why `value` is not a valid num_stages, or nullopt when it is.
std::optional<std::string> checkNumStages(int64_t value);

/// Hides every option outside `category` and LLVM's generic ones (--help,
/// --version, ...) from --help. Unlike cl::HideUnrelatedOptions, which makes
/// them ReallyHidden, they stay listed by --help-hidden and
/// --help-list-hidden; all of them still parse.
void hideUnrelatedOptions(llvm::cl::OptionCategory &category);

} // namespace tpx::tools

#endif // TPX_TOOLS_COMMON_TOOLOPTIONS_H
