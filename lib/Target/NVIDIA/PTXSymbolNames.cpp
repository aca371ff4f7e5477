//===- PTXSymbolNames.cpp - symbol names PTX can spell --------------------===//
//
// TTIR may name a kernel or helper anything MLIR can quote (`@"k-x"`), but
// PTX identifiers are [a-zA-Z][a-zA-Z0-9_$]* or [_$%][a-zA-Z0-9_$]+, and the
// NVPTX backend ends the process on any other name. The PTX emitter renames
// such symbols with an injective escape before code generation.
//
//===----------------------------------------------------------------------===//
#include "PTXSymbolNames.h"
#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Module.h"

#include <algorithm>

using namespace tpx;

static constexpr llvm::StringLiteral kEscapePrefix = "_tpx$";

static bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$';
}

static bool isValidPTXIdentifier(llvm::StringRef name) {
  if (name.empty() || !llvm::all_of(name.drop_front(), isIdentifierChar))
    return false;
  char first = name.front();
  if (llvm::isAlpha(first))
    return true;
  return (first == '_' || first == '$' || first == '%') && name.size() > 1;
}

std::string tpx::getPTXEntryName(llvm::StringRef kernelName) {
  // Names that start like an escaped one are escaped too, so that the map
  // stays injective.
  if (isValidPTXIdentifier(kernelName) &&
      !kernelName.starts_with(kEscapePrefix))
    return kernelName.str();
  std::string escaped = kEscapePrefix.str();
  for (unsigned char c : kernelName) {
    if (llvm::isAlnum(c) || c == '_') {
      escaped += static_cast<char>(c);
    } else {
      escaped += '$';
      escaped += llvm::hexdigit(c >> 4, /*LowerCase=*/true);
      escaped += llvm::hexdigit(c & 15, /*LowerCase=*/true);
    }
  }
  return escaped;
}

llvm::Error tpx::nvidia::makeSymbolNamesValidForPTX(llvm::Module &module) {
  for (llvm::GlobalValue &value : module.global_values()) {
    if (value.isDeclaration() || !value.hasName())
      continue;
    llvm::StringRef name = value.getName();
    // Dots in local names are the backend's business (it rewrites them).
    std::string undotted = name.str();
    if (value.hasLocalLinkage())
      std::replace(undotted.begin(), undotted.end(), '.', '_');
    std::string valid = getPTXEntryName(undotted);
    if (valid == undotted)
      continue;
    if (!value.hasLocalLinkage() && module.getNamedValue(valid))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot give '" + name +
                                         "' the PTX name '" + valid +
                                         "': another symbol already has it");
    // Local values take a unique suffix if the name is taken.
    value.setName(valid);
  }
  return llvm::Error::success();
}
