//===- PluginElfCheck.cpp - The ELF structures ld.so trusts ---------------===//
//
// ld.so maps the PT_LOAD segments of a library and then reads its dynamic
// section, string and symbol tables, hash tables, relocations and version
// tables through that mapping, trusting every address, offset and size it
// finds. A segment that ends past the end of the file faults (SIGBUS) as
// soon as the loader touches it; a wild table offset crashes ld.so or trips
// one of its assertions. This file checks each of those structures, read
// with LLVM's ELF library, against the bytes of the file, so that whatever
// ld.so will read exists and every index it will follow is in range.
//
// Only the host's ELF flavour (class and byte order) is ever parsed: any
// other one is reported before, as a library built for another machine.
//
//===----------------------------------------------------------------------===//
#include "tpx/Plugin/PluginFileChecks.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Process.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <map>
#include <set>

using namespace tpx;
namespace ELF = llvm::ELF;
using llvm::Error;
using llvm::StringRef;
using llvm::Twine;

namespace {
/// The ELF flavour of this process, the only one it can load.
using HostELFT =
    llvm::object::ELFType<llvm::endianness::native, sizeof(void *) == 8>;
using HostELFFile = llvm::object::ELFFile<HostELFT>;
using Phdr = HostELFT::Phdr;
using Dyn = HostELFT::Dyn;
using Sym = HostELFT::Sym;
using Rel = HostELFT::Rel;
using Rela = HostELFT::Rela;
using Relr = HostELFT::Relr;
using Word = HostELFT::Word;
using Addr = HostELFT::uint;

constexpr uint8_t kHostClass =
    sizeof(void *) == 8 ? ELF::ELFCLASS64 : ELF::ELFCLASS32;
constexpr uint8_t kHostData =
    llvm::sys::IsLittleEndianHost ? ELF::ELFDATA2LSB : ELF::ELFDATA2MSB;

Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string hex(uint64_t value) {
  return "0x" + llvm::utohexstr(value, /*LowerCase=*/true);
}

const char *className(uint8_t elfClass) {
  return elfClass == ELF::ELFCLASS32 ? "32-bit" : "64-bit";
}

const char *byteOrderName(uint8_t data) {
  return data == ELF::ELFDATA2LSB ? "little-endian" : "big-endian";
}

std::string segmentName(size_t index, uint32_t type) {
  const char *name = nullptr;
  switch (type) {
  case ELF::PT_LOAD:
    name = "PT_LOAD";
    break;
  case ELF::PT_DYNAMIC:
    name = "PT_DYNAMIC";
    break;
  case ELF::PT_INTERP:
    name = "PT_INTERP";
    break;
  case ELF::PT_NOTE:
    name = "PT_NOTE";
    break;
  case ELF::PT_PHDR:
    name = "PT_PHDR";
    break;
  case ELF::PT_TLS:
    name = "PT_TLS";
    break;
  case ELF::PT_GNU_EH_FRAME:
    name = "PT_GNU_EH_FRAME";
    break;
  case ELF::PT_GNU_STACK:
    name = "PT_GNU_STACK";
    break;
  case ELF::PT_GNU_RELRO:
    name = "PT_GNU_RELRO";
    break;
  case ELF::PT_GNU_PROPERTY:
    name = "PT_GNU_PROPERTY";
    break;
  }
  return "segment " + std::to_string(index) + " (" +
         (name ? std::string(name) : "type " + hex(type)) + ")";
}

/// The e_type of an ELF file whose byte order may not be the host's.
uint16_t readElfType(StringRef bytes) {
  bool bigEndian = bytes[ELF::EI_DATA] == ELF::ELFDATA2MSB;
  uint8_t first = bytes[16], second = bytes[17];
  return bigEndian ? (first << 8) | second : first | (second << 8);
}

/// Checks one shared library of the host's flavour. Each check records what
/// later ones rely on (segments, then the dynamic entries, then the string
/// table, then the number of symbols).
class SharedObjectChecker {
public:
  SharedObjectChecker(const HostELFFile &elf, StringRef bytes)
      : elf(elf), bytes(bytes) {}

  Error check() {
    if (Error error = checkSegments())
      return error;
    if (Error error = readDynamicEntries())
      return error;
    if (Error error = checkNotAnExecutable())
      return error;
    if (Error error = checkStringTable())
      return error;
    if (Error error = checkHashTables())
      return error;
    if (Error error = checkSymbolTable())
      return error;
    if (Error error = checkRelocations())
      return error;
    if (Error error = checkVersionTables())
      return error;
    return checkCodeAddresses();
  }

private:
  Error checkSegments();
  Error readDynamicEntries();
  Error checkNotAnExecutable();
  Error checkStringTable();
  Error checkHashTables();
  Error checkSysvHash(uint64_t address);
  Error checkGnuHash(uint64_t address);
  Error checkSymbolTable();
  Error checkRelocations();
  template <typename RelT>
  Error checkRelocationTable(int64_t addressTag, int64_t sizeTag,
                             int64_t entrySizeTag, int64_t relativeCountTag);
  Error checkRelrTable();
  Error checkVersionTables();
  Error checkVersionNeeds(uint64_t &maxIndex);
  Error checkVersionDefinitions(uint64_t &maxIndex);
  Error checkCodeAddresses();

