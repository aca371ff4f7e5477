// tpxgpu.warp_specialize's verifier (TPXGPUWarpSpecialize.cpp) and the
// layout verifier inside its partitions: each case is malformed and the
// diagnostic must name what is wrong (the partition, its warps, the value).
// The op's lowering relies on these: partitions of disjoint warps, a block
// of at most 1024 threads, setmaxnreg only on whole warp groups, and no
// tensor whose registers the partition's threads do not hold.
// RUN: tpx-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Partition count and the attribute arrays
//===----------------------------------------------------------------------===//

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @no_partitions() {
    // expected-error @+1 {{'tpxgpu.warp_specialize' op needs at least one partition}}
    tpxgpu.warp_specialize num_warps = [] warp_starts = [] num_regs = []
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @short_num_warps() {
    // expected-error @+1 {{needs one num_warps, warp_starts and num_regs entry per partition (2)}}
    tpxgpu.warp_specialize num_warps = [4] warp_starts = [0, 4] num_regs = [0, 0] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @long_warp_starts() {
    // expected-error @+1 {{needs one num_warps, warp_starts and num_regs entry per partition (1)}}
    tpxgpu.warp_specialize num_warps = [4] warp_starts = [0, 4] num_regs = [0] {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @short_num_regs() {
    // expected-error @+1 {{needs one num_warps, warp_starts and num_regs entry per partition (3)}}
    tpxgpu.warp_specialize num_warps = [4, 1, 1] warp_starts = [0, 4, 5] num_regs = [0, 0] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// Warps of each partition
//===----------------------------------------------------------------------===//

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @three_warps() {
    // expected-error @+1 {{partition 1: num_warps must be a positive power of two, got 3}}
    tpxgpu.warp_specialize num_warps = [4, 3] warp_starts = [0, 4] num_regs = [0, 0] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @zero_warps() {
    // expected-error @+1 {{partition 0: num_warps must be a positive power of two, got 0}}
    tpxgpu.warp_specialize num_warps = [0] warp_starts = [0] num_regs = [0] {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @negative_warps() {
    // expected-error @+1 {{partition 0: num_warps must be a positive power of two, got -4}}
    tpxgpu.warp_specialize num_warps = [-4] warp_starts = [0] num_regs = [0] {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @negative_start() {
    // expected-error @+1 {{partition 1: warp_starts must be non-negative, got -1}}
    tpxgpu.warp_specialize num_warps = [4, 1] warp_starts = [0, -1] num_regs = [0, 0] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @overlapping() {
    // Warp 3 would run both partitions.
    // expected-error @+1 {{partitions 0 and 1 share warps (warps 0..3 and 3..3)}}
    tpxgpu.warp_specialize num_warps = [4, 1] warp_starts = [0, 3] num_regs = [0, 0] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @overlapping_later() {
    // Partitions 0 and 1 are apart; 2 lies inside 1.
    // expected-error @+1 {{partitions 1 and 2 share warps (warps 4..7 and 6..7)}}
    tpxgpu.warp_specialize num_warps = [4, 4, 2] warp_starts = [0, 4, 6] num_regs = [0, 0, 0] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @same_start() {
    // expected-error @+1 {{partitions 0 and 1 share warps (warps 4..5 and 4..4)}}
    tpxgpu.warp_specialize num_warps = [2, 1] warp_starts = [4, 4] num_regs = [0, 0] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// num_regs (setmaxnreg: 24 to 256 in steps of 8, whole warp groups)
//===----------------------------------------------------------------------===//

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @too_few_regs() {
    // expected-error @+1 {{partition 1: num_regs must be 0 (none) or 24 to 256 in steps of 8, got 16}}
    tpxgpu.warp_specialize num_warps = [4, 4] warp_starts = [0, 4] num_regs = [0, 16] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @too_many_regs() {
    // expected-error @+1 {{partition 0: num_regs must be 0 (none) or 24 to 256 in steps of 8, got 264}}
    tpxgpu.warp_specialize num_warps = [4, 4] warp_starts = [0, 4] num_regs = [264, 0] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @regs_not_multiple_of_8() {
    // expected-error @+1 {{partition 1: num_regs must be 0 (none) or 24 to 256 in steps of 8, got 100}}
    tpxgpu.warp_specialize num_warps = [4, 4] warp_starts = [0, 4] num_regs = [0, 100] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @negative_regs() {
    // expected-error @+1 {{partition 0: num_regs must be 0 (none) or 24 to 256 in steps of 8, got -8}}
    tpxgpu.warp_specialize num_warps = [4] warp_starts = [0] num_regs = [-8] {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @regs_on_two_warps() {
    // Two warps are half a warp group.
    // expected-error @+1 {{partition 1: num_regs needs whole warp groups (setmaxnreg), but it runs on warps 4..5}}
    tpxgpu.warp_specialize num_warps = [4, 2] warp_starts = [0, 4] num_regs = [0, 40] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @regs_on_unaligned_group() {
    // Four warps, but warps 2..5 straddle two warp groups.
    // expected-error @+1 {{partition 1: num_regs needs whole warp groups (setmaxnreg), but it runs on warps 2..5}}
    tpxgpu.warp_specialize num_warps = [2, 4] warp_starts = [0, 2] num_regs = [0, 232] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// The block: at most 1024 threads
//===----------------------------------------------------------------------===//

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @too_many_threads() {
    // Warps 0..32: 33 warps of 32 threads.
    // expected-error @+1 {{partitions need 33 warps (1056 threads); a block has at most 1024 threads}}
    tpxgpu.warp_specialize num_warps = [32, 1] warp_starts = [0, 32] num_regs = [0, 0] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @late_start() {
    // One warp, but the block must reach it: warp 32 is the 33rd.
    // expected-error @+1 {{partitions need 33 warps (1056 threads); a block has at most 1024 threads}}
    tpxgpu.warp_specialize num_warps = [1] warp_starts = [32] num_regs = [0] {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

// 64-thread warps (AMD CDNA): 17 of them are too many, where 17 warps of
// 32 threads would fit.
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 64 : i32} {
  tt.func @wide_warps() {
    // expected-error @+1 {{partitions need 17 warps (1088 threads); a block has at most 1024 threads}}
    tpxgpu.warp_specialize num_warps = [16, 1] warp_starts = [0, 16] num_regs = [0, 0] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// Placement: directly in a function body
//===----------------------------------------------------------------------===//

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @in_if(%c: i1) {
    scf.if %c {
      // expected-error @+1 {{must be directly in a function body (not in a loop, a conditional or another warp_specialize)}}
      tpxgpu.warp_specialize num_warps = [4] warp_starts = [0] num_regs = [0] {
        tpxgpu.warp_yield
      }
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @in_loop(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      // expected-error @+1 {{must be directly in a function body (not in a loop, a conditional or another warp_specialize)}}
      tpxgpu.warp_specialize num_warps = [4] warp_starts = [0] num_regs = [0] {
        tpxgpu.warp_yield
      }
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @nested() {
    tpxgpu.warp_specialize num_warps = [4, 4] warp_starts = [0, 4] num_regs = [0, 0] {
      tpxgpu.warp_yield
    }, {
      // expected-error @+1 {{must be directly in a function body (not in a loop, a conditional or another warp_specialize)}}
      tpxgpu.warp_specialize num_warps = [2, 2] warp_starts = [0, 2] num_regs = [0, 0] {
        tpxgpu.warp_yield
      }, {
        tpxgpu.warp_yield
      }
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// Tensors from above: only where the partition's threads hold them
//===----------------------------------------------------------------------===//

#b4 = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @captured_unaligned(%t: tensor<128xi32, #b4>) {
    // Four warps, as the layout is over, but warps 2..5 hold warps 2, 3,
    // 0, 1 of the module's layout, not warps 0..3 of the partition's.
    // expected-error @+1 {{partition 1 (warps 2..5) uses a tensor from outside ('tensor<128xi32, #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>') whose registers are not its own: compute it in the partition}}
    tpxgpu.warp_specialize num_warps = [2, 4] warp_starts = [0, 2] num_regs = [0, 0] {
      tpxgpu.warp_yield
    }, {
      %u = arith.addi %t, %t : tensor<128xi32, #b4>
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @captured_without_layout(%t: tensor<128xi32>) {
    // expected-error @+1 {{partition 0 (warps 0..3) uses a tensor from outside ('tensor<128xi32>') whose registers are not its own}}
    tpxgpu.warp_specialize num_warps = [4] warp_starts = [0] num_regs = [0] {
      %u = arith.addi %t, %t : tensor<128xi32>
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

// Without tpxgpu.num-warps the layout verifier has nothing to compare
// with; the op's own check still sees the partition's warp count.
#b4 = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module {
  tt.func @captured_wrong_count(%t: tensor<128xi32, #b4>) {
    // expected-error @+1 {{partition 1 (warps 4..5) uses a tensor from outside}}
    tpxgpu.warp_specialize num_warps = [4, 2] warp_starts = [0, 4] num_regs = [0, 0] {
      %u = arith.addi %t, %t : tensor<128xi32, #b4>
      tpxgpu.warp_yield
    }, {
      %v = arith.addi %t, %t : tensor<128xi32, #b4>
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

// With it, a use of a 4-warp tensor in a 2-warp partition is reported by
// the layout verifier first (module attributes are verified before the ops
// inside).
#b4 = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @captured_into_smaller(%t: tensor<128xi32, #b4>) {
    tpxgpu.warp_specialize num_warps = [4, 2] warp_starts = [0, 4] num_regs = [0, 0] {
      tpxgpu.warp_yield
    }, {
      // expected-error @+1 {{'arith.addi' op operand #0 has a layout for 4 warps, but the module has 2}}
      %v = arith.addi %t, %t : tensor<128xi32, #b4>
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// Layouts inside a partition are over its warps, not the module's
//===----------------------------------------------------------------------===//

#b4 = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @module_layout_in_partition() {
    tpxgpu.warp_specialize num_warps = [4, 1] warp_starts = [0, 4] num_regs = [0, 0] {
      %ok = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b4>
      tpxgpu.warp_yield
    }, {
      // expected-error @+1 {{'tt.make_range' op result #0 has a layout for 4 warps, but the module has 1}}
      %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b4>
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

#b2 = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @partition_layout_outside() {
    // After the op, code runs on the module's warps again.
    tpxgpu.warp_specialize num_warps = [2] warp_starts = [0] num_regs = [0] {
      %ok = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b2>
      tpxgpu.warp_yield
    }
    // expected-error @+1 {{'tt.make_range' op result #0 has a layout for 2 warps, but the module has 4}}
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b2>
    tt.return
  }
}

// -----

// A partition's layout holds in what its ops nest (scf.for here).
#b4 = #tpxgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func @nested_in_partition(%n: i32) {
    tpxgpu.warp_specialize num_warps = [8] warp_starts = [0] num_regs = [0] {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      scf.for %i = %c0 to %n step %c1 : i32 {
        // expected-error @+1 {{'tt.make_range' op result #0 has a layout for 4 warps, but the module has 8}}
        %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b4>
      }
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

// Warp counts and starts are checked in 64 bits: no wrap-around lets a
// huge partition through.
tt.func public @huge_start() {
  // expected-error @+1 {{partitions need 2147483648 warps (68719476736 threads); a block has at most 1024 threads}}
  tpxgpu.warp_specialize num_warps = [4, 1] warp_starts = [0, 2147483647] num_regs = [0, 0] {
    tpxgpu.warp_yield
  }, {
    tpxgpu.warp_yield
  }
  tt.return
}

// -----

tt.func public @huge_partition() {
  // expected-error @+1 {{partitions need 134217728 warps (4294967296 threads); a block has at most 1024 threads}}
  tpxgpu.warp_specialize num_warps = [134217728] warp_starts = [0] num_regs = [0] {
    tpxgpu.warp_yield
  }
  tt.return
}

// -----

// Only a kernel's launch gets the partitions' warps.
tt.func private @helper() {
  // expected-error @+1 {{must be in a kernel (a public function): the launch of a kernel calling it would not have its partitions' warps}}
  tpxgpu.warp_specialize num_warps = [4, 4] warp_starts = [0, 4] num_regs = [0, 0] {
    tpxgpu.warp_yield
  }, {
    tpxgpu.warp_yield
  }
  tt.return
}
