//===- CompileCache.h - the on-disk, content-addressed cache ----*- C++ -*-===//
//
// Entries live in `$TPX_CACHE_DIR` (default `~/.cache/tpx`) as
// `<key>/artifact.json` + `<key>/binary`, written to temporary files and
// renamed into place, so readers never see a partial entry. An entry whose
// binary does not match its recorded hash is treated as missing (and is
// rebuilt and rewritten by the compiler).
//
//===----------------------------------------------------------------------===//
#ifndef TPX_COMPILER_COMPILECACHE_H
#define TPX_COMPILER_COMPILECACHE_H

#include "tpx/Compiler/Artifact.h"

#include <optional>

namespace tpx {

class CompileCache {
public:
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
