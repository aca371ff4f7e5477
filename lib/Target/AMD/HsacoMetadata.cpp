//===- HsacoMetadata.cpp - kernel resources from an AMDGPU code object ----===//
//
// An AMDGPU code object (v3 and later) describes its kernels in one ELF note
// of owner "AMDGPU" and type NT_AMDGPU_METADATA: a msgpack map whose
// `amdhsa.kernels` array holds one map per kernel (`.name`, `.vgpr_count`,
// `.sgpr_count`, ...; AMDGPUUsage in LLVM's documentation). The hsaco stage
// reads the resources of the artifact from it.
//
//===----------------------------------------------------------------------===//
#include "tpx/Target/AMD/AMDTarget.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELFObjectFile.h"

using namespace tpx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The msgpack blob of the NT_AMDGPU_METADATA note, or an error.
static llvm::Expected<llvm::StringRef>
findMetadataNote(const llvm::object::ELF64LEFile &file) {
  auto sections = file.sections();
  if (!sections)
    return sections.takeError();
  for (const auto &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_NOTE)
      continue;
    llvm::Error error = llvm::Error::success();
    std::optional<llvm::StringRef> blob;
    for (const auto &note : file.notes(section, error))
      if (!blob && note.getName() == "AMDGPU" &&
          note.getType() == llvm::ELF::NT_AMDGPU_METADATA)
        blob = note.getDescAsStringRef(section.sh_addralign);
    // The iteration's error is checked in every case (an unchecked
    // llvm::Error ends the process where LLVM checks them).
    if (error)
      return std::move(error);
    if (blob)
      return *blob;
  }
  return makeError("it has no AMDGPU metadata note (NT_AMDGPU_METADATA)");
}

/// The unsigned integer `key` of `kernel`, if present.
static llvm::Expected<std::optional<unsigned>>
getCount(llvm::msgpack::MapDocNode &kernel, llvm::StringRef key) {
  auto it = kernel.find(key);
  if (it == kernel.end())
    return std::nullopt;
  llvm::msgpack::DocNode &node = it->second;
  // msgpack writes small non-negative numbers as either kind.
  if (node.getKind() == llvm::msgpack::Type::UInt &&
      node.getUInt() <= std::numeric_limits<unsigned>::max())
    return static_cast<unsigned>(node.getUInt());
  if (node.getKind() == llvm::msgpack::Type::Int && node.getInt() >= 0 &&
      node.getInt() <= std::numeric_limits<unsigned>::max())
    return static_cast<unsigned>(node.getInt());
  return makeError("'" + key + "' is not a count");
}

llvm::Expected<EntryResourceMap>
amd::readHsacoResources(llvm::StringRef codeObject) {
  auto fail = [](const llvm::Twine &why) {
    return makeError("cannot read the kernels' resources from the code "
                     "object: " +
                     why);
  };
  auto file = llvm::object::ELF64LEFile::create(codeObject);
  if (!file)
    return fail("not a 64-bit little-endian ELF file (" +
                llvm::toString(file.takeError()) + ")");
  if (file->getHeader().e_machine != llvm::ELF::EM_AMDGPU)
    return fail("not an AMDGPU ELF file");
  auto blob = findMetadataNote(*file);
  if (!blob)
    return fail(llvm::toString(blob.takeError()));

  llvm::msgpack::Document document;
  if (!document.readFromBlob(*blob, /*Multi=*/false))
    return fail("the metadata note is not valid msgpack");
  llvm::msgpack::DocNode &root = document.getRoot();
  if (!root.isMap())
    return fail("the metadata is not a map");
  auto kernels = root.getMap().find("amdhsa.kernels");
  if (kernels == root.getMap().end() || !kernels->second.isArray())
    return fail("the metadata has no 'amdhsa.kernels' array");

  EntryResourceMap entries;
  for (llvm::msgpack::DocNode &node : kernels->second.getArray()) {
    if (!node.isMap())
      return fail("an entry of 'amdhsa.kernels' is not a map");
    llvm::msgpack::MapDocNode &kernel = node.getMap();
    auto name = kernel.find(".name");
    if (name == kernel.end() || !name->second.isString())
      return fail("a kernel has no '.name'");
    EntryResources &entry = entries[name->second.getString().str()];
    auto read = [&](llvm::StringRef key,
                    std::optional<unsigned> &into) -> llvm::Error {
      auto count = getCount(kernel, key);
      if (!count)
        return count.takeError();
      into = *count;
      return llvm::Error::success();
    };
    std::optional<unsigned> vgprs;
    for (auto [key, field] :
         {std::pair{".vgpr_count", &vgprs},
          std::pair{".sgpr_count", &entry.sgprs},
          std::pair{".agpr_count", &entry.agprs},
          std::pair{".vgpr_spill_count", &entry.vgprSpills},
          std::pair{".sgpr_spill_count", &entry.sgprSpills},
          std::pair{".private_segment_fixed_size", &entry.scratchBytes},
          std::pair{".group_segment_fixed_size", &entry.staticSharedBytes},
          std::pair{".wavefront_size", &entry.waveSize},
          std::pair{".max_flat_workgroup_size", &entry.maxBlockThreads}})
      if (llvm::Error error = read(key, *field))
        return fail("kernel '" + name->second.getString() +
                    "': " + llvm::toString(std::move(error)));
    if (!vgprs)
      return fail("kernel '" + name->second.getString() +
                  "' has no '.vgpr_count'");
    // `.vgpr_count` is what the kernel allocates per lane: on chips with a
    // unified register file (gfx90a, gfx94x, gfx950) the arch VGPRs rounded
    // up to 4 plus the AGPRs, elsewhere the larger of the two. That is what
    // limits occupancy, so it is `registers`; `.agpr_count` is kept apart.
    entry.registers = *vgprs;
    // A spilled VGPR takes 4 bytes of scratch per lane, like ptxas's spill
    // stores of 32-bit registers. SGPRs spill into VGPR lanes, not memory.
    entry.spillStoreBytes = 4 * entry.vgprSpills.value_or(0);
  }
  return entries;
}
