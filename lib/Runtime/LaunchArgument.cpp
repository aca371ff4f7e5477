//===- LaunchArgument.cpp - checking and encoding launch arguments --------===//
#include "tpx/Runtime/LaunchArgument.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace tpx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static std::string bytesOf(const void *data, size_t size) {
  return std::string(static_cast<const char *>(data), size);
}

/// Encodes `value` as the IEEE format named `type` (f16, bf16, f32, f64).
static llvm::Expected<std::string> encodeFloat(llvm::StringRef type,
                                               double value) {
  if (type == "f64")
    return bytesOf(&value, 8);
  if (type == "f32") {
    float f = static_cast<float>(value);
    return bytesOf(&f, 4);
  }
  const llvm::fltSemantics *semantics =
      type == "f16"    ? &llvm::APFloat::IEEEhalf()
      : type == "bf16" ? &llvm::APFloat::BFloat()
                       : nullptr;
  if (!semantics)
    return makeError("cannot pass a scalar of type " + type);
  llvm::APFloat f(value);
  bool lost;
  f.convert(*semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
  uint16_t bits = static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue());
  return bytesOf(&bits, 2);
}

llvm::Expected<std::vector<std::string>>
tpx::encodeLaunchArguments(const KernelSignature &signature,
                           llvm::ArrayRef<LaunchArgument> args) {
  const std::string &kernel = signature.kernelName;
  if (args.size() != signature.args.size()) {
    std::string names;
    for (const KernelArgInfo &info : signature.args)
      names += (names.empty() ? "" : ", ") + info.name;
    return makeError(llvm::formatv(
        "kernel '{0}' takes {1} arguments ({2}) but {3} were given", kernel,
        signature.args.size(), names, args.size()));
  }
  std::vector<std::string> encoded;
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(signature.args, args))) {
    const KernelArgInfo &info = std::get<0>(pair);
    const LaunchArgument &arg = std::get<1>(pair);
    std::string where = llvm::formatv("argument {0} '{1}' of kernel '{2}'",
                                      index, info.name, kernel);
    if (info.kind == KernelArgInfo::Kind::Pointer) {
      if (arg.kind != LaunchArgument::Kind::Buffer)
        return makeError(where + " is a pointer to " + info.type +
                         " but a scalar was given");
      if (!arg.data && arg.bytes != 0)
        return makeError(where + " is a null buffer with a non-zero size");
      uint64_t address = reinterpret_cast<uintptr_t>(arg.data);
      encoded.push_back(bytesOf(&address, 8));
      continue;
    }
    if (arg.kind == LaunchArgument::Kind::Buffer)
      return makeError(where + " is a scalar " + info.type +
                       " but a buffer was given");
    llvm::StringRef type = info.type;
    if (type.starts_with("i")) {
      if (arg.kind != LaunchArgument::Kind::Int)
        return makeError(where + " is " + info.type +
                         " but a floating-point value was given");
      unsigned width = 0;
      type.drop_front().getAsInteger(10, width);
      int64_t v = arg.intValue;
      // Accept values representable as signed or unsigned `width`-bit ints.
      if (width < 64 && (v < -(int64_t(1) << (width - 1)) ||
                         v >= (int64_t(1) << width)))
        return makeError(llvm::formatv("{0} is {1} but {2} does not fit", where,
                                       info.type, v));
      encoded.push_back(bytesOf(&v, std::max(1u, width / 8)));
      continue;
    }
    double value = arg.kind == LaunchArgument::Kind::Float
                       ? arg.floatValue
                       : static_cast<double>(arg.intValue);
    auto bytes = encodeFloat(type, value);
    if (!bytes)
      return makeError(where + ": " + llvm::toString(bytes.takeError()));
    encoded.push_back(std::move(*bytes));
  }
  return encoded;
}
