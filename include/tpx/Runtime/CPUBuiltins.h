//===- CPUBuiltins.h - compiler-rt builtins the CPU runtime defines -*- C++
//-*-===//
//
// LLVM lowers some operations to library calls when the target CPU has no
// instruction for them: bf16 and f16 conversions without AVX512-BF16 or F16C,
// 128-bit integer division, fp128 arithmetic. The callee names are
// compiler-rt's (`__truncsfbf2`, `__divti3`, ...). Whether the host's
// libgcc has them depends on its version (Debian 12's libgcc has no bf16
// conversions), so the CPU runtime defines every one of them itself and a
// kernel never depends on the host's CPU features or libraries.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_RUNTIME_CPUBUILTINS_H
#define TPX_RUNTIME_CPUBUILTINS_H

#include <cstdint>
#include <vector>

namespace tpx::cpu {

/// IEEE conversions with round-to-nearest-even, subnormals, infinities and
/// quiet NaNs, on raw bit patterns.
uint16_t truncateF32ToBF16(uint32_t bits);
uint16_t truncateF64ToBF16(uint64_t bits);
uint16_t truncateF32ToF16(uint32_t bits);
uint16_t truncateF64ToF16(uint64_t bits);
uint32_t extendBF16ToF32(uint16_t bits);
uint32_t extendF16ToF32(uint16_t bits);
uint64_t extendF16ToF64(uint16_t bits);

/// A builtin by its compiler-rt name.
struct BuiltinSymbol {
  const char *name;
  void *address;
};
/// Every builtin the runtime defines for JIT-linked kernels.
const std::vector<BuiltinSymbol> &getBuiltinSymbols();

} // namespace tpx::cpu

#endif // TPX_RUNTIME_CPUBUILTINS_H
