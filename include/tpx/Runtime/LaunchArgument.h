//===- LaunchArgument.h - values passed to a kernel launch ------*- C++ -*-===//
#ifndef TPX_RUNTIME_LAUNCHARGUMENT_H
#define TPX_RUNTIME_LAUNCHARGUMENT_H

#include "tpx/Compiler/KernelSignature.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace tpx {

/// One launch argument: a buffer (address and size in bytes, so that the
/// launcher can check accesses against it) or a scalar. Scalars are given as
/// an integer or a double and converted to the kernel's parameter type.
struct LaunchArgument {
  enum class Kind { Buffer, Int, Float };
  Kind kind = Kind::Int;
  void *data = nullptr;
  size_t bytes = 0;
  int64_t intValue = 0;
  double floatValue = 0;

  static LaunchArgument buffer(void *data, size_t bytes) {
    LaunchArgument arg;
    arg.kind = Kind::Buffer;
    arg.data = data;
    arg.bytes = bytes;
    return arg;
  }
  static LaunchArgument integer(int64_t value) {
    LaunchArgument arg;
    arg.kind = Kind::Int;
    arg.intValue = value;
    return arg;
  }
  static LaunchArgument floating(double value) {
    LaunchArgument arg;
    arg.kind = Kind::Float;
    arg.floatValue = value;
    return arg;
  }
};

/// Checks `args` against `signature` (count and kinds; scalars must fit the
/// parameter type) and encodes each argument as the bytes the kernel reads.
/// Errors name the kernel, the argument and what was expected.
llvm::Expected<std::vector<std::string>>
encodeLaunchArguments(const KernelSignature &signature,
                      llvm::ArrayRef<LaunchArgument> args);

} // namespace tpx

#endif // TPX_RUNTIME_LAUNCHARGUMENT_H
