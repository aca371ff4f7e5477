//===- CPUBuiltins.cpp - compiler-rt builtins for JIT-linked kernels ------===//
//
// See CPUBuiltins.h for why the runtime defines these. The floating-point
// conversions work on bit patterns of any IEEE binary format, described by
// its exponent and mantissa widths; the 128-bit integer and fp128 builtins
// are written with the compiler's own __int128 / __float128 arithmetic,
// which the compiler that built tpx lowers with its own runtime, linked
// into libtpx.
//
// ABI: half and bfloat arguments and results travel in the low 16 bits of
// a floating-point register on x86-64 (SysV psABI) and AArch64, the same
// register a `float` uses. Declaring them as `float` and moving the 16 bits
// in and out of its bit pattern needs no compiler support for _Float16 or
// __bf16 (GCC 12 has no arithmetic __bf16).
//
//===----------------------------------------------------------------------===//
#include "tpx/Runtime/CPUBuiltins.h"

#include <cstring>

using namespace tpx::cpu;

namespace {
/// An IEEE binary floating-point format.
struct Format {
  int exponentBits;
  int mantissaBits;

  int bias() const { return (1 << (exponentBits - 1)) - 1; }
  uint64_t mantissaMask() const { return (uint64_t(1) << mantissaBits) - 1; }
  uint64_t exponentMask() const {
    return ((uint64_t(1) << exponentBits) - 1) << mantissaBits;
  }
  uint64_t signBit() const {
    return uint64_t(1) << (exponentBits + mantissaBits);
  }
  uint64_t quietBit() const { return uint64_t(1) << (mantissaBits - 1); }
};

constexpr Format kF64{11, 52};
constexpr Format kF32{8, 23};
constexpr Format kF16{5, 10};
constexpr Format kBF16{8, 7};
} // namespace

/// Rounds `value >> shift` to nearest, ties to even (shift in [1, 63]).
static uint64_t shiftRightRoundingToEven(uint64_t value, int shift) {
  uint64_t result = value >> shift;
  uint64_t rest = value & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (result & 1)))
    ++result;
  return result;
}

/// Converts to a format with fewer exponent and/or mantissa bits.
static uint64_t truncate(uint64_t bits, Format from, Format to) {
  uint64_t sign = (bits & from.signBit()) ? to.signBit() : 0;
  uint64_t magnitude = bits & ~from.signBit();
  uint64_t toInfinity = to.exponentMask();
  int exponentField = static_cast<int>(magnitude >> from.mantissaBits);
  uint64_t mantissa = magnitude & from.mantissaMask();
  int mantissaDrop = from.mantissaBits - to.mantissaBits;

  if (exponentField == (1 << from.exponentBits) - 1) {
    if (mantissa == 0)
      return sign | toInfinity;
    // NaN: keep the payload's top bits, and make it quiet.
    return sign | toInfinity | to.quietBit() | (mantissa >> mantissaDrop);
  }
  // Source subnormals have exponent field 0 but scale like field 1.
  int exponent = (exponentField == 0 ? 1 : exponentField) - from.bias();
  uint64_t significand = exponentField == 0
                             ? mantissa
                             : mantissa | (uint64_t(1) << from.mantissaBits);
  if (significand == 0)
    return sign;
  if (exponent > to.bias())
    return sign | toInfinity;

  if (exponentField != 0 && exponent >= 1 - to.bias()) {
    // Normal in the destination: rebias, then round the mantissa. A carry
    // out of the mantissa correctly bumps the exponent, up to infinity.
    uint64_t rebased =
        (uint64_t(exponent + to.bias()) << from.mantissaBits) | mantissa;
    uint64_t result = shiftRightRoundingToEven(rebased, mantissaDrop);
    return sign | (result > toInfinity ? toInfinity : result);
  }
  // Subnormal in the destination (or a source subnormal, which is never
  // normal in a narrower format): the significand in units of the
  // destination's smallest subnormal, 2^(1 - bias - mantissaBits).
  int shift = mantissaDrop + (1 - to.bias()) - exponent;
  if (shift > from.mantissaBits + 1)
    return sign; // below half the smallest subnormal
  return sign | shiftRightRoundingToEven(significand, shift);
}

