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

#include <memory>
#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tpx {

struct EmitterInput {
  /// The full target name, e.g. "sm_90a".
  llvm::StringRef target;
  /// The module after the last MLIR stage (and this stage's own passes).
  mlir::ModuleOp &module;
  /// The previous Emit stage's output; empty after an MLIR stage.
  llvm::StringRef previousBytes;
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
