//===- DeviceLibs.h - the ROCm device libraries (ocml, ockl) ----*- C++ -*-===//
//
// Math (`__ocml_*`) and kernel-library (`__ockl_*`) functions that the AMD
// lowering calls come from the ROCm device libraries' bitcode. The amdgcn
// emitter links what a kernel uses into its module, and defines the
// `__oclc_*` control constants those functions read itself (instead of
// linking the oclc_* control libraries, which Debian's 5.2 release has for
// no chip newer than gfx940). See docs/amd-target.md, "Device libraries".
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_TARGET_AMD_DEVICELIBS_H
#define TPX_LIB_TARGET_AMD_DEVICELIBS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace tpx::amd {

/// The directories searched for ocml.bc and ockl.bc, in order:
/// `$TPX_ROCM_DEVICE_LIBS` alone when it is set (and not empty); otherwise
/// `$ROCM_PATH/amdgcn/bitcode` (when ROCM_PATH is set), Debian's
/// /usr/lib/x86_64-linux-gnu/amdgcn/bitcode (package rocm-device-libs) and
/// /opt/rocm/amdgcn/bitcode.
std::vector<std::string> getDeviceLibSearchPath();

/// The first directory of the search path that holds ocml.bc and ockl.bc,
/// or an error naming what was searched, the package and the variable.
/// `reason` says why they are needed ("the kernel calls '__ocml_exp_f32'").
llvm::Expected<std::string> findDeviceLibs(const llvm::Twine &reason);

/// The control constants for `chip` ("gfx950"), by name: the IEEE defaults
/// clang gives (no finite-only math, no unsafe math, no denormal flushing,
/// a correctly rounded sqrt), the wave size, the ISA version (9500 for
/// gfx950) and the code-object ABI version (500: code object v5).
struct ControlConstant {
  const char *name;
  unsigned bits;
  unsigned value;
};
std::vector<ControlConstant>
getControlConstants(llvm::StringRef chip, bool wave64, unsigned abiVersion);

/// Links ocml and ockl into `module` when it calls `__ocml_*` / `__ockl_*`
/// functions (only the functions needed, made to match the module's triple
/// and data layout), then defines the `__oclc_*` constants the linked code
/// reads. Nothing happens when the module calls neither.
llvm::Error linkDeviceLibs(llvm::Module &module, llvm::StringRef chip,
                           bool wave64, unsigned abiVersion);

} // namespace tpx::amd

#endif // TPX_LIB_TARGET_AMD_DEVICELIBS_H
