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
