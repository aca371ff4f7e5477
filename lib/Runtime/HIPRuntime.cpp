//===- HIPRuntime.cpp - dlopen'ed HIP runtime -----------------------------===//
#include "tpx/Runtime/HIPRuntime.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

using namespace tpx::hip;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error RuntimeAPI::check(HipError result, llvm::StringRef call) const {
  if (result == kSuccess)
    return llvm::Error::success();
  const char *name = hipGetErrorName ? hipGetErrorName(result) : nullptr;
  const char *text = hipGetErrorString ? hipGetErrorString(result) : nullptr;
  return makeError(llvm::formatv("{0} failed: {1} ({2}) [hipError_t {3}]", call,
                                 name ? name : "unknown HIP error",
                                 text ? text : "no description", result));
}

//===----------------------------------------------------------------------===//
// Finding and binding the library
//===----------------------------------------------------------------------===//

std::vector<std::string> tpx::hip::getLibraryCandidates() {
  const char *path = std::getenv("TPX_HIP_LIBRARY");
  if (path && *path)
    return {path};
  return {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"};
}

llvm::Expected<void *>
tpx::hip::openLibrary(llvm::ArrayRef<std::string> candidates,
                      bool fromEnvironment) {
  if (candidates.empty())
    return makeError("no AMD GPU runtime: no HIP library to try");
  std::string tried;
  for (const std::string &candidate : candidates) {
    if (void *library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL))
      return library;
    const char *error = dlerror();
    // dlerror starts with the name it was given; said once is enough.
    llvm::StringRef why = error ? error : "dlopen failed";
    why.consume_front(candidate + ": ");
    tried += (tried.empty() ? "" : "; ") + candidate + ": " + why.str();
  }
  if (fromEnvironment)
    return makeError("no AMD GPU runtime: " + candidates.front() +
                     " not found (named by TPX_HIP_LIBRARY: " + tried + ")");
  return makeError("no AMD GPU runtime: " + candidates.front() +
                   " not found (set TPX_HIP_LIBRARY to its path; tried " +
                   tried + ")");
}

/// Looks up every entry point; the first missing one is the error.
static llvm::Error bind(void *library, RuntimeAPI &api) {
  llvm::Error error = llvm::Error::success();
  auto find = [&](auto &slot, std::initializer_list<const char *> symbols) {
    for (const char *symbol : symbols)
      if (void *address = dlsym(library, symbol)) {
        slot =
            reinterpret_cast<std::remove_reference_t<decltype(slot)>>(address);
        return true;
      }
    return false;
  };
  auto lookup = [&](auto &slot, const char *symbol) {
    if (!error && !find(slot, {symbol}))
      error = makeError(llvm::Twine("the HIP runtime lacks '") + symbol +
                        "' (runtime too old?)");
  };
  lookup(api.hipGetErrorName, "hipGetErrorName");
  lookup(api.hipGetErrorString, "hipGetErrorString");
  lookup(api.hipInit, "hipInit");
  lookup(api.hipGetDeviceCount, "hipGetDeviceCount");
  lookup(api.hipSetDevice, "hipSetDevice");
  lookup(api.hipModuleLoadData, "hipModuleLoadData");
  lookup(api.hipModuleUnload, "hipModuleUnload");
  lookup(api.hipModuleGetFunction, "hipModuleGetFunction");
  lookup(api.hipModuleLaunchKernel, "hipModuleLaunchKernel");
  lookup(api.hipMalloc, "hipMalloc");
  lookup(api.hipFree, "hipFree");
  lookup(api.hipMemcpyHtoD, "hipMemcpyHtoD");
  lookup(api.hipMemcpyDtoH, "hipMemcpyDtoH");
  lookup(api.hipDeviceSynchronize, "hipDeviceSynchronize");
  // HIP 6 headers map hipGetDeviceProperties to the R0600 entry (the
  // struct grew); HIP 5 has only the plain name. Either holds gcnArchName.
  if (!error &&
      !find(api.hipGetDeviceProperties,
            {"hipGetDevicePropertiesR0600", "hipGetDeviceProperties"}))
    error = makeError("the HIP runtime lacks 'hipGetDeviceProperties'");
  return error;
}

/// gcnArchName out of a hipDeviceProp_t. Its layout differs between HIP
/// versions (and the R0000 / R0600 entries), so rather than declaring one
/// layout, the runtime fills a buffer larger than any of them, and the
/// arch name is the NUL-terminated string in it that starts with "gfx"
/// and a digit (`name`, the first field, is the marketing name: "AMD
/// Instinct MI355X"). Empty when there is none.
static std::string findArchName(llvm::StringRef properties) {
  for (size_t at = properties.find("gfx"); at != llvm::StringRef::npos;
       at = properties.find("gfx", at + 1)) {
    if (at > 0 && properties[at - 1] != '\0')
      continue;
    llvm::StringRef rest = properties.substr(at);
    llvm::StringRef name = rest.take_until([](char c) { return c == '\0'; });
    if (name.size() == rest.size() || name.size() < 4 ||
        !llvm::isDigit(name[3]))
      continue;
    if (llvm::all_of(name, [](char c) {
          return llvm::isAlnum(c) || c == ':' || c == '+' || c == '-';
        }))
      return name.str();
  }
  return "";
}

