//===- BufferCompare.cpp - checking a buffer against its expected file ----===//
#include "BufferCompare.h"
#include "JSONChecks.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <cmath>
#include <cstring>

using namespace tpx;

namespace {
enum class ElementKind { Float, Signed, Unsigned };

/// How to read one element of a dtype: its kind, its float format and the
/// significant digits that print every value of that format distinctly
/// (std::numeric_limits<T>::max_digits10 for the format's precision).
struct ElementFormat {
  ElementKind kind = ElementKind::Unsigned;
  const llvm::fltSemantics *semantics = nullptr;
  int digits = 0;
};
} // namespace

static ElementFormat getElementFormat(llvm::StringRef dtype) {
  using llvm::APFloat;
  auto floating = [](const llvm::fltSemantics &semantics, int digits) {
    return ElementFormat{ElementKind::Float, &semantics, digits};
  };
  if (dtype == "f64")
    return floating(APFloat::IEEEdouble(), 17);
  if (dtype == "f32")
    return floating(APFloat::IEEEsingle(), 9);
  if (dtype == "f16")
    return floating(APFloat::IEEEhalf(), 5);
  if (dtype == "bf16")
    return floating(APFloat::BFloat(), 4);
  if (dtype == "f8e4m3fn" || dtype == "fp8e4nv")
    return floating(APFloat::Float8E4M3FN(), 3);
  if (dtype == "f8e5m2" || dtype == "fp8e5")
    return floating(APFloat::Float8E5M2(), 2);
  bool isSigned = llvm::StringSwitch<bool>(dtype)
                      .Cases({"i8", "i16", "i32", "i64"}, true)
                      .Default(false);
  return ElementFormat{isSigned ? ElementKind::Signed : ElementKind::Unsigned,
                       nullptr, 0};
}

/// The bits of element `index` (of `size` bytes), zero-extended.
static uint64_t loadBits(const char *data, unsigned size, uint64_t index) {
  uint64_t bits = 0;
  std::memcpy(&bits, data + index * size, size); // little-endian hosts
  return bits;
}

static double toDouble(const ElementFormat &format, unsigned size,
                       uint64_t bits) {
  if (format.semantics == &llvm::APFloat::IEEEdouble()) {
    double value;
    std::memcpy(&value, &bits, 8);
    return value;
  }
  llvm::APFloat value(*format.semantics, llvm::APInt(size * 8, bits));
  return value.convertToDouble();
}

static int64_t toSigned(unsigned size, uint64_t bits) {
  return llvm::SignExtend64(bits, size * 8);
}

static std::string shortest(double value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

std::string tpx::formatElement(const char *data, llvm::StringRef dtype,
                               uint64_t index) {
  ElementFormat format = getElementFormat(dtype);
  unsigned size = getDTypeSize(dtype);
  uint64_t bits = loadBits(data, size, index);
  switch (format.kind) {
  case ElementKind::Float: {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::format("%.*g", format.digits, toDouble(format, size, bits));
    return text;
  }
  case ElementKind::Signed:
    return std::to_string(toSigned(size, bits));
  case ElementKind::Unsigned:
    return std::to_string(bits);
  }
  return "";
}

std::string tpx::formatCoordinates(llvm::StringRef name,
                                   llvm::ArrayRef<uint64_t> shape,
                                   uint64_t index) {
  if (shape.empty())
    return name.str() + "[" + std::to_string(index) + "]";
  std::vector<uint64_t> coordinates(shape.size());
  uint64_t rest = index;
  for (size_t d = shape.size(); d-- > 0;) {
    coordinates[d] = shape[d] ? rest % shape[d] : 0;
    rest = shape[d] ? rest / shape[d] : 0;
  }
  std::string text = name.str() + "[";
  for (auto [i, c] : llvm::enumerate(coordinates))
    text += (i ? ", " : "") + std::to_string(c);
  return text + "]";
}

/// numpy.isclose with equal_nan: NaN matches NaN, an infinity only an
/// infinity of the same sign (the formula alone would let any value match
/// an infinity once rtol > 0).
static bool isClose(long double got, long double want, double rtol,
                    double atol) {
  if (std::isnan(got) || std::isnan(want))
    return std::isnan(got) && std::isnan(want);
  if (std::isinf(got) || std::isinf(want))
    return got == want;
  return std::fabs(got - want) <= atol + rtol * std::fabs(want);
}

static bool elementsMatch(const ElementFormat &format, unsigned size,
                          uint64_t got, uint64_t want, double rtol,
                          double atol) {
  switch (format.kind) {
  case ElementKind::Float:
    return toDouble(format, size, got) == toDouble(format, size, want) ||
           isClose(toDouble(format, size, got), toDouble(format, size, want),
                   rtol, atol);
  case ElementKind::Signed:
    return got == want ||
           ((rtol != 0 || atol != 0) &&
            isClose(toSigned(size, got), toSigned(size, want), rtol, atol));
  case ElementKind::Unsigned:
    return got == want ||
           ((rtol != 0 || atol != 0) && isClose(got, want, rtol, atol));
  }
  return false;
}

std::string tpx::compareBuffer(const CaseArgument &arg, const char *got,
                               const char *want) {
  ElementFormat format = getElementFormat(arg.dtype);
  unsigned size = getDTypeSize(arg.dtype);
  uint64_t mismatches = 0, first = 0;
  for (uint64_t i = 0; i < arg.elementCount; ++i) {
    if (elementsMatch(format, size, loadBits(got, size, i),
                      loadBits(want, size, i), arg.rtol, arg.atol))
      continue;
    if (mismatches++ == 0)
      first = i;
  }
  if (mismatches == 0)
    return "";
  std::string name = escapeForLine(arg.name);
  std::string where = formatCoordinates(name, arg.shape, first);
  if (arg.shape.size() > 1)
    where += " (flat index " + std::to_string(first) + ")";
  return llvm::formatv("buffer '{0}' differs at {1}: got {2}, want {3} ({4} "
                       "of {5} elements differ; rtol {6}, atol {7})",
                       name, where, formatElement(got, arg.dtype, first),
                       formatElement(want, arg.dtype, first), mismatches,
                       arg.elementCount, shortest(arg.rtol), shortest(arg.atol))
      .str();
}
