//===- Artifact.h - a compiled kernel: binary plus metadata -----*- C++ -*-===//
#ifndef TPX_COMPILER_ARTIFACT_H
#define TPX_COMPILER_ARTIFACT_H

#include "tpx/Compiler/KernelSignature.h"
#include "tpx/Compiler/TensorMapParam.h"
#include "tpx/Pipeline/StageText.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

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
  /// The thread-block cluster a GPU launch must use (`tpxgpu.cluster-dims`;
  /// {1, 1, 1}: no clusters). The grid counts CTAs and must be a multiple
  /// of it in each dimension.
  std::array<unsigned, 3> clusterDims = {1, 1, 1};
  /// Name of the symbol to launch in `binary`: on NVIDIA the `.entry` of
  /// the cubin (the kernel's PTX name, getPTXEntryName), what
  /// cuModuleGetFunction takes; on AMD the kernel's name in the hsaco, what
  /// hipModuleGetFunction takes.
  std::string entryPoint;
  /// Registers per thread and bytes of spill stores of the entry, as ptxas
  /// reported them (AMD: VGPRs and 4 bytes per spilled VGPR, from the
  /// hsaco's metadata; 0 and 0 on the CPU; -1 when unknown: a binary from
  /// an override directory).
  int numRegs = 0;
  int numSpills = 0;
  /// What some targets report about the entry beyond registers and spills
  /// (AMD, from the hsaco's metadata: EntryResources has their meaning);
  /// unset elsewhere, and then absent from the metadata JSON.
  std::optional<int> numSgprs;
  std::optional<int> numAgprs;
  std::optional<int> numVgprSpills;
  std::optional<int> numSgprSpills;
  std::optional<int> scratchBytes;
  std::optional<int> staticSharedMemory;
  std::optional<int> waveSize;
  std::optional<int> maxBlockThreads;
  /// Kernel parameters after the signature's arguments that the launcher
  /// fills with TMA tensor maps built from those arguments (NVIDIA).
  std::vector<TensorMapParam> tensorMaps;
  /// The object file / cubin / hsaco.
  std::string binary;
  /// The IR after each stage that produces text, in pipeline order: `ttir`,
  /// `ttgir`, `llir`, `ptx` (NVIDIA), `ttir`, `llir` (CPU). Binary stages
  /// are only `binary`. The compile cache stores them with the binary.
  std::vector<StageText> stages;
  /// The named pipeline of the target that compiled it (`simt`,
  /// `one-thread`, `default`); empty for a pipeline text without a name.
  std::string pipeline;
  /// The cache key the artifact was built under (empty if uncached).
  std::string cacheKey;

  /// The text of stage `name`, or null if the artifact has none.
  const StageText *findStage(llvm::StringRef name) const;

  /// Metadata (everything but the binary and the stage texts, which it
  /// names) as JSON; includes the binary's SHA-256 so that a damaged copy
  /// is detected on load.
  llvm::json::Value metadataToJSON() const;
  /// Rebuilds an artifact (without stage texts) from metadata and binary;
  /// an error if the binary does not match the recorded hash or the
  /// metadata is malformed.
  static llvm::Expected<Artifact> fromParts(llvm::StringRef metadataJSON,
                                            std::string binary);
};

} // namespace tpx

#endif // TPX_COMPILER_ARTIFACT_H