  /// The file offset of [address, address + size) when that range lies in
  /// the file-backed part of one PT_LOAD segment: what ld.so reads there
  /// comes from the file.
  llvm::Expected<uint64_t> mapRange(uint64_t address, uint64_t size,
                                    const Twine &what) const;
  /// Whether [address, address + size) lies in the memory image of one
  /// PT_LOAD segment: what ld.so writes or calls there exists.
  bool inLoadedMemory(uint64_t address, uint64_t size) const;
  /// Whether `address` lies in the memory image of an executable PT_LOAD
  /// segment: ld.so may call it.
  bool inExecutableMemory(uint64_t address) const;
  /// Whether ld.so can write [address, address + size): a writable PT_LOAD
  /// segment, or any one for a library with text relocations (ld.so makes
  /// its segments writable while relocating).
  bool inWritableMemory(uint64_t address, uint64_t size) const;
  /// The word the file holds at `address`, if the file holds it.
  std::optional<uint64_t> readWord(uint64_t address) const;
  template <typename T> const T &at(uint64_t offset) const {
    return *reinterpret_cast<const T *>(bytes.data() + offset);
  }

  std::optional<uint64_t> getTag(int64_t tag) const {
    auto it = tags.find(tag);
    if (it == tags.end())
      return std::nullopt;
    return it->second;
  }
  std::string tagName(int64_t tag) const {
    return "DT_" + elf.getDynamicTagAsString(tag);
  }
  Error checkStringOffset(uint64_t offset, const Twine &what) const {
    if (offset < stringTableSize)
      return Error::success();
    return makeError("malformed " + what + ": string offset " + Twine(offset) +
                     " is past the end of the string table (" +
                     Twine(stringTableSize) + " bytes)");
  }

  const HostELFFile &elf;
  StringRef bytes;
  llvm::SmallVector<const Phdr *> loads;
  const Phdr *dynamic = nullptr;
  /// Every dynamic entry before DT_NULL, and the last value of each tag.
  llvm::ArrayRef<Dyn> entries;
  std::map<int64_t, uint64_t> tags;
  uint64_t stringTableOffset = 0;
  uint64_t stringTableSize = 0;
  uint64_t numSymbols = 0;
  /// Where each relative relocation points (its slot and the address it
  /// stores there, relative to the load address), and the slots of every
  /// other relocation: what ld.so will have written into init and fini
  /// arrays.
  std::map<uint64_t, uint64_t> relativeTargets;
  std::set<uint64_t> otherRelocatedSlots;
};
} // namespace

llvm::Expected<uint64_t>
SharedObjectChecker::mapRange(uint64_t address, uint64_t size,
                              const Twine &what) const {
  for (const Phdr *load : loads) {
    uint64_t start = load->p_vaddr, end = start + load->p_filesz;
    if (address < start || address >= end)
      continue;
    if (size > end - address)
      return makeError("malformed " + what + ": it runs from address " +
                       hex(address) + " past the end of the file data of " +
                       "its segment (" + hex(end) + ")");
    return load->p_offset + (address - start);
  }
  return makeError("malformed " + what + ": address " + hex(address) +
                   " is not inside a loaded part of the file");
}

bool SharedObjectChecker::inLoadedMemory(uint64_t address,
                                         uint64_t size) const {
  return llvm::any_of(loads, [&](const Phdr *load) {
    uint64_t start = load->p_vaddr, end = start + load->p_memsz;
    return address >= start && address < end && size <= end - address;
  });
}

bool SharedObjectChecker::inExecutableMemory(uint64_t address) const {
  return llvm::any_of(loads, [&](const Phdr *load) {
    return (load->p_flags & ELF::PF_X) && address >= load->p_vaddr &&
           address - load->p_vaddr < load->p_memsz;
  });
}

bool SharedObjectChecker::inWritableMemory(uint64_t address,
                                           uint64_t size) const {
  bool textRelocations = getTag(ELF::DT_TEXTREL) ||
                         (getTag(ELF::DT_FLAGS).value_or(0) & ELF::DF_TEXTREL);
  return llvm::any_of(loads, [&](const Phdr *load) {
    uint64_t start = load->p_vaddr, end = start + load->p_memsz;
    return (textRelocations || (load->p_flags & ELF::PF_W)) &&
           address >= start && address < end && size <= end - address;
  });
}

std::optional<uint64_t> SharedObjectChecker::readWord(uint64_t address) const {
  auto offset = mapRange(address, sizeof(Addr), "word");
  if (!offset) {
    llvm::consumeError(offset.takeError());
    return std::nullopt;
  }
  return uint64_t(at<HostELFT::Addr>(*offset));
}

/// The addend a relocation carries itself (RELA), or none (REL: the slot
/// holds it).
static std::optional<uint64_t> getExplicitAddend(const Rela &rel) {
  return uint64_t(rel.r_addend);
}
static std::optional<uint64_t> getExplicitAddend(const Rel &) {
  return std::nullopt;
}

