//===- TTOps.td - tt operations -------------------------------------------===//
//
// The whole TTIR op set. Assembly formats reproduce the text Triton 3.6
// prints; ops Triton prints in generic form (reduce, scan, map_elementwise)
// have no custom format here either. Semantic checks live in C++ verifiers
// (TTOps.cpp and friends) so that every diagnostic can say what is wrong in
// the user's terms.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_DIALECT_TT_IR_TTOPS_TD
#define TPX_DIALECT_TT_IR_TTOPS_TD

include "tpx/Dialect/TT/IR/TTDialect.td"
include "tpx/Dialect/TT/IR/TTTypes.td"
include "tpx/Dialect/TT/IR/TTAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TT_GlobalMemory : Resource<"::tpx::tt::GlobalMemory">;

class TT_Op<string mnemonic, list<Trait> traits = []>
    : Op<TT_Dialect, mnemonic, traits>;

// Lets the parser infer the type of `to` from the type of `from` (the
// assembly format omits it). It always holds as a constraint: the op's C++
// verifier checks the relation and names what is wrong.
class TT_TypeInferredFrom<string from, string to, string transform>
    : TypesMatchWith<"type of " # to # " follows from " # from, from, to,
                     transform, "true || std::equal_to<>()">;

// All operands and results share one shape (scalars have none); verified
// first so the diagnostic names the mismatching value.
def TT_SameShapeElementwise : NativeOpTrait<"SameShapeElementwise"> {
  let cppNamespace = "::tpx::tt";
}

// Elementwise ops on scalars or on tensors of one shape.
class TT_ElementwiseOp<string mnemonic, list<Trait> traits = []>
    : TT_Op<mnemonic, !listconcat([TT_SameShapeElementwise], traits,
                                  [Elementwise])>;

//===----------------------------------------------------------------------===//
// Functions and calls
//===----------------------------------------------------------------------===//

def TT_FuncOp : TT_Op<"func", [
    AffineScope, AutomaticAllocationScope, CallableOpInterface,
    FunctionOpInterface, IsolatedFromAbove, OpAsmOpInterface]> {
  let summary = "a kernel or device function";
  let description = [{
    `tt.func public @kernel(%arg: !tt.ptr<f32> {tt.divisibility = 16 : i32})`
    defines a function whose body is one SSA CFG region. Public functions are
    kernels; private ones are device functions reached through `tt.call`.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() {
      return isExternal() ? nullptr : &getBody();
    }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    bool isDeclaration() { return isExternal(); }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TT_CallOp : TT_Op<"call", [CallOpInterface,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "direct call of a tt.func";
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>);
  let extraClassDeclaration = [{
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", ::llvm::cast<::mlir::SymbolRefAttr>(callee));
    }
    ::mlir::Operation::operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getOperandsMutable();
    }
  }];
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
}

