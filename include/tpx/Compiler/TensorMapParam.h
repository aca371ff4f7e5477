//===- TensorMapParam.h - a launcher-built TMA tensor map -------*- C++ -*-===//
//
// The metadata form of #tpxgpu.tensor_map (TPXGPUAttrs.td): a kernel
// parameter, after the kernel's own arguments, that the launcher fills with
// the 128-byte tensor map cuTensorMapEncodeTiled makes from some of those
// arguments. Artifact::tensorMaps lists them in parameter order.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_COMPILER_TENSORMAPPARAM_H
#define TPX_COMPILER_TENSORMAPPARAM_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace tpx {

struct TensorMapParam {
  /// Index (in the signature) of the pointer argument: the global base.
  unsigned base = 0;
  /// Per dimension, outermost first: the index of the argument holding the
  /// extent (stride, in elements), or -1 for the constant in *Values.
  std::vector<int64_t> shapeArgs, shapeValues, strideArgs, strideValues;
  /// The block one TMA copy moves, outermost first.
  std::vector<int64_t> box;
  /// The element type as MLIR prints it (`f16`, `bf16`, `f32`, `i8`,
  /// `f8E4M3FN`, ...) and its width in bytes.
  std::string elementType;
  unsigned elementBytes = 0;
  /// Shared-memory swizzle in bytes: 0, 32, 64 or 128.
  unsigned swizzleBytes = 0;
  /// Reads outside the tensor give NaN (else zero).
  bool nanPadding = false;

  llvm::json::Value toJSON() const;
  static llvm::Expected<TensorMapParam>
  fromJSON(const llvm::json::Value &value);
};

} // namespace tpx

#endif // TPX_COMPILER_TENSORMAPPARAM_H
