//===- PTXSymbolNames.h - symbol names PTX can spell ------------*- C++ -*-===//
#ifndef TPX_LIB_TARGET_NVIDIA_PTXSYMBOLNAMES_H
#define TPX_LIB_TARGET_NVIDIA_PTXSYMBOLNAMES_H

#include "llvm/Support/Error.h"

namespace llvm {
class Module;
} // namespace llvm

namespace tpx::nvidia {

/// Renames every defined symbol whose name is not a PTX identifier: the
/// kernels to getPTXEntryName(name), local symbols likewise (with a unique
/// suffix on a clash). Fails if an external name would clash.
llvm::Error makeSymbolNamesValidForPTX(llvm::Module &module);

} // namespace tpx::nvidia

#endif // TPX_LIB_TARGET_NVIDIA_PTXSYMBOLNAMES_H
