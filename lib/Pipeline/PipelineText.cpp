//===- PipelineText.cpp - Print and parse pipelines as text ---------------===//
//
// The format (docs/pipeline.md):
//
//   # tpx pipeline target=cpu
//   ttir: builtin.module(inline,canonicalize{max-iterations=4},cse)
//   llir: builtin.module()
//   obj: builtin.module()
//
// Blank lines and other `#` lines are ignored. Each stage line holds one MLIR
// pass pipeline, so any line can be pasted into `tpx-opt --pass-pipeline=`.
// Entries are kept as text pieces here; whether a pass exists and its options
// parse is checked when the stage is built into a PassManager.
//
//===----------------------------------------------------------------------===//
#include "tpx/Pipeline/Pipeline.h"
#include "tpx/Pipeline/TargetPipelines.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace tpx;
using llvm::StringRef;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static bool isNameChar(char c) {
  return llvm::isAlnum(c) || c == '-' || c == '_' || c == '.';
}

/// Returns the index of the bracket closing the one at `open`, honouring
/// nesting of (), {} and [] and double-quoted strings, or npos.
static size_t findClosing(StringRef text, size_t open) {
  std::vector<char> expected;
  bool inString = false;
  for (size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '(' || c == '{' || c == '[') {
      expected.push_back(c == '(' ? ')' : c == '{' ? '}' : ']');
    } else if (c == ')' || c == '}' || c == ']') {
      if (expected.empty() || expected.back() != c)
        return StringRef::npos;
      expected.pop_back();
      if (expected.empty())
        return i;
    }
  }
  return StringRef::npos;
}

llvm::Expected<PassEntry> PassEntry::parse(StringRef text) {
  StringRef rest = text.trim();
  size_t nameEnd = 0;
  while (nameEnd < rest.size() && isNameChar(rest[nameEnd]))
    ++nameEnd;
  if (nameEnd == 0)
    return makeError("expected a pass name in '" + text + "'");
  PassEntry entry;
  entry.name = rest.take_front(nameEnd).str();
  rest = rest.drop_front(nameEnd).ltrim();
  if (rest.starts_with("{")) {
    size_t close = findClosing(rest, 0);
    if (close == StringRef::npos)
      return makeError("unbalanced '{' in pass entry '" + text + "'");
    entry.options = rest.slice(1, close).trim().str();
    rest = rest.drop_front(close + 1).ltrim();
  } else if (rest.starts_with("(")) {
    size_t close = findClosing(rest, 0);
    if (close == StringRef::npos)
      return makeError("unbalanced '(' in pass entry '" + text + "'");
    entry.isNested = true;
    entry.nested = rest.slice(1, close).trim().str();
    rest = rest.drop_front(close + 1).ltrim();
  }
  if (!rest.empty())
    return makeError("unexpected '" + rest + "' after pass entry '" +
                     entry.name + "'");
  return entry;
}

llvm::Expected<std::vector<PassEntry>> PassEntry::parseList(StringRef text) {
  std::vector<PassEntry> entries;
  StringRef rest = text.trim();
  if (rest.starts_with(",") || rest.ends_with(","))
    return makeError("empty pass entry in '" + text + "'");
  while (!rest.empty()) {
    // Split at the first comma outside brackets and strings.
    size_t end = 0;
    for (; end < rest.size() && rest[end] != ','; ++end) {
      char c = rest[end];
      if (c == '(' || c == '{' || c == '[' || c == '"') {
        size_t close =
            c == '"' ? rest.find('"', end + 1) : findClosing(rest, end);
        if (close == StringRef::npos)
          return makeError("unbalanced '" + llvm::Twine(c) + "' in '" + text +
                           "'");
        end = close;
      }
    }
    auto entry = PassEntry::parse(rest.take_front(end));
    if (!entry)
      return entry.takeError();
    entries.push_back(std::move(*entry));
    rest = rest.drop_front(std::min(end + 1, rest.size())).trim();
  }
  return entries;
}

std::string PassEntry::str() const {
  if (isNested)
    return name + "(" + nested + ")";
  if (options.empty())
    return name;
  return name + "{" + options + "}";
}

std::string Pipeline::print() const {
  std::string text = "# tpx pipeline target=" + target;
  if (!name.empty())
    text += " pipeline=" + name;
  text += "\n";
  for (const Stage &stage : stages)
    text += stage.name + ": " + stage.pipelineString() + "\n";
  return text;
}

llvm::Expected<Pipeline> Pipeline::parse(StringRef text) {
  Pipeline pipeline;
  std::optional<Pipeline> defaults;
  llvm::SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (auto [lineNo, rawLine] : llvm::enumerate(lines)) {
    StringRef line = rawLine.trim();
    auto where = [&, n = lineNo + 1] {
      return "pipeline text line " + std::to_string(n) + ": ";
    };
    if (line.empty())
      continue;
    if (line.consume_front("#")) {
      line = line.trim();
      if (line.consume_front("tpx pipeline target=")) {
        auto [targetName, rest] = line.trim().split(' ');
        if (targetName.empty())
          return makeError(where() + "'# tpx pipeline target=' names no "
                                     "target (write e.g. target=sm_90a, or "
                                     "drop the line)");
        rest = rest.trim();
        if (!rest.empty()) {
          if (!rest.consume_front("pipeline=") || rest.trim().empty() ||
              rest.trim().contains(' '))
            return makeError(where() +
                             "expected '# tpx pipeline target=<t> "
                             "[pipeline=<name>]', got '" +
                             rawLine.trim() + "'");
          pipeline.setName(rest.trim().str());
        }
        pipeline.setTarget(targetName.str());
        auto found = getDefaultPipeline(pipeline.getTarget());
        if (found)
          defaults = std::move(*found);
        else
          llvm::consumeError(found.takeError());
      }
      continue;
    }
    auto [name, body] = line.split(':');
    name = name.trim();
    body = body.trim();
    if (name.empty() || !llvm::all_of(name, isNameChar) ||
        line.find(':') == StringRef::npos)
      return makeError(where() + "expected 'stage: anchor(passes)', got '" +
                       line + "'");
    Stage stage;
    stage.name = name.str();
    if (defaults)
      if (const Stage *known = defaults->getStage(name))
        stage.kind = known->kind;
    size_t open = body.find('(');
    if (open == StringRef::npos || open == 0 || !body.ends_with(")") ||
        findClosing(body, open) != body.size() - 1)
      return makeError(where() + "stage '" + name +
                       "' needs 'anchor(passes)', got '" + body + "'");
    stage.anchor = body.take_front(open).trim().str();
    auto entries = PassEntry::parseList(body.slice(open + 1, body.size() - 1));
    if (!entries)
      return makeError(where() + "stage '" + name +
                       "': " + llvm::toString(entries.takeError()));
    stage.passes = std::move(*entries);
    if (auto error = pipeline.addStage(std::move(stage)))
      return makeError(where() + llvm::toString(std::move(error)));
  }
  if (pipeline.getStages().empty())
    return makeError("pipeline text has no stages");
  return pipeline;
}
