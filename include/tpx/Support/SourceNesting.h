//===- SourceNesting.h - bound the nesting of MLIR text ---------*- C++ -*-===//
//
// MLIR's parsers are recursive descent: text nested thousands of levels
// deep (`[[[...]]]` attributes, `!tt.ptr<!tt.ptr<...>>` types, regions in
// regions) overflows the stack and kills the process. Every place that
// parses user text checks its bracket depth first; real TTIR nests a few
// dozen levels at most.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_SUPPORT_SOURCENESTING_H
#define TPX_SUPPORT_SOURCENESTING_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tpx {

/// The deepest bracket nesting tpx parses.
constexpr unsigned kMaxSourceNesting = 256;

/// If `text` nests (), [], {} or <> (not counting `->`) deeper than
/// `maxDepth` outside string literals and `//` comments, a message naming
/// the line and column where it does.
inline std::optional<std::string>
findExcessiveNesting(llvm::StringRef text,
                     unsigned maxDepth = kMaxSourceNesting) {
  unsigned depth = 0, line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      lineStart = i + 1;
    } else if (c == '"') {
      // A string literal, with \" escapes; an unterminated one ends at the
      // newline, which the next iteration counts.
      while (i + 1 < text.size() && text[i + 1] != '"' && text[i + 1] != '\n')
        i += text[i + 1] == '\\' && i + 2 < text.size() ? 2 : 1;
      if (i + 1 < text.size() && text[i + 1] == '"')
        ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > maxDepth)
        return "brackets nest deeper than " + std::to_string(maxDepth) +
               " levels at line " + std::to_string(line) + ", column " +
               std::to_string(i - lineStart + 1) +
               " (tpx does not parse such input)";
    } else if ((c == ')' || c == ']' || c == '}' ||
                (c == '>' && (i == 0 || text[i - 1] != '-'))) &&
               depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

} // namespace tpx

#endif // TPX_SUPPORT_SOURCENESTING_H