Error SharedObjectChecker::checkSegments() {
  const auto &header = elf.getHeader();
  auto phdrs = elf.program_headers();
  if (!phdrs) {
    uint64_t end = header.e_phoff + uint64_t(header.e_phnum) * sizeof(Phdr);
    if (header.e_phentsize == sizeof(Phdr) && header.e_phoff < end &&
        end > bytes.size())
      return makeError("truncated: the program header table ends at byte " +
                       Twine(end) + ", file has " + Twine(bytes.size()) +
                       " bytes");
    return makeError("malformed program header table: " +
                     llvm::toString(phdrs.takeError()));
  }
  uint64_t pageSize = llvm::sys::Process::getPageSizeEstimate();
  uint64_t lastLoadEnd = 0;
  for (auto [index, phdr] : llvm::enumerate(*phdrs)) {
    if (phdr.p_type == ELF::PT_NULL)
      continue;
    std::string name = segmentName(index, phdr.p_type);
    uint64_t fileEnd = uint64_t(phdr.p_offset) + phdr.p_filesz;
    if (fileEnd < phdr.p_offset)
      return makeError("malformed " + name + ": offset " + hex(phdr.p_offset) +
                       " + size " + hex(phdr.p_filesz) + " overflows");
    if (fileEnd > bytes.size())
      return makeError("truncated: " + name + " ends at byte " +
                       Twine(fileEnd) + ", file has " + Twine(bytes.size()) +
                       " bytes");
    if (uint64_t(phdr.p_vaddr) + phdr.p_memsz < phdr.p_vaddr)
      return makeError("malformed " + name + ": address " + hex(phdr.p_vaddr) +
                       " + memory size " + hex(phdr.p_memsz) + " overflows");
    if (phdr.p_type == ELF::PT_DYNAMIC) {
      if (dynamic)
        return makeError("malformed program header table: more than one "
                         "PT_DYNAMIC segment");
      dynamic = &phdr;
    }
    if (phdr.p_type != ELF::PT_LOAD)
      continue;
    // What ld.so's mapping of a PT_LOAD segment needs (dl-map-segments).
    if (phdr.p_filesz > phdr.p_memsz)
      return makeError("malformed " + name + ": file size " +
                       hex(phdr.p_filesz) + " is larger than memory size " +
                       hex(phdr.p_memsz));
    if (phdr.p_align > 1 &&
        (!llvm::isPowerOf2_64(phdr.p_align) || phdr.p_align % pageSize))
      return makeError("malformed " + name + ": alignment " +
                       hex(phdr.p_align) +
                       " is not a multiple of the page size " + hex(pageSize));
    if (phdr.p_align > 1 &&
        (uint64_t(phdr.p_vaddr) - phdr.p_offset) % phdr.p_align)
      return makeError("malformed " + name + ": address " + hex(phdr.p_vaddr) +
                       " and offset " + hex(phdr.p_offset) +
                       " differ modulo the alignment " + hex(phdr.p_align));
    // ld.so maps the segments in order, each over the address range the
    // first mapping reserved; one that reaches into the next would map over
    // it (or over whatever lies beyond the library).
    if (!loads.empty() && phdr.p_vaddr < lastLoadEnd)
      return makeError("malformed " + name + ": its address " +
                       hex(phdr.p_vaddr) +
                       " is below the end of the previous PT_LOAD segment (" +
                       hex(lastLoadEnd) + ")");
    lastLoadEnd = uint64_t(phdr.p_vaddr) + phdr.p_memsz;
    loads.push_back(&phdr);
  }
  // ld.so makes PT_GNU_RELRO read-only after relocating: it must cover
  // memory of the library.
  for (auto [index, phdr] : llvm::enumerate(*phdrs))
    if (phdr.p_type == ELF::PT_GNU_RELRO &&
        !inLoadedMemory(phdr.p_vaddr, phdr.p_memsz))
      return makeError("malformed " + segmentName(index, phdr.p_type) + ": " +
                       hex(phdr.p_memsz) + " bytes at " + hex(phdr.p_vaddr) +
                       " are not inside one PT_LOAD "
                       "segment");
  if (loads.empty())
    return makeError("malformed program header table: no PT_LOAD segment");
  if (!dynamic)
    return makeError("not a shared library (no dynamic section, PT_DYNAMIC)");
  return Error::success();
}

