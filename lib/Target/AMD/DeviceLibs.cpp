//===- DeviceLibs.cpp - find and link the ROCm device libraries -----------===//
#include "DeviceLibs.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/TargetParser.h"

#include <cstdlib>

using namespace tpx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static const char *getNonEmptyEnv(const char *name) {
  const char *value = std::getenv(name);
  return value && *value ? value : nullptr;
}

std::vector<std::string> amd::getDeviceLibSearchPath() {
  // An explicit directory is the only one tried: falling back to another
  // copy would hide a typo in the variable.
  if (const char *dir = getNonEmptyEnv("TPX_ROCM_DEVICE_LIBS"))
    return {dir};
  std::vector<std::string> dirs;
  if (const char *rocm = getNonEmptyEnv("ROCM_PATH")) {
    llvm::SmallString<256> dir(rocm);
    llvm::sys::path::append(dir, "amdgcn", "bitcode");
    dirs.push_back(std::string(dir));
  }
  dirs.push_back("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode");
  dirs.push_back("/opt/rocm/amdgcn/bitcode");
  return dirs;
}

static bool holdsDeviceLibs(llvm::StringRef dir) {
  for (const char *lib : {"ocml.bc", "ockl.bc"}) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, lib);
    if (!llvm::sys::fs::is_regular_file(path))
      return false;
  }
  return true;
}

llvm::Expected<std::string> amd::findDeviceLibs(const llvm::Twine &reason) {
  std::vector<std::string> dirs = getDeviceLibSearchPath();
  for (const std::string &dir : dirs)
    if (holdsDeviceLibs(dir))
      return dir;
  return makeError(
      reason +
      ", but the ROCm device libraries (ocml.bc, ockl.bc) were not "
      "found: searched '" +
      llvm::join(dirs, "', '") +
      "'; install Debian's rocm-device-libs package or set "
      "TPX_ROCM_DEVICE_LIBS to the directory that holds them");
}

std::vector<amd::ControlConstant>
amd::getControlConstants(llvm::StringRef chip, bool wave64,
                         unsigned abiVersion) {
  // The ISA version is major * 1000 + minor * 100 + stepping, as in the
  // oclc_isa_version_<N>.bc libraries (gfx90a: 9010, gfx950: 9500).
  llvm::AMDGPU::IsaVersion isa = llvm::AMDGPU::getIsaVersion(chip);
  unsigned isaVersion = isa.Major * 1000 + isa.Minor * 100 + isa.Stepping;
  return {{"__oclc_finite_only_opt", 8, 0},
          {"__oclc_unsafe_math_opt", 8, 0},
          {"__oclc_daz_opt", 8, 0},
          {"__oclc_correctly_rounded_sqrt32", 8, 1},
          {"__oclc_wavefrontsize64", 8, wave64 ? 1u : 0u},
          {"__oclc_ISA_version", 32, isaVersion},
          {"__oclc_ABI_version", 32, abiVersion}};
}

/// The first function `module` declares whose name starts with `prefix`.
static llvm::Function *findDeclared(llvm::Module &module,
                                    llvm::StringRef prefix) {
  for (llvm::Function &f : module.functions())
    if (f.isDeclaration() && f.getName().starts_with(prefix))
      return &f;
  return nullptr;
}

static llvm::Error linkLibrary(llvm::Module &module, llvm::StringRef dir,
                               llvm::StringRef name) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError("cannot read the ROCm device library '" + path +
                     "': " + buffer.getError().message());
  auto library =
      llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), module.getContext());
  if (!library)
    return makeError("cannot read the ROCm device library '" + path +
                     "': " + llvm::toString(library.takeError()));
  // The libraries are built for a generic amdgcn triple with the layout of
  // their LLVM release; the code is the same for every chip.
  (*library)->setTargetTriple(module.getTargetTriple());
  (*library)->setDataLayout(module.getDataLayout());
  // Its `llvm.ident` names the clang that built the library, which would
  // end up in the assembly as if it had compiled the kernel.
  if (llvm::NamedMDNode *ident = (*library)->getNamedMetadata("llvm.ident"))
    (*library)->eraseNamedMetadata(ident);
  if (llvm::Linker::linkModules(module, std::move(*library),
                                llvm::Linker::LinkOnlyNeeded))
    return makeError("linking the ROCm device library '" + path + "' failed");
  return llvm::Error::success();
}

/// Gives every `__oclc_*` variable the linked code reads its value. They are
/// defined after linking, so that exactly the ones referenced exist; an
/// unknown one is an error rather than a silent zero.
static llvm::Error defineControlConstants(llvm::Module &module,
                                          llvm::StringRef chip, bool wave64,
                                          unsigned abiVersion) {
  std::vector<amd::ControlConstant> constants =
      amd::getControlConstants(chip, wave64, abiVersion);
  for (llvm::GlobalVariable &global : module.globals()) {
    llvm::StringRef name = global.getName();
    if (!name.starts_with("__oclc_") || !global.isDeclaration())
      continue;
    auto known =
        llvm::find_if(constants, [&](const amd::ControlConstant &constant) {
          return name == constant.name;
        });
    if (known == constants.end())
      return makeError("the ROCm device libraries read the control variable '" +
                       name + "', which tpx does not define");
    auto *type = llvm::dyn_cast<llvm::IntegerType>(global.getValueType());
    if (!type || type->getBitWidth() != known->bits)
      return makeError("the ROCm device libraries declare '" + name +
                       "' with another type than i" + llvm::Twine(known->bits));
    global.setInitializer(llvm::ConstantInt::get(type, known->value));
    global.setConstant(true);
    // Internal: the optimizer folds the loads, and nothing of the control
    // variables remains in the code object.
    global.setLinkage(llvm::GlobalValue::InternalLinkage);
    global.setVisibility(llvm::GlobalValue::DefaultVisibility);
  }
  return llvm::Error::success();
}

llvm::Error amd::linkDeviceLibs(llvm::Module &module, llvm::StringRef chip,
                                bool wave64, unsigned abiVersion) {
  llvm::Function *ocml = findDeclared(module, "__ocml_");
  llvm::Function *ockl = findDeclared(module, "__ockl_");
  if (!ocml && !ockl)
    return llvm::Error::success();
  llvm::Function *first = ocml ? ocml : ockl;
  auto dir = findDeviceLibs("the kernel calls '" + first->getName() + "'");
  if (!dir)
    return dir.takeError();
  if (ocml)
    if (auto error = linkLibrary(module, *dir, "ocml.bc"))
      return error;
  // ocml's functions may call ockl's, so ockl comes second.
  if (findDeclared(module, "__ockl_"))
    if (auto error = linkLibrary(module, *dir, "ockl.bc"))
      return error;
  return defineControlConstants(module, chip, wave64, abiVersion);
}
