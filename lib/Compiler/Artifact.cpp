//===- Artifact.cpp - a compiled kernel: binary plus metadata -------------===//
#include "tpx/Compiler/Artifact.h"
#include "tpx/Plugin/PluginLoader.h"

#include "llvm/ADT/ArrayRef.h"

using namespace tpx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The target-specific resource counts, by their metadata key; written
/// only when set, so that other targets' metadata does not change.
static llvm::ArrayRef<std::pair<const char *, std::optional<int> Artifact::*>>
getOptionalResourceFields() {
  static const std::pair<const char *, std::optional<int> Artifact::*>
      fields[] = {{"num_sgprs", &Artifact::numSgprs},
                  {"num_agprs", &Artifact::numAgprs},
                  {"num_vgpr_spills", &Artifact::numVgprSpills},
                  {"num_sgpr_spills", &Artifact::numSgprSpills},
                  {"scratch_bytes", &Artifact::scratchBytes},
                  {"static_shared_memory", &Artifact::staticSharedMemory},
                  {"wave_size", &Artifact::waveSize},
                  {"max_block_threads", &Artifact::maxBlockThreads}};
  return fields;
}

const StageText *Artifact::findStage(llvm::StringRef name) const {
  for (const StageText &stage : stages)
    if (stage.stage == name)
      return &stage;
  return nullptr;
}

llvm::json::Value Artifact::metadataToJSON() const {
  llvm::json::Array stageNames;
  for (const StageText &stage : stages)
    stageNames.push_back(stage.stage);
  llvm::json::Array maps;
  for (const TensorMapParam &map : tensorMaps)
    maps.push_back(map.toJSON());
  llvm::json::Object metadata{
      {"target", target},
      {"signature", signature.toJSON()},
      {"num_warps", numWarps},
      {"num_stages", numStages},
      {"shared_memory", sharedMemory},
      {"block_threads", blockThreads},
      {"cluster_dims",
       llvm::json::Array{clusterDims[0], clusterDims[1], clusterDims[2]}},
      {"entry_point", entryPoint},
      {"tensor_maps", std::move(maps)},
      {"num_regs", numRegs},
      {"num_spills", numSpills},
      {"binary_sha256", sha256Hex(binary)},
      {"binary_bytes", static_cast<int64_t>(binary.size())},
      {"pipeline", pipeline},
      {"cache_key", cacheKey},
      {"stages", std::move(stageNames)}};
  for (const auto &[key, field] : getOptionalResourceFields())
    if (const std::optional<int> &value = this->*field)
      metadata[key] = *value;
  return metadata;
}

llvm::Expected<Artifact> Artifact::fromParts(llvm::StringRef metadataJSON,
                                             std::string binary) {
  auto parsed = llvm::json::parse(metadataJSON);
  if (!parsed)
    return parsed.takeError();
  const llvm::json::Object *object = parsed->getAsObject();
  if (!object)
    return makeError("artifact metadata is not a JSON object");
  auto target = object->getString("target");
  auto numWarps = object->getInteger("num_warps");
  auto numStages = object->getInteger("num_stages");
  auto shared = object->getInteger("shared_memory");
  auto entry = object->getString("entry_point");
  auto hash = object->getString("binary_sha256");
  const llvm::json::Value *signature = object->get("signature");
  if (!target || !numWarps || !numStages || !shared || !entry || !hash ||
      !signature)
    return makeError("artifact metadata lacks required fields");
  if (sha256Hex(binary) != *hash)
    return makeError("artifact binary does not match its recorded SHA-256");
  auto parsedSignature = KernelSignature::fromJSON(*signature);
  if (!parsedSignature)
    return parsedSignature.takeError();
  Artifact artifact;
  artifact.target = target->str();
  artifact.signature = std::move(*parsedSignature);
  artifact.numWarps = static_cast<unsigned>(*numWarps);
  artifact.numStages = static_cast<unsigned>(*numStages);
  artifact.sharedMemory = static_cast<unsigned>(*shared);
  // Absent in metadata written before SIMT code generation: one thread.
  if (auto threads = object->getInteger("block_threads"))
    artifact.blockThreads = static_cast<unsigned>(*threads);
  // Absent in metadata written before clusters: clusters of one CTA.
  if (const llvm::json::Array *dims = object->getArray("cluster_dims")) {
    if (dims->size() != 3)
      return makeError("artifact metadata's cluster_dims is not 3 extents");
    for (unsigned i = 0; i < 3; ++i) {
      std::optional<int64_t> dim = (*dims)[i].getAsInteger();
      if (!dim || *dim <= 0)
        return makeError("artifact metadata's cluster_dims holds a "
                         "non-positive extent");
      artifact.clusterDims[i] = static_cast<unsigned>(*dim);
    }
  }
  artifact.entryPoint = entry->str();
  artifact.numRegs =
      static_cast<int>(object->getInteger("num_regs").value_or(-1));
  artifact.numSpills =
      static_cast<int>(object->getInteger("num_spills").value_or(-1));
  for (const auto &[key, field] : getOptionalResourceFields())
    if (auto value = object->getInteger(key))
      artifact.*field = static_cast<int>(*value);
  // Absent in metadata written before TMA: no tensor maps.
  if (const llvm::json::Array *maps = object->getArray("tensor_maps")) {
    for (const llvm::json::Value &map : *maps) {
      auto param = TensorMapParam::fromJSON(map);
      if (!param)
        return param.takeError();
      artifact.tensorMaps.push_back(std::move(*param));
    }
  }
  artifact.binary = std::move(binary);
  if (auto name = object->getString("pipeline"))
    artifact.pipeline = name->str();
  if (auto key = object->getString("cache_key"))
    artifact.cacheKey = key->str();
  return artifact;
}
