//===- NVIDIABackend.cpp - the `nvidia` target backend --------------------===//
//
// Two named pipelines share the ttir stage and fork after it:
//
//   simt        every tensor gets a layout (ttgir) and convert-tpxgpu-to-
//               nvvm lowers it to multi-threaded code (llir);
//   one-thread  the target-independent loop lowering that the CPU target
//               uses too, with 64-bit indices, run on one thread per
//               program (tpx-nvidia-emit-kernel makes the entry). A
//               debugging aid about 1000x slower than simt: it runs only
//               when the compile names it (--target-pipeline one-thread);
//               a kernel simt does not cover is an error naming the op.
//
// The ttir stage ends with the block-pointer and tensor-descriptor
// lowerings because they change what the SIMT generator covers: the driver
// runs ttir, asks findSIMTBlocker about the result and runs the rest of
// simt, or reports the op it does not cover. Math becomes libdevice calls on
// both.
//
//===----------------------------------------------------------------------===//
#include "tpx/Compiler/Artifact.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Target/Common/ArtifactFields.h"
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/StringExtras.h"

using namespace tpx;
using llvm::StringRef;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static constexpr const char *kNvidiaTTIRPasses =
    "inline,tt-replace-poison,canonicalize,cse,symbol-dce,tt-combine-dot-add,"
    "tpxgpu-lower-tensor-descriptors,tpxgpu-lower-block-pointers,"
    "tpxgpu-decompose-scaled-dots";

static constexpr const char *kSimtTTGIRPasses =
    "convert-tt-to-tpxgpu,tpxgpu-use-wgmma,canonicalize,"
    "tpxgpu-remove-layout-conversions,canonicalize,loop-invariant-code-motion,"
    "cse,tpxgpu-annotate-contiguity,"
    "tpxgpu-pipeline-async-copies{async-dots=true},"
    "tpxgpu-prefetch-loads,canonicalize,cse,tpxgpu-pipeline-wgmma,"
    "tpxgpu-use-tma,tpxgpu-lower-layout-conversions,tpxgpu-annotate-contiguity,"
    "tpxgpu-allocate-shared-memory";
// Software pipelining comes after the layouts: tpxgpu-pipeline-async-copies
// needs the dots' staging (tpxgpu-use-wgmma) and the loads' vector widths
// (the first tpxgpu-annotate-contiguity); the register prefetcher and the
// async-wgmma pass then take the loops it left. The pipeliner keeps a loop's
// only dot in flight (async-dots, as Triton's loop does) when the dot has
// enough K steps per iteration (async-dots-min-k-steps): 1-3.5% faster on
// the H200's 16-bit matmul rows, bench/results/README.md, sessions 18-19.
// tpxgpu-use-tma lowers the tensor-descriptor accesses the pipeliner left
// (and gives every descriptor its tensor-map argument) once no pass looks
// for descriptor loads any more.
// tpxgpu-lower-layout-conversions turns the conversions that move data
// between threads into local_alloc / local_load once no pass rewrites
// layouts any more, and before the allocation places their buffers.
// tpxgpu-annotate-contiguity comes after every rewrite of memory ops: the
// vector widths the SIMT loads and stores may use (tpxgpu.contiguity).
// tpxgpu-allocate-shared-memory is last. convert-tpxgpu-to-nvvm leaves
// scalar arith/math/scf/cf only; convert-nvvm-to-llvm writes the NVVM ops
// that have no LLVM intrinsic (bar.arrive) as inline PTX.
static constexpr const char *kSimtLLIRPasses =
    "convert-tpxgpu-to-nvvm,convert-nvvm-to-llvm,canonicalize,"
    "convert-scf-to-cf,"
    "tpx-nvidia-math-to-libdevice,convert-math-to-llvm,"
    "convert-arith-to-llvm{index-bitwidth=64},"
    "convert-index-to-llvm{index-bitwidth=64},"
    "convert-func-to-llvm{index-bitwidth=64},"
    "convert-cf-to-llvm{index-bitwidth=64},reconcile-unrealized-casts,"
    "tpx-nvidia-fp-contract,canonicalize,cse";

// tt -> tensors/loops (as on the CPU), bufferization, 64-bit indices.
static constexpr const char *kOneThreadLLIRPasses =
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

/// `sm_<digits>` with an optional `a` (sm_90a).
static bool isNVIDIATarget(StringRef name) {
  if (!name.consume_front("sm_") || name.empty())
    return false;
  name.consume_back("a");
  return !name.empty() &&
         llvm::all_of(name, [](char c) { return llvm::isAlnum(c); }) &&
         llvm::isDigit(name.front());
}

static PipelineChoice choosePipeline(mlir::ModuleOp module,
                                     const PipelineChoiceInput &input) {
  auto [blocker, why] = findSIMTBlocker(module, input.numWarps);
  if (!blocker)
    return {"simt", nullptr, ""};
  return {"one-thread", blocker, why};
}

static llvm::Error checkEntryPoint(mlir::ModuleOp module, StringRef kernel,
                                   StringRef entryPoint) {
  auto entry = module.lookupSymbol<mlir::LLVM::LLVMFuncOp>(entryPoint);
  if (!entry || entry.isExternal() ||
      !entry->hasAttr(mlir::NVVM::NVVMDialect::getKernelFuncAttrName()))
    return makeError("the compiled module has no nvvm.kernel function '" +
                     entryPoint +
                     "': the pipeline must run convert-tpxgpu-to-nvvm "
                     "(simt) or tpx-nvidia-emit-kernel (one-thread) in "
                     "stage 'llir'");
  (void)kernel;
  return llvm::Error::success();
}

