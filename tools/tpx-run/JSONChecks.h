//===- JSONChecks.h - helpers for checking untrusted JSON -------*- C++ -*-===//
#ifndef TPX_TOOLS_TPXRUN_JSONCHECKS_H
#define TPX_TOOLS_TPXRUN_JSONCHECKS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace tpx {

/// What llvm::json::parse would not catch in `text`: arrays or objects
/// nested deeper than `maxDepth` (the parser recurses once per level and
/// would overflow the stack on a deep enough document) and keys that occur
/// twice in one object (the parser keeps one silently). Returns the first
/// problem with its place ("... at line L, column C"), or nullopt. Other
/// syntax errors are left to the parser.
std::optional<std::string> checkJSONText(llvm::StringRef text,
                                         unsigned maxDepth);

/// A short description of `value` for error messages: `-1`, `10.5`,
/// `the string "10"`, `null`, `an array`, ...
std::string describeJSON(const llvm::json::Value &value);

/// `text` with everything that could break a line of output escaped:
/// control characters (\n, \t, \xHH), the Unicode line separators (U+0085,
/// U+2028, U+2029 as \uXXXX) and, when `escapeBackslash`, the backslash
/// itself (\\), which makes the escaping reversible.
std::string escapeForLine(llvm::StringRef text, bool escapeBackslash = true);

} // namespace tpx

#endif // TPX_TOOLS_TPXRUN_JSONCHECKS_H
