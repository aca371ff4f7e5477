//===- TargetPipelines.cpp - The default pipelines, in one table ----------===//
//
// Stage names are public (plugins and users name them). Stages that later
// work fills (ttgir, llir and the emit stages) hold few or no passes yet; the
// ttir stage is complete. Backends add their passes here and register
// emitters for the Emit stages (StageEmitter.h).
//
//===----------------------------------------------------------------------===//
#include "tpx/Pipeline/TargetPipelines.h"

#include "llvm/ADT/StringExtras.h"

using namespace tpx;
using llvm::StringRef;

namespace {
struct StageSpec {
  const char *name;
  StageKind kind;
  const char *passes; // comma-separated pass entries
};
} // namespace

// Like Triton's make_ttir: inline calls, simplify, drop dead symbols; and
// give ub.poison a value (zero), so that no backend has to lower it.
static constexpr const char *kTTIRPasses =
    "inline,tt-replace-poison,canonicalize,cse,symbol-dce";

// CPU: tt -> tensors/linalg/loops (convert-tt-to-cpu), divisions that
// cannot trap the host (tpx-cpu-guard-integer-division), bufferize with
// ownership-based deallocation, lower everything to the LLVM dialect and add
// the uniform launch entry; the obj emitter optimizes at -O3.
static constexpr const char *kCpuLLIRPasses =
    "convert-tt-to-cpu,tpx-cpu-guard-integer-division,canonicalize,convert-"
    "elementwise-to-linalg,"
    "eliminate-empty-tensors,empty-tensor-to-alloc-tensor,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "allow-return-allocs-from-loops},"
    "buffer-deallocation-pipeline,convert-bufferization-to-memref,"
    "convert-linalg-to-loops,lower-affine,"
    "convert-scf-to-cf,expand-strided-metadata,finalize-memref-to-llvm,"
    "convert-math-to-llvm,convert-math-to-libm,convert-arith-to-llvm,"
    "convert-index-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,"
    "reconcile-unrealized-casts,tpx-cpu-emit-entry-points";

static const StageSpec kCpuStages[] = {
    {"ttir", StageKind::MLIR, kTTIRPasses},
    {"llir", StageKind::MLIR, kCpuLLIRPasses},
    {"obj", StageKind::Emit, ""},
};
// NVIDIA (docs/nvidia-target.md). ttgir: tpx-nvidia-select-codegen decides
// whether the SIMT code generator covers the kernel; if so, every tensor
// gets a layout and llir starts with convert-tpxgpu-to-nvvm, which leaves
// only scalar arith/math/scf/cf for the upstream conversions. Otherwise
// (tpx.codegen = "scalar") those two passes leave the module alone and the
// target-independent CPU lowering (tt -> tensors/loops, bufferization) with
// 64-bit index runs one thread per program; tpx-nvidia-emit-kernel adds its
// nvvm.kernel entry. On a SIMT module the CPU-lowering passes find nothing
// to do. Math becomes libdevice calls on both paths.
static constexpr const char *kNvidiaTTGIRPasses =
    "tpxgpu-lower-tensor-descriptors,tpxgpu-lower-block-pointers,"
    "tpx-nvidia-select-codegen,"
    "tpxgpu-prefetch-loads,canonicalize,cse,"
    "convert-tt-to-tpxgpu,"
    "tpxgpu-remove-layout-conversions,canonicalize,loop-invariant-code-motion,"
    "cse,tpxgpu-allocate-shared-memory";
static constexpr const char *kNvidiaLLIRPasses =
    "convert-tpxgpu-to-nvvm,"
    "convert-tt-to-cpu,canonicalize,convert-elementwise-to-linalg,"
    "eliminate-empty-tensors,empty-tensor-to-alloc-tensor,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "allow-return-allocs-from-loops},"
    "buffer-deallocation-pipeline,convert-bufferization-to-memref,"
    "tpx-nvidia-copies-to-loops,convert-linalg-to-loops,lower-affine,"
    "convert-scf-to-cf,expand-strided-metadata,tpx-nvidia-math-to-libdevice,"
    "finalize-memref-to-llvm{index-bitwidth=64},convert-math-to-llvm,"
    "convert-arith-to-llvm{index-bitwidth=64},"
    "convert-index-to-llvm{index-bitwidth=64},"
    "convert-func-to-llvm{index-bitwidth=64},"
    "convert-cf-to-llvm{index-bitwidth=64},reconcile-unrealized-casts,"
    "tpx-nvidia-lower-runtime-calls,tpx-nvidia-emit-kernel,canonicalize,cse";

static const StageSpec kNvidiaStages[] = {
    {"ttir", StageKind::MLIR, kTTIRPasses},
    {"ttgir", StageKind::MLIR, kNvidiaTTGIRPasses},
    {"llir", StageKind::MLIR, kNvidiaLLIRPasses},
    {"ptx", StageKind::Emit, ""},
    {"cubin", StageKind::Emit, ""},
};
static const StageSpec kAmdStages[] = {
    {"ttir", StageKind::MLIR, kTTIRPasses}, {"ttgir", StageKind::MLIR, ""},
    {"llir", StageKind::MLIR, ""},          {"amdgcn", StageKind::Emit, ""},
    {"hsaco", StageKind::Emit, ""},
};

static bool hasDigitsAfter(StringRef name, StringRef prefix) {
  if (!name.consume_front(prefix) || name.empty())
    return false;
  name.consume_back("a"); // sm_90a
  return !name.empty() &&
         llvm::all_of(name, [](char c) { return llvm::isAlnum(c); }) &&
         llvm::isDigit(name.front());
}

llvm::Expected<std::string> tpx::getTargetFamily(StringRef target) {
  if (target == "cpu")
    return std::string("cpu");
  if (hasDigitsAfter(target, "sm_"))
    return std::string("nvidia");
  if (hasDigitsAfter(target, "gfx"))
    return std::string("amd");
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown target '" + target +
                                     "' (expected cpu, sm_<N>[a] or gfx<N>)");
}

llvm::Expected<Pipeline> tpx::getDefaultPipeline(StringRef target) {
  auto family = getTargetFamily(target);
  if (!family)
    return family.takeError();
  llvm::ArrayRef<StageSpec> specs =
      *family == "cpu"      ? llvm::ArrayRef<StageSpec>(kCpuStages)
      : *family == "nvidia" ? llvm::ArrayRef<StageSpec>(kNvidiaStages)
                            : llvm::ArrayRef<StageSpec>(kAmdStages);
  Pipeline pipeline(target.str());
  for (const StageSpec &spec : specs) {
    Stage stage;
    stage.name = spec.name;
    stage.kind = spec.kind;
    auto entries = PassEntry::parseList(spec.passes);
    if (!entries)
      return entries.takeError();
    stage.passes = std::move(*entries);
    if (auto error = pipeline.addStage(std::move(stage)))
      return std::move(error);
  }
  return pipeline;
}
