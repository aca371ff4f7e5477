//===- InlineAsmOperands.h - operand references in inline asm ---*- C++ -*-===//
//
// Inline assembly (tt.elementwise_inline_asm, llvm.inline_asm) names its
// operands `$N`, `${N}` or `${N:modifier}`; `$$` is a literal dollar. LLVM
// ends the process on a reference past the last operand, so the tt verifier
// and the emitters' LLVM checks find them first, with this one scanner.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_SUPPORT_INLINEASMOPERANDS_H
#define TPX_SUPPORT_INLINEASMOPERANDS_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace tpx {

/// The first operand number >= `numOperands` that `assembly` refers to, if
/// any; ~0u stands for a number too long to read.
inline std::optional<unsigned>
findBadAsmOperandReference(llvm::StringRef assembly, unsigned numOperands) {
  for (size_t i = 0; i + 1 < assembly.size(); ++i) {
    if (assembly[i] != '$')
      continue;
    char next = assembly[i + 1];
    if (next == '$') { // a literal dollar
      ++i;
      continue;
    }
    size_t start = i + 1 + (next == '{');
    size_t end = start;
    while (end < assembly.size() && llvm::isDigit(assembly[end]))
      ++end;
    if (end == start)
      continue; // `$(`, `$|`, `$)`: not operand references
    unsigned number = ~0u;
    if (end - start <= 9)
      (void)assembly.substr(start, end - start).getAsInteger(10, number);
    if (number >= numOperands)
      return number;
    i = end - 1;
  }
  return std::nullopt;
}

} // namespace tpx

#endif // TPX_SUPPORT_INLINEASMOPERANDS_H
