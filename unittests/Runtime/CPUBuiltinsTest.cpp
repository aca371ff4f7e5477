//===- CPUBuiltinsTest.cpp - the runtime's compiler-rt builtins ----------===//
#include "tpx/Runtime/CPUBuiltins.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>
#include <string>

using namespace tpx::cpu;

namespace {

float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}
uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
uint64_t bitsOf(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
bool isBF16NaN(uint16_t b) { return (b & 0x7f80) == 0x7f80 && (b & 0x7f); }
bool isF16NaN(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

/// The value of a bf16 or f16 bit pattern, exactly, as a double.
double bf16Value(uint16_t b) { return floatOf(extendBF16ToF32(b)); }
double f16Value(uint16_t h) {
  int exponent = (h >> 10) & 0x1f;
  double mantissa = h & 0x3ff;
  double magnitude = exponent == 31 ? (mantissa ? NAN : INFINITY)
                     : exponent == 0
                         ? std::ldexp(mantissa, -24)
                         : std::ldexp(1024 + mantissa, exponent - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

/// `rounded` is the correctly rounded (to nearest, ties to even) 16-bit
/// pattern for `x`: no neighbour of it is nearer, and a tie goes to the
/// even mantissa. `value` decodes a pattern; `infinity` is its +inf.
template <typename Decode>
void expectNearestEven(double x, uint16_t rounded, Decode value,
                       uint16_t infinity, const std::string &what) {
  uint16_t sign = rounded & 0x8000, magnitude = rounded & 0x7fff;
  double error = std::fabs(value(rounded) - x);
  for (int step : {-1, 1}) {
    int neighbour = magnitude + step;
    if (neighbour < 0 || neighbour >= infinity)
      continue;
    double other = std::fabs(value(uint16_t(sign | neighbour)) - x);
    ASSERT_LE(error, other)
        << what << ": neighbour " << neighbour << " is nearer to " << x;
    if (error == other)
      ASSERT_EQ(magnitude % 2, 0) << what << ": tie not to even for " << x;
  }
}

TEST(CPUBuiltinsTest, BF16RoundTripsEveryPattern) {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    uint32_t f = extendBF16ToF32(uint16_t(b));
    if (isBF16NaN(uint16_t(b))) {
      EXPECT_TRUE(std::isnan(floatOf(f)));
      EXPECT_TRUE(isBF16NaN(truncateF32ToBF16(f)));
      continue;
    }
    EXPECT_EQ(truncateF32ToBF16(f), b);
    EXPECT_EQ(truncateF64ToBF16(bitsOf(double(floatOf(f)))), b);
  }
}

TEST(CPUBuiltinsTest, F16RoundTripsEveryPattern) {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    uint32_t f = extendF16ToF32(uint16_t(h));
    uint64_t d = extendF16ToF64(uint16_t(h));
    if (isF16NaN(uint16_t(h))) {
      EXPECT_TRUE(isF16NaN(truncateF32ToF16(f)));
      EXPECT_TRUE(isF16NaN(truncateF64ToF16(d)));
      continue;
    }
    EXPECT_EQ(double(floatOf(f)), f16Value(uint16_t(h))) << h;
    EXPECT_EQ(truncateF32ToF16(f), h);
    EXPECT_EQ(truncateF64ToF16(d), h);
  }
}

TEST(CPUBuiltinsTest, RoundsToNearestEven) {
  std::mt19937 random(7);
  for (int i = 0; i < 200000; ++i) {
    // Random bit patterns cover every exponent, subnormals included.
    float x = floatOf(uint32_t(random()));
    if (std::isnan(x) || std::isinf(x))
      continue;
    uint16_t b = truncateF32ToBF16(bitsOf(x));
    if (std::isinf(bf16Value(b)))
      ASSERT_GE(std::fabs(x), 3.3961775292304610e38)
          << x; // > max bf16 + 1/2 ulp
    else
      expectNearestEven(x, b, bf16Value, 0x7f80, "bf16");
    // f16 sees mostly overflow and zero from uniform bits; scale into range.
    float y =
        std::ldexp(x, -std::ilogb(x == 0 ? 1.0f : x) + int(random() % 44) - 26);
    uint16_t h = truncateF32ToF16(bitsOf(y));
    if (std::isinf(f16Value(h)))
      ASSERT_GE(std::fabs(y), 65520.0) << y;
    else
      expectNearestEven(y, h, f16Value, 0x7c00, "f16");
  }
}

TEST(CPUBuiltinsTest, EdgeValues) {
  EXPECT_EQ(truncateF32ToBF16(bitsOf(1.0f)), 0x3f80);
  EXPECT_EQ(truncateF32ToBF16(bitsOf(-2.0f)), 0xc000);
  EXPECT_EQ(truncateF32ToF16(bitsOf(65504.0f)), 0x7bff);
  EXPECT_EQ(truncateF32ToF16(bitsOf(65520.0f)), 0x7c00); // ties up to inf
  EXPECT_EQ(truncateF32ToF16(bitsOf(std::ldexp(1.0f, -24))), 0x0001);
  EXPECT_EQ(truncateF32ToF16(bitsOf(std::ldexp(1.0f, -25))), 0x0000);
  EXPECT_EQ(truncateF32ToF16(bitsOf(std::ldexp(1.5f, -25))), 0x0001);
  EXPECT_EQ(truncateF32ToF16(bitsOf(-0.0f)), 0x8000);
  EXPECT_EQ(truncateF32ToBF16(bitsOf(INFINITY)), 0x7f80);
  EXPECT_TRUE(isBF16NaN(truncateF32ToBF16(0x7f800001))); // signalling NaN
  // f64 -> f16 rounds once: through f32 this would be a tie, rounded down.
  double justAboveHalf = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(truncateF64ToF16(bitsOf(justAboveHalf)), 0x3c01);
  EXPECT_EQ(truncateF64ToBF16(
                bitsOf(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40))),
            0x3f81);
}

/// The symbols kernels link against, called through the ABI LLVM uses
/// (16-bit floats in the low bits of a float register).
TEST(CPUBuiltinsTest, SymbolsFollowTheCallingConvention) {
  auto find = [](const char *name) -> void * {
    for (const BuiltinSymbol &symbol : getBuiltinSymbols())
      if (std::string(symbol.name) == name)
        return symbol.address;
    return nullptr;
  };
  auto *truncsfbf2 = reinterpret_cast<float (*)(float)>(find("__truncsfbf2"));
  auto *extendhfsf2 = reinterpret_cast<float (*)(float)>(find("__extendhfsf2"));
  auto *divti3 =
      reinterpret_cast<__int128 (*)(__int128, __int128)>(find("__divti3"));
  ASSERT_TRUE(truncsfbf2 && extendhfsf2 && divti3);
  EXPECT_EQ(bitsOf(truncsfbf2(3.0f)) & 0xffff, 0x4040u);
  EXPECT_EQ(extendhfsf2(floatOf(0x3c00)), 1.0f);
  EXPECT_EQ(divti3(__int128(-7) << 70, __int128(1) << 70), -7);
}

} // namespace
