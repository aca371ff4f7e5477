//===- TLXDialect.td - the tlx dialect (TLX as a tpx plugin) --------------===//
//
// TLX (Triton Low-level Language Extensions) lets kernel authors manage
// shared memory, async copies, async tensor-core dots and barriers
// themselves. tpx ships it as an ordinary plugin: this dialect is what its
// Python module (tpx.language.extra.tlx) emits into TTIR, and the plugin's
// passes lower it per target. Written for tpx from TLX's published op
// names and semantics.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_TLX_TLXDIALECT_TD
#define TPX_TLX_TLXDIALECT_TD

include "mlir/IR/OpBase.td"

def TLX_Dialect : Dialect {
  let name = "tlx";
  let cppNamespace = "::tpx::tlx";
  let summary = "Explicit shared memory, async copies and async dots (TLX)";
  let description = [{
    Buffers (`!tlx.buffer<3x64x64xf16>`) are allocated per program (thread
    block) by `tlx.local_alloc`; their leading dimension counts buffers, and
    `tlx.local_view` selects one. Async copies fill them and return tokens
    that commit groups collect; async dots read them.
  }];
  let dependentDialects = ["::tpx::tt::TTDialect"];
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

#endif // TPX_TLX_TLXDIALECT_TD
