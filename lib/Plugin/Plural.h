//===- Plural.h - "1 operand", "2 operands" ---------------------*- C++ -*-===//
//
// Internal to lib/Plugin: counts in diagnostics read right for any number.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_PLUGIN_PLURAL_H
#define TPX_LIB_PLUGIN_PLURAL_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tpx {

/// "<count> <noun>", with `pluralNoun` (default: `noun` + "s") unless the
/// count is 1.
inline std::string countOf(uint64_t count, llvm::StringRef noun,
                           llvm::StringRef pluralNoun = "") {
  std::string text = std::to_string(count) + " ";
  if (count == 1)
    return text + noun.str();
  return text + (pluralNoun.empty() ? noun.str() + "s" : pluralNoun.str());
}

} // namespace tpx

#endif // TPX_LIB_PLUGIN_PLURAL_H
