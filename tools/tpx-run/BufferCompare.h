//===- BufferCompare.h - checking a buffer against its expected file -*- C++
//-*-===//
#ifndef TPX_TOOLS_TPXRUN_BUFFERCOMPARE_H
#define TPX_TOOLS_TPXRUN_BUFFERCOMPARE_H

#include "CaseFile.h"

#include <string>

namespace tpx {

/// Compares the `arg.byteSize` bytes at `got` with those at `want`
/// elementwise: floats within `|got - want| <= atol + rtol * |want|` (NaN
/// matches NaN, an infinity only itself), integers exactly when both
/// tolerances are 0 and by the same formula otherwise. Returns the reason
/// of the first mismatch (its coordinates, both values with enough digits
/// to tell them apart, how many elements differ), or "" when all match.
std::string compareBuffer(const CaseArgument &arg, const char *got,
                          const char *want);

/// Element `index` of a buffer of `dtype` as text: floats with as many
/// digits as their format needs to round-trip (9 for f32, 17 for f64, ...),
/// integers exactly.
std::string formatElement(const char *data, llvm::StringRef dtype,
                          uint64_t index);

/// `name[i, j, ...]`: the coordinates of flat (row-major) `index` in
/// `shape`.
std::string formatCoordinates(llvm::StringRef name,
                              llvm::ArrayRef<uint64_t> shape, uint64_t index);

} // namespace tpx

#endif // TPX_TOOLS_TPXRUN_BUFFERCOMPARE_H