def TT_ReturnOp : TT_Op<"return", [Pure, HasParent<"FuncOp">, ReturnLike,
                                   Terminator]> {
  let summary = "return from a tt.func";
  let arguments = (ins Variadic<AnyType>:$srcs);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
  let assemblyFormat = "attr-dict ($srcs^ `:` type($srcs))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Program grid
//===----------------------------------------------------------------------===//

def TT_GetProgramIdOp : TT_Op<"get_program_id", [Pure]> {
  let summary = "index of this program along a grid axis";
  let arguments = (ins TT_ProgramIDDimAttr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def TT_GetNumProgramsOp : TT_Op<"get_num_programs", [Pure]> {
  let summary = "number of programs along a grid axis";
  let arguments = (ins TT_ProgramIDDimAttr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Tensor creation and shape manipulation
//===----------------------------------------------------------------------===//

def TT_MakeRangeOp : TT_Op<"make_range", [Pure]> {
  let summary = "1-D i32 tensor holding start, start+1, ..., end-1";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs TT_IntTensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TT_SplatOp : TT_Op<"splat", [Pure]> {
  let summary = "tensor with every element equal to a scalar";
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

// Triton prints only the source type (`tt.unsplat %t : tensor<1xf32>`); the
// result is the source's element type.
def TT_UnsplatOp : TT_Op<"unsplat", [Pure,
    TT_TypeInferredFrom<"src", "result", "::mlir::getElementTypeOrSelf($_self)">]> {
  let summary = "the only element of a one-element tensor";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def TT_BroadcastOp : TT_Op<"broadcast", [Pure]> {
  let summary = "stretch size-1 dimensions of a tensor";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_ExpandDimsOp : TT_Op<"expand_dims", [Pure]> {
  let summary = "insert a size-1 dimension at `axis`";
  let arguments = (ins TT_Tensor:$src, I32Attr:$axis);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_ReshapeOp : TT_Op<"reshape", [Pure]> {
  let summary = "same elements, new shape (row-major order unless reordered)";
  let arguments = (ins TT_Tensor:$src, UnitAttr:$allow_reorder,
                       UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)?
    attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_TransOp : TT_Op<"trans", [Pure]> {
  let summary = "permute the dimensions of a tensor";
  let arguments = (ins TT_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_CatOp : TT_Op<"cat", [NoMemoryEffect,
    TT_TypeInferredFrom<"lhs", "rhs", "$_self">]> {
  let summary = "concatenate two tensors along dimension 0 (order unspecified)";
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TT_JoinOp : TT_Op<"join", [NoMemoryEffect,
    TT_TypeInferredFrom<"lhs", "rhs", "$_self">]> {
  let summary = "stack two tensors along a new minor dimension of size 2";
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TT_SplitOp : TT_Op<"split", [NoMemoryEffect,
    TT_TypeInferredFrom<"outLHS", "outRHS", "$_self">]> {
  let summary = "split a tensor along its last dimension, of size 2";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$outLHS, TT_Tensor:$outRHS);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($outLHS)";
  let hasVerifier = 1;
}

def TT_GatherOp : TT_Op<"gather", [Pure]> {
  let summary = "gather elements of a tensor along one axis";
  let arguments = (ins TT_Tensor:$src, TT_IntTensor:$indices, I32Attr:$axis,
                       UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src `[` $indices `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TT_HistogramOp : TT_Op<"histogram", [Pure,
    TT_TypeInferredFrom<"src", "mask", "::tpx::tt::getI1SameShape($_self)">]> {
  let summary = "count of each value 0..N-1 in a 1-D integer tensor";
  let arguments = (ins TT_IntTensor:$src, Optional<TT_BoolLike>:$mask);
  let results = (outs TT_IntTensor:$result);
  let assemblyFormat = [{
    $src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Casts and arithmetic Triton adds to arith/math
//===----------------------------------------------------------------------===//

def TT_IntToPtrOp : TT_ElementwiseOp<"int_to_ptr", [Pure]> {
  let summary = "i64 to pointer";
  let arguments = (ins TT_I64Like:$src);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_PtrToIntOp : TT_ElementwiseOp<"ptr_to_int", [Pure]> {
  let summary = "pointer to i64";
  let arguments = (ins TT_PtrLike:$src);
  let results = (outs TT_I64Like:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_BitcastOp : TT_ElementwiseOp<"bitcast", [Pure]> {
  let summary = "reinterpret bits as a type of the same width (pointers too)";
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_FpToFpOp : TT_ElementwiseOp<"fp_to_fp", [Pure]> {
  let summary = "floating-point conversion, fp8 included, with rounding mode";
  let arguments = (ins TT_FloatLike:$src,
                       OptionalAttr<TT_RoundingModeAttr>:$rounding);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = [{
    $src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_ClampFOp : TT_ElementwiseOp<"clampf", [Pure, SameOperandsAndResultType]> {
  let summary = "clamp x to [min, max]";
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$min, TT_FloatLike:$max,
                       TT_PropagateNanAttr:$propagateNan);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = [{
    $x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)
  }];
}

def TT_PreciseSqrtOp : TT_ElementwiseOp<"precise_sqrt",
                                        [Pure, SameOperandsAndResultType]> {
  let summary = "correctly rounded square root";
  let arguments = (ins TT_FloatLike:$x);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def TT_PreciseDivFOp : TT_ElementwiseOp<"precise_divf",
                                        [Pure, SameOperandsAndResultType]> {
  let summary = "correctly rounded division";
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$y);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def TT_MulhiUIOp : TT_ElementwiseOp<"mulhiui", [Pure, SameOperandsAndResultType]> {
  let summary = "high half of the unsigned 2N-bit product";
  let arguments = (ins TT_IntLike:$x, TT_IntLike:$y);
  let results = (outs TT_IntLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def TT_ExternElementwiseOp : TT_ElementwiseOp<"extern_elementwise", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "call an external (libdevice-style) function elementwise";
  let arguments = (ins Variadic<TT_Type>:$srcs, StrAttr:$libname,
                       StrAttr:$libpath, StrAttr:$symbol, BoolAttr:$pure);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, $result)";
  let hasVerifier = 1;
}

def TT_ElementwiseInlineAsmOp : TT_ElementwiseOp<"elementwise_inline_asm", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "inline assembly applied to packs of elements";
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints,
                       BoolAttr:$pure, I32Attr:$packed_element,
                       Variadic<TT_Type>:$args);
  let results = (outs Variadic<TT_Type>:$result);
  let assemblyFormat = [{
    $asm_string attr-dict ($args^ `:` type($args))? `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def TT_AddPtrOp : TT_ElementwiseOp<"addptr", [Pure,
    TT_TypeInferredFrom<"result", "ptr", "$_self">]> {
  let summary = "advance pointers by element offsets";
  let arguments = (ins TT_PtrLike:$ptr, TT_IntLike:$offset);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
  let hasVerifier = 1;
}

def TT_LoadOp : TT_Op<"load", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TT_TypeInferredFrom<"ptr", "result", "::tpx::tt::getPointeeTypeOf($_self)">,
    TT_TypeInferredFrom<"ptr", "mask", "::tpx::tt::getI1SameShape($_self)">,
    TT_TypeInferredFrom<"ptr", "other", "::tpx::tt::getPointeeTypeOf($_self)">]> {
  let summary = "load through pointers, a tensor of pointers or a block pointer";
  let arguments = (ins
    AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>:$ptr,
    Optional<TT_BoolLike>:$mask,
    Optional<TT_Type>:$other,
    DefaultValuedAttr<DenseI32ArrayAttr, "::llvm::ArrayRef<int32_t>{}">:$boundaryCheck,
    OptionalAttr<TT_PaddingOptionAttr>:$padding,
    DefaultValuedAttr<TT_CacheModifierAttr, "::tpx::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::tpx::tt::EvictionPolicy::NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let results = (outs TT_Type:$result);
  let builders = [OpBuilder<(ins "::mlir::Value":$ptr, "::mlir::Value":$mask,
                                 "::mlir::Value":$other)>];
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def TT_StoreOp : TT_Op<"store", [MemoryEffects<[MemWrite<TT_GlobalMemory>]>,
    TT_TypeInferredFrom<"ptr", "value", "::tpx::tt::getPointeeTypeOf($_self)">,
    TT_TypeInferredFrom<"ptr", "mask", "::tpx::tt::getI1SameShape($_self)">]> {
  let summary = "store through pointers, a tensor of pointers or a block pointer";
  let arguments = (ins
    AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>:$ptr,
    TT_Type:$value,
    Optional<TT_BoolLike>:$mask,
    DefaultValuedAttr<DenseI32ArrayAttr, "::llvm::ArrayRef<int32_t>{}">:$boundaryCheck,
    DefaultValuedAttr<TT_CacheModifierAttr, "::tpx::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::tpx::tt::EvictionPolicy::NORMAL">:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def TT_AtomicRMWOp : TT_Op<"atomic_rmw", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "atomic read-modify-write; returns the old value";
  let arguments = (ins TT_RMWOpAttr:$atomic_rmw_op, TT_PtrLike:$ptr,
                       TT_Type:$val, Optional<TT_BoolLike>:$mask,
                       TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:`
    functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

def TT_AtomicCASOp : TT_Op<"atomic_cas", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "atomic compare-and-swap; returns the old value";
  let arguments = (ins TT_PtrLike:$ptr, TT_Type:$cmp, TT_Type:$val,
                       TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:`
    functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Block pointers and tensor descriptors
//===----------------------------------------------------------------------===//

def TT_MakeTensorPtrOp : TT_Op<"make_tensor_ptr", [Pure,
    SameVariadicOperandSize,
    TT_TypeInferredFrom<"result", "base", "::tpx::tt::getBlockBaseType($_self)">]> {
  let summary = "block pointer into a strided tensor";
  let arguments = (ins TT_ScalarPtr:$base, Variadic<I64>:$shape,
                       Variadic<I64>:$strides, Variadic<I32>:$offsets,
                       DenseI32ArrayAttr:$order);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def TT_AdvanceOp : TT_Op<"advance", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "move a block pointer by element offsets";
  let arguments = (ins TT_TensorPtr:$ptr, Variadic<I32>:$offsets);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TT_MakeTensorDescOp : TT_Op<"make_tensor_descriptor", [Pure,
                                                            SameVariadicOperandSize]> {
  let summary = "descriptor of a strided global tensor read in blocks";
  let arguments = (ins TT_ScalarPtr:$base, Variadic<I32>:$shape,
                       Variadic<I64>:$strides,
                       DefaultValuedAttr<TT_PaddingOptionAttr,
                                         "::tpx::tt::PaddingOption::PAD_ZERO">:$padding);
  let results = (outs TT_TensorDesc:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base) `,` type($result)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorLoadOp : TT_Op<"descriptor_load", [
    MemoryEffects<[MemRead<TT_GlobalMemory>]>]> {
  let summary = "load one block through a tensor descriptor";
  let arguments = (ins TT_TensorDesc:$desc, Variadic<I32>:$indices,
    DefaultValuedAttr<TT_CacheModifierAttr, "::tpx::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::tpx::tt::EvictionPolicy::NORMAL">:$evict);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $indices `]`
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($desc)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorStoreOp : TT_Op<"descriptor_store", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "store one block through a tensor descriptor";
  let arguments = (ins TT_TensorDesc:$desc, TT_Tensor:$src,
                       Variadic<I32>:$indices);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorReduceOp : TT_Op<"descriptor_reduce", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "reduce a block into global memory through a descriptor";
  let arguments = (ins TT_DescriptorReduceKindAttr:$kind, TT_TensorDesc:$desc,
                       TT_Tensor:$src, Variadic<I32>:$indices);
  let assemblyFormat = [{
    $kind `,` $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorGatherOp : TT_Op<"descriptor_gather", [
    MemoryEffects<[MemRead<TT_GlobalMemory>]>]> {
  let summary = "gather rows through a descriptor whose block is one row";
  let arguments = (ins TT_TensorDesc:$desc,
                       RankedTensorOf<[I32]>:$x_offsets, I32:$y_offset);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorScatterOp : TT_Op<"descriptor_scatter", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "scatter rows through a descriptor whose block is one row";
  let arguments = (ins TT_TensorDesc:$desc,
                       RankedTensorOf<[I32]>:$x_offsets, I32:$y_offset,
                       TT_Tensor:$src);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

def TT_DotOp : TT_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "d = a x b + c on 2-D (or batched 3-D) tiles";
  let arguments = (ins TT_FpIntTensor:$a, TT_FpIntTensor:$b, TT_FpIntTensor:$c,
    DefaultValuedAttr<TT_InputPrecisionAttr, "::tpx::tt::InputPrecision::IEEE">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs TT_FpIntTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:`
    type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TT_DotScaledOp : TT_Op<"dot_scaled", [Pure, AttrSizedOperandSegments,
                                          AllTypesMatch<["c", "d"]>]> {
  let summary = "microscaled matrix product: d = (a*sa) x (b*sb) + c";
  let arguments = (ins
    RankedTensorOf<[TT_Float, I8]>:$a,
    RankedTensorOf<[TT_Float, I8]>:$b,
    TT_FloatTensor:$c,
    Optional<RankedTensorOf<[TT_Float, I8]>>:$a_scale,
    Optional<RankedTensorOf<[TT_Float, I8]>>:$b_scale,
    TT_ScaleDotElemTypeAttr:$a_elem_type,
    TT_ScaleDotElemTypeAttr:$b_elem_type,
    BoolAttr:$fastMath,
    DefaultValuedAttr<BoolAttr, "true">:$lhs_k_pack,
    DefaultValuedAttr<BoolAttr, "true">:$rhs_k_pack);
  let results = (outs TT_FloatTensor:$d);
  let assemblyFormat = [{
    $a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c
    `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type attr-dict
    `:` type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)? `->` type($d)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Ops with combine regions (printed in generic form, as Triton does)
//===----------------------------------------------------------------------===//

def TT_ReduceOp : TT_Op<"reduce", [Pure, SingleBlock]> {
  let summary = "reduce tensors along an axis with a combine region";
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<TT_Type>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_ReduceReturnOp : TT_Op<"reduce.return", [HasParent<"ReduceOp">, Pure,
                                                Terminator, ReturnLike]> {
  let summary = "yield the combined values of a tt.reduce step";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_ScanOp : TT_Op<"scan", [Pure, SingleBlock]> {
  let summary = "inclusive scan along an axis with a combine region";
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis,
                       BoolAttr:$reverse);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_ScanReturnOp : TT_Op<"scan.return", [HasParent<"ScanOp">, Pure,
                                            Terminator, ReturnLike]> {
  let summary = "yield the combined values of a tt.scan step";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_MapElementwiseOp : TT_Op<"map_elementwise", [RecursiveMemoryEffects]> {
  let summary = "apply a scalar region to packs of tensor elements";
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$pack);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region AnyRegion:$scalarOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_MapElementwiseReturnOp : TT_Op<"map_elementwise.return", [
    HasParent<"MapElementwiseOp">, Pure, Terminator, ReturnLike]> {
  let summary = "yield the results of one tt.map_elementwise application";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def TT_PrintOp : TT_Op<"print", [MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "print a prefix and values from every program";
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex, Variadic<TT_Type>:$args,
                       DenseI32ArrayAttr:$isSigned);
  let assemblyFormat = "$prefix attr-dict (`:` $args^ `:` type($args))?";
  let hasVerifier = 1;
}

def TT_AssertOp : TT_Op<"assert", [MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "abort with a message where the condition is false";
  let arguments = (ins TT_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

#endif // TPX_DIALECT_TT_IR_TTOPS_TD
