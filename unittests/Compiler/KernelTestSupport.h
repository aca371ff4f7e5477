//===- KernelTestSupport.h - a kernel and a private cache for tests -*- C++ -*-===//
#ifndef TPX_UNITTESTS_COMPILER_KERNELTESTSUPPORT_H
#define TPX_UNITTESTS_COMPILER_KERNELTESTSUPPORT_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <cstdlib>
#include <string>

namespace tpx::test {

/// z[i] = x[i] + y[i] for i < n, 64 elements per program.
inline const char *kVectorAdd = R"mlir(
module {
  tt.func public @vadd(%x: !tt.ptr<f32> loc("x"), %y: !tt.ptr<f32> loc("y"), %z: !tt.ptr<f32> loc("z"), %n: i32 loc("n")) {
    %c64 = arith.constant 64 : i32
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c64 : i32
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %b = tt.splat %base : i32 -> tensor<64xi32>
    %offs = arith.addi %b, %range : tensor<64xi32>
    %ns = tt.splat %n : i32 -> tensor<64xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<64xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %xv = tt.load %xa, %mask : tensor<64x!tt.ptr<f32>>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %yv = tt.load %ya, %mask : tensor<64x!tt.ptr<f32>>
    %sum = arith.addf %xv, %yv : tensor<64xf32>
    %zp = tt.splat %z : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %za = tt.addptr %zp, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %za, %sum, %mask : tensor<64x!tt.ptr<f32>>
    tt.return
  }
}
)mlir";

/// Points TPX_CACHE_DIR at a fresh directory for the life of the object.
class ScopedCacheDir {
public:
  ScopedCacheDir() {
    llvm::sys::fs::createUniqueDirectory("tpx-test-cache", path);
    setenv("TPX_CACHE_DIR", path.c_str(), 1);
  }
  ~ScopedCacheDir() {
    llvm::sys::fs::remove_directories(path);
    unsetenv("TPX_CACHE_DIR");
  }
  std::string str() const { return std::string(path); }

private:
  llvm::SmallString<128> path;
};

} // namespace tpx::test

#endif // TPX_UNITTESTS_COMPILER_KERNELTESTSUPPORT_H
