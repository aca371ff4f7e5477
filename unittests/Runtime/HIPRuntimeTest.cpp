//===- HIPRuntimeTest.cpp - the HIP runtime's lookup and target checks ----===//
//
// Runs without a GPU or HIP: the library lookup is tried with names that do
// not exist, code objects are bare AMDGPU ELF headers.
//
//===----------------------------------------------------------------------===//
#include "tpx/Runtime/HIPRuntime.h"
#include "tpx/Runtime/HIPLauncher.h"
#include "tpx/Runtime/HostBufferStaging.h"

#include "llvm/BinaryFormat/ELF.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>

using namespace tpx;
using namespace tpx::hip;

namespace {

/// Sets an environment variable for one test and restores it after.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name(name) {
    if (const char *old = std::getenv(name))
      saved = old;
    hadValue = std::getenv(name) != nullptr;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (hadValue)
      setenv(name, saved.c_str(), 1);
    else
      unsetenv(name);
  }

private:
  const char *name;
  std::string saved;
  bool hadValue = false;
};

std::string errorText(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : "";
}

TEST(HIPRuntime, LibraryCandidatesInOrder) {
  ScopedEnv env("TPX_HIP_LIBRARY", nullptr);
  std::vector<std::string> expected = {"libamdhip64.so", "libamdhip64.so.6",
                                       "libamdhip64.so.5"};
  EXPECT_EQ(getLibraryCandidates(), expected);
}

TEST(HIPRuntime, EnvironmentNamesTheOnlyCandidate) {
  ScopedEnv env("TPX_HIP_LIBRARY", "/opt/rocm/lib/libamdhip64.so.6");
  std::vector<std::string> expected = {"/opt/rocm/lib/libamdhip64.so.6"};
  EXPECT_EQ(getLibraryCandidates(), expected);
  ScopedEnv empty("TPX_HIP_LIBRARY", "");
  EXPECT_EQ(getLibraryCandidates().size(), 3u);
}

TEST(HIPRuntime, NotFoundListsEveryCandidate) {
  auto library = openLibrary({"libtpx-no-hip-a.so", "libtpx-no-hip-b.so.6"},
                             /*fromEnvironment=*/false);
  ASSERT_FALSE(library);
  std::string message = llvm::toString(library.takeError());
  EXPECT_EQ(message.rfind("no AMD GPU runtime: libtpx-no-hip-a.so not found "
                          "(set TPX_HIP_LIBRARY to its path; tried ",
                          0),
            0u)
      << message;
  size_t first = message.find("tried libtpx-no-hip-a.so: ");
  size_t second = message.find("; libtpx-no-hip-b.so.6: ");
  EXPECT_NE(first, std::string::npos) << message;
  EXPECT_NE(second, std::string::npos) << message;
  EXPECT_LT(first, second) << message;
}

TEST(HIPRuntime, NotFoundNamesTheEnvironmentPath) {
  auto library =
      openLibrary({"/nonexistent/libamdhip64.so"}, /*fromEnvironment=*/true);
  ASSERT_FALSE(library);
  std::string message = llvm::toString(library.takeError());
  EXPECT_EQ(message.rfind("no AMD GPU runtime: /nonexistent/libamdhip64.so "
                          "not found (named by TPX_HIP_LIBRARY: ",
                          0),
            0u)
      << message;
}

TEST(HIPRuntime, OpensAnExistingLibrary) {
  // Any shared library shows that the first one that opens is taken.
  auto library = openLibrary({"libtpx-no-hip.so", "libc.so.6"}, false);
  ASSERT_TRUE(static_cast<bool>(library))
      << llvm::toString(library.takeError());
  EXPECT_NE(*library, nullptr);
}

TEST(HIPRuntime, GetRuntimeFailsClearlyAndStaysFailed) {
  ScopedEnv env("TPX_HIP_LIBRARY", "/nonexistent/libamdhip64.so");
  auto runtime = getRuntime();
  ASSERT_FALSE(runtime);
  std::string message = llvm::toString(runtime.takeError());
  EXPECT_NE(message.find("no AMD GPU runtime: /nonexistent/libamdhip64.so "
                         "not found"),
            std::string::npos)
      << message;
  auto again = getRuntime();
  ASSERT_FALSE(again);
  EXPECT_EQ(llvm::toString(again.takeError()), message);
}

/// A bare 64-bit little-endian ELF header: enough for the target check.
std::string elfHeader(uint16_t machine, uint32_t flags) {
  llvm::ELF::Elf64_Ehdr header;
  std::memset(&header, 0, sizeof header);
  std::memcpy(header.e_ident, llvm::ELF::ElfMagic, 4);
  header.e_ident[llvm::ELF::EI_CLASS] = llvm::ELF::ELFCLASS64;
  header.e_ident[llvm::ELF::EI_DATA] = llvm::ELF::ELFDATA2LSB;
  header.e_ident[llvm::ELF::EI_VERSION] = llvm::ELF::EV_CURRENT;
  header.e_ident[llvm::ELF::EI_OSABI] = llvm::ELF::ELFOSABI_AMDGPU_HSA;
  header.e_ident[llvm::ELF::EI_ABIVERSION] =
      llvm::ELF::ELFABIVERSION_AMDGPU_HSA_V5;
  header.e_type = llvm::ELF::ET_DYN;
  header.e_machine = machine;
  header.e_version = llvm::ELF::EV_CURRENT;
  header.e_flags = flags;
  header.e_ehsize = sizeof header;
  return std::string(reinterpret_cast<const char *>(&header), sizeof header);
}

