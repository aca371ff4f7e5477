//===- TLXTypes.td - tlx types --------------------------------------------===//
#ifndef TPX_TLX_TLXTYPES_TD
#define TPX_TLX_TLXTYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "TLX/TLXDialect.td"

class TLX_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TLX_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TLX_BufferType : TLX_TypeDef<"Buffer", "buffer"> {
  let summary = "buffers, or a view of one, in the program's local memory";
  let description = [{
    `!tlx.buffer<3x64x64xf16>`: a shape and an element type. A
    `local_alloc` of three 64x64 buffers has this type; `local_view` of it
    is a `!tlx.buffer<64x64xf16>`. Where the bytes live (shared memory on a
    GPU, the program's stack on the CPU) and how they are laid out is the
    lowering's choice.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), shape, elementType);
    }]>
  ];
  let extraClassDeclaration = [{
    int64_t getNumElements() const;
    /// Bytes the buffer occupies (sub-byte types are rounded up per element).
    int64_t getSizeInBytes() const;
  }];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
}

def TLX_AsyncTokenType : TLX_TypeDef<"AsyncToken", "async_token"> {
  let summary = "the completion of an async copy or of a commit group";
}

def TLX_BarriersType : TLX_TypeDef<"Barriers", "mbarriers"> {
  let summary = "mbarriers in the program's local memory";
  let description = [{
    `!tlx.mbarriers<4>`: four barriers, each counting arrivals and
    transaction bytes per phase; `barrier_view` selects one
    (`!tlx.mbarriers<1>`).
  }];
  let parameters = (ins "int64_t":$count);
  let assemblyFormat = "`<` $count `>`";
  let genVerifyDecl = 1;
}

def TLX_Buffer : DialectType<TLX_Dialect,
  CPred<"::llvm::isa<::tpx::tlx::BufferType>($_self)">, "TLX buffer",
  "::tpx::tlx::BufferType">;
def TLX_AsyncToken : DialectType<TLX_Dialect,
  CPred<"::llvm::isa<::tpx::tlx::AsyncTokenType>($_self)">, "TLX async token",
  "::tpx::tlx::AsyncTokenType">,
  BuildableType<"$_builder.getType<::tpx::tlx::AsyncTokenType>()">;

def TLX_Barriers : DialectType<TLX_Dialect,
  CPred<"::llvm::isa<::tpx::tlx::BarriersType>($_self)">, "TLX mbarriers",
  "::tpx::tlx::BarriersType">;
def TLX_Barrier : DialectType<TLX_Dialect,
  And<[CPred<"::llvm::isa<::tpx::tlx::BarriersType>($_self)">,
       CPred<"::llvm::cast<::tpx::tlx::BarriersType>($_self).getCount() == 1">]>,
  "one TLX mbarrier", "::tpx::tlx::BarriersType">,
  BuildableType<"::tpx::tlx::BarriersType::get($_builder.getContext(), 1)">;

#endif // TPX_TLX_TLXTYPES_TD