/// hipInit, a device, device 0 current, and its arch name.
static llvm::Error initialize(RuntimeAPI &api) {
  if (auto error = api.check(api.hipInit(0), "hipInit"))
    return error;
  int count = 0;
  HipError result = api.hipGetDeviceCount(&count);
  if (result == kErrorNoDevice || (result == kSuccess && count == 0))
    return makeError("no AMD GPU: the HIP runtime " + api.libraryPath +
                     " sees no device (check HIP_VISIBLE_DEVICES and that "
                     "the amdgpu driver is loaded)");
  if (auto error = api.check(result, "hipGetDeviceCount"))
    return error;
  if (auto error = setDevice(api))
    return error;
  // 8-byte aligned and zeroed, so that the scan ends in the buffer.
  std::vector<uint64_t> buffer(2048, 0);
  if (auto error =
          api.check(api.hipGetDeviceProperties(buffer.data(), api.device),
                    "hipGetDeviceProperties"))
    return error;
  api.deviceArch = findArchName(llvm::StringRef(
      reinterpret_cast<const char *>(buffer.data()), buffer.size() * 8));
  if (api.deviceArch.empty())
    return makeError("hipGetDeviceProperties gave no gcnArchName for device " +
                     llvm::Twine(api.device) +
                     ": cannot check which code objects it runs");
  return llvm::Error::success();
}

llvm::Expected<const RuntimeAPI *> tpx::hip::getRuntime() {
  static std::once_flag once;
  static RuntimeAPI api;
  static std::string failure;
  std::call_once(once, [] {
    std::vector<std::string> candidates = getLibraryCandidates();
    const char *env = std::getenv("TPX_HIP_LIBRARY");
    auto library = openLibrary(candidates, env && *env);
    if (!library) {
      failure = llvm::toString(library.takeError());
      return;
    }
    Dl_info info;
    void *symbol = dlsym(*library, "hipInit");
    api.libraryPath = symbol && dladdr(symbol, &info) && info.dli_fname
                          ? info.dli_fname
                          : candidates.front();
    if (auto error = bind(*library, api)) {
      failure = "cannot use the HIP runtime " + api.libraryPath + ": " +
                llvm::toString(std::move(error));
      return;
    }
    if (auto error = initialize(api))
      failure = llvm::toString(std::move(error));
  });
  if (!failure.empty())
    return makeError(failure);
  return &api;
}

llvm::Error tpx::hip::setDevice(const RuntimeAPI &api) {
  return api.check(api.hipSetDevice(api.device),
                   "hipSetDevice(" + std::to_string(api.device) + ")");
}

//===----------------------------------------------------------------------===//
// Code-object targets
//===----------------------------------------------------------------------===//