/// The kernel parameters tpxgpu-use-tma added after the signature's
/// arguments, each with the #tpxgpu.tensor_map the launcher builds it from.
static llvm::Error collectTensorMaps(mlir::ModuleOp module,
                                     Artifact &artifact) {
  artifact.tensorMaps.clear();
  mlir::LLVM::LLVMFuncOp kernel;
  module.walk([&](mlir::LLVM::LLVMFuncOp fn) {
    if (fn->hasAttr(mlir::NVVM::NVVMDialect::getKernelFuncAttrName()))
      kernel = fn;
  });
  if (!kernel)
    return llvm::Error::success(); // checkEntryPoint reports it
  unsigned declared = artifact.signature.args.size();
  for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i) {
    auto map = llvm::dyn_cast_or_null<tpxgpu::TensorMapAttr>(
        kernel.getArgAttr(i, tpxgpu::TPXGPUDialect::kTensorMapAttrName));
    if (!map) {
      if (i < declared)
        continue;
      return makeError(llvm::Twine("kernel parameter ") + llvm::Twine(i) +
                       " is past the signature's " + llvm::Twine(declared) +
                       " arguments but is no tensor map: the launcher "
                       "cannot supply it");
    }
    if (i < declared)
      return makeError("kernel argument '" + artifact.signature.args[i].name +
                       "' carries a tensor map; only parameters after the "
                       "signature's arguments may");
    TensorMapParam param;
    param.base = map.getBase();
    param.shapeArgs.assign(map.getShapeArgs().begin(),
                           map.getShapeArgs().end());
    param.shapeValues.assign(map.getShapeValues().begin(),
                             map.getShapeValues().end());
    param.strideArgs.assign(map.getStrideArgs().begin(),
                            map.getStrideArgs().end());
    param.strideValues.assign(map.getStrideValues().begin(),
                              map.getStrideValues().end());
    param.box.assign(map.getBox().begin(), map.getBox().end());
    llvm::raw_string_ostream os(param.elementType);
    map.getElementType().print(os);
    param.elementBytes = map.getElementType().getIntOrFloatBitWidth() / 8;
    param.swizzleBytes = map.getSwizzle();
    param.nanPadding = map.getNan();
    artifact.tensorMaps.push_back(std::move(param));
  }
  return llvm::Error::success();
}

/// The launch shape the lowering recorded, and the registers and spills
/// ptxas reported for the entry. An assembler that reports entries, none
/// of them the one the launcher will look up, made a binary that cannot be
/// launched.
static llvm::Error fillArtifact(mlir::ModuleOp module,
                                const EntryResourceMap &resources,
                                Artifact &artifact) {
  readLaunchShape(module, artifact);
  if (auto error = collectTensorMaps(module, artifact))
    return error;
  // The entry is the kernel function under its PTX-safe name.
  artifact.entryPoint = getPTXEntryName(artifact.signature.kernelName);
  artifact.numRegs = artifact.numSpills = -1;
  if (resources.empty())
    return llvm::Error::success(); // e.g. a cubin from an override
  auto entry =
      findEntryResources(resources, artifact, "cubin", "ptxas compiled");
  if (!entry)
    return entry.takeError();
  artifact.numRegs = static_cast<int>((*entry)->registers);
  artifact.numSpills = static_cast<int>((*entry)->spillStoreBytes);
  return llvm::Error::success();
}

TargetBackend tpx::getNVIDIABackend() {
  TargetBackend backend;
  backend.family = "nvidia";
  backend.targetPattern = "sm_<N>[a]";
  backend.matchesTarget = isNVIDIATarget;
  backend.knownTargets = {"sm_90a"};
  backend.stages = {{"ttir", StageKind::MLIR},
                    {"ttgir", StageKind::MLIR},
                    {"llir", StageKind::MLIR},
                    {"ptx", StageKind::Emit},
                    {"cubin", StageKind::Emit}};
  backend.pipelines = {
      {"simt",
       {kNvidiaTTIRPasses, kSimtTTGIRPasses, kSimtLLIRPasses, "", ""},
       "simt"},
      {"one-thread",
       {kNvidiaTTIRPasses, "", kOneThreadLLIRPasses, "", ""},
       "scalar",
       /*onlyWhenNamed=*/true}};
  backend.choiceAfterStage = "ttir";
  backend.choosePipeline = choosePipeline;
  backend.launchesClusters = true;
  backend.launchOptions = {
      {"convert-tt-to-tpxgpu", "num-warps", LaunchOptionSlot::NumWarps},
      {"convert-tt-to-tpxgpu", "target", LaunchOptionSlot::Target},
      {"tpxgpu-pipeline-async-copies", "num-stages",
       LaunchOptionSlot::NumStages},
      {"tpxgpu-prefetch-loads", "num-stages", LaunchOptionSlot::NumStages},
      {"tpxgpu-pipeline-wgmma", "num-stages", LaunchOptionSlot::NumStages}};
  backend.accepts = {{"ttir", StageAcceptance::Kernel, {}},
                     {"ttgir", StageAcceptance::Kernel, {"tpxgpu"}},
                     {"llir", StageAcceptance::Lowered, {"nvvm"}}};
  backend.emitters.emplace_back("ptx", nvidia::createPTXStageEmitter);
  backend.emitters.emplace_back("cubin", nvidia::createCubinStageEmitter);
  backend.getModuleEntryName = [](StringRef kernel) { return kernel.str(); };
  backend.checkEntryPoint = checkEntryPoint;
  backend.fillArtifact = fillArtifact;
  return backend;
}