Error SharedObjectChecker::readDynamicEntries() {
  // ld.so reads the dynamic section at its address, not its file offset:
  // both must name the same bytes.
  auto offset = mapRange(dynamic->p_vaddr, dynamic->p_filesz,
                         "dynamic section (PT_DYNAMIC)");
  if (!offset)
    return offset.takeError();
  if (*offset != dynamic->p_offset)
    return makeError("malformed dynamic section: its offset " +
                     hex(dynamic->p_offset) + " and address " +
                     hex(dynamic->p_vaddr) + " name different bytes");
  if (dynamic->p_filesz % sizeof(Dyn))
    return makeError("malformed dynamic section: size " +
                     Twine(dynamic->p_filesz) + " is not a multiple of " +
                     Twine(sizeof(Dyn)) + " bytes");
  llvm::ArrayRef<Dyn> all(reinterpret_cast<const Dyn *>(bytes.data() + *offset),
                          dynamic->p_filesz / sizeof(Dyn));
  const Dyn *end = llvm::find_if(
      all, [](const Dyn &entry) { return entry.d_tag == ELF::DT_NULL; });
  if (end == all.end())
    return makeError("malformed dynamic section: no DT_NULL entry ends it "
                     "within its " +
                     Twine(dynamic->p_filesz) + " bytes");
  entries = all.take_front(end - all.begin());
  for (const Dyn &entry : entries) {
    // Every defined tag, OS- and processor-specific ones included, is below
    // 2^31. ld.so files others under indices computed in 32 bits, so a
    // damaged tag can land on a real one and be followed.
    if (entry.d_tag < 0 || entry.d_tag > 0x7fffffff)
      return makeError("malformed dynamic section: entry " +
                       Twine(&entry - all.begin()) + " has the invalid tag " +
                       hex(entry.d_tag));
    // A repeated tag: ld.so keeps the last one, so do the checks.
    tags[entry.d_tag] = entry.d_un.d_val;
  }
  return Error::success();
}

Error SharedObjectChecker::checkNotAnExecutable() {
  // A PIE is ET_DYN too, and glibc refuses to dlopen one. (PT_INTERP alone
  // does not tell: libc.so.6 has one and is a library.)
  std::optional<uint64_t> flags1 = getTag(ELF::DT_FLAGS_1);
  if (flags1 && (*flags1 & ELF::DF_1_PIE))
    return makeError("not a shared library (a position-independent "
                     "executable)");
  return Error::success();
}

Error SharedObjectChecker::checkStringTable() {
  std::optional<uint64_t> address = getTag(ELF::DT_STRTAB);
  std::optional<uint64_t> size = getTag(ELF::DT_STRSZ);
  if (!address || !size)
    return makeError("malformed dynamic section: no string table (DT_STRTAB "
                     "and DT_STRSZ)");
  auto offset = mapRange(*address, *size, "string table (DT_STRTAB)");
  if (!offset)
    return offset.takeError();
  if (*size == 0 || bytes[*offset + *size - 1] != '\0')
    return makeError("malformed string table (DT_STRTAB): it does not end "
                     "with a NUL byte");
  stringTableOffset = *offset;
  stringTableSize = *size;
  for (const Dyn &entry : entries) {
    switch (entry.d_tag) {
    case ELF::DT_NEEDED:
    case ELF::DT_SONAME:
    case ELF::DT_RPATH:
    case ELF::DT_RUNPATH:
    case ELF::DT_AUXILIARY:
    case ELF::DT_FILTER:
      if (Error error =
              checkStringOffset(entry.d_un.d_val, "dynamic section entry " +
                                                      tagName(entry.d_tag)))
        return error;
      break;
    default:
      break;
    }
  }
  return Error::success();
}

Error SharedObjectChecker::checkHashTables() {
  std::optional<uint64_t> sysv = getTag(ELF::DT_HASH);
  std::optional<uint64_t> gnu = getTag(ELF::DT_GNU_HASH);
  if (!sysv && !gnu)
    return makeError("malformed dynamic section: no symbol hash table "
                     "(DT_HASH or DT_GNU_HASH)");
  if (sysv)
    if (Error error = checkSysvHash(*sysv))
      return error;
  if (gnu)
    if (Error error = checkGnuHash(*gnu))
      return error;
  return Error::success();
}

Error SharedObjectChecker::checkSysvHash(uint64_t address) {
  const char *what = "hash table (DT_HASH)";
  auto offset = mapRange(address, 2 * sizeof(Word), what);
  if (!offset)
    return offset.takeError();
  uint64_t numBuckets = at<Word>(*offset);
  uint64_t numChains = at<Word>(*offset + sizeof(Word));
  // ld.so takes a hash modulo the bucket count.
  if (numBuckets == 0)
    return makeError(Twine("malformed ") + what + ": no buckets");
  auto table =
      mapRange(address, (2 + numBuckets + numChains) * sizeof(Word), what);
  if (!table)
    return table.takeError();
  // Buckets and chains are symbol indices; ld.so follows them unchecked.
  for (uint64_t i = 0; i < numBuckets + numChains; ++i) {
    uint64_t index = at<Word>(*offset + (2 + i) * sizeof(Word));
    if (index >= numChains)
      return makeError(Twine("malformed ") + what + ": symbol index " +
                       Twine(index) + " is out of range (" + Twine(numChains) +
                       " symbols)");
  }
  numSymbols = std::max(numSymbols, numChains);
  return Error::success();
}

