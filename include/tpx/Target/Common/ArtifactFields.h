//===- ArtifactFields.h - artifact fields every GPU backend fills -*- C++
//-*-===//
//
// The NVIDIA and AMD backends fill an artifact the same way from the
// compiled module (the launch shape the lowering recorded) and from what
// the assembler or linker reported per entry.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_TARGET_COMMON_ARTIFACTFIELDS_H
#define TPX_TARGET_COMMON_ARTIFACTFIELDS_H

#include "tpx/Pipeline/StageEmitter.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/Error.h"

namespace tpx {

struct Artifact;

/// Block threads and shared (LDS) bytes from the module's
/// tpxgpu.block-threads / tpxgpu.shared-bytes, where the lowering set them.
void readLaunchShape(mlir::ModuleOp module, Artifact &artifact);

/// The resources of `artifact.entryPoint`; an error naming the entries the
/// binary (`binary`: "cubin", "hsaco") does have, as `producer` reported
/// them, when it is not among them.
llvm::Expected<const EntryResources *>
findEntryResources(const EntryResourceMap &resources, const Artifact &artifact,
                   llvm::StringRef binary, llvm::StringRef producer);

} // namespace tpx

#endif // TPX_TARGET_COMMON_ARTIFACTFIELDS_H
