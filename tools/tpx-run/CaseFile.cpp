//===- CaseFile.cpp - a corpus case: case.json and its buffers ------------===//
#include "CaseFile.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace tpx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::optional<unsigned> tpx::getDTypeSize(llvm::StringRef dtype) {
  return llvm::StringSwitch<std::optional<unsigned>>(dtype)
      .Cases({"f64", "i64", "u64"}, 8)
      .Cases({"f32", "i32", "u32"}, 4)
      .Cases({"f16", "bf16", "i16", "u16"}, 2)
      .Cases({"i8", "u8", "i1", "bool"}, 1)
      .Cases({"f8e4m3fn", "f8e5m2", "fp8e4nv", "fp8e5"}, 1)
      .Default(std::nullopt);
}

template <typename T> static T load(const char *data, size_t index) {
  T value;
  std::memcpy(&value, data + index * sizeof(T), sizeof(T));
  return value;
}

double tpx::readElement(const char *data, llvm::StringRef dtype,
                        size_t index) {
  if (dtype == "f32")
    return load<float>(data, index);
  if (dtype == "f64")
    return load<double>(data, index);
  if (dtype == "f16" || dtype == "bf16") {
    uint16_t bits = load<uint16_t>(data, index);
    llvm::APFloat value(dtype == "f16" ? llvm::APFloat::IEEEhalf()
                                       : llvm::APFloat::BFloat(),
                        llvm::APInt(16, bits));
    return value.convertToDouble();
  }
  // float8 buffers are compared by value, not as bytes, so that any NaN
  // matches any NaN and tolerances mean what they say.
  if (dtype == "f8e4m3fn" || dtype == "fp8e4nv" || dtype == "f8e5m2" ||
      dtype == "fp8e5") {
    uint8_t bits = load<uint8_t>(data, index);
    llvm::APFloat value(dtype == "f8e5m2" || dtype == "fp8e5"
                            ? llvm::APFloat::Float8E5M2()
                            : llvm::APFloat::Float8E4M3FN(),
                        llvm::APInt(8, bits));
    return value.convertToDouble();
  }
  if (dtype == "i64")
    return static_cast<double>(load<int64_t>(data, index));
  if (dtype == "u64")
    return static_cast<double>(load<uint64_t>(data, index));
  if (dtype == "i32")
    return load<int32_t>(data, index);
  if (dtype == "u32")
    return load<uint32_t>(data, index);
  if (dtype == "i16")
    return load<int16_t>(data, index);
  if (dtype == "u16")
    return load<uint16_t>(data, index);
  if (dtype == "i8")
    return load<int8_t>(data, index);
  return load<uint8_t>(data, index);
}

static double numberOf(const llvm::json::Value &value) {
  if (auto i = value.getAsInteger())
    return static_cast<double>(*i);
  return value.getAsNumber().value_or(0);
}

llvm::Expected<CaseFile> CaseFile::read(llvm::StringRef directory) {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, "case.json");
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError(path + ": " + buffer.getError().message());
  auto json = llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return makeError(path + ": " + llvm::toString(json.takeError()));
  const llvm::json::Object *root = json->getAsObject();
  if (!root)
    return makeError(path + ": not a JSON object");

  CaseFile file;
  file.directory = directory.str();
  file.name = root->getString("name").value_or(llvm::sys::path::filename(
                                                   directory))
                  .str();
  if (const llvm::json::Array *grid = root->getArray("grid")) {
    if (grid->size() != 3)
      return makeError(path + ": 'grid' must have 3 entries");
    for (size_t i = 0; i < 3; ++i)
      file.grid[i] = static_cast<uint32_t>((*grid)[i].getAsInteger().value_or(0));
  }
  file.numWarps = root->getInteger("num_warps").value_or(4);
  file.numStages = root->getInteger("num_stages").value_or(3);
  const llvm::json::Array *args = root->getArray("args");
  if (!args)
    return makeError(path + ": missing 'args'");
  for (auto [index, value] : llvm::enumerate(*args)) {
    const llvm::json::Object *arg = value.getAsObject();
    std::string where = (path + ": args[" + llvm::Twine(index) + "]").str();
    if (!arg)
      return makeError(where + " is not an object");
    CaseArgument parsed;
    auto kind = arg->getString("kind");
    parsed.name = arg->getString("python_name")
                      .value_or("arg" + std::to_string(index))
                      .str();
    if (kind && *kind == "buffer") {
      parsed.isBuffer = true;
      auto dtype = arg->getString("dtype");
      auto input = arg->getString("input");
      const llvm::json::Array *shape = arg->getArray("shape");
      if (!dtype || !input || !shape)
        return makeError(where + " needs 'dtype', 'shape' and 'input'");
      if (!getDTypeSize(*dtype))
        return makeError(where + " has unknown dtype '" + *dtype + "'");
      parsed.dtype = dtype->str();
      parsed.inputFile = input->str();
      for (const llvm::json::Value &dim : *shape)
        parsed.shape.push_back(dim.getAsInteger().value_or(-1));
      if (auto expected = arg->getString("expected")) {
        parsed.expectedFile = expected->str();
        if (const llvm::json::Object *tol = arg->getObject("tolerance")) {
          if (const llvm::json::Value *r = tol->get("rtol"))
            parsed.rtol = numberOf(*r);
          if (const llvm::json::Value *a = tol->get("atol"))
            parsed.atol = numberOf(*a);
        }
      }
    } else if (kind && *kind == "scalar") {
      auto type = arg->getString("type");
      const llvm::json::Value *v = arg->get("value");
      if (!type || !v)
        return makeError(where + " needs 'type' and 'value'");
      parsed.scalarType = type->str();
      parsed.scalarIsFloat = type->starts_with("f") || type->starts_with("bf");
      if (parsed.scalarIsFloat)
        parsed.floatValue = numberOf(*v);
      else if (auto i = v->getAsInteger())
        parsed.intValue = *i;
      else if (auto b = v->getAsBoolean())
        parsed.intValue = *b;
      else
        return makeError(where + " has a non-integer value for type " +
                         parsed.scalarType);
    } else {
      return makeError(where + " has unknown kind (expected buffer or scalar)");
    }
    file.args.push_back(std::move(parsed));
  }
  return file;
}