/// Converts exactly to a format with at least as many exponent and
/// mantissa bits.
static uint64_t extend(uint64_t bits, Format from, Format to) {
  uint64_t sign = (bits & from.signBit()) ? to.signBit() : 0;
  uint64_t magnitude = bits & ~from.signBit();
  int exponentField = static_cast<int>(magnitude >> from.mantissaBits);
  uint64_t mantissa = magnitude & from.mantissaMask();
  int mantissaGrow = to.mantissaBits - from.mantissaBits;

  if (exponentField == (1 << from.exponentBits) - 1)
    return sign | to.exponentMask() |
           (mantissa ? to.quietBit() | (mantissa << mantissaGrow) : 0);
  if (exponentField == 0) {
    if (mantissa == 0)
      return sign;
    // With the same exponent range (bf16 -> f32) a subnormal stays one.
    if (to.exponentBits == from.exponentBits)
      return sign | (mantissa << mantissaGrow);
    // Subnormal: normalize the significand (it is normal in `to`, whose
    // exponent range is wider).
    int exponent = 1 - from.bias();
    while (!(mantissa & (uint64_t(1) << from.mantissaBits))) {
      mantissa <<= 1;
      --exponent;
    }
    mantissa &= from.mantissaMask();
    return sign | (uint64_t(exponent + to.bias()) << to.mantissaBits) |
           (mantissa << mantissaGrow);
  }
  int exponent = exponentField - from.bias();
  return sign | (uint64_t(exponent + to.bias()) << to.mantissaBits) |
         (mantissa << mantissaGrow);
}

uint16_t tpx::cpu::truncateF32ToBF16(uint32_t bits) {
  return static_cast<uint16_t>(truncate(bits, kF32, kBF16));
}
uint16_t tpx::cpu::truncateF64ToBF16(uint64_t bits) {
  return static_cast<uint16_t>(truncate(bits, kF64, kBF16));
}
uint16_t tpx::cpu::truncateF32ToF16(uint32_t bits) {
  return static_cast<uint16_t>(truncate(bits, kF32, kF16));
}
uint16_t tpx::cpu::truncateF64ToF16(uint64_t bits) {
  return static_cast<uint16_t>(truncate(bits, kF64, kF16));
}
uint32_t tpx::cpu::extendBF16ToF32(uint16_t bits) {
  return static_cast<uint32_t>(extend(bits, kBF16, kF32));
}
uint32_t tpx::cpu::extendF16ToF32(uint16_t bits) {
  return static_cast<uint32_t>(extend(bits, kF16, kF32));
}
uint64_t tpx::cpu::extendF16ToF64(uint16_t bits) {
  return extend(bits, kF16, kF64);
}

//===----------------------------------------------------------------------===//
// The C ABI entry points
//===----------------------------------------------------------------------===//

/// std::bit_cast (C++20) for C++17.
template <typename To, typename From> static To bitCast(From value) {
  static_assert(sizeof(To) == sizeof(From), "sizes differ");
  To result;
  std::memcpy(&result, &value, sizeof result);
  return result;
}
static uint32_t bitsOf(float value) { return bitCast<uint32_t>(value); }
static uint64_t bitsOf(double value) { return bitCast<uint64_t>(value); }
static float floatOf(uint32_t bits) { return bitCast<float>(bits); }
static double doubleOf(uint64_t bits) { return bitCast<double>(bits); }
/// A 16-bit float result in the low bits of a float register.
static float half16(uint16_t bits) { return floatOf(bits); }
/// A 16-bit float argument from the low bits of a float register.
static uint16_t low16(float packed) {
  return static_cast<uint16_t>(bitsOf(packed) & 0xffff);
}

static float truncsfbf2(float x) {
  return half16(truncateF32ToBF16(bitsOf(x)));
}
static float truncdfbf2(double x) {
  return half16(truncateF64ToBF16(bitsOf(x)));
}
static float truncsfhf2(float x) { return half16(truncateF32ToF16(bitsOf(x))); }
static float truncdfhf2(double x) {
  return half16(truncateF64ToF16(bitsOf(x)));
}
static float extendbfsf2(float x) { return floatOf(extendBF16ToF32(low16(x))); }
static float extendhfsf2(float x) { return floatOf(extendF16ToF32(low16(x))); }
static double extendhfdf2(float x) {
  return doubleOf(extendF16ToF64(low16(x)));
}
/// The older GNU names pass halves as 16-bit integers.
static uint16_t gnuF2H(float x) { return truncateF32ToF16(bitsOf(x)); }
static float gnuH2F(uint16_t x) { return floatOf(extendF16ToF32(x)); }

