//===- Pipeline.h - A compile pipeline as data ------------------*- C++ -*-===//
//
// A Pipeline is the named, ordered list of stages of one target (e.g. `ttir,
// llir, obj` for the CPU); a Stage is a list of pass entries written in MLIR
// pass-pipeline syntax. Pipelines are plain values: they are printed, parsed,
// edited (by users and by plugin pipeline extensions) and then run by the
// PipelineRunner. Keeping them data is what makes every compile reproducible
// from text alone (docs/pipeline.md).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_PIPELINE_PIPELINE_H
#define TPX_PIPELINE_PIPELINE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tpx {

/// One element of a stage: a pass (`cse`, `tt-foo{factor=2}`) or a nested
/// pipeline on an op (`tt.func(canonicalize)`), kept as text pieces.
struct PassEntry {
  /// Pass argument or, for a nested pipeline, the op name it anchors on.
  std::string name;
  /// The text between `{` and `}` without the braces; empty when none.
  std::string options;
  /// For a nested pipeline, the text between `(` and `)`; else empty.
  std::string nested;
  bool isNested = false;

  /// Parses one entry, e.g. `tt-foo{factor=2}` or `tt.func(cse)`.
  static llvm::Expected<PassEntry> parse(llvm::StringRef text);
  /// Parses a comma-separated list of entries (no anchor), e.g. `cse,dce`.
  static llvm::Expected<std::vector<PassEntry>> parseList(llvm::StringRef text);
  std::string str() const;
  bool operator==(const PassEntry &other) const {
    return name == other.name && options == other.options &&
           nested == other.nested && isNested == other.isNested;
  }
};

/// How a stage produces its output. MLIR stages run passes on the module;
/// Emit stages hand the module (or the previous stage's bytes) to the
/// StageEmitter registered for the target and stage.
enum class StageKind { MLIR, Emit };

struct Stage {
  std::string name;
  StageKind kind = StageKind::MLIR;
  /// The op the stage's pass list runs on.
  std::string anchor = "builtin.module";
  std::vector<PassEntry> passes;

  /// `builtin.module(cse,canonicalize)`: what mlir::parsePassPipeline reads.
  std::string pipelineString() const;
  /// Index of the first entry named `name`, or -1.
  int find(llvm::StringRef name) const;
};

class Pipeline {
public:
  Pipeline() = default;
  explicit Pipeline(std::string target) : target(std::move(target)) {}

  const std::string &getTarget() const { return target; }
  void setTarget(std::string t) { target = std::move(t); }
  /// Which of the target's named pipelines this is (`simt`, `one-thread`,
  /// `default`); empty for a pipeline text that does not say.
  const std::string &getName() const { return name; }
  void setName(std::string n) { name = std::move(n); }
  std::vector<Stage> &getStages() { return stages; }
  const std::vector<Stage> &getStages() const { return stages; }

  Stage *getStage(llvm::StringRef name);
  const Stage *getStage(llvm::StringRef name) const;
  /// Appends a stage; an error if one with that name exists.
  llvm::Error addStage(Stage stage);

  // Edits. Each names the stage and, where relevant, the anchor entry (the
  // first entry of the stage whose name matches). A missing stage or anchor
  // is an error that names them; the pipeline is unchanged on error.
  llvm::Error insertBefore(llvm::StringRef stage, llvm::StringRef anchor,
                           PassEntry entry);
  llvm::Error insertAfter(llvm::StringRef stage, llvm::StringRef anchor,
                          PassEntry entry);
  llvm::Error replace(llvm::StringRef stage, llvm::StringRef anchor,
                      PassEntry entry);
  llvm::Error remove(llvm::StringRef stage, llvm::StringRef anchor);
  llvm::Error replaceStage(llvm::StringRef stage,
                           std::vector<PassEntry> entries);
  llvm::Error append(llvm::StringRef stage, PassEntry entry);

  /// The text form: one `stage: anchor(passes)` line per stage, after a
  /// `# tpx pipeline target=<target> [pipeline=<name>]` header (see
  /// PipelineText.cpp).
  std::string print() const;
  /// Parses the text form. Stage kinds come from the target's default
  /// pipeline when the target is known, so a printed pipeline round-trips.
  static llvm::Expected<Pipeline> parse(llvm::StringRef text);

  bool operator==(const Pipeline &other) const;

private:
  llvm::Expected<Stage *> lookupStage(llvm::StringRef stage);
  llvm::Expected<size_t> lookupEntry(Stage &stage, llvm::StringRef anchor);
  /// Looks up `stage` and its entry `anchor`, then applies `edit` to the
  /// stage's entries at the anchor's index; errors name what is missing.
  llvm::Error
  editAtEntry(llvm::StringRef stage, llvm::StringRef anchor,
              llvm::function_ref<void(std::vector<PassEntry> &, size_t)> edit);

  std::string target;
  std::string name;
  std::vector<Stage> stages;
};

} // namespace tpx

#endif // TPX_PIPELINE_PIPELINE_H
