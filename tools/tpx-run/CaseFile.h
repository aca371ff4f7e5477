//===- CaseFile.h - a corpus case: case.json and its buffers ----*- C++ -*-===//
#ifndef TPX_TOOLS_TPXRUN_CASEFILE_H
#define TPX_TOOLS_TPXRUN_CASEFILE_H

#include "llvm/Support/Error.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace tpx {

/// One argument of a case (see ttir-corpus/README.md).
struct CaseArgument {
  bool isBuffer = false;
  std::string name;
  // Buffers.
  std::string dtype;
  std::vector<int64_t> shape;
  std::string inputFile;
  std::string expectedFile; // empty: not checked
  double rtol = 0, atol = 0;
  // Scalars.
  std::string scalarType;
  bool scalarIsFloat = false;
  int64_t intValue = 0;
  double floatValue = 0;
};

struct CaseFile {
  std::string directory;
  std::string name;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  unsigned numWarps = 4;
  unsigned numStages = 3;
  std::vector<CaseArgument> args;

  /// Reads `directory/case.json`; errors name the field at fault.
  static llvm::Expected<CaseFile> read(llvm::StringRef directory);
};

/// Bytes per element of a corpus dtype (f32, f16, bf16, i32, ...).
std::optional<unsigned> getDTypeSize(llvm::StringRef dtype);

/// Element `index` of a buffer of `dtype`, as a double (integers exactly up
/// to 2^53).
double readElement(const char *data, llvm::StringRef dtype, size_t index);

} // namespace tpx

#endif // TPX_TOOLS_TPXRUN_CASEFILE_H
