//===- TPXGPUTypes.td - tpxgpu types --------------------------------------===//
#ifndef TPX_DIALECT_TPXGPU_IR_TPXGPUTYPES_TD
#define TPX_DIALECT_TPXGPU_IR_TPXGPUTYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "tpx/Dialect/TPXGPU/IR/TPXGPUDialect.td"

class TPXGPU_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TPXGPU_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TPXGPU_MemDescType : TPXGPU_TypeDef<"MemDesc", "memdesc"> {
  let summary = "descriptor of a buffer (or a view of one) in shared memory";
  let description = [{
    `!tpxgpu.memdesc<3x64x64xf16, #shared, mutable>`: a shape, an element
    type, a shared-memory layout and whether the buffer may be written.
    Leading dimensions beyond the layout's rank are buffer dimensions
    (multi-buffering): `memdesc_index` selects one buffer and drops the
    leading dimension. A view keeps the shape of the allocation it was taken
    from, printed as `alloc_shape = 3x64x64` when it differs from the shape,
    since addresses in a swizzled buffer depend on the whole allocation.
    The memory is always the CTA's shared memory.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::mlir::Attribute":$encoding,
                        "bool":$mutableMemory,
                        ArrayRefParameter<"int64_t">:$allocShape);
  let builders = [
    // A whole allocation: the alloc shape is the shape.
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "::mlir::Type":$elementType, "::mlir::Attribute":$encoding,
        CArg<"bool", "true">:$mutableMemory), [{
      return $_get(elementType.getContext(), shape, elementType, encoding,
                   mutableMemory, shape);
    }]>,
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "::mlir::Type":$elementType, "::mlir::Attribute":$encoding,
        "bool":$mutableMemory, "::llvm::ArrayRef<int64_t>":$allocShape), [{
      return $_get(elementType.getContext(), shape, elementType, encoding,
                   mutableMemory, allocShape);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getShape().size(); }
    /// Bytes of one element (sub-byte types round up).
    unsigned getElementByteWidth() const {
      return (getElementType().getIntOrFloatBitWidth() + 7) / 8;
    }
  }];
}

def TPXGPU_AsyncTokenType : TPXGPU_TypeDef<"AsyncToken", "async.token"> {
  let summary = "orders asynchronous operations and the reads that wait on them";
  let description = [{
    Returned by async copies, commit groups and waits; a `local_load` that
    names a wait's token cannot be moved above that wait.
  }];
}

#endif // TPX_DIALECT_TPXGPU_IR_TPXGPUTYPES_TD
