//===- PluginCrashTest.cpp - A crashing plugin does not end the process --===//
//
// Through the C API a front end uses: a compile whose plugin pass
// dereferences null fails with an error naming the plugin and the pass and
// leaves a reproducer, and the process goes on compiling, with the same
// plugin and without it, as often as it likes.
//
//===----------------------------------------------------------------------===//
#include "tpx-c/Tpx.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <string>

namespace {
const char *kKernel = R"(
  tt.func public @k(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>) {
    %v = tt.load %src : !tt.ptr<f32>
    tt.store %dst, %v : !tt.ptr<f32>
    tt.return
  }
  tt.func public @k2(%src: !tt.ptr<f32>) {
    tt.return
  })";

std::string takeString(char *text) {
  std::string copy = text ? text : "";
  tpxStringFree(text);
  return copy;
}

/// Compiles kKernel to ttir with `pipelineText` (or the default pipeline);
/// returns the output or "error: ...".
std::string compile(const char *pipelineText) {
  TpxCompileOptions options = {};
  options.structSize = sizeof(options);
  options.target = "cpu";
  options.stopAfter = "ttir";
  options.pipelineText = pipelineText;
  char *output = nullptr, *error = nullptr;
  size_t size = 0;
  if (tpxCompileString(kKernel, &options, &output, &size, &error) !=
      TPX_SUCCESS)
    return "error: " + takeString(error);
  return takeString(output);
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}
} // namespace

TEST(PluginCrash, CrashingPassIsAnErrorAndCompilesGoOn) {
  char *error = nullptr;
  ASSERT_EQ(tpxLoadPlugin(TPX_TEST_PLUGIN_DIR "/crashing-pass.so", &error),
            TPX_SUCCESS)
      << takeString(error);
  llvm::SmallString<128> reproducers;
  ASSERT_FALSE(
      llvm::sys::fs::createUniqueDirectory("tpx-crash-test", reproducers));
  setenv("TPX_REPRODUCER_DIR", reproducers.c_str(), /*overwrite=*/1);

  const char *crashing = "# tpx pipeline target=cpu\n"
                         "ttir: builtin.module(inline,test-null-deref-func)\n";
  const char *aborting = "# tpx pipeline target=cpu\n"
                         "ttir: builtin.module(canonicalize,test-abort)\n";
  for (int round = 0; round < 3; ++round) {
    std::string crashed = compile(crashing);
    EXPECT_TRUE(contains(crashed, "pass 'test-null-deref-func' of plugin "
                                  "'test-crashing' crashed on tt.func @k: "
                                  "Segmentation fault"))
        << crashed;
    EXPECT_TRUE(contains(crashed, "replay: tpx-opt --load-plugin=")) << crashed;
    std::string aborted = compile(aborting);
    EXPECT_TRUE(contains(aborted, "pass 'test-abort' of plugin "
                                  "'test-crashing' crashed on builtin.module: "
                                  "Aborted"))
        << aborted;
    // The process is fine: a default compile works, and so does a pipeline
    // with a plugin pass that does not crash (none here, so a tpx one).
    std::string fine = compile(nullptr);
    EXPECT_TRUE(contains(fine, "tt.func public @k(")) << fine;
  }

  // One reproducer per failing compile, each replaying its pass.
  std::error_code ec;
  int files = 0;
  for (llvm::sys::fs::directory_iterator it(reproducers, ec), end;
       it != end && !ec; it.increment(ec)) {
    ++files;
    EXPECT_TRUE(llvm::StringRef(it->path()).ends_with(".mlir")) << it->path();
  }
  EXPECT_EQ(files, 6);
  llvm::sys::fs::remove_directories(reproducers);
  unsetenv("TPX_REPRODUCER_DIR");
}

TEST(PluginCrash, CrashingPipelineExtensionIsAnError) {
  char *error = nullptr;
  ASSERT_EQ(tpxLoadPlugin(TPX_TEST_PLUGIN_DIR "/crashing-pass.so", &error),
            TPX_SUCCESS)
      << takeString(error);
  const char *names[] = {"test-crashing-extension"};
  ASSERT_EQ(tpxPushPipelineSelection(names, 1, &error), TPX_SUCCESS)
      << takeString(error);
  std::string crashed = compile(nullptr);
  EXPECT_TRUE(contains(crashed, "pipeline extension 'test-crashing-extension' "
                                "(from 'test-crashing') failed: it crashed: "
                                "Segmentation fault"))
      << crashed;
  ASSERT_EQ(tpxPopPipelineSelection(&error), TPX_SUCCESS) << takeString(error);
  EXPECT_TRUE(contains(compile(nullptr), "tt.func public @k("));
}
