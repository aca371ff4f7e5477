//===- TpxexDialectPlugin.cpp - Example: a dialect and its lowering -------===//
//
// The `tpxex` dialect has one op,
//
//   %d = tpxex.fma %a, %b, %c : tensor<128xf32>    // d = a * b + c
//
// a fused multiply-add on floats or tensors of floats. The plugin ships the
// conversion pass `convert-tpxex-to-arith` that lowers it to arith.mulf +
// arith.addf, and the pipeline extension `tpxex-lowering` that runs that
// pass inside the ttir stage, before canonicalize, for kernels that select it.
//
// The op is written by hand with mlir::Op (no TableGen) to keep the example
// self-contained; a larger plugin would use ODS exactly as in-tree dialects.
//
//===----------------------------------------------------------------------===//
#include "tpx/Plugin/PluginSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace tpx::plugin;

namespace tpxex {

class TpxexDialect : public mlir::Dialect {
public:
  explicit TpxexDialect(mlir::MLIRContext *context);
  static llvm::StringRef getDialectNamespace() { return "tpxex"; }
};

class FmaOp
    : public mlir::Op<
          FmaOp, mlir::OpTrait::ZeroRegions, mlir::OpTrait::OneResult,
          mlir::OpTrait::OneTypedResult<mlir::Type>::Impl,
          mlir::OpTrait::ZeroSuccessors, mlir::OpTrait::NOperands<3>::Impl,
          mlir::OpTrait::SameOperandsAndResultType> {
public:
  using Op::Op;
  static llvm::StringRef getOperationName() { return "tpxex.fma"; }
  static llvm::ArrayRef<llvm::StringRef> getAttributeNames() { return {}; }

  static void build(mlir::OpBuilder &, mlir::OperationState &state,
                    mlir::Value a, mlir::Value b, mlir::Value c) {
    state.addOperands({a, b, c});
    state.addTypes(c.getType());
  }

  mlir::LogicalResult verify() {
    if (!mlir::isa<mlir::FloatType>(
            mlir::getElementTypeOrSelf(getResult().getType())))
      return emitOpError("operates on floats or tensors of floats");
    return mlir::success();
  }

  static mlir::ParseResult parse(mlir::OpAsmParser &parser,
                                 mlir::OperationState &result) {
    llvm::SmallVector<mlir::OpAsmParser::UnresolvedOperand, 3> operands;
    mlir::Type type;
    if (parser.parseOperandList(operands, 3) ||
        parser.parseOptionalAttrDict(result.attributes) ||
        parser.parseColonType(type) ||
        parser.resolveOperands(operands, type, result.operands))
      return mlir::failure();
    result.addTypes(type);
    return mlir::success();
  }

  void print(mlir::OpAsmPrinter &printer) {
    printer << ' ' << getOperation()->getOperands();
    printer.printOptionalAttrDict((*this)->getAttrs());
    printer << " : " << getResult().getType();
  }
};

TpxexDialect::TpxexDialect(mlir::MLIRContext *context)
    : mlir::Dialect(getDialectNamespace(), context,
                    mlir::TypeID::get<TpxexDialect>()) {
  addOperations<FmaOp>();
}

} // namespace tpxex

MLIR_DECLARE_EXPLICIT_TYPE_ID(tpxex::TpxexDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tpxex::TpxexDialect)
MLIR_DECLARE_EXPLICIT_TYPE_ID(tpxex::FmaOp)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tpxex::FmaOp)

/// convert-tpxex-to-arith: a * b + c as arith.mulf and arith.addf.
static TpxStatus runLowering(MlirOperation root, const TpxOptionValues *,
                             void *, TpxReporter *) {
  llvm::SmallVector<tpxex::FmaOp> fmas;
  unwrap(root)->walk([&](tpxex::FmaOp op) { fmas.push_back(op); });
  for (tpxex::FmaOp op : fmas) {
    mlir::OpBuilder builder(op);
    mlir::Value product = mlir::arith::MulFOp::create(
        builder, op.getLoc(), op->getOperand(0), op->getOperand(1));
    mlir::Value sum = mlir::arith::AddFOp::create(builder, op.getLoc(), product,
                                                  op->getOperand(2));
    op.getResult().replaceAllUsesWith(sum);
    op.erase();
  }
  return TPX_SUCCESS;
}

static const TpxDialectInfo kDialects[] = {{
    "tpxex",
    insertDialects<tpxex::TpxexDialect>,
    nullptr,
}};

static const TpxPassInfo kPasses[] = {{
    "convert-tpxex-to-arith",
    "Lower tpxex.fma to arith.mulf + arith.addf",
    /*anchorOp=*/nullptr,
    /*options=*/nullptr,
    0,
    runLowering,
    nullptr,
    dependOn<mlir::arith::ArithDialect>,
}};

static TpxStatus applyLowering(const TpxPipelineEditor *editor, void *,
                               TpxReporter *) {
  return editor->insertBefore(editor->opaque, "ttir", "canonicalize",
                              "convert-tpxex-to-arith");
}

static const TpxPipelineExtensionInfo kExtensions[] = {{
    "tpxex-lowering",
    "Lower tpxex ops at the start of the ttir stage",
    applyLowering,
    nullptr,
}};

static const TpxPluginInfo kInfo = {
    TPX_PLUGIN_INFO_HEADER("example-tpxex-dialect", "1.0"),
    kPasses,
    1,
    kDialects,
    1,
    nullptr,
    0,
    kExtensions,
    1,
};

extern "C" TPX_PLUGIN_EXPORT const TpxPluginInfo *tpxGetPluginInfo(void) {
  return &kInfo;
}
