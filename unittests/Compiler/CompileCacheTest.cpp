//===- CompileCacheTest.cpp - the on-disk cache ---------------------------===//
#include "KernelTestSupport.h"

#include "tpx-c/Artifact.h"
#include "tpx/Compiler/CompileCache.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace tpx;
using namespace tpx::test;

namespace {

Artifact makeArtifact(std::string binary) {
  Artifact artifact;
  artifact.target = "cpu";
  artifact.signature.kernelName = "k";
  artifact.signature.args.push_back(
      {KernelArgInfo::Kind::Pointer, "p", "f32", 4});
  artifact.entryPoint = "k.tpx_entry";
  artifact.binary = std::move(binary);
  return artifact;
}

TEST(CompileCache, StoresAndFindsAnEntry) {
  ScopedCacheDir dir;
  CompileCache cache(dir.str());
  ASSERT_FALSE(cache.lookup("abc"));
  ASSERT_FALSE(static_cast<bool>(cache.store("abc", makeArtifact("\x7f" "ELF..."))));
  std::optional<Artifact> found = cache.lookup("abc");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->binary, "\x7f" "ELF...");
  EXPECT_EQ(found->signature.args.at(0).name, "p");
  EXPECT_EQ(found->entryPoint, "k.tpx_entry");
}

TEST(CompileCache, DamagedBinaryIsDetected) {
  ScopedCacheDir dir;
  CompileCache cache(dir.str());
  ASSERT_FALSE(static_cast<bool>(cache.store("key", makeArtifact("original"))));
  llvm::SmallString<128> binary(dir.str());
  llvm::sys::path::append(binary, "key", "binary");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(binary, ec);
    os << "tampered";
  }
  std::string why;
  EXPECT_FALSE(cache.lookup("key", &why));
  EXPECT_NE(why.find("does not match its recorded SHA-256"), std::string::npos)
      << why;
}

/// Overwrites `<dir>/<key>/<file>` with `text`.
void overwrite(const std::string &dir, llvm::StringRef key,
               llvm::StringRef file, llvm::StringRef text) {
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path, key, file);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  os << text;
}

TEST(CompileCache, KeepsTheStageTexts) {
  ScopedCacheDir dir;
  CompileCache cache(dir.str());
  Artifact artifact = makeArtifact("bin");
  artifact.stages = {{"ttir", "module {}\n"}, {"llir", std::string(5000, 'x')}};
  ASSERT_FALSE(static_cast<bool>(cache.store("key", artifact)));
  std::optional<Artifact> found = cache.lookup("key");
  ASSERT_TRUE(found);
  ASSERT_EQ(found->stages.size(), 2u);
  EXPECT_EQ(found->stages[0].stage, "ttir");
  EXPECT_EQ(found->stages[0].text, "module {}\n");
  EXPECT_EQ(found->stages[1].stage, "llir");
  EXPECT_EQ(found->stages[1].text, std::string(5000, 'x'));
  ASSERT_NE(found->findStage("llir"), nullptr);
  EXPECT_EQ(found->findStage("obj"), nullptr);

  // A damaged or missing stage file makes the entry missing.
  overwrite(dir.str(), "key", "stage1", "short");
  std::string why;
  EXPECT_FALSE(cache.lookup("key", &why));
  EXPECT_EQ(why, "damaged entry: the text of stage 'llir' does not match its "
                 "recorded hash");
  ASSERT_FALSE(static_cast<bool>(cache.store("key", artifact)));
  llvm::SmallString<128> stage0(dir.str());
  llvm::sys::path::append(stage0, "key", "stage0");
  llvm::sys::fs::remove(stage0);
  EXPECT_FALSE(cache.lookup("key", &why));
  EXPECT_EQ(why, "damaged entry: stage 'ttir': No such file or directory");
}

TEST(CompileCache, EntriesOfAnotherFormatAreMissing) {
  ScopedCacheDir dir;
  CompileCache cache(dir.str());
  ASSERT_FALSE(static_cast<bool>(cache.store("key", makeArtifact("bin"))));
  // What format 1 wrote: the metadata alone, no format or stage files.
  std::string metadata;
  llvm::raw_string_ostream os(metadata);
  os << makeArtifact("bin").metadataToJSON();
  overwrite(dir.str(), "key", "artifact.json", metadata);
  std::string why;
  EXPECT_FALSE(cache.lookup("key", &why));
  EXPECT_EQ(why, "damaged entry: entry of cache format 1, this tpx uses format " +
                     std::to_string(CompileCache::kFormatVersion));
}

TEST(CompileCache, CorruptEntryIsRebuiltByTheCompiler) {
  ScopedCacheDir dir;
  TpxKernelOptions options = {};
  options.structSize = sizeof(options);
  options.target = "cpu";
  TpxArtifact *first = nullptr;
  char *error = nullptr;
  ASSERT_EQ(tpxCompileKernel(kVectorAdd, &options, &first, &error),
            TPX_SUCCESS);
  // Truncate every cached binary.
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(dir.str(), ec), end;
       it != end && !ec; it.increment(ec))
    if (llvm::sys::path::filename(it->path()) == "binary") {
      llvm::raw_fd_ostream os(it->path(), ec);
      os << "x";
    }
  TpxArtifact *second = nullptr;
  ASSERT_EQ(tpxCompileKernel(kVectorAdd, &options, &second, &error),
            TPX_SUCCESS);
  EXPECT_FALSE(tpxArtifactWasCached(second)) << "a corrupt entry was used";
  TpxArtifact *third = nullptr;
  ASSERT_EQ(tpxCompileKernel(kVectorAdd, &options, &third, &error),
            TPX_SUCCESS);
  EXPECT_TRUE(tpxArtifactWasCached(third)) << "the entry was not rewritten";
  tpxArtifactDestroy(first);
  tpxArtifactDestroy(second);
  tpxArtifactDestroy(third);
}

} // namespace
