//===- CPURuntimeSymbols.cpp - functions compiled CPU kernels call --------===//
#include "CPURuntimeState.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstring>
#include <vector>

using namespace tpx::cpu;

void LaunchState::fail(std::string message) {
  std::lock_guard<std::mutex> lock(mutex);
  if (failures.size() < 8)
    failures.push_back(std::move(message));
  else
    ++dropped;
}

std::string LaunchState::takeFailures() {
  std::lock_guard<std::mutex> lock(mutex);
  std::string text;
  for (const std::string &failure : failures)
    text += (text.empty() ? "" : "\n") + failure;
  if (dropped)
    text += llvm::formatv("\n... and {0} more", dropped).str();
  failures.clear();
  dropped = 0;
  return text;
}

LaunchState *&tpx::cpu::currentLaunch() {
  thread_local LaunchState *launch = nullptr;
  return launch;
}

static std::mutex &printMutex() {
  static std::mutex mutex;
  return mutex;
}

namespace {
enum PrintKind : int32_t { Signed = 0, Unsigned = 1, Float = 2, Hex = 3 };
} // namespace

extern "C" {

/// tt.print: one line per value, like Triton's device print.
static void tpx_cpu_print(const char *prefix, int32_t x, int32_t y, int32_t z,
                          int64_t index, int32_t kind, int64_t bits,
                          double value) {
  std::string line = llvm::formatv("pid ({0}, {1}, {2}) ", x, y, z).str();
  if (index >= 0)
    line += llvm::formatv("idx ({0,3}) ", index).str();
  line += prefix;
  switch (kind) {
  case Float: {
    // printf's %f, as the GPU paths' vprintf and Triton print it.
    int size = std::snprintf(nullptr, 0, "%f", value);
    std::string text(size > 0 ? size : 0, '\0');
    std::snprintf(text.data(), text.size() + 1, "%f", value);
    line += text;
    break;
  }
  case Hex:
    line += llvm::formatv("{0:x}", static_cast<uint64_t>(bits)).str();
    break;
  case Unsigned:
    line += std::to_string(static_cast<uint64_t>(bits));
    break;
  default:
    line += std::to_string(bits);
    break;
  }
  std::lock_guard<std::mutex> lock(printMutex());
  llvm::outs() << line << "\n";
  llvm::outs().flush();
}

/// tt.assert: recorded; the launch returns it as an error.
static void tpx_cpu_assert_fail(const char *message, int32_t x, int32_t y,
                                int32_t z, int64_t index) {
  std::string text =
      llvm::formatv("device-side assertion failed in program ({0}, {1}, {2})",
                    x, y, z)
          .str();
  if (index >= 0)
    text += llvm::formatv(" at element {0}", index).str();
  text += std::string(": ") + message;
  if (LaunchState *launch = currentLaunch())
    launch->fail(std::move(text));
}

/// Bounds check of bounds-checked kernels: is [address, address + bytes)
/// inside one of the launch's buffer arguments?
static bool tpx_cpu_check_access(int64_t address, int64_t bytes,
                                 int32_t isWrite, int32_t x, int32_t y,
                                 int32_t z) {
  LaunchState *launch = currentLaunch();
  if (!launch)
    return false;
  uintptr_t begin = static_cast<uintptr_t>(address);
  for (const BufferRange &buffer : launch->buffers)
    if (begin >= buffer.begin &&
        begin + static_cast<uint64_t>(bytes) <= buffer.begin + buffer.bytes)
      return true;
  // Name the nearest buffer below the address: usually the one overrun.
  const BufferRange *nearest = nullptr;
  for (const BufferRange &buffer : launch->buffers)
    if (buffer.begin <= begin && (!nearest || buffer.begin > nearest->begin))
      nearest = &buffer;
  std::string text =
      llvm::formatv("out-of-bounds {0} of {1} bytes at {2:x} in program "
                    "({3}, {4}, {5})",
                    isWrite ? "write" : "read", bytes, address, x, y, z)
          .str();
  if (nearest)
    text += llvm::formatv(": {0} bytes past the start of buffer argument "
                          "'{1}', which holds {2} bytes",
                          begin - nearest->begin, nearest->name, nearest->bytes)
                .str();
  else
    text += ": below every buffer argument";
  launch->fail(std::move(text));
  return false;
}

/// memref.copy between memrefs that are not both contiguous (a transposed
/// or sliced view, for example) lowers to a call to `memrefCopy`, which
/// upstream MLIR provides in its C runner utils. Kernels must not depend on
/// that library being loaded, so the runtime defines it: same ABI, element
/// size in bytes and two unranked memref descriptors.
namespace {
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};
/// The layout of a ranked memref descriptor of rank `rank`.
struct StridedView {
  char *data;
  const int64_t *sizes;
  const int64_t *strides;

  StridedView(const UnrankedMemRef &memref, int64_t elementSize) {
    auto *words = static_cast<int64_t *>(memref.descriptor);
    // {allocated, aligned, offset, sizes[rank], strides[rank]}
    char *aligned = reinterpret_cast<char *>(words[1]);
    data = aligned + words[2] * elementSize;
    sizes = words + 3;
    strides = words + 3 + memref.rank;
  }
};
} // namespace

static void memrefCopy(int64_t elementSize, UnrankedMemRef *src,
                       UnrankedMemRef *dst) {
  int64_t rank = src->rank;
  StridedView from(*src, elementSize), to(*dst, elementSize);
  for (int64_t d = 0; d < rank; ++d)
    if (from.sizes[d] == 0)
      return;
  std::vector<int64_t> index(rank, 0);
  while (true) {
    int64_t fromOffset = 0, toOffset = 0;
    for (int64_t d = 0; d < rank; ++d) {
      fromOffset += index[d] * from.strides[d];
      toOffset += index[d] * to.strides[d];
    }
    std::memmove(to.data + toOffset * elementSize,
                 from.data + fromOffset * elementSize, elementSize);
    // Odometer increment over the shape, innermost dimension fastest.
    int64_t d = rank - 1;
    for (; d >= 0; --d) {
      if (++index[d] < from.sizes[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

} // extern "C"

std::vector<RuntimeSymbol> tpx::cpu::getRuntimeSymbols() {
  std::vector<RuntimeSymbol> symbols = {
      {"tpx_cpu_print", reinterpret_cast<void *>(&tpx_cpu_print)},
      {"tpx_cpu_assert_fail", reinterpret_cast<void *>(&tpx_cpu_assert_fail)},
      {"tpx_cpu_check_access", reinterpret_cast<void *>(&tpx_cpu_check_access)},
      {"memrefCopy", reinterpret_cast<void *>(&memrefCopy)}};
  for (const RuntimeSymbol &symbol : getTaskRuntimeSymbols())
    symbols.push_back(symbol);
  return symbols;
}