Error SharedObjectChecker::checkGnuHash(uint64_t address) {
  // Not LLVM's getDynSymtabSizeFromGnuHash: it trusts the bucket values
  // (asserting they are at least symndx) and reads chains to the end of the
  // buffer. Here every read is bounded first.
  const char *what = "GNU hash table (DT_GNU_HASH)";
  auto offset = mapRange(address, 4 * sizeof(Word), what);
  if (!offset)
    return offset.takeError();
  uint64_t numBuckets = at<Word>(*offset);
  uint64_t firstHashed = at<Word>(*offset + sizeof(Word));
  uint64_t maskWords = at<Word>(*offset + 2 * sizeof(Word));
  // ld.so asserts the Bloom filter size is a power of two and takes hashes
  // modulo the bucket count.
  if (!llvm::isPowerOf2_64(maskWords))
    return makeError(Twine("malformed ") + what + ": Bloom filter size " +
                     Twine(maskWords) + " is not a power of two");
  if (numBuckets == 0)
    return makeError(Twine("malformed ") + what + ": no buckets");
  uint64_t bucketsStart = 4 * sizeof(Word) + maskWords * sizeof(Addr);
  uint64_t chainsStart = bucketsStart + numBuckets * sizeof(Word);
  auto checked = mapRange(address, chainsStart, what);
  if (!checked)
    return checked.takeError();
  uint64_t lastHashed = 0;
  for (uint64_t i = 0; i < numBuckets; ++i) {
    uint64_t index = at<Word>(*offset + bucketsStart + i * sizeof(Word));
    if (index != 0 && index < firstHashed)
      return makeError(Twine("malformed ") + what + ": bucket " + Twine(i) +
                       " starts at symbol " + Twine(index) +
                       ", before the first hashed symbol " +
                       Twine(firstHashed));
    lastHashed = std::max(lastHashed, index);
  }
  uint64_t count = firstHashed;
  if (lastHashed != 0) {
    // Follow the last chain to its end marker (the low bit set).
    for (uint64_t index = lastHashed;; ++index) {
      uint64_t chainOffset = chainsStart + (index - firstHashed) * sizeof(Word);
      auto entry = mapRange(address, chainOffset + sizeof(Word), what);
      if (!entry)
        return makeError(Twine("malformed ") + what +
                         ": the last hash chain has no end");
      if (at<Word>(*offset + chainOffset) & 1) {
        count = index + 1;
        break;
      }
    }
  }
  numSymbols = std::max(numSymbols, count);
  return Error::success();
}

Error SharedObjectChecker::checkSymbolTable() {
  std::optional<uint64_t> address = getTag(ELF::DT_SYMTAB);
  if (!address)
    return makeError("malformed dynamic section: no symbol table "
                     "(DT_SYMTAB)");
  if (std::optional<uint64_t> entrySize = getTag(ELF::DT_SYMENT))
    if (*entrySize != sizeof(Sym))
      return makeError("malformed dynamic section: symbol size (DT_SYMENT) "
                       "is " +
                       Twine(*entrySize) + ", expected " + Twine(sizeof(Sym)));
  auto offset = mapRange(*address, numSymbols * sizeof(Sym),
                         "symbol table (DT_SYMTAB, " + Twine(numSymbols) +
                             " symbols by its hash table)");
  if (!offset)
    return offset.takeError();
  for (uint64_t i = 0; i < numSymbols; ++i) {
    const Sym &symbol = at<Sym>(*offset + i * sizeof(Sym));
    if (Error error = checkStringOffset(
            symbol.st_name, "symbol table (symbol " + Twine(i) + ")"))
      return error;
    // What ld.so binds a defined function or object symbol to must exist:
    // a call through it, or a copy from it, would fault.
    if (symbol.st_shndx == ELF::SHN_UNDEF ||
        symbol.st_shndx >= ELF::SHN_LORESERVE)
      continue;
    uint8_t type = symbol.getType();
    bool function = type == ELF::STT_FUNC || type == ELF::STT_GNU_IFUNC;
    if ((function && !inExecutableMemory(symbol.st_value)) ||
        (type == ELF::STT_OBJECT &&
         !inLoadedMemory(symbol.st_value, symbol.st_size)))
      return makeError("malformed symbol table (symbol " + Twine(i) +
                       "): " + (function ? "function" : "object") + " at " +
                       hex(symbol.st_value) + " is outside the " +
                       (function ? "executable" : "loaded") + " segments");
  }
  return Error::success();
}

