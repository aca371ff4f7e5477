//===- AMDCodeObjectTest.cpp - amdgcn emission and hsaco metadata --------===//
#include "DeviceLibs.h"
#include "tpx/Registration/TpxRegistration.h"
#include "tpx/Target/AMD/AMDTarget.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

using namespace tpx;

namespace {

/// A kernel of 256 threads that clobbers 32 AGPRs (a0..a31) and a few
/// VGPRs, so that the metadata has counts to check.
constexpr const char *kKernel = R"mlir(
module {
  llvm.func @k(%x: !llvm.ptr<1>) attributes {rocdl.kernel,
                                              rocdl.flat_work_group_size = "256,256"} {
    %tid = rocdl.workitem.id.x : i32
    %p = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %p : !llvm.ptr<1> -> f32
    llvm.inline_asm has_side_effects "", "~{a31}" : () -> ()
    %w = llvm.fadd %v, %v : f32
    llvm.store %w, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}
)mlir";

class AMDCodeObjectTest : public ::testing::Test {
protected:
  AMDCodeObjectTest() {
    mlir::DialectRegistry registry;
    registerTpxDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// kKernel compiled for gfx950 into a relocatable object.
  std::string compileObject() {
    auto module = mlir::parseSourceString<mlir::ModuleOp>(kKernel, &context);
    EXPECT_TRUE(module);
    if (!module)
      return "";
    auto assembly = amd::emitAMDGCN(*module, "gfx950");
    if (!assembly) {
      ADD_FAILURE() << llvm::toString(assembly.takeError());
      return "";
    }
    auto object = amd::assembleAMDGCN(*assembly, "gfx950");
    if (!object) {
      ADD_FAILURE() << llvm::toString(object.takeError());
      return "";
    }
    return *object;
  }

  mlir::MLIRContext context;
};

TEST_F(AMDCodeObjectTest, ReadsTheKernelsResources) {
  std::string object = compileObject();
  ASSERT_FALSE(object.empty());
  auto resources = amd::readHsacoResources(object);
  ASSERT_TRUE(bool(resources)) << llvm::toString(resources.takeError());
  ASSERT_EQ(resources->size(), 1u);
  const EntryResources &k = resources->at("k");
  // gfx950's unified register file: the arch VGPRs, rounded up to 4, and
  // then the 32 AGPRs.
  ASSERT_TRUE(k.agprs.has_value());
  EXPECT_EQ(*k.agprs, 32u);
  EXPECT_GE(k.registers, 36u);
  EXPECT_EQ(k.registers % 4, 0u);
  ASSERT_TRUE(k.sgprs.has_value());
  EXPECT_GT(*k.sgprs, 0u);
  EXPECT_EQ(k.waveSize, 64u);
  EXPECT_EQ(k.maxBlockThreads, 256u);
  EXPECT_EQ(k.vgprSpills, 0u);
  EXPECT_EQ(k.sgprSpills, 0u);
  EXPECT_EQ(k.scratchBytes, 0u);
  EXPECT_EQ(k.staticSharedBytes, 0u);
  EXPECT_EQ(k.spillStoreBytes, 0u);
}

TEST_F(AMDCodeObjectTest, RejectsWhatIsNoAMDGPUCodeObject) {
  auto notELF = amd::readHsacoResources("not an ELF file");
  ASSERT_FALSE(bool(notELF));
  EXPECT_NE(llvm::toString(notELF.takeError())
                .find("not a 64-bit little-endian ELF file"),
            std::string::npos);
  // The test binary: an ELF, for the host.
  auto self = llvm::MemoryBuffer::getFile("/proc/self/exe", /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  ASSERT_TRUE(bool(self));
  auto host = amd::readHsacoResources((*self)->getBuffer());
  ASSERT_FALSE(bool(host));
  EXPECT_NE(llvm::toString(host.takeError()).find("not an AMDGPU ELF file"),
            std::string::npos);
}

TEST_F(AMDCodeObjectTest, AssemblerErrorsAreErrors) {
  auto object = amd::assembleAMDGCN("  v_no_such_instruction v0\n", "gfx950");
  ASSERT_FALSE(bool(object));
  std::string message = llvm::toString(object.takeError());
  EXPECT_NE(message.find("does not assemble for gfx950"), std::string::npos);
  EXPECT_NE(message.find("invalid instruction"), std::string::npos);
}

TEST_F(AMDCodeObjectTest, UnknownChipsAreErrors) {
  auto module = mlir::parseSourceString<mlir::ModuleOp>(kKernel, &context);
  ASSERT_TRUE(module);
  auto assembly = amd::emitAMDGCN(*module, "gfx9999");
  ASSERT_FALSE(bool(assembly));
  EXPECT_NE(llvm::toString(assembly.takeError())
                .find("'gfx9999' is not an AMD GPU the AMDGPU backend"),
            std::string::npos);
}

TEST(AMDDeviceLibsTest, ControlConstantsAreClangsDefaults) {
  auto find = [](const std::vector<amd::ControlConstant> &constants,
                 llvm::StringRef name) -> unsigned {
    for (const amd::ControlConstant &constant : constants)
      if (name == constant.name)
        return constant.value;
    ADD_FAILURE() << "no " << name.str();
    return ~0u;
  };
  auto gfx950 = amd::getControlConstants("gfx950", /*wave64=*/true, 500);
  EXPECT_EQ(find(gfx950, "__oclc_ISA_version"), 9500u);
  EXPECT_EQ(find(gfx950, "__oclc_ABI_version"), 500u);
  EXPECT_EQ(find(gfx950, "__oclc_wavefrontsize64"), 1u);
  EXPECT_EQ(find(gfx950, "__oclc_finite_only_opt"), 0u);
  EXPECT_EQ(find(gfx950, "__oclc_unsafe_math_opt"), 0u);
  EXPECT_EQ(find(gfx950, "__oclc_daz_opt"), 0u);
  EXPECT_EQ(find(gfx950, "__oclc_correctly_rounded_sqrt32"), 1u);
  // As the oclc_isa_version_<N>.bc libraries number them.
  EXPECT_EQ(
      find(amd::getControlConstants("gfx90a", true, 500), "__oclc_ISA_version"),
      9010u);
  EXPECT_EQ(find(amd::getControlConstants("gfx1030", false, 500),
                 "__oclc_ISA_version"),
            10300u);
  EXPECT_EQ(find(amd::getControlConstants("gfx1030", false, 500),
                 "__oclc_wavefrontsize64"),
            0u);
}

} // namespace
