//===- PluginLoaderTest.cpp - Loader error paths and hashing --------------===//
#include "tpx/Plugin/PluginLoader.h"
#include "tpx/Plugin/PluginRegistry.h"

#include "gtest/gtest.h"

using namespace tpx;

namespace {
std::string openError(const std::string &path) {
  auto opened = openPlugin(path, [](const std::string &) {});
  return opened ? "no error" : llvm::toString(opened.takeError());
}
std::string validate(const TpxPluginInfo &info) {
  return llvm::toString(validatePluginInfo(&info));
}
TpxPluginInfo goodInfo() {
  TpxPluginInfo info = {TPX_PLUGIN_INFO_HEADER("unit", "1")};
  return info;
}
TpxStatus noop(MlirOperation, const TpxOptionValues *, void *, TpxReporter *) {
  return TPX_SUCCESS;
}
} // namespace

TEST(PluginLoader, Sha256) {
  EXPECT_EQ(sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(PluginLoader, FileErrorsNameThePath) {
  EXPECT_EQ(openError("/nonexistent/x.so"),
            "/nonexistent/x.so: no such file or directory");
  std::string text = TPX_TEST_SOURCE_DIR "/not-a-library.so";
  EXPECT_EQ(openError(text), text + ": not a shared library (no ELF header)");
  std::string noEntry = TPX_TEST_PLUGIN_DIR "/no-entry.so";
  EXPECT_EQ(openError(noEntry),
            noEntry +
                ": no entry symbol 'tpxGetPluginInfo' (not a tpx plugin)");
}

TEST(PluginLoader, ValidatesFields) {
  EXPECT_EQ(llvm::toString(validatePluginInfo(nullptr)),
            "tpxGetPluginInfo returned null");
  TpxPluginInfo info = goodInfo();
  EXPECT_EQ(validate(info), "");
  info.apiVersion = 1;
  EXPECT_EQ(
      validate(info),
      "plugin API version 1 is not supported (this tpx supports version 2)");
  info = goodInfo();
  info.structSize = 4;
  EXPECT_NE(validate(info).find("structSize is 4"), std::string::npos);
  info = goodInfo();
  info.tpxVersion = "0.99.0";
  EXPECT_NE(validate(info).find("built against tpx 0.99.0"), std::string::npos);
  info = goodInfo();
  info.name = "has space";
  EXPECT_NE(validate(info).find("plugin name is null or not a name"),
            std::string::npos);
  info = goodInfo();
  info.numExtensions = 1;
  EXPECT_EQ(validate(info), "malformed plugin info: 1 pipeline extension "
                            "declared but the array is null");
  info.numExtensions = 0;
  info.numPasses = 2;
  EXPECT_EQ(validate(info),
            "malformed plugin info: 2 passes declared but the array is null");
}

TEST(PluginLoader, ValidatesPassOptions) {
  TpxPassOption options[2] = {};
  options[0].name = "factor";
  options[0].defaultValue.kind = TPX_KIND_TYPE; // not allowed for passes
  TpxPassInfo pass = {"unit-pass", "",   nullptr, options,
                      1,           noop, nullptr, nullptr};
  TpxPluginInfo info = goodInfo();
  info.passes = &pass;
  info.numPasses = 1;
  EXPECT_EQ(validate(info),
            "option 'factor' of pass 'unit-pass' has invalid kind 4");
  options[0].defaultValue.kind = TPX_KIND_INT;
  options[1] = options[0];
  pass.numOptions = 2;
  EXPECT_EQ(validate(info), "pass 'unit-pass' declares option 'factor' twice");
  pass.numOptions = 1;
  pass.name = "Bad Name";
  EXPECT_EQ(validate(info), "pass #0 has a null or malformed name (expected "
                            "kebab-case)");
}

TEST(PluginLoader, FailedLoadLeavesRegistryUnchanged) {
  size_t before = getLoadedPlugins().size();
  EXPECT_TRUE(
      static_cast<bool>(loadPlugin(TPX_TEST_PLUGIN_DIR "/no-entry.so")));
  EXPECT_EQ(getLoadedPlugins().size(), before);
  // Empty entries of a path list are ignored.
  EXPECT_FALSE(static_cast<bool>(loadPluginPaths("::")));
}
