//===- TargetBackend.h - One registration per target family ----*- C++ -*-===//
//
// Everything the driver needs to know about a target family (cpu, nvidia,
// amd) is one TargetBackend: which target names it takes, its stages, its
// named pipelines and how the driver picks one per kernel, what each stage
// accepts, its stage emitters, the pass options num_warps / num_stages
// reach, and the artifact fields it fills. The driver, the C API and the
// tools ask the backend; none of them compares target names. A new family
// (AMD's gfx950 code generation) registers the same way.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_TARGET_TARGETBACKEND_H
#define TPX_TARGET_TARGETBACKEND_H

#include "tpx/Pipeline/Pipeline.h"
#include "tpx/Pipeline/StageEmitter.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
class Operation;
} // namespace mlir

namespace tpx {

struct Artifact;

/// The ttir passes of every target, like Triton's make_ttir: inline calls,
/// simplify, drop dead symbols; and give ub.poison a value (zero), so that
/// no backend has to lower it.
inline constexpr const char *kCommonTTIRPasses =
    "inline,tt-replace-poison,canonicalize,cse,symbol-dce";

/// One stage of a target: its public name and kind.
struct StageDecl {
  std::string name;
  StageKind kind = StageKind::MLIR;
};

/// A named pipeline of a target: the default passes of each stage.
struct NamedPipelineSpec {
  std::string name;
  /// One comma-separated pass list per stage of the backend, in order.
  std::vector<std::string> stagePasses;
  /// The value of the `tpxgpu.codegen` module attribute the driver records
  /// when this pipeline runs ("simt", "scalar"); empty: none.
  std::string codegen;
  /// Runs only when the compile names it (CompileOptions::pipelineName:
  /// --target-pipeline, TpxKernelOptions.targetPipeline, Python's
  /// target_pipeline=). When choosePipeline picks it for a kernel the
  /// default pipeline does not cover, the compile fails with the op and
  /// the reason instead of silently running it (NVIDIA's one-thread
  /// debugging pipeline, about 1000x slower than simt).
  bool onlyWhenNamed = false;
};

/// What a stage of a target accepts as its input or as an override
/// (TargetOpSupport.h holds the rules common to every target).
struct StageAcceptance {
  enum Level {
    /// Kernel code: tt, arith, math, scf, cf, ub, plugin dialects, and the
    /// kernel-level rules (tensor sizes, nesting, ...).
    Kernel,
    /// Lowered code: the llvm dialect.
    Lowered,
  };
  std::string stage;
  Level level = Kernel;
  /// Dialects this target accepts in the stage besides the common ones
  /// (tpxgpu in ttgir, nvvm in llir, ...).
  std::vector<std::string> extraDialects;
};

/// A pass option the driver fills from a compile option, unless the
/// pipeline text sets it (Target: the compile's target name, "gfx950").
struct LaunchOptionSlot {
  enum Value { NumWarps, NumStages, Target };
  std::string pass;
  std::string option;
  Value value;
};

/// What the driver tells a backend's pipeline choice about the compile.
struct PipelineChoiceInput {
  unsigned numWarps = 4;
  unsigned numStages = 3;
};

/// A backend's choice of pipeline for one kernel.
struct PipelineChoice {
  /// One of the backend's pipeline names.
  std::string name;
  /// The op that made the choice (the first one the default pipeline does
  /// not cover), and why; the driver reports it as a remark at the op.
  mlir::Operation *reason = nullptr;
  std::string why;
};

struct TargetBackend {
  /// `cpu`, `nvidia`, `amd`: the family names emitters register under.
  std::string family;
  /// How its targets are written, for errors ("sm_<N>[a]").
  std::string targetPattern;
  /// Whether `target` belongs to this family.
  std::function<bool(llvm::StringRef target)> matchesTarget;
  /// The targets the tools list as known (`cpu`, `sm_90a`, `gfx950`).
  std::vector<std::string> knownTargets;

  std::vector<StageDecl> stages;
  /// At least one; the first is the default (what a target without a kernel
  /// to look at, such as tpxGetPipelineText, gets).
  std::vector<NamedPipelineSpec> pipelines;
  /// With several pipelines: the last stage they all share. The driver runs
  /// the stages up to it, asks choosePipeline, then runs the rest of the
  /// chosen pipeline, so the choice sees the kernel as those stages left it.
  std::string choiceAfterStage;
  std::function<PipelineChoice(mlir::ModuleOp, const PipelineChoiceInput &)>
      choosePipeline;

  std::vector<LaunchOptionSlot> launchOptions;
  /// Whether its kernels may be launched in thread-block clusters (a
  /// module's `tpxgpu.cluster-dims` of more than one CTA); elsewhere such a
  /// module is an error before anything runs.
  bool launchesClusters = false;
  std::vector<StageAcceptance> accepts;
  /// The emitters of the emit stages, registered with the backend.
  std::vector<
      std::pair<std::string, std::function<std::unique_ptr<StageEmitter>()>>>
      emitters;

  // --- The artifact. ---------------------------------------------------
  /// The symbol of the entry the launcher calls, in the compiled module.
  std::function<std::string(llvm::StringRef kernel)> getModuleEntryName;
  /// An error naming the missing pass when the compiled module lacks that
  /// entry.
  std::function<llvm::Error(mlir::ModuleOp, llvm::StringRef kernel,
                            llvm::StringRef entry)>
      checkEntryPoint;
  /// Fills the target's fields of `artifact` (entry point, block threads,
  /// shared memory, registers, spills) from the compiled module and what
  /// the assembler reported; the signature and options are already set.
  std::function<llvm::Error(mlir::ModuleOp, const EntryResourceMap &,
                            Artifact &)>
      fillArtifact;
  /// What besides the target name decides the binary (the host CPU the
  /// code is built for); part of cache keys. Empty when nothing.
  std::function<std::string()> getCacheKeyMaterial;
  /// Turns on bounds checking in a pipeline; null: the target ignores the
  /// option (GPU targets).
  std::function<llvm::Error(Pipeline &)> enableBoundsCheck;

  /// The spec of pipeline `name`, or null.
  const NamedPipelineSpec *findPipeline(llvm::StringRef name) const;
  /// The names of its pipelines, comma-separated, for errors.
  std::string listPipelineNames() const;
  /// The pipeline `name` for `target` (named, with every stage).
  llvm::Expected<Pipeline> buildPipeline(llvm::StringRef target,
                                         llvm::StringRef name) const;
};

/// Registers a backend (and its emitters); an error if its family is taken.
llvm::Error registerTargetBackend(TargetBackend backend);

/// The backend of `target` (the built-in ones are registered on first
/// use); an error naming the known target forms for anything else.
llvm::Expected<const TargetBackend *> getTargetBackend(llvm::StringRef target);

/// The registered backends, in registration order.
std::vector<const TargetBackend *> getTargetBackends();

/// Registers the cpu, nvidia and amd backends. Idempotent.
void registerBuiltinTargetBackends();

} // namespace tpx

#endif // TPX_TARGET_TARGETBACKEND_H
