//===- KernelSignature.h - the argument ABI of a compiled kernel -*- C++ -*-===//
#ifndef TPX_COMPILER_KERNELSIGNATURE_H
#define TPX_COMPILER_KERNELSIGNATURE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tpx {

/// One kernel argument as the launcher sees it.
struct KernelArgInfo {
  enum class Kind { Pointer, Scalar };
  Kind kind;
  std::string name;
  /// The scalar type (`i32`, `f32`, ...) or, for a pointer, the pointee.
  std::string type;
  /// Bytes of one value of `type` (of one pointee element for pointers).
  unsigned byteSize;

  llvm::json::Value toJSON() const;
  static llvm::Expected<KernelArgInfo> fromJSON(const llvm::json::Value &value);
};

struct KernelSignature {
  std::string kernelName;
  std::vector<KernelArgInfo> args;

  llvm::json::Value toJSON() const;
  static llvm::Expected<KernelSignature>
  fromJSON(const llvm::json::Value &value);
};

/// The signature of the module's kernel: its first public tt.func. Argument
/// names come from the NameLocs Triton attaches. An error if there is no
/// kernel or an argument type cannot be passed from the host (block
/// pointers, tensors).
llvm::Expected<KernelSignature> getKernelSignature(mlir::ModuleOp module);

} // namespace tpx

#endif // TPX_COMPILER_KERNELSIGNATURE_H
