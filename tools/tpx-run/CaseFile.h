//===- CaseFile.h - a corpus case: case.json and its buffers ----*- C++ -*-===//
//
// CaseFile::read checks the whole case up front (every field of case.json,
// the buffer files' paths and sizes) so that nothing after it meets a value
// it has to guess about. The rules are in docs/cpu-target.md ("Case files").
//
//===----------------------------------------------------------------------===//
#ifndef TPX_TOOLS_TPXRUN_CASEFILE_H
#define TPX_TOOLS_TPXRUN_CASEFILE_H

#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tpx {

/// Limits on what one case may ask for; larger values are reported as
/// errors instead of running for hours or exhausting memory.
constexpr unsigned kMaxCaseJSONDepth = 64;
constexpr uint64_t kMaxCaseJSONBytes = uint64_t(16) << 20;
/// Grid limits of CUDA (x up to 2^31 - 1, y and z up to 65535) and a bound
/// on the programs of one launch (2^24), which the CPU runs one by one.
constexpr int64_t kMaxGridX = (int64_t(1) << 31) - 1;
constexpr int64_t kMaxGridYZ = 65535;
constexpr uint64_t kMaxPrograms = uint64_t(1) << 24;
/// All buffers of a case together (tpx-run holds them in host memory).
constexpr uint64_t kMaxBufferBytes = uint64_t(16) << 30;

/// One argument of a case (see ttir-corpus/README.md).
struct CaseArgument {
  bool isBuffer = false;
  /// python_name, or argN.
  std::string name;
  // Buffers.
  std::string dtype;
  std::vector<uint64_t> shape;
  uint64_t elementCount = 0;
  uint64_t byteSize = 0;
  /// Paths relative to the case directory, checked not to leave it.
  std::string inputFile;
  std::string expectedFile; // empty: not checked
  double rtol = 0, atol = 0;
  // Scalars.
  std::string scalarType;
  bool scalarIsFloat = false;
  /// Integer scalars; u64 values above INT64_MAX keep their bit pattern.
  int64_t intValue = 0;
  double floatValue = 0;
};

struct CaseFile {
  std::string directory;
  std::string name;
  /// The `kernel` field; empty when absent.
  std::string kernel;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  unsigned numWarps = 4;
  unsigned numStages = 3;
  std::vector<CaseArgument> args;

  /// Reads and checks `directory/case.json` and the sizes of the files it
  /// names. Errors start with `case.json: ` and name the field at fault,
  /// e.g. `case.json: grid[0]: must be an integer from 1 to 2147483647,
  /// got -1`. `name` is set to the case's name, also on errors: the `name`
  /// field when it could be read, else the directory's name.
  static llvm::Expected<CaseFile> read(llvm::StringRef directory,
                                       std::string &name);

  /// `directory/relative`.
  std::string pathOf(llvm::StringRef relative) const;
};

/// Bytes per element of a corpus dtype (f32, f16, bf16, i32, ...); 0 for
/// an unknown dtype.
unsigned getDTypeSize(llvm::StringRef dtype);

} // namespace tpx

#endif // TPX_TOOLS_TPXRUN_CASEFILE_H
