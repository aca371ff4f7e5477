//===- LLVMModuleChecks.h - what an LLVM backend can compile ----*- C++ -*-===//
//
// Checks of an LLVM IR module before code generation, for inputs that LLVM
// would otherwise answer with a fatal error: intrinsics of another
// architecture (an x86 intrinsic in an sm_90a llir override), calls of
// unknown `llvm.*` functions, inline assembly naming operands it does not
// have. Every emitter runs them; the error names the function and target.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_TARGET_COMMON_LLVMMODULECHECKS_H
#define TPX_TARGET_COMMON_LLVMMODULECHECKS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Module;
} // namespace llvm

namespace tpx {

/// Fails if `module` calls an intrinsic that the backend of the module's
/// target triple cannot lower, or inline assembly with a bad operand
/// reference. `target` names the tpx target in messages.
llvm::Error checkModuleForBackend(const llvm::Module &module,
                                  llvm::StringRef target);

} // namespace tpx

#endif // TPX_TARGET_COMMON_LLVMMODULECHECKS_H
