//===- StageEmitter.h - Stages whose output is not MLIR --------*- C++ -*-===//
//
// Stages such as `ptx`, `cubin`, `obj`, `amdgcn`, `hsaco` turn the module (or
// the previous stage's bytes) into bytes. Backends register one StageEmitter
// per (target family, stage) so target-specific code stays out of the
// driver; a stage without one fails with "stage 'obj' of target 'cpu' has no
// emitter yet".
//
//===----------------------------------------------------------------------===//
#ifndef TPX_PIPELINE_STAGEEMITTER_H
#define TPX_PIPELINE_STAGEEMITTER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tpx {

/// What an assembler reports about one kernel entry of the binary it made.
struct EntryResources {
  /// Registers per thread (AMD: vector registers per lane, AGPRs included).
  unsigned registers = 0;
  /// Bytes of spill stores (what Triton reports as n_spills).
  unsigned spillStoreBytes = 0;

  // Counts only some targets report (AMD, from the code object's metadata);
  // unset where the assembler does not. The artifact metadata carries the
  // ones that are set (docs/amd-target.md, "Artifact metadata").
  /// Scalar registers per wave (SGPRs).
  std::optional<unsigned> sgprs;
  /// Accumulation registers (AMD AGPRs); already counted in `registers`.
  std::optional<unsigned> agprs;
  /// Vector and scalar registers spilled, as counts of registers.
  std::optional<unsigned> vgprSpills;
  std::optional<unsigned> sgprSpills;
  /// Scratch (private segment) bytes per thread: spills and stack objects.
  std::optional<unsigned> scratchBytes;
  /// Shared memory (LDS) the binary allocates statically, in bytes.
  std::optional<unsigned> staticSharedBytes;
  /// Threads per wave the binary was compiled for (AMD: 32 or 64).
  std::optional<unsigned> waveSize;
  /// The most threads per block the binary supports.
  std::optional<unsigned> maxBlockThreads;
};

/// Resources per entry, by the entry's name in the binary.
using EntryResourceMap = std::map<std::string, EntryResources>;

struct EmitterInput {
  /// The full target name, e.g. "sm_90a".
  llvm::StringRef target;
  /// The module after the last MLIR stage (and this stage's own passes).
  mlir::ModuleOp &module;
  /// The previous Emit stage's output; empty after an MLIR stage.
  llvm::StringRef previousBytes;
  /// Where an emitter that learns the resources of the binary's entries
  /// (the cubin stage, from ptxas; hsaco, from the code object's metadata)
  /// records them; never null.
  EntryResourceMap *resources;
};

class StageEmitter {
public:
  virtual ~StageEmitter();
  /// Produces the stage's bytes, or an error naming what failed.
  virtual llvm::Expected<std::string> emit(const EmitterInput &input) = 0;
  /// Whether the bytes are text (PTX, assembly) rather than a binary; text
  /// is kept in artifacts as the stage's IR.
  virtual bool producesText() const { return false; }
};

/// Registers the emitter of `stage` for a target family (`cpu`, `nvidia`,
/// `amd`); replaces any previous one (a backend may refine another's).
void registerStageEmitter(llvm::StringRef family, llvm::StringRef stage,
                          std::unique_ptr<StageEmitter> emitter);
/// The emitter for `target`'s `stage`, or null.
StageEmitter *lookupStageEmitter(llvm::StringRef target, llvm::StringRef stage);

} // namespace tpx

#endif // TPX_PIPELINE_STAGEEMITTER_H
