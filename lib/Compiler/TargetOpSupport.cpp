//===- TargetOpSupport.cpp - what a target accepts, stage by stage --------===//
#include "tpx/Compiler/TargetOpSupport.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"
#include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.h"
#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Plugin/PluginRegistry.h"
#include "tpx/Support/DiagnosticText.h"
#include "tpx/Target/TargetBackend.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/StringSet.h"

using namespace tpx;
using namespace mlir;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The namespaces of the dialects loaded plugins register.
static llvm::StringSet<> getPluginDialects() {
  DialectRegistry registry;
  appendPluginDialects(registry);
  llvm::StringSet<> names;
  for (llvm::StringRef name : registry.getDialectNames())
    names.insert(name);
  return names;
}

namespace {
/// The dialects a stage accepts, and how to name them in errors.
struct StageRule {
  llvm::StringSet<> dialects;
  bool acceptPluginDialects;
  bool checkKernelRules;
  std::string description;
};
} // namespace

/// The rule of `stage` on `backend`'s targets: the common dialects of its
/// level plus the ones the backend adds.
static std::optional<StageRule> getStageRule(const TargetBackend &backend,
                                             llvm::StringRef stage) {
  const StageAcceptance *accepts = nullptr;
  for (const StageAcceptance &candidate : backend.accepts)
    if (candidate.stage == stage)
      accepts = &candidate;
  if (!accepts)
    return std::nullopt;
  StageRule rule;
  bool kernel = accepts->level == StageAcceptance::Kernel;
  static const char *const kKernelDialects[] = {
      "builtin", "tt", "arith", "math", "scf", "cf", "ub"};
  static const char *const kLoweredDialects[] = {"builtin", "llvm"};
  std::vector<std::string> named;
  for (const char *name : kernel
                              ? llvm::ArrayRef<const char *>(kKernelDialects)
                              : llvm::ArrayRef<const char *>(kLoweredDialects))
    named.push_back(name);
  named.insert(named.end(), accepts->extraDialects.begin(),
               accepts->extraDialects.end());
  for (const std::string &name : named)
    rule.dialects.insert(name);
  // "tt, tpxgpu, arith, math, scf, cf and ub ops" / "llvm and nvvm ops".
  std::vector<std::string> listed;
  if (kernel) {
    listed = {"tt"};
    listed.insert(listed.end(), accepts->extraDialects.begin(),
                  accepts->extraDialects.end());
    for (const char *name : {"arith", "math", "scf", "cf", "ub"})
      listed.push_back(name);
  } else {
    listed = {"llvm"};
    listed.insert(listed.end(), accepts->extraDialects.begin(),
                  accepts->extraDialects.end());
  }
  for (auto [i, name] : llvm::enumerate(listed))
    rule.description += (i == 0                   ? ""
                         : i + 1 == listed.size() ? " and "
                                                  : ", ") +
                        name;
  rule.description += " ops";
  rule.acceptPluginDialects = kernel;
  rule.checkKernelRules = kernel;
  if (kernel)
    rule.description += ", and ops of plugin dialects";
  return rule;
}

static bool hasTooManyElements(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() &&
         tensor.getNumElements() > kMaxTensorElements;
}

/// A region op (loop or if) whose results include a tensor.
static bool carriesTensors(Operation *op) {
  return op->getNumRegions() > 0 &&
         llvm::any_of(op->getResultTypes(),
                      [](Type type) { return isa<RankedTensorType>(type); });
}