template <typename RelT>
Error SharedObjectChecker::checkRelocationTable(int64_t addressTag,
                                                int64_t sizeTag,
                                                int64_t entrySizeTag,
                                                int64_t relativeCountTag) {
  std::optional<uint64_t> address = getTag(addressTag);
  std::optional<uint64_t> size = getTag(sizeTag);
  if (!address && !size)
    return Error::success();
  std::string what = "relocation table (" + tagName(addressTag) + ")";
  if (!address || !size)
    return makeError("malformed dynamic section: " + tagName(addressTag) +
                     " and " + tagName(sizeTag) + " must come together");
  // ld.so asserts the entry size (dereferencing the entry: one that is
  // missing crashes it).
  if (entrySizeTag != ELF::DT_NULL) {
    std::optional<uint64_t> entrySize = getTag(entrySizeTag);
    if (entrySize != uint64_t(sizeof(RelT)))
      return makeError(
          "malformed dynamic section: " + tagName(addressTag) + " needs " +
          tagName(entrySizeTag) + " = " + Twine(sizeof(RelT)) + ", " +
          (entrySize ? "found " + Twine(*entrySize) : Twine("found none")));
  }
  if (*size % sizeof(RelT))
    return makeError("malformed " + what + ": size " + Twine(*size) +
                     " is not a multiple of " + Twine(sizeof(RelT)));
  auto offset = mapRange(*address, *size, what);
  if (!offset)
    return offset.takeError();
  uint64_t count = *size / sizeof(RelT);
  // ld.so applies the first DT_RELACOUNT (DT_RELCOUNT) relocations as
  // relative ones without looking, and asserts that they are.
  uint64_t relativeCount = 0;
  if (relativeCountTag != ELF::DT_NULL)
    relativeCount = getTag(relativeCountTag).value_or(0);
  if (relativeCount > count)
    return makeError("malformed dynamic section: " + tagName(relativeCountTag) +
                     " is " + Twine(relativeCount) + ", but " + what +
                     " has only " + Twine(count) + " relocations");
  uint32_t relativeType = elf.getRelativeRelocationType();
  for (uint64_t i = 0; i < count; ++i) {
    const RelT &rel = at<RelT>(*offset + i * sizeof(RelT));
    uint32_t type = rel.getType(/*isMips64EL=*/false);
    if (i < relativeCount && type != relativeType)
      return makeError("malformed " + what + ": relocation " + Twine(i) +
                       " is of type " + Twine(type) + ", but " +
                       tagName(relativeCountTag) + " says the first " +
                       Twine(relativeCount) + " are relative (type " +
                       Twine(relativeType) + ")");
    if (type == relativeType) {
      std::optional<uint64_t> target = getExplicitAddend(rel);
      if (!target)
        target = readWord(rel.r_offset);
      if (target)
        relativeTargets[rel.r_offset] = *target;
    } else {
      otherRelocatedSlots.insert(rel.r_offset);
    }
    uint64_t symbol = rel.getSymbol(/*isMips64EL=*/false);
    if (symbol >= numSymbols)
      return makeError("malformed " + what + ": relocation " + Twine(i) +
                       " refers to symbol " + Twine(symbol) + " of " +
                       Twine(numSymbols));
    if (!inWritableMemory(rel.r_offset, sizeof(Addr)))
      return makeError("malformed " + what + ": relocation " + Twine(i) +
                       " writes to address " + hex(rel.r_offset) +
                       ", outside the writable segments");
  }
  return Error::success();
}

Error SharedObjectChecker::checkRelrTable() {
  std::optional<uint64_t> address = getTag(ELF::DT_RELR);
  std::optional<uint64_t> size = getTag(ELF::DT_RELRSZ);
  if (!address && !size)
    return Error::success();
  const char *what = "relocation table (DT_RELR)";
  if (!address || !size || *size % sizeof(Relr) ||
      getTag(ELF::DT_RELRENT) != uint64_t(sizeof(Relr)))
    return makeError(Twine("malformed ") + what +
                     ": DT_RELR, DT_RELRSZ and DT_RELRENT must come together, "
                     "with an entry size of " +
                     Twine(sizeof(Relr)) +
                     " and a size that is a multiple of "
                     "it");
  auto offset = mapRange(*address, *size, what);
  if (!offset)
    return offset.takeError();
  llvm::ArrayRef<Relr> relrs(
      reinterpret_cast<const Relr *>(bytes.data() + *offset),
      *size / sizeof(Relr));
  for (const auto &rel : elf.decode_relrs(relrs)) {
    if (!inWritableMemory(rel.r_offset, sizeof(Addr)))
      return makeError(Twine("malformed ") + what + ": it writes to address " +
                       hex(rel.r_offset) + ", outside the writable segments");
    if (std::optional<uint64_t> target = readWord(rel.r_offset))
      relativeTargets[rel.r_offset] = *target;
  }
  return Error::success();
}

Error SharedObjectChecker::checkRelocations() {
  if (Error error = checkRelocationTable<Rela>(
          ELF::DT_RELA, ELF::DT_RELASZ, ELF::DT_RELAENT, ELF::DT_RELACOUNT))
    return error;
  if (Error error = checkRelocationTable<Rel>(ELF::DT_REL, ELF::DT_RELSZ,
                                              ELF::DT_RELENT, ELF::DT_RELCOUNT))
    return error;
  // ld.so reads DT_JMPREL whenever DT_PLTREL is there.
  std::optional<uint64_t> kind = getTag(ELF::DT_PLTREL);
  if (kind && *kind != uint64_t(ELF::DT_REL) && *kind != uint64_t(ELF::DT_RELA))
    return makeError("malformed dynamic section: DT_PLTREL must be DT_REL or "
                     "DT_RELA");
  if (kind && !getTag(ELF::DT_JMPREL))
    return makeError("malformed dynamic section: DT_PLTREL without "
                     "DT_JMPREL");
  if (getTag(ELF::DT_JMPREL)) {
    if (kind == uint64_t(ELF::DT_RELA)) {
      if (Error error = checkRelocationTable<Rela>(
              ELF::DT_JMPREL, ELF::DT_PLTRELSZ, ELF::DT_NULL, ELF::DT_NULL))
        return error;
    } else if (kind == uint64_t(ELF::DT_REL)) {
      if (Error error = checkRelocationTable<Rel>(
              ELF::DT_JMPREL, ELF::DT_PLTRELSZ, ELF::DT_NULL, ELF::DT_NULL))
        return error;
    } else {
      return makeError("malformed dynamic section: DT_JMPREL needs a "
                       "DT_PLTREL of DT_REL or DT_RELA");
    }
  }
  return checkRelrTable();
}

