// RUN: tpx-opt %s -split-input-file --tpxgpu-convert-to-buffer-ops --verify-diagnostics

// Buffer ops are CDNA instructions: the pass refuses NVIDIA modules (and
// those without tpxgpu.target, which are NVIDIA's).

#b = #tpxgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @below {{tpxgpu-convert-to-buffer-ops: buffer loads and stores are AMD instructions; the module targets 'sm_90a'}}
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32, tpxgpu.target = "sm_90a"} {
  tt.func public @nvidia() {
    tt.return
  }
}

// -----

// expected-error @below {{the module targets 'NVIDIA'}}
module attributes {"tpxgpu.num-warps" = 4 : i32} {
  tt.func public @no_target() {
    tt.return
  }
}
