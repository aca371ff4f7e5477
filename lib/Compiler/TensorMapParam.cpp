//===- TensorMapParam.cpp - a launcher-built TMA tensor map ---------------===//
#include "tpx/Compiler/TensorMapParam.h"

using namespace tpx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static llvm::json::Array toArray(const std::vector<int64_t> &values) {
  return llvm::json::Array(values);
}

llvm::json::Value TensorMapParam::toJSON() const {
  return llvm::json::Object{{"base", base},
                            {"shape_args", toArray(shapeArgs)},
                            {"shape_values", toArray(shapeValues)},
                            {"stride_args", toArray(strideArgs)},
                            {"stride_values", toArray(strideValues)},
                            {"box", toArray(box)},
                            {"element_type", elementType},
                            {"element_bytes", elementBytes},
                            {"swizzle", swizzleBytes},
                            {"nan", nanPadding}};
}

static bool readArray(const llvm::json::Object &object, llvm::StringRef key,
                      std::vector<int64_t> &out) {
  const llvm::json::Array *array = object.getArray(key);
  if (!array)
    return false;
  for (const llvm::json::Value &v : *array) {
    std::optional<int64_t> i = v.getAsInteger();
    if (!i)
      return false;
    out.push_back(*i);
  }
  return true;
}

llvm::Expected<TensorMapParam>
TensorMapParam::fromJSON(const llvm::json::Value &value) {
  const llvm::json::Object *object = value.getAsObject();
  TensorMapParam p;
  if (!object)
    return makeError("tensor map metadata is not an object");
  auto base = object->getInteger("base");
  auto type = object->getString("element_type");
  auto bytes = object->getInteger("element_bytes");
  auto swizzle = object->getInteger("swizzle");
  auto nan = object->getBoolean("nan");
  if (!base || !type || !bytes || !swizzle || !nan ||
      !readArray(*object, "shape_args", p.shapeArgs) ||
      !readArray(*object, "shape_values", p.shapeValues) ||
      !readArray(*object, "stride_args", p.strideArgs) ||
      !readArray(*object, "stride_values", p.strideValues) ||
      !readArray(*object, "box", p.box))
    return makeError("malformed tensor map metadata");
  size_t rank = p.box.size();
  if (rank < 1 || rank > 5 || p.shapeArgs.size() != rank ||
      p.shapeValues.size() != rank || p.strideArgs.size() != rank ||
      p.strideValues.size() != rank)
    return makeError("malformed tensor map metadata: inconsistent ranks");
  p.base = static_cast<unsigned>(*base);
  p.elementType = type->str();
  p.elementBytes = static_cast<unsigned>(*bytes);
  p.swizzleBytes = static_cast<unsigned>(*swizzle);
  p.nanPadding = *nan;
  return p;
}