TEST(HIPRuntime, ReadsTheCodeObjectTarget) {
  using namespace llvm::ELF;
  auto gfx950 = readCodeObjectTarget(elfHeader(
      EM_AMDGPU, EF_AMDGPU_MACH_AMDGCN_GFX950 | EF_AMDGPU_FEATURE_XNACK_ANY_V4 |
                     EF_AMDGPU_FEATURE_SRAMECC_ANY_V4));
  ASSERT_TRUE(static_cast<bool>(gfx950)) << llvm::toString(gfx950.takeError());
  EXPECT_EQ(gfx950->processor, "gfx950");
  EXPECT_EQ(gfx950->getTargetID(), "gfx950");

  auto gfx90a = readCodeObjectTarget(elfHeader(
      EM_AMDGPU, EF_AMDGPU_MACH_AMDGCN_GFX90A | EF_AMDGPU_FEATURE_XNACK_ON_V4 |
                     EF_AMDGPU_FEATURE_SRAMECC_OFF_V4));
  ASSERT_TRUE(static_cast<bool>(gfx90a)) << llvm::toString(gfx90a.takeError());
  EXPECT_EQ(gfx90a->getTargetID(), "gfx90a:sramecc-:xnack+");

  auto generic = readCodeObjectTarget(
      elfHeader(EM_AMDGPU, EF_AMDGPU_MACH_AMDGCN_GFX9_4_GENERIC));
  ASSERT_TRUE(static_cast<bool>(generic))
      << llvm::toString(generic.takeError());
  EXPECT_EQ(generic->processor, "gfx9-4-generic");
}

TEST(HIPRuntime, RejectsWhatIsNoAMDGPUCodeObject) {
  using namespace llvm::ELF;
  auto text = readCodeObjectTarget("not an elf file at all");
  ASSERT_FALSE(text);
  EXPECT_NE(errorText(text.takeError()).find("not an AMDGPU code object"),
            std::string::npos);
  auto x86 = readCodeObjectTarget(elfHeader(EM_X86_64, 0));
  ASSERT_FALSE(x86);
  EXPECT_NE(errorText(x86.takeError()).find("not an ELF file for EM_AMDGPU"),
            std::string::npos);
  auto reserved = readCodeObjectTarget(
      elfHeader(EM_AMDGPU, EF_AMDGPU_MACH_AMDGCN_RESERVED_0X27));
  ASSERT_FALSE(reserved);
  EXPECT_NE(errorText(reserved.takeError())
                .find("unknown AMD GPU processor (EF_AMDGPU_MACH 0x27)"),
            std::string::npos);
}

CodeObjectTarget
target(std::string processor,
       CodeObjectTarget::Setting xnack = CodeObjectTarget::Setting::Any,
       CodeObjectTarget::Setting sramecc = CodeObjectTarget::Setting::Any) {
  CodeObjectTarget result;
  result.processor = std::move(processor);
  result.xnack = xnack;
  result.sramecc = sramecc;
  return result;
}

TEST(HIPRuntime, CodeObjectMustMatchTheDevice) {
  using Setting = CodeObjectTarget::Setting;
  const char *mi355 = "gfx950:sramecc+:xnack-";
  EXPECT_EQ(errorText(checkCodeObjectTarget(target("gfx950"), mi355, "k")), "");
  EXPECT_EQ(errorText(checkCodeObjectTarget(
                target("gfx950", Setting::Off, Setting::On), mi355, "k")),
            "");
  EXPECT_EQ(errorText(checkCodeObjectTarget(target("gfx950"), "gfx950", "k")),
            "");
  EXPECT_EQ(
      errorText(checkCodeObjectTarget(target("gfx9-4-generic"), mi355, "k")),
      "");

  EXPECT_EQ(errorText(checkCodeObjectTarget(target("gfx942"), mi355, "vadd")),
            "kernel 'vadd' was compiled for gfx942 but the GPU is "
            "gfx950:sramecc+:xnack- (another processor; compile for gfx950)");
  EXPECT_EQ(errorText(checkCodeObjectTarget(target("gfx950", Setting::On),
                                            mi355, "vadd")),
            "kernel 'vadd' was compiled for gfx950:xnack+ but the GPU is "
            "gfx950:sramecc+:xnack- (xnack is off on the device; compile "
            "for gfx950)");
  EXPECT_NE(errorText(checkCodeObjectTarget(
                          target("gfx950", Setting::Any, Setting::Off), mi355,
                          "vadd"))
                .find("sramecc is on on the device"),
            std::string::npos);
}

