//===- NanGuardPlugin.cpp - Example: a pass that changes run-time behaviour ===//
//
// `tt-example-nan-guard{inf=false message="..."}` makes a kernel check what
// it stores: before every tt.store of floating-point values it inserts
//
//   %ok = arith.cmpf ord, %value, %value        (not NaN; with inf=true also
//                                                 finite)
//   tt.assert %ok, "<message> at <location of the store>"
//
// (masked-off lanes are exempt). A kernel author debugging a NaN turns it on
// for one kernel (`tpx.pipeline = ["example-nan-guard"]`) or for a scope of
// compiles, without editing the kernel; the launch then fails with a message
// naming the store instead of silently writing NaN.
//
// Built and loaded like any out-of-tree plugin and uses only libMLIR.so: tt
// ops are created by name through the generic OperationState API.
//
//===----------------------------------------------------------------------===//
#include "tpx/Plugin/PluginSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/Support/raw_ostream.h"

using namespace tpx::plugin;

/// "file:line:col" of the op, for the assert message.
static std::string describe(mlir::Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  loc->walk([&](mlir::Location nested) {
    if (auto file = mlir::dyn_cast<mlir::FileLineColLoc>(nested)) {
      os << file.getFilename().getValue() << ":" << file.getLine() << ":"
         << file.getColumn();
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return text.empty() ? "unknown location" : text;
}

static TpxStatus runNanGuard(MlirOperation root, const TpxOptionValues *options,
                             void *, TpxReporter *reporter) {
  bool checkInf = getBool(options, "inf");
  std::string message = getString(options, "message").str();
  mlir::Operation *top = unwrap(root);
  llvm::SmallVector<mlir::Operation *> stores;
  top->walk([&](mlir::Operation *op) {
    if (op->getName().getStringRef() == "tt.store")
      stores.push_back(op);
  });
  for (mlir::Operation *store : stores) {
    // tt.store %ptr, %value[, %mask]
    if (store->getNumOperands() < 2)
      return fail(reporter, "malformed tt.store");
    mlir::Value value = store->getOperand(1);
    if (!mlir::isa<mlir::FloatType>(mlir::getElementTypeOrSelf(value)))
      continue;
    mlir::OpBuilder b(store);
    mlir::Location loc = store->getLoc();
    mlir::Value ok = mlir::arith::CmpFOp::create(
        b, loc, mlir::arith::CmpFPredicate::ORD, value, value);
    if (checkInf) {
      mlir::Value magnitude = mlir::math::AbsFOp::create(b, loc, value);
      auto elementType =
          mlir::cast<mlir::FloatType>(mlir::getElementTypeOrSelf(value));
      mlir::Attribute infAttr = b.getFloatAttr(
          elementType, llvm::APFloat::getInf(elementType.getFloatSemantics()));
      if (auto shaped = mlir::dyn_cast<mlir::ShapedType>(value.getType()))
        infAttr = mlir::DenseElementsAttr::get(shaped, infAttr);
      mlir::Value inf = mlir::arith::ConstantOp::create(
          b, loc, mlir::cast<mlir::TypedAttr>(infAttr));
      mlir::Value finite = mlir::arith::CmpFOp::create(
          b, loc, mlir::arith::CmpFPredicate::OLT, magnitude, inf);
      ok = mlir::arith::AndIOp::create(b, loc, ok, finite);
    }
    if (store->getNumOperands() == 3) {
      // Masked-off lanes store nothing: they pass.
      mlir::Value mask = store->getOperand(2);
      mlir::Value one = mlir::arith::ConstantOp::create(
          b, loc, mlir::cast<mlir::TypedAttr>(b.getOneAttr(mask.getType())));
      mlir::Value off = mlir::arith::XOrIOp::create(b, loc, mask, one);
      ok = mlir::arith::OrIOp::create(b, loc, ok, off);
    }
    mlir::OperationState state(loc, "tt.assert");
    state.addOperands(ok);
    state.addAttribute("message",
                       b.getStringAttr(message + " at " + describe(loc)));
    b.create(state);
  }
  return TPX_SUCCESS;
}

static const TpxPassOption kOptions[] = {
    {"inf", "also reject infinities", boolValue(false)},
    {"message", "text of the assertion", stringValue("stored a NaN")},
};

static const TpxPassInfo kPasses[] = {{
    "tt-example-nan-guard",
    "Assert that every floating-point tt.store writes no NaN",
    /*anchorOp=*/nullptr,
    kOptions,
    2,
    runNanGuard,
    /*userData=*/nullptr,
    /*dependentDialects=*/nullptr,
}};

static TpxStatus applyNanGuard(const TpxPipelineEditor *editor, void *,
                               TpxReporter *) {
  return editor->append(editor->opaque, "ttir", "tt-example-nan-guard");
}

static const TpxPipelineExtensionInfo kExtensions[] = {{
    "example-nan-guard",
    "Check every floating-point store for NaN at the end of ttir",
    applyNanGuard,
    nullptr,
}};

static const TpxPluginInfo kInfo = {
    TPX_PLUGIN_INFO_HEADER("example-nan-guard", "1.0"),
    kPasses,
    1,
    /*dialects=*/nullptr,
    0,
    /*dslOps=*/nullptr,
    0,
    kExtensions,
    1,
};

extern "C" TPX_PLUGIN_EXPORT const TpxPluginInfo *tpxGetPluginInfo(void) {
  return &kInfo;
}
