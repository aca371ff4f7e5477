//===- PluginDialectInlining.cpp - plugin ops may be inlined --------------===//
//
// MLIR's inliner leaves a call alone if any op of the callee belongs to a
// dialect without a DialectInlinerInterface, and most hand-written plugin
// dialects have none. Front ends build plugin DSL ops as private functions
// that they call (tpxBuildDslOpFunction) and rely on the `inline` pass at
// the start of the ttir stage to put the ops in place, so a call left
// behind would silently keep a function call in the kernel (and, on NVIDIA,
// push the kernel off the SIMT code generator). So tpx gives every plugin
// dialect that declares no inliner interface one that accepts its ops and
// regions: an op of a plugin dialect only sees SSA values, which inlining
// substitutes, so moving it into the caller changes nothing. A dialect that
// needs to forbid inlining registers its own interface, which is kept.
//
//===----------------------------------------------------------------------===//
#include "PluginDialectInlining.h"

#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace tpx;

namespace {

struct PluginOpInliner : public mlir::DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(mlir::Operation *, mlir::Region *, bool,
                       mlir::IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(mlir::Region *, mlir::Region *, bool,
                       mlir::IRMapping &) const final {
    return true;
  }
};

/// Applied to every dialect a context loads (no required dialects).
class InlinablePluginDialects : public mlir::DialectExtensionBase {
public:
  explicit InlinablePluginDialects(
      std::function<bool(llvm::StringRef)> isPluginDialect)
      : DialectExtensionBase({}), isPluginDialect(std::move(isPluginDialect)) {}

  void apply(mlir::MLIRContext *,
             llvm::MutableArrayRef<mlir::Dialect *> dialects) const final {
    for (mlir::Dialect *dialect : dialects)
      if (isPluginDialect(dialect->getNamespace()) &&
          !dialect->getRegisteredInterface<mlir::DialectInlinerInterface>())
        dialect->addInterface(std::make_unique<PluginOpInliner>(dialect));
  }

  std::unique_ptr<mlir::DialectExtensionBase> clone() const final {
    return std::make_unique<InlinablePluginDialects>(*this);
  }

private:
  std::function<bool(llvm::StringRef)> isPluginDialect;
};

} // namespace

void tpx::addPluginDialectInlining(
    mlir::DialectRegistry &registry,
    std::function<bool(llvm::StringRef)> isPluginDialect) {
  registry.addExtension(
      mlir::TypeID::get<InlinablePluginDialects>(),
      std::make_unique<InlinablePluginDialects>(std::move(isPluginDialect)));
}
