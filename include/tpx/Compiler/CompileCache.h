//===- CompileCache.h - the on-disk, content-addressed cache ----*- C++ -*-===//
//
// Entries live in `$TPX_CACHE_DIR` (default `~/.cache/tpx`) as
// `<key>/artifact.json`, `<key>/binary` and one `<key>/stage<N>` per stage
// text (the IR after each stage), each written to a temporary file and
// renamed into place, artifact.json last, so readers never see a partial
// entry. artifact.json holds the metadata plus what only the cache needs:
// the format version and each stage file's xxh3 hash. An entry whose
// binary or stage files do not match their recorded hashes, or that another
// format wrote, is treated as missing (and is rebuilt and rewritten by the
// compiler).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_COMPILER_COMPILECACHE_H
#define TPX_COMPILER_COMPILECACHE_H

#include "tpx/Compiler/Artifact.h"

#include <optional>

namespace tpx {

class CompileCache {
public:
  /// The layout of an entry; part of every cache key, and recorded in the
  /// entry. 2: stage texts.
  static constexpr unsigned kFormatVersion = 3;

  /// The cache in `directory`, or the default one when empty.
  explicit CompileCache(std::string directory = "");

  const std::string &getDirectory() const { return directory; }

  /// The artifact stored under `key`, or nullopt when absent or damaged
  /// (`whyMissing`, when given, says which).
  std::optional<Artifact> lookup(llvm::StringRef key,
                                 std::string *whyMissing = nullptr) const;
  /// Stores `artifact` under `key` atomically.
  llvm::Error store(llvm::StringRef key, const Artifact &artifact) const;

  /// The default directory: $TPX_CACHE_DIR, else $HOME/.cache/tpx.
  static std::string getDefaultDirectory();

private:
  std::string directory;
};

} // namespace tpx

#endif // TPX_COMPILER_COMPILECACHE_H