/// The kernel-level rules of ttir/ttgir for one op; emits at the op.
static LogicalResult checkKernelRules(Operation *op) {
  if (carriesTensors(op)) {
    unsigned depth = 1;
    for (Operation *parent = op->getParentOp(); parent;
         parent = parent->getParentOp())
      depth += carriesTensors(parent);
    // Reported once, at the first op past the limit.
    if (depth == kMaxTensorRegionNesting + 1)
      return op->emitError("loops and ifs that carry tensors are nested ")
             << depth << " deep here; tpx accepts at most "
             << kMaxTensorRegionNesting
             << " (the CPU's bufferization analysis takes time exponential "
                "in this depth)";
  }
  for (Type type : op->getResultTypes())
    if (hasTooManyElements(type))
      return op->emitError("result of type ")
             << type << " has " << cast<RankedTensorType>(type).getNumElements()
             << " elements; a tensor may have at most " << kMaxTensorElements
             << " (2^20, Triton's limit)";
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument argument : block.getArguments())
        if (hasTooManyElements(argument.getType()))
          return op->emitError("block argument of type ")
                 << argument.getType()
                 << " has more than the 2^20 elements a tensor may have";
  auto isBool = [](Type type) {
    return getElementTypeOrSelf(type).isInteger(1);
  };
  if (auto rmw = dyn_cast<tt::AtomicRMWOp>(op);
      rmw && isBool(rmw.getVal().getType()))
    return op->emitError("atomics on i1 (bool) elements are not supported "
                         "(Triton rejects them too); use i8 or i32");
  if (auto cas = dyn_cast<tt::AtomicCASOp>(op);
      cas && isBool(cas.getVal().getType()))
    return op->emitError("atomics on i1 (bool) elements are not supported "
                         "(Triton rejects them too); use i8 or i32");
  if (auto function = dyn_cast<FunctionOpInterface>(op))
    if (function.isPublic() && !function.isExternal() &&
        !function.getResultTypes().empty())
      return op->emitError("kernel '")
             << function.getName()
             << "' returns values; a kernel's results are stored through "
                "pointer arguments (only non-public helper functions return "
                "values)";
  return success();
}

llvm::Error tpx::checkTargetOpSupport(ModuleOp module, llvm::StringRef target,
                                      llvm::StringRef stage) {
  auto backend = getTargetBackend(target);
  if (!backend)
    return backend.takeError();
  if (!(*backend)->launchesClusters && tpxgpu::getModuleClusterSize(module) > 1)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the kernel is launched in thread-block clusters ('" +
            tpxgpu::TPXGPUDialect::kClusterDimsAttrName.str() +
            "'), which target '" + target.str() +
            "' does not provide (NVIDIA sm_90a does)");
  std::optional<StageRule> rule = getStageRule(**backend, stage);
  if (!rule)
    return llvm::Error::success();
  llvm::StringSet<> pluginDialects;
  if (rule->acceptPluginDialects)
    pluginDialects = getPluginDialects();

  // The diagnostics become the error's text (a C API caller has no
  // stderr); the first few are kept.
  unsigned violations = 0;
  std::string messages;
  ScopedDiagnosticHandler collect(module.getContext(), [&](Diagnostic &diag) {
    if (violations > 8)
      return success();
    llvm::raw_string_ostream os(messages);
    os << "\n";
    printDiagnostic(os, diag);
    return success();
  });
  module->walk([&](Operation *op) {
    llvm::StringRef dialect = op->getName().getDialectNamespace();
    bool accepted =
        rule->dialects.contains(dialect) || pluginDialects.contains(dialect);
    // builtin.module is the container; other builtin ops (casts) are not
    // kernel code.
    if (dialect == "builtin" && !isa<ModuleOp>(op))
      accepted = false;
    if (!op->isRegistered())
      accepted = false;
    LogicalResult ok = success();
    if (!accepted) {
      ok = op->emitError("'") << op->getName() << "' is not accepted in the "
                              << stage << " stage of target '" << target
                              << "', which takes " << rule->description;
    } else if (rule->checkKernelRules) {
      ok = checkKernelRules(op);
    }
    if (failed(ok))
      ++violations;
  });
  if (!violations)
    return llvm::Error::success();
  return makeError("the " + stage + " module cannot be compiled for target '" +
                   target + "' (" + llvm::Twine(violations) + " problem" +
                   (violations == 1 ? "" : "s") + "):" + messages +
                   (violations > 9 ? "\n..." : ""));
}
