//===- TTTypes.td - tt types and type constraints -------------------------===//
#ifndef TPX_DIALECT_TT_IR_TTTYPES_TD
#define TPX_DIALECT_TT_IR_TTTYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "tpx/Dialect/TT/IR/TTDialect.td"

class TT_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TT_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

// `!tt.ptr<T>` or `!tt.ptr<T, addrspace>`. The address space defaults to 1
// (global memory) and is printed only when it differs. The pointee may be a
// scalar type or, for block pointers, a ranked tensor.
def TT_PointerType : TT_TypeDef<"Pointer", "ptr"> {
  let summary = "pointer to a scalar or to a block of a tensor";
  let parameters = (ins "::mlir::Type":$pointeeType, "int":$addressSpace);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType,
                                        CArg<"int", "1">:$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
}

// `!tt.tensordesc<tensor<64x64xf16>>`: a descriptor of a tensor in global
// memory, addressed in blocks of `blockType`.
def TT_TensorDescType : TT_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "descriptor of a global tensor read and written in blocks";
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Type constraints. Those whose C++ class is ::mlir::Type print fully
// qualified in assembly formats; TT_ScalarPtr, TT_TensorPtr and TT_TensorDesc
// print stripped (`<f16>`, `<tensor<..>>`) exactly as Triton prints them where
// an op names them alone in `type(..)`.
//===----------------------------------------------------------------------===//

def TT_Float : AnyTypeOf<[AnyFloat], "floating-point">;
def TT_Int : AnyTypeOf<[AnySignlessInteger], "signless integer">;
def TT_Bool : TypeAlias<I1, "i1">;
def TT_I32 : TypeAlias<I32, "i32">;
def TT_I64 : TypeAlias<I64, "i64">;

// A DialectType with PointerType as its C++ class: `type($base)` prints it
// stripped (`<f16>`), as Triton prints make_tensor_descriptor's base.
def TT_ScalarPtr : DialectType<TT_Dialect,
  And<[CPred<"::llvm::isa<::tpx::tt::PointerType>($_self)">,
       CPred<"!::llvm::isa<::mlir::RankedTensorType>("
             "::llvm::cast<::tpx::tt::PointerType>($_self).getPointeeType())">]>,
  "pointer to a scalar", "::tpx::tt::PointerType">;

def TT_TensorPtr : DialectType<TT_Dialect,
  And<[CPred<"::llvm::isa<::tpx::tt::PointerType>($_self)">,
       CPred<"::llvm::isa<::mlir::RankedTensorType>("
             "::llvm::cast<::tpx::tt::PointerType>($_self).getPointeeType())">]>,
  "block pointer (pointer to a tensor)", "::tpx::tt::PointerType">;

// Stripped when printed through `type(..)` (`<tensor<64x64xf16>>`), like
// Triton's make_tensor_descriptor result; descriptor ops ask for qualified().
def TT_TensorDesc : DialectType<TT_Dialect,
  CPred<"::llvm::isa<::tpx::tt::TensorDescType>($_self)">,
  "tensor descriptor", "::tpx::tt::TensorDescType">;

def TT_Element : AnyTypeOf<[TT_Float, TT_Int, TT_ScalarPtr]>;

def TT_FloatTensor : RankedTensorOf<[TT_Float]>;
def TT_IntTensor : RankedTensorOf<[TT_Int]>;
def TT_BoolTensor : RankedTensorOf<[I1]>;
def TT_PtrTensor : RankedTensorOf<[TT_ScalarPtr]>;
def TT_Tensor : RankedTensorOf<[TT_Float, TT_Int, TT_ScalarPtr]>;
def TT_FpIntTensor : RankedTensorOf<[TT_Float, TT_Int]>;

def TT_FloatLike : AnyTypeOf<[TT_Float, TT_FloatTensor]>;
def TT_IntLike : AnyTypeOf<[TT_Int, TT_IntTensor]>;
def TT_BoolLike : AnyTypeOf<[I1, TT_BoolTensor]>;
def TT_I64Like : AnyTypeOf<[I64, RankedTensorOf<[I64]>]>;
def TT_PtrLike : AnyTypeOf<[TT_ScalarPtr, TT_PtrTensor]>;
def TT_Type : AnyTypeOf<[TT_Float, TT_Int, TT_ScalarPtr, TT_Tensor,
                         TT_TensorPtr]>;

#endif // TPX_DIALECT_TT_IR_TTTYPES_TD
