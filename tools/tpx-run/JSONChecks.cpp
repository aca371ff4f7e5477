//===- JSONChecks.cpp - helpers for checking untrusted JSON ---------------===//
#include "JSONChecks.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>

using namespace tpx;

namespace {
/// One open array or object of the scan.
struct Level {
  bool isObject = false;
  /// In an object: the next string is a key (after `{` or `,`).
  bool expectKey = false;
  llvm::StringSet<> keys;
};
} // namespace

/// The value of the JSON string literal whose text between the quotes is
/// `raw`.
static std::string decodeString(llvm::StringRef raw) {
  if (!raw.contains('\\'))
    return raw.str();
  llvm::Expected<llvm::json::Value> value =
      llvm::json::parse(("\"" + raw + "\"").str());
  if (!value) {
    llvm::consumeError(value.takeError());
    return raw.str(); // The real parse reports it.
  }
  return value->getAsString().value_or(raw).str();
}

std::optional<std::string> tpx::checkJSONText(llvm::StringRef text,
                                              unsigned maxDepth) {
  std::vector<Level> stack;
  unsigned line = 1, column = 0, keyLine = 0, keyColumn = 0;
  size_t stringStart = 0;
  bool inString = false, escaped = false;
  auto where = [](unsigned line, unsigned column) {
    return "line " + std::to_string(line) + ", column " +
           std::to_string(column);
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
    }
    if (inString) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        inString = false;
        if (!stack.empty() && stack.back().isObject && stack.back().expectKey) {
          stack.back().expectKey = false;
          std::string key = decodeString(text.slice(stringStart, i));
          if (!stack.back().keys.insert(key).second)
            return "duplicate key \"" + escapeForLine(key) + "\" at " +
                   where(keyLine, keyColumn);
        }
      }
      continue;
    }
    switch (c) {
    case '"':
      inString = true;
      stringStart = i + 1;
      keyLine = line;
      keyColumn = column;
      break;
    case '[':
    case '{':
      if (stack.size() >= maxDepth)
        return "nested deeper than " + std::to_string(maxDepth) +
               " levels at " + where(line, column);
      stack.emplace_back();
      stack.back().isObject = c == '{';
      stack.back().expectKey = c == '{';
      break;
    case ']':
    case '}':
      if (!stack.empty())
        stack.pop_back();
      break;
    case ',':
      if (!stack.empty() && stack.back().isObject)
        stack.back().expectKey = true;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

std::string tpx::describeJSON(const llvm::json::Value &value) {
  switch (value.kind()) {
  case llvm::json::Value::Null:
    return "null";
  case llvm::json::Value::Boolean:
    return *value.getAsBoolean() ? "true" : "false";
  case llvm::json::Value::Number: {
    if (std::optional<int64_t> i = value.getAsInteger())
      return std::to_string(*i);
    if (std::optional<uint64_t> u = value.getAsUINT64())
      return std::to_string(*u);
    // The shortest text that reads back as the same double.
    char buffer[64];
    auto result =
        std::to_chars(buffer, buffer + sizeof(buffer), *value.getAsNumber());
    return std::string(buffer, result.ptr);
  }
  case llvm::json::Value::String: {
    llvm::StringRef text = *value.getAsString();
    constexpr size_t kShown = 40;
    std::string shown = escapeForLine(text.take_front(kShown));
    return "the string \"" + shown + (text.size() > kShown ? "...\"" : "\"");
  }
  case llvm::json::Value::Array:
    return "an array";
  case llvm::json::Value::Object:
    return "an object";
  }
  return "a JSON value";
}

std::string tpx::escapeForLine(llvm::StringRef text, bool escapeBackslash) {
  std::string result;
  llvm::raw_string_ostream os(result);
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = text[i];
    // U+0080..U+009F (NEL among them) are C2 80..C2 9F in UTF-8; U+2028 and
    // U+2029 are E2 80 A8 and E2 80 A9. Line-splitting readers (Python's
    // str.splitlines, for one) break lines at them.
    if (c == 0xC2 && i + 1 < text.size() &&
        (unsigned char)text[i + 1] >= 0x80 &&
        (unsigned char)text[i + 1] <= 0x9F) {
      os << llvm::format("\\u%04X", (unsigned char)text[i + 1]);
      ++i;
      continue;
    }
    if (c == 0xE2 && i + 2 < text.size() &&
        (unsigned char)text[i + 1] == 0x80 &&
        ((unsigned char)text[i + 2] == 0xA8 ||
         (unsigned char)text[i + 2] == 0xA9)) {
      os << ((unsigned char)text[i + 2] == 0xA8 ? "\\u2028" : "\\u2029");
      i += 2;
      continue;
    }
    switch (c) {
    case '\\':
      os << (escapeBackslash ? "\\\\" : "\\");
      break;
    case '\n':
      os << "\\n";
      break;
    case '\r':
      os << "\\r";
      break;
    case '\t':
      os << "\\t";
      break;
    default:
      if (c < 0x20 || c == 0x7F)
        os << llvm::format("\\x%02X", c);
      else
        os << c;
    }
  }
  return result;
}
