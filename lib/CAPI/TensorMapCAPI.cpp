//===- TensorMapCAPI.cpp - tpx-c/TensorMap.h ------------------------------===//
#include "tpx-c/TensorMap.h"

#include "CAPIUtils.h"

#include "tpx/Runtime/TensorMapEncoding.h"

#include <cstring>

using namespace tpx;
using namespace tpx::capi;

struct TpxTensorMapPlan {
  std::string kernel;
  std::vector<TensorMapParam> maps;
};

TpxStatus tpxTensorMapPlanCreate(const char *metadataJSON,
                                 TpxTensorMapPlan **plan, char **error) {
  if (!metadataJSON || !plan)
    return fail("tpxTensorMapPlanCreate: null argument", error);
  auto parsed = llvm::json::parse(metadataJSON);
  if (!parsed)
    return fail(parsed.takeError(), error);
  const llvm::json::Object *object = parsed->getAsObject();
  if (!object)
    return fail("tpxTensorMapPlanCreate: metadata is not a JSON object", error);
  auto result = std::make_unique<TpxTensorMapPlan>();
  result->kernel = "kernel";
  if (const llvm::json::Object *signature = object->getObject("signature"))
    if (auto name = signature->getString("kernel"))
      result->kernel = "kernel '" + name->str() + "'";
  if (const llvm::json::Array *maps = object->getArray("tensor_maps")) {
    for (const llvm::json::Value &map : *maps) {
      auto param = TensorMapParam::fromJSON(map);
      if (!param)
        return fail(param.takeError(), error);
      result->maps.push_back(std::move(*param));
    }
  }
  *plan = result.release();
  return TPX_SUCCESS;
}

void tpxTensorMapPlanDestroy(TpxTensorMapPlan *plan) { delete plan; }

size_t tpxTensorMapPlanCount(const TpxTensorMapPlan *plan) {
  return plan ? plan->maps.size() : 0;
}

TpxStatus tpxTensorMapPlanEncode(const TpxTensorMapPlan *plan,
                                 const int64_t *args, size_t numArgs,
                                 void *maps, char **error) {
  if (!plan || (numArgs && !args) || (!plan->maps.empty() && !maps))
    return fail("tpxTensorMapPlanEncode: null argument", error);
  if (reinterpret_cast<uintptr_t>(maps) % 64)
    return fail("tpxTensorMapPlanEncode: the output is not 64-byte aligned",
                error);
  if (plan->maps.empty())
    return TPX_SUCCESS;
  auto driver = cuda::getDriver();
  if (!driver)
    return fail(driver.takeError(), error);
  auto *out = static_cast<uint8_t *>(maps);
  for (const TensorMapParam &param : plan->maps) {
    auto map = cuda::encodeTensorMap(
        **driver, param, llvm::ArrayRef(args, numArgs), plan->kernel);
    if (!map)
      return fail(map.takeError(), error);
    std::memcpy(out, map->bytes.data(), map->bytes.size());
    out += map->bytes.size();
  }
  return TPX_SUCCESS;
}
