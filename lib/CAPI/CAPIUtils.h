//===- CAPIUtils.h - shared helpers of the C API implementation -*- C++ -*-===//
#ifndef TPX_LIB_CAPI_CAPIUTILS_H
#define TPX_LIB_CAPI_CAPIUTILS_H

#include "tpx-c/Tpx.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdlib>
#include <cstring>

namespace tpx::capi {

/// A new context with every tpx and loaded-plugin dialect registered.
mlir::MLIRContext *createContext();

/// Parses TTIR text into `context`; the error carries the diagnostics.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
parseSource(mlir::MLIRContext *context, const char *source);

/// A malloc'ed, NUL-terminated copy (freed with tpxStringFree).
inline char *copyString(llvm::StringRef text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  if (!copy)
    return nullptr;
  std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
  return copy;
}

/// Stores the error's text in *out (when asked) and returns TPX_FAILURE.
inline TpxStatus fail(llvm::Error error, char **out) {
  std::string message = llvm::toString(std::move(error));
  if (out)
    *out = copyString(message);
  return TPX_FAILURE;
}

inline TpxStatus fail(const llvm::Twine &message, char **out) {
  return fail(llvm::createStringError(llvm::inconvertibleErrorCode(), message),
              out);
}

inline TpxStatus done(llvm::Error error, char **out) {
  if (error)
    return fail(std::move(error), out);
  return TPX_SUCCESS;
}

} // namespace tpx::capi

#endif // TPX_LIB_CAPI_CAPIUTILS_H