Error SharedObjectChecker::checkVersionNeeds(uint64_t &maxIndex) {
  std::optional<uint64_t> address = getTag(ELF::DT_VERNEED);
  if (!address)
    return Error::success();
  using Verneed = HostELFT::Verneed;
  using Vernaux = HostELFT::Vernaux;
  // Walked as ld.so walks it: along vn_next and vna_next until a zero (it
  // ignores DT_VERNEEDNUM and vn_cnt). Offsets only grow, so the walk ends,
  // at the latest when it leaves the file.
  const char *what = "version needs (DT_VERNEED)";
  for (uint64_t node = *address;;) {
    auto offset = mapRange(node, sizeof(Verneed), what);
    if (!offset)
      return offset.takeError();
    const Verneed &need = at<Verneed>(*offset);
    if (Error error = checkStringOffset(need.vn_file, what))
      return error;
    for (uint64_t aux = node + need.vn_aux;;) {
      auto auxOffset = mapRange(aux, sizeof(Vernaux), what);
      if (!auxOffset)
        return auxOffset.takeError();
      const Vernaux &entry = at<Vernaux>(*auxOffset);
      if (Error error = checkStringOffset(entry.vna_name, what))
        return error;
      maxIndex = std::max<uint64_t>(maxIndex, entry.vna_other & 0x7fff);
      if (entry.vna_next == 0)
        break;
      aux += entry.vna_next;
    }
    if (need.vn_next == 0)
      break;
    node += need.vn_next;
  }
  return Error::success();
}

Error SharedObjectChecker::checkVersionDefinitions(uint64_t &maxIndex) {
  std::optional<uint64_t> address = getTag(ELF::DT_VERDEF);
  if (!address)
    return Error::success();
  using Verdef = HostELFT::Verdef;
  using Verdaux = HostELFT::Verdaux;
  // Walked like the version needs above.
  const char *what = "version definitions (DT_VERDEF)";
  for (uint64_t node = *address;;) {
    auto offset = mapRange(node, sizeof(Verdef), what);
    if (!offset)
      return offset.takeError();
    const Verdef &def = at<Verdef>(*offset);
    maxIndex = std::max<uint64_t>(maxIndex, def.vd_ndx & 0x7fff);
    for (uint64_t aux = node + def.vd_aux;;) {
      auto auxOffset = mapRange(aux, sizeof(Verdaux), what);
      if (!auxOffset)
        return auxOffset.takeError();
      const Verdaux &entry = at<Verdaux>(*auxOffset);
      if (Error error = checkStringOffset(entry.vda_name, what))
        return error;
      if (entry.vda_next == 0)
        break;
      aux += entry.vda_next;
    }
    if (def.vd_next == 0)
      break;
    node += def.vd_next;
  }
  return Error::success();
}

Error SharedObjectChecker::checkVersionTables() {
  // Indices 0 and 1 are "local" and "global"; others must be defined or
  // needed, since ld.so indexes its version array with them unchecked.
  uint64_t maxIndex = 1;
  if (Error error = checkVersionNeeds(maxIndex))
    return error;
  if (Error error = checkVersionDefinitions(maxIndex))
    return error;
  std::optional<uint64_t> address = getTag(ELF::DT_VERSYM);
  if (!address)
    return Error::success();
  const char *what = "symbol versions (DT_VERSYM)";
  auto offset = mapRange(*address, numSymbols * sizeof(uint16_t), what);
  if (!offset)
    return offset.takeError();
  using Half = HostELFT::Half;
  for (uint64_t i = 0; i < numSymbols; ++i) {
    uint64_t index = at<Half>(*offset + i * sizeof(Half)) & 0x7fff;
    if (index > maxIndex)
      return makeError(Twine("malformed ") + what + ": symbol " + Twine(i) +
                       " has version index " + Twine(index) +
                       ", but the library defines or needs only " +
                       Twine(maxIndex));
  }
  return Error::success();
}

