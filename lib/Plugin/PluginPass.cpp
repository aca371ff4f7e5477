//===- PluginPass.cpp - A plugin's C pass as an mlir::Pass ----------------===//
#include "PluginPass.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/TypeID.h"

#include <memory>

using namespace tpx;

namespace {
/// What every instance of one plugin pass shares.
struct PluginPassSpec {
  std::string plugin;
  std::string argument;
  std::string description;
  std::string className;
  const TpxPassInfo *info;
  mlir::TypeID typeID;
};

class PluginPass : public mlir::Pass {
public:
  explicit PluginPass(std::shared_ptr<const PluginPassSpec> spec)
      : mlir::Pass(spec->typeID,
                   spec->info->anchorOp
                       ? std::optional<llvm::StringRef>(spec->info->anchorOp)
                       : std::nullopt),
        spec(std::move(spec)) {
    createOptions();
  }
  // The Pass copy constructor copies no options; clone() copies their
  // values after we re-create them.
  PluginPass(const PluginPass &other) : mlir::Pass(other), spec(other.spec) {
    createOptions();
  }

  llvm::StringRef getName() const override { return spec->className; }
  llvm::StringRef getArgument() const override { return spec->argument; }
  llvm::StringRef getDescription() const override { return spec->description; }
  bool canScheduleOn(mlir::RegisteredOperationName opName) const override {
    return !spec->info->anchorOp ||
           opName.getStringRef() == spec->info->anchorOp;
  }
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    if (spec->info->dependentDialects)
      spec->info->dependentDialects(wrap(&registry), spec->info->userData);
  }
  std::unique_ptr<mlir::Pass> clonePass() const override {
    return std::make_unique<PluginPass>(*this);
  }

  void runOnOperation() override {
    const TpxPassInfo &info = *spec->info;
    std::vector<TpxScalar> values(info.numOptions);
    for (size_t i = 0; i < info.numOptions; ++i) {
      TpxScalar &value = values[i];
      value.kind = info.options[i].defaultValue.kind;
      switch (value.kind) {
      case TPX_KIND_INT:
        value.intValue = *intOptions[i];
        break;
      case TPX_KIND_FLOAT:
        value.floatValue = *floatOptions[i];
        break;
      case TPX_KIND_BOOL:
        value.boolValue = *boolOptions[i] ? 1 : 0;
        break;
      default:
        value.stringValue = stringOptions[i]->getValue().c_str();
        break;
      }
    }
    TpxOptionValues options{info.numOptions, info.options, values.data()};
    PluginReporter reporter;
    mlir::Operation *op = getOperation();
    if (info.run(wrap(op), &options, info.userData, reporter.get()) ==
        TPX_SUCCESS)
      return;
    op->emitError() << "pass '" << spec->argument << "' of plugin '"
                    << spec->plugin << "' failed: " << reporter.str();
    signalPassFailure();
  }

private:
  template <typename T> using Opt = mlir::Pass::Option<T>;

  void createOptions() {
    const TpxPassInfo &info = *spec->info;
    // One slot per declared option in each vector keeps indices aligned
    // with the declaration; only the slot of the option's kind is used.
    intOptions.resize(info.numOptions);
    floatOptions.resize(info.numOptions);
    boolOptions.resize(info.numOptions);
    stringOptions.resize(info.numOptions);
    for (size_t i = 0; i < info.numOptions; ++i) {
      const TpxPassOption &option = info.options[i];
      llvm::StringRef description =
          option.description ? option.description : "";
      const TpxScalar &def = option.defaultValue;
      switch (def.kind) {
      case TPX_KIND_INT:
        intOptions[i] = std::make_unique<Opt<int64_t>>(
            *this, option.name, llvm::cl::desc(description),
            llvm::cl::init(def.intValue));
        break;
      case TPX_KIND_FLOAT:
        floatOptions[i] = std::make_unique<Opt<double>>(
            *this, option.name, llvm::cl::desc(description),
            llvm::cl::init(def.floatValue));
        break;
      case TPX_KIND_BOOL:
        boolOptions[i] = std::make_unique<Opt<bool>>(
            *this, option.name, llvm::cl::desc(description),
            llvm::cl::init(def.boolValue != 0));
        break;
      default:
        stringOptions[i] = std::make_unique<Opt<std::string>>(
            *this, option.name, llvm::cl::desc(description),
            llvm::cl::init(
                std::string(def.stringValue ? def.stringValue : "")));
        break;
      }
    }
  }

  std::shared_ptr<const PluginPassSpec> spec;
  std::vector<std::unique_ptr<Opt<int64_t>>> intOptions;
  std::vector<std::unique_ptr<Opt<double>>> floatOptions;
  std::vector<std::unique_ptr<Opt<bool>>> boolOptions;
  std::vector<std::unique_ptr<Opt<std::string>>> stringOptions;
};
} // namespace

void tpx::registerPluginPass(const std::string &pluginName,
                             const TpxPassInfo &pass) {
  // Plugin passes have no C++ type, so each gets a TypeID allocated now.
  static auto *allocator =
      new mlir::TypeIDAllocator(); // never freed: IDs live on
  auto spec = std::make_shared<PluginPassSpec>();
  spec->plugin = pluginName;
  spec->argument = pass.name;
  spec->description = pass.summary ? pass.summary : "";
  spec->className = "PluginPass<" + pluginName + ":" + pass.name + ">";
  spec->info = &pass;
  spec->typeID = allocator->allocate();
  mlir::registerPass([spec]() -> std::unique_ptr<mlir::Pass> {
    return std::make_unique<PluginPass>(spec);
  });
}
