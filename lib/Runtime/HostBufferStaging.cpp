//===- HostBufferStaging.cpp - host buffers through device memory ---------===//
#include "tpx/Runtime/HostBufferStaging.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstring>

using namespace tpx;

StagedArguments::StagedArguments(DeviceMemoryCalls calls,
                                 const KernelSignature &signature)
    : calls(std::move(calls)), signature(signature) {}

StagedArguments::~StagedArguments() {
  for (uint64_t address : device)
    if (address)
      calls.release(address);
}

std::string StagedArguments::describe(size_t index, size_t bytes) const {
  llvm::StringRef name = "?";
  if (index < signature.args.size())
    name = signature.args[index].name;
  return llvm::formatv("argument {0} '{1}' ({2} bytes)", index, name, bytes)
      .str();
}

llvm::Error StagedArguments::stage(llvm::ArrayRef<LaunchArgument> args,
                                   llvm::ArrayRef<std::string> encoded) {
  // Sized once: params point into slots.
  slots.assign(args.size(), 0);
  device.assign(args.size(), 0);
  params.resize(args.size());
  for (auto [i, arg] : llvm::enumerate(args)) {
    params[i] = &slots[i];
    if (arg.kind != LaunchArgument::Kind::Buffer) {
      const std::string &bytes = encoded[i];
      std::memcpy(&slots[i], bytes.data(), std::min<size_t>(bytes.size(), 8));
      continue;
    }
    if (arg.bytes == 0)
      continue; // a null device pointer: the kernel may not touch it
    std::string what = describe(i, arg.bytes);
    if (auto error = calls.allocate(device[i], arg.bytes, what))
      return error;
    if (auto error = calls.copyToDevice(device[i], arg.data, arg.bytes, what))
      return error;
    slots[i] = device[i];
  }
  return llvm::Error::success();
}

llvm::Error StagedArguments::copyBack(llvm::ArrayRef<LaunchArgument> args) {
  for (auto [i, arg] : llvm::enumerate(args)) {
    if (i >= device.size() || !device[i])
      continue;
    if (auto error = calls.copyToHost(arg.data, device[i], arg.bytes,
                                      describe(i, arg.bytes)))
      return error;
  }
  return llvm::Error::success();
}
