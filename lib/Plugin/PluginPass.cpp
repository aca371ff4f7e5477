//===- PluginPass.cpp - A plugin's C pass as an mlir::Pass ----------------===//
#include "PluginPass.h"
#include "PluginCrashGuard.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/TypeID.h"

#include "llvm/ADT/STLExtras.h"

#include <memory>
#include <mutex>

using namespace tpx;

/// "tt.func @kernel": which op a pass failed on (the error is emitted at its
/// location without printing the op, which can be huge).
static std::string describeOp(mlir::Operation *op) {
  std::string text = op->getName().getStringRef().str();
  if (auto symbol = op->getAttrOfType<mlir::StringAttr>(
          mlir::SymbolTable::getSymbolAttrName()))
    text += " @" + symbol.getValue().str();
  return text;
}

namespace {
/// What every instance of one plugin pass shares.
struct PluginPassSpec {
  std::string plugin;
  std::string argument;
  std::string description;
  std::string className;
  const TpxPassInfo *info;
  mlir::TypeID typeID;
  /// How the plugin's dependentDialects callback crashed, if it did: MLIR
  /// calls it where no error can be returned, so the next run reports it.
  mutable std::mutex crashMutex;
  mutable std::string dependentDialectsCrash;

  /// "pass 'x' of plugin 'p'", the subject of every message about it.
  std::string describe() const {
    return "pass '" + argument + "' of plugin '" + plugin + "'";
  }
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
    const TpxPassInfo &info = *spec->info;
    if (!info.dependentDialects)
      return;
    if (std::optional<std::string> crash = runGuarded(
            [&] { info.dependentDialects(wrap(&registry), info.userData); })) {
      std::lock_guard<std::mutex> lock(spec->crashMutex);
      spec->dependentDialectsCrash = *crash;
    }
  }
  std::unique_ptr<mlir::Pass> clonePass() const override {
    return std::make_unique<PluginPass>(*this);
  }

  /// Called once per pass instance, when a pipeline naming the pass is
  /// built: parses the options (naming the pass in parse errors, which MLIR
  /// does not), then lets the plugin check their values, so bad options are
  /// one error before anything runs instead of one per operation.
  mlir::LogicalResult
  initializeOptions(llvm::StringRef options,
                    llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)>
                        errorHandler) override {
    if (mlir::failed(mlir::Pass::initializeOptions(
            options, [&](const llvm::Twine &message) {
              return errorHandler("invalid options for " + spec->describe() +
                                  ": " + explainParseError(options, message));
            })))
      return mlir::failure();
    const TpxPassInfo &info = *spec->info;
    if (!info.validateOptions)
      return mlir::success();
    std::vector<TpxScalar> values = getOptionValues();
    TpxOptionValues optionValues{info.numOptions, info.options, values.data()};
    PluginReporter reporter;
    TpxStatus status = TPX_FAILURE;
    if (std::optional<std::string> crash = runGuarded([&] {
          status = info.validateOptions(&optionValues, info.userData,
                                        reporter.get());
        }))
      return errorHandler(spec->describe() +
                          " crashed while checking its options: " + *crash);
    if (status != TPX_SUCCESS)
      return errorHandler("invalid options for " + spec->describe() + ": " +
                          reporter.str());
    return mlir::success();
  }

  void runOnOperation() override {
    const TpxPassInfo &info = *spec->info;
    mlir::Operation *op = getOperation();
    {
      std::lock_guard<std::mutex> lock(spec->crashMutex);
      if (!spec->dependentDialectsCrash.empty()) {
        mlir::emitError(op->getLoc())
            << spec->describe() << ": its dependentDialects callback crashed: "
            << spec->dependentDialectsCrash;
        return signalPassFailure();
      }
    }
    std::vector<TpxScalar> values = getOptionValues();
    TpxOptionValues options{info.numOptions, info.options, values.data()};
    PluginReporter reporter;
    TpxStatus status = TPX_FAILURE;
    if (std::optional<std::string> crash = runGuarded([&] {
          status = info.run(wrap(op), &options, info.userData, reporter.get());
        })) {
      mlir::emitError(op->getLoc()) << spec->describe() << " crashed on "
                                    << describeOp(op) << ": " << *crash;
      return signalPassFailure();
    }
    if (status == TPX_SUCCESS)
      return;
    mlir::emitError(op->getLoc()) << spec->describe() << " failed on "
                                  << describeOp(op) << ": " << reporter.str();
    signalPassFailure();
  }

private:
  template <typename T> using Opt = mlir::Pass::Option<T>;

  /// What is wrong with `options`, given MLIR's message. LLVM's option
  /// parser prints a bad value's message straight to stderr and hands MLIR
  /// nothing, so the value is checked here against the declared kind.
  std::string explainParseError(llvm::StringRef options,
                                const llvm::Twine &message) const {
    std::string text = llvm::StringRef(message.str()).trim().str();
    llvm::StringRef parser = "<Pass-Options-Parser>: ";
    if (llvm::StringRef(text).starts_with(parser))
      text = text.substr(parser.size());
    if (!text.empty())
      return text;
    const TpxPassInfo &info = *spec->info;
    llvm::SmallVector<llvm::StringRef> pairs;
    options.split(pairs, ' ', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef pair : pairs) {
      auto [name, value] = pair.split('=');
      for (size_t i = 0; i < info.numOptions; ++i) {
        if (name != info.options[i].name)
          continue;
        int64_t intValue;
        double floatValue;
        switch (info.options[i].defaultValue.kind) {
        case TPX_KIND_INT:
          if (value.getAsInteger(0, intValue))
            return "option '" + name.str() + "' needs an integer, got '" +
                   value.str() + "'";
          break;
        case TPX_KIND_FLOAT:
          if (value.getAsDouble(floatValue))
            return "option '" + name.str() + "' needs a number, got '" +
                   value.str() + "'";
          break;
        case TPX_KIND_BOOL:
          if (!llvm::is_contained({"true", "false", "1", "0", ""}, value))
            return "option '" + name.str() + "' needs true or false, got '" +
                   value.str() + "'";
          break;
        default:
          break;
        }
      }
    }
    return "cannot parse '" + options.str() + "'";
  }

  /// The current option values, in declaration order (string values point
  /// into the options, valid while they are).
  std::vector<TpxScalar> getOptionValues() const {
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
    return values;
  }

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