TEST(HIPLauncher, DynamicLDSIsWhatTheStaticLDSDoesNotCover) {
  Artifact artifact;
  artifact.target = "gfx950";
  artifact.sharedMemory = 4096;
  // An override hsaco: its metadata is unknown, the lowering's array is
  // dynamic.
  EXPECT_EQ(getHIPDynamicSharedBytes(artifact), 4096u);
  artifact.staticSharedMemory = 0;
  EXPECT_EQ(getHIPDynamicSharedBytes(artifact), 4096u);
  artifact.staticSharedMemory = 4096;
  EXPECT_EQ(getHIPDynamicSharedBytes(artifact), 0u);
  artifact.sharedMemory = 0;
  artifact.staticSharedMemory = 0;
  EXPECT_EQ(getHIPDynamicSharedBytes(artifact), 0u);
}

TEST(HIPLauncher, RefusesOtherTargetsBeforeLoadingHIP) {
  Artifact artifact;
  artifact.target = "sm_90a";
  EXPECT_EQ(errorText(launchOnHIP(artifact, {1, 1, 1}, {})),
            "artifact for target 'sm_90a' cannot run on an AMD GPU (compile "
            "for gfx950)");
}

/// Host memory standing in for device memory, with a failure on demand.
struct FakeDevice {
  std::vector<std::unique_ptr<std::string>> allocations;
  size_t freed = 0;
  bool failAllocation = false;

  DeviceMemoryCalls calls() {
    DeviceMemoryCalls calls;
    calls.allocate = [this](uint64_t &address, size_t bytes,
                            const std::string &what) -> llvm::Error {
      if (failAllocation)
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "alloc for " + what);
      allocations.push_back(std::make_unique<std::string>(bytes, '\0'));
      address = reinterpret_cast<uintptr_t>(allocations.back()->data());
      return llvm::Error::success();
    };
    calls.copyToDevice = [](uint64_t address, const void *host, size_t bytes,
                            const std::string &) {
      std::memcpy(reinterpret_cast<void *>(address), host, bytes);
      return llvm::Error::success();
    };
    calls.copyToHost = [](void *host, uint64_t address, size_t bytes,
                          const std::string &) {
      std::memcpy(host, reinterpret_cast<const void *>(address), bytes);
      return llvm::Error::success();
    };
    calls.release = [this](uint64_t) { ++freed; };
    return calls;
  }
};

KernelSignature twoArgs() {
  KernelSignature signature;
  signature.kernelName = "k";
  signature.args = {{KernelArgInfo::Kind::Pointer, "x", "f32", 4},
                    {KernelArgInfo::Kind::Scalar, "n", "i32", 4}};
  return signature;
}

TEST(HostBufferStaging, CopiesBuffersInAndOutAndFreesThem) {
  KernelSignature signature = twoArgs();
  FakeDevice device;
  float data[4] = {1, 2, 3, 4};
  std::vector<LaunchArgument> args = {LaunchArgument::buffer(data, sizeof data),
                                      LaunchArgument::integer(-7)};
  auto encoded = encodeLaunchArguments(signature, args);
  ASSERT_TRUE(static_cast<bool>(encoded))
      << llvm::toString(encoded.takeError());
  {
    StagedArguments staged(device.calls(), signature);
    ASSERT_EQ(errorText(staged.stage(args, *encoded)), "");
    ASSERT_EQ(device.allocations.size(), 1u);
    auto *copy = reinterpret_cast<float *>(staged.getSlots()[0]);
    EXPECT_EQ(copy[2], 3.0f);
    // The scalar's 4 bytes, zero-padded to its 8-byte slot.
    EXPECT_EQ(staged.getSlots()[1], uint64_t(uint32_t(-7)));
    ASSERT_EQ(staged.getParams().size(), 2u);
    EXPECT_EQ(staged.getParams()[1], &staged.getSlots()[1]);
    copy[2] = 30;
    ASSERT_EQ(errorText(staged.copyBack(args)), "");
    EXPECT_EQ(data[2], 30.0f);
  }
  EXPECT_EQ(device.freed, 1u);
}

TEST(HostBufferStaging, AllocationErrorNamesTheArgument) {
  KernelSignature signature = twoArgs();
  FakeDevice device;
  device.failAllocation = true;
  float data[2] = {};
  std::vector<LaunchArgument> args = {LaunchArgument::buffer(data, sizeof data),
                                      LaunchArgument::integer(1)};
  auto encoded = encodeLaunchArguments(signature, args);
  ASSERT_TRUE(static_cast<bool>(encoded));
  StagedArguments staged(device.calls(), signature);
  EXPECT_EQ(errorText(staged.stage(args, *encoded)),
            "alloc for argument 0 'x' (8 bytes)");
}

} // namespace