Error SharedObjectChecker::checkCodeAddresses() {
  // ld.so calls DT_INIT/DT_FINI and every entry of the init and fini arrays
  // while loading and unloading (a bad one crashes inside dlopen, or at
  // exit); an entry holds what its relocation wrote there.
  for (int64_t tag : {ELF::DT_INIT, ELF::DT_FINI})
    if (std::optional<uint64_t> address = getTag(tag))
      if (!inExecutableMemory(*address))
        return makeError("malformed dynamic section: " + tagName(tag) +
                         " address " + hex(*address) +
                         " is not in an executable segment");
  std::pair<int64_t, int64_t> arrays[] = {
      {ELF::DT_INIT_ARRAY, ELF::DT_INIT_ARRAYSZ},
      {ELF::DT_FINI_ARRAY, ELF::DT_FINI_ARRAYSZ},
      {ELF::DT_PREINIT_ARRAY, ELF::DT_PREINIT_ARRAYSZ}};
  for (auto [addressTag, sizeTag] : arrays) {
    std::optional<uint64_t> address = getTag(addressTag);
    std::optional<uint64_t> size = getTag(sizeTag);
    if (!address && !size)
      continue;
    if (!address || !size || *size % sizeof(Addr))
      return makeError("malformed dynamic section: " + tagName(addressTag) +
                       " and " + tagName(sizeTag) +
                       " must come together, with a size that is a "
                       "multiple of " +
                       Twine(sizeof(Addr)));
    if (!inLoadedMemory(*address, *size))
      return makeError("malformed dynamic section: " + tagName(addressTag) +
                       " (" + Twine(*size) + " bytes at " + hex(*address) +
                       ") is outside the loaded segments");
    for (uint64_t i = 0; i < *size / sizeof(Addr); ++i) {
      uint64_t slot = *address + i * sizeof(Addr);
      if (otherRelocatedSlots.count(slot))
        continue; // Bound to a symbol: known only once loaded.
      auto target = relativeTargets.find(slot);
      if (target == relativeTargets.end())
        return makeError("malformed " + tagName(addressTag) + ": entry " +
                         Twine(i) + " at " + hex(slot) +
                         " is not relocated, so it cannot hold a function "
                         "of the loaded library");
      if (!inExecutableMemory(target->second))
        return makeError("malformed " + tagName(addressTag) + ": entry " +
                         Twine(i) + " points to " + hex(target->second) +
                         ", not into an executable segment");
    }
  }
  return Error::success();
}

Error tpx::checkPluginElf(StringRef bytes) {
  if (!bytes.starts_with("\x7f"
                         "ELF"))
    return makeError("not a shared library (no ELF header)");
  if (bytes.size() < sizeof(HostELFT::Ehdr))
    return makeError("truncated: an ELF header needs " +
                     Twine(sizeof(HostELFT::Ehdr)) + " bytes, file has " +
                     Twine(bytes.size()));
  auto [elfClass, elfData] = llvm::object::getElfArchType(bytes);
  if (elfClass != ELF::ELFCLASS32 && elfClass != ELF::ELFCLASS64)
    return makeError("malformed ELF header: invalid class " +
                     Twine(unsigned(elfClass)));
  if (elfData != ELF::ELFDATA2LSB && elfData != ELF::ELFDATA2MSB)
    return makeError("malformed ELF header: invalid byte order " +
                     Twine(unsigned(elfData)));
  if (elfClass != kHostClass)
    return makeError(Twine("built for ") + className(elfClass) +
                     " ELF, this host is " + className(kHostClass));
  if (elfData != kHostData)
    return makeError(Twine("built for a ") + byteOrderName(elfData) +
                     " machine, this host is " + byteOrderName(kHostData));
  switch (llvm::identify_magic(bytes)) {
  case llvm::file_magic::elf_shared_object:
    break;
  case llvm::file_magic::elf_executable:
    return makeError("not a shared library (an executable, ET_EXEC)");
  case llvm::file_magic::elf_relocatable:
    return makeError("not a shared library (a relocatable object file, "
                     "ET_REL: link it with -shared)");
  case llvm::file_magic::elf_core:
    return makeError("not a shared library (a core dump, ET_CORE)");
  default:
    return makeError("not a shared library (ELF file of type " +
                     Twine(readElfType(bytes)) + ", expected ET_DYN)");
  }

  auto elf = HostELFFile::create(bytes);
  if (!elf)
    return makeError("malformed ELF header: " +
                     llvm::toString(elf.takeError()));
  const auto &header = elf->getHeader();
  llvm::Triple host(llvm::sys::getProcessTriple());
  uint16_t hostMachine = ELF::convertTripleArchTypeToEMachine(host.getArch());
  if (header.e_machine != hostMachine) {
    // Named like the host, by LLVM's triple names ("aarch64"), when LLVM
    // knows the machine.
    std::string machine = "machine " + std::to_string(header.e_machine);
    auto object = llvm::object::ELFObjectFile<HostELFT>::create(
        llvm::MemoryBufferRef(bytes, ""), /*InitContent=*/false);
    if (!object)
      llvm::consumeError(object.takeError());
    else if (object->getArch() != llvm::Triple::UnknownArch)
      machine = llvm::Triple::getArchTypeName(object->getArch()).str();
    return makeError("built for " + machine + ", this host is " +
                     llvm::Triple::getArchTypeName(host.getArch()));
  }
  if (header.e_ident[ELF::EI_VERSION] != ELF::EV_CURRENT ||
      header.e_version != ELF::EV_CURRENT)
    return makeError("malformed ELF header: unknown ELF version " +
                     Twine(unsigned(header.e_version)));
  uint8_t osAbi = header.e_ident[ELF::EI_OSABI];
  if (osAbi != ELF::ELFOSABI_NONE && osAbi != ELF::ELFOSABI_GNU) {
    StringRef name = ELF::convertOSABIToName(osAbi);
    return makeError("built for OS ABI " +
                     (name.empty() ? Twine(unsigned(osAbi)) : Twine(name)) +
                     ", this host is Linux (SYSV or GNU)");
  }
  return SharedObjectChecker(*elf, bytes).check();
}