/// The processor of an EF_AMDGPU_MACH value; empty for a reserved or
/// unknown one. LLVM's own lookup (ELFObjectFileBase::tryGetCPUName) treats
/// an unknown value as unreachable, and a damaged hsaco must be an error.
static std::string getProcessorName(unsigned mach) {
  struct Machine {
    unsigned mach;
    const char *spelled;
  };
#define TPX_MACH(NAME)                                                         \
  { llvm::ELF::EF_AMDGPU_MACH_AMDGCN_##NAME, #NAME }
  static constexpr Machine kMachines[] = {
      TPX_MACH(GFX600),          TPX_MACH(GFX601),
      TPX_MACH(GFX602),          TPX_MACH(GFX700),
      TPX_MACH(GFX701),          TPX_MACH(GFX702),
      TPX_MACH(GFX703),          TPX_MACH(GFX704),
      TPX_MACH(GFX705),          TPX_MACH(GFX801),
      TPX_MACH(GFX802),          TPX_MACH(GFX803),
      TPX_MACH(GFX805),          TPX_MACH(GFX810),
      TPX_MACH(GFX900),          TPX_MACH(GFX902),
      TPX_MACH(GFX904),          TPX_MACH(GFX906),
      TPX_MACH(GFX908),          TPX_MACH(GFX909),
      TPX_MACH(GFX90A),          TPX_MACH(GFX90C),
      TPX_MACH(GFX942),          TPX_MACH(GFX950),
      TPX_MACH(GFX1010),         TPX_MACH(GFX1011),
      TPX_MACH(GFX1012),         TPX_MACH(GFX1013),
      TPX_MACH(GFX1030),         TPX_MACH(GFX1031),
      TPX_MACH(GFX1032),         TPX_MACH(GFX1033),
      TPX_MACH(GFX1034),         TPX_MACH(GFX1035),
      TPX_MACH(GFX1036),         TPX_MACH(GFX1100),
      TPX_MACH(GFX1101),         TPX_MACH(GFX1102),
      TPX_MACH(GFX1103),         TPX_MACH(GFX1150),
      TPX_MACH(GFX1151),         TPX_MACH(GFX1152),
      TPX_MACH(GFX1153),         TPX_MACH(GFX1200),
      TPX_MACH(GFX1201),         TPX_MACH(GFX1250),
      TPX_MACH(GFX1251),         TPX_MACH(GFX9_GENERIC),
      TPX_MACH(GFX9_4_GENERIC),  TPX_MACH(GFX10_1_GENERIC),
      TPX_MACH(GFX10_3_GENERIC), TPX_MACH(GFX11_GENERIC),
      TPX_MACH(GFX12_GENERIC)};
#undef TPX_MACH
  const Machine *found = llvm::find_if(
      kMachines, [&](const Machine &m) { return m.mach == mach; });
  if (found == std::end(kMachines))
    return "";
  // GFX90A -> gfx90a, GFX9_4_GENERIC -> gfx9-4-generic (LLVM's names).
  std::string name = llvm::StringRef(found->spelled).lower();
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

using Setting = CodeObjectTarget::Setting;

std::string CodeObjectTarget::getTargetID() const {
  std::string id = processor;
  // LLVM orders the features sramecc, xnack.
  if (sramecc == Setting::On || sramecc == Setting::Off)
    id += sramecc == Setting::On ? ":sramecc+" : ":sramecc-";
  if (xnack == Setting::On || xnack == Setting::Off)
    id += xnack == Setting::On ? ":xnack+" : ":xnack-";
  return id;
}

llvm::Expected<CodeObjectTarget>
tpx::hip::readCodeObjectTarget(llvm::StringRef codeObject) {
  auto object = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(codeObject, "hsaco"));
  if (!object)
    return makeError("the binary is not an AMDGPU code object (" +
                     llvm::toString(object.takeError()) + ")");
  auto *elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(object->get());
  if (!elf || elf->getEMachine() != llvm::ELF::EM_AMDGPU)
    return makeError("the binary is not an AMDGPU code object (not an ELF "
                     "file for EM_AMDGPU)");
  unsigned flags = elf->getPlatformFlags();
  CodeObjectTarget target;
  target.processor = getProcessorName(flags & llvm::ELF::EF_AMDGPU_MACH);
  if (target.processor.empty())
    return makeError(llvm::formatv("the code object names an unknown AMD GPU "
                                   "processor (EF_AMDGPU_MACH {0:x2})",
                                   flags & llvm::ELF::EF_AMDGPU_MACH));
  // The two-bit settings of code object v4 and later (LLVM 22 writes v5;
  // v3, with one bit each, is older than any HIP that loads tpx's code).
  auto setting = [](unsigned bits, unsigned any, unsigned off,
                    unsigned on) -> Setting {
    if (bits == on)
      return Setting::On;
    if (bits == off)
      return Setting::Off;
    if (bits == any)
      return Setting::Any;
    return Setting::Unsupported;
  };
  target.xnack = setting(flags & llvm::ELF::EF_AMDGPU_FEATURE_XNACK_V4,
                         llvm::ELF::EF_AMDGPU_FEATURE_XNACK_ANY_V4,
                         llvm::ELF::EF_AMDGPU_FEATURE_XNACK_OFF_V4,
                         llvm::ELF::EF_AMDGPU_FEATURE_XNACK_ON_V4);
  target.sramecc = setting(flags & llvm::ELF::EF_AMDGPU_FEATURE_SRAMECC_V4,
                           llvm::ELF::EF_AMDGPU_FEATURE_SRAMECC_ANY_V4,
                           llvm::ELF::EF_AMDGPU_FEATURE_SRAMECC_OFF_V4,
                           llvm::ELF::EF_AMDGPU_FEATURE_SRAMECC_ON_V4);
  return target;
}

llvm::Error tpx::hip::checkCodeObjectTarget(const CodeObjectTarget &target,
                                            llvm::StringRef deviceArch,
                                            llvm::StringRef kernel) {
  llvm::SmallVector<llvm::StringRef> parts;
  deviceArch.split(parts, ':');
  llvm::StringRef processor = parts.front();
  auto mismatch = [&](llvm::StringRef why) {
    return makeError("kernel '" + kernel + "' was compiled for " +
                     target.getTargetID() + " but the GPU is " + deviceArch +
                     " (" + why + "; compile for " + processor + ")");
  };
  // A generic code object (gfx9-4-generic) runs on several processors;
  // which ones is the runtime's to decide.
  if (llvm::StringRef(target.processor).ends_with("-generic"))
    return llvm::Error::success();
  if (processor != target.processor)
    return mismatch("another processor");
  // A feature the device states (+ or -) must agree with one the code
  // object was built with on or off; Any runs either way.
  for (llvm::StringRef feature : llvm::drop_begin(parts)) {
    if (feature.size() < 2)
      continue;
    bool on = feature.back() == '+';
    llvm::StringRef featureName = feature.drop_back();
    Setting built = featureName == "xnack"     ? target.xnack
                    : featureName == "sramecc" ? target.sramecc
                                               : Setting::Any;
    if ((built == Setting::On && !on) || (built == Setting::Off && on))
      return mismatch(featureName.str() + " is " + (on ? "on" : "off") +
                      " on the device");
  }
  return llvm::Error::success();
}