/// llvm.powi: exponentiation by squaring, as compiler-rt defines it.
template <typename T> static T powi(T x, int32_t n) {
  T result = 1;
  for (int64_t e = n; e; e /= 2) {
    if (e % 2)
      result *= x;
    x *= x;
  }
  return n < 0 ? 1 / result : result;
}
static float powisf2(float x, int32_t n) { return powi(x, n); }
static double powidf2(double x, int32_t n) { return powi(x, n); }

#ifdef __SIZEOF_INT128__
using i128 = __int128;
using u128 = unsigned __int128;
static i128 divti3(i128 a, i128 b) { return a / b; }
static u128 udivti3(u128 a, u128 b) { return a / b; }
static i128 modti3(i128 a, i128 b) { return a % b; }
static u128 umodti3(u128 a, u128 b) { return a % b; }
static i128 multi3(i128 a, i128 b) {
  return static_cast<i128>(static_cast<u128>(a) * static_cast<u128>(b));
}
static float floattisf(i128 a) { return static_cast<float>(a); }
static double floattidf(i128 a) { return static_cast<double>(a); }
static float floatuntisf(u128 a) { return static_cast<float>(a); }
static double floatuntidf(u128 a) { return static_cast<double>(a); }
static i128 fixsfti(float a) { return static_cast<i128>(a); }
static i128 fixdfti(double a) { return static_cast<i128>(a); }
static u128 fixunssfti(float a) { return static_cast<u128>(a); }
static u128 fixunsdfti(double a) { return static_cast<u128>(a); }
#endif

#if defined(__x86_64__) && defined(__SIZEOF_FLOAT128__)
using f128 = __float128;
static f128 addtf3(f128 a, f128 b) { return a + b; }
static f128 subtf3(f128 a, f128 b) { return a - b; }
static f128 multf3(f128 a, f128 b) { return a * b; }
static f128 divtf3(f128 a, f128 b) { return a / b; }
static f128 extendsftf2(float a) { return a; }
static f128 extenddftf2(double a) { return a; }
static float trunctfsf2(f128 a) { return static_cast<float>(a); }
static double trunctfdf2(f128 a) { return static_cast<double>(a); }
#endif

template <typename F> static void *address(F *function) {
  return reinterpret_cast<void *>(function);
}

const std::vector<BuiltinSymbol> &tpx::cpu::getBuiltinSymbols() {
  static const std::vector<BuiltinSymbol> symbols = {
    {"__truncsfbf2", address(truncsfbf2)},
    {"__truncdfbf2", address(truncdfbf2)},
    {"__extendbfsf2", address(extendbfsf2)},
    {"__truncsfhf2", address(truncsfhf2)},
    {"__truncdfhf2", address(truncdfhf2)},
    {"__extendhfsf2", address(extendhfsf2)},
    {"__extendhfdf2", address(extendhfdf2)},
    {"__gnu_f2h_ieee", address(gnuF2H)},
    {"__gnu_h2f_ieee", address(gnuH2F)},
    {"__powisf2", address(powisf2)},
    {"__powidf2", address(powidf2)},
#ifdef __SIZEOF_INT128__
    {"__divti3", address(divti3)},
    {"__udivti3", address(udivti3)},
    {"__modti3", address(modti3)},
    {"__umodti3", address(umodti3)},
    {"__multi3", address(multi3)},
    {"__floattisf", address(floattisf)},
    {"__floattidf", address(floattidf)},
    {"__floatuntisf", address(floatuntisf)},
    {"__floatuntidf", address(floatuntidf)},
    {"__fixsfti", address(fixsfti)},
    {"__fixdfti", address(fixdfti)},
    {"__fixunssfti", address(fixunssfti)},
    {"__fixunsdfti", address(fixunsdfti)},
#endif
#if defined(__x86_64__) && defined(__SIZEOF_FLOAT128__)
    {"__addtf3", address(addtf3)},
    {"__subtf3", address(subtf3)},
    {"__multf3", address(multf3)},
    {"__divtf3", address(divtf3)},
    {"__extendsftf2", address(extendsftf2)},
    {"__extenddftf2", address(extenddftf2)},
    {"__trunctfsf2", address(trunctfsf2)},
    {"__trunctfdf2", address(trunctfdf2)},
#endif
  };
  return symbols;
}
