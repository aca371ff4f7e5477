//===- Artifact.h - a compiled kernel: binary plus metadata -----*- C++ -*-===//
#ifndef TPX_COMPILER_ARTIFACT_H
#define TPX_COMPILER_ARTIFACT_H

#include "tpx/Compiler/KernelSignature.h"

#include <string>

namespace tpx {

struct Artifact {
  /// `cpu`, `sm_90a`, `gfx950`, ...
  std::string target;
  KernelSignature signature;
  unsigned numWarps = 4;
  unsigned numStages = 3;
  /// Shared memory the kernel needs, in bytes (0 on the CPU).
  unsigned sharedMemory = 0;
  /// Threads per block a GPU launch must use: num_warps * 32 for SIMT code,
  /// 1 for the one-thread-per-program path (unused on the CPU).
  unsigned blockThreads = 1;
  /// Name of the symbol to launch in `binary`.
  std::string entryPoint;
  /// The object file / cubin / hsaco.
  std::string binary;
  /// The cache key the artifact was built under (empty if uncached).
  std::string cacheKey;

  /// Metadata (everything but the binary) as JSON; includes the binary's
  /// SHA-256 so that a damaged copy is detected on load.
  llvm::json::Value metadataToJSON() const;
  /// Rebuilds an artifact from metadata and binary; an error if the binary
  /// does not match the recorded hash or the metadata is malformed.
  static llvm::Expected<Artifact> fromParts(llvm::StringRef metadataJSON,
                                            std::string binary);
};

} // namespace tpx

#endif // TPX_COMPILER_ARTIFACT_H
