// The errors of tpxgpu.warp_specialize's lowering
// (WarpSpecializeLowering.cpp), which the op's verifier cannot see: the
// registers a block is launched with (min(256, 65536 / block threads
// rounded down to a multiple of 8) a thread) bound what setmaxnreg can
// hand out, an increase beyond that would wait forever; and a partition's
// barriers need a hardware barrier id of their own (1..15).
// RUN: tpx-opt %s -split-input-file --convert-tpxgpu-to-nvvm -verify-diagnostics

// 12 warps: 168 registers a thread, 64512 in all, which TLX's split of
// 232 + 232 + 40 a thread (warp groups of 128 threads) fills exactly, as
// 224 + 240 + 40 does in warp-specialize.mlir; 48 for the producer is 1024
// too many.
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func public @over_budget() {
    // expected-error @+1 {{'tpxgpu.warp_specialize' op num_regs ask for more registers than the block has: 12 warps launched with 168 registers a thread (64512); those without num_regs keep theirs (or share what is left, down to 24, where they are whole warp groups)}}
    tpxgpu.warp_specialize num_warps = [4, 4, 4] warp_starts = [0, 4, 8] num_regs = [232, 232, 48] {
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

// The warps outside every partition count too: the partitions take warps
// 0..7 of the module's 16 (512 threads, 128 registers a thread, 65536 in
// all). 8 x 32 x 256 alone would fit, but warps 8..15 keep their
// 8 x 32 x 128 = 32768.
module attributes {"tpxgpu.num-warps" = 16 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func public @idle_warps_count() {
    // expected-error @+1 {{num_regs ask for more registers than the block has: 16 warps launched with 128 registers a thread (65536)}}
    tpxgpu.warp_specialize num_warps = [4, 4] warp_starts = [0, 4] num_regs = [256, 256] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}

// -----

// Within the budget, but what is left for partition 0 (whole warp group,
// no num_regs) is (64512 - 128 x 256 - 128 x 232) / 128 = 16 registers a
// thread, below setmaxnreg's 24.
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func public @share_below_24() {
    // expected-error @+1 {{num_regs ask for more registers than the block has: 12 warps launched with 168 registers a thread (64512)}}
    tpxgpu.warp_specialize num_warps = [4, 4, 4] warp_starts = [0, 4, 8] num_regs = [0, 256, 232] {
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

// Sixteen partitions, fifteen ids: the last one has none left.
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func public @sixteen_partitions() {
    // expected-error @+1 {{'tpxgpu.warp_specialize' op needs a hardware barrier for partition 15, but the kernel's named barriers and the other partitions take all of ids 1..15}}
    tpxgpu.warp_specialize num_warps = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] warp_starts = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] num_regs = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }, {
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

// The kernel's own barriers on constant ids 1..13 leave two: partitions 0
// and 1 get 15 and 14, partition 2 none.
module attributes {"tpxgpu.num-warps" = 4 : i32, "tpxgpu.threads-per-warp" = 32 : i32} {
  tt.func public @kernel_barriers_take_ids() {
    %n = llvm.mlir.constant(128 : i32) : i32
    %id1 = llvm.mlir.constant(1 : i32) : i32
    nvvm.barrier id = %id1 number_of_threads = %n
    %id2 = llvm.mlir.constant(2 : i32) : i32
    nvvm.barrier id = %id2 number_of_threads = %n
    %id3 = llvm.mlir.constant(3 : i32) : i32
    nvvm.barrier id = %id3 number_of_threads = %n
    %id4 = llvm.mlir.constant(4 : i32) : i32
    nvvm.barrier id = %id4 number_of_threads = %n
    %id5 = llvm.mlir.constant(5 : i32) : i32
    nvvm.barrier id = %id5 number_of_threads = %n
    %id6 = llvm.mlir.constant(6 : i32) : i32
    nvvm.barrier id = %id6 number_of_threads = %n
    %id7 = llvm.mlir.constant(7 : i32) : i32
    nvvm.barrier id = %id7 number_of_threads = %n
    %id8 = llvm.mlir.constant(8 : i32) : i32
    nvvm.barrier id = %id8 number_of_threads = %n
    %id9 = llvm.mlir.constant(9 : i32) : i32
    nvvm.barrier id = %id9 number_of_threads = %n
    %id10 = llvm.mlir.constant(10 : i32) : i32
    nvvm.barrier id = %id10 number_of_threads = %n
    %id11 = llvm.mlir.constant(11 : i32) : i32
    nvvm.barrier id = %id11 number_of_threads = %n
    %id12 = llvm.mlir.constant(12 : i32) : i32
    nvvm.barrier id = %id12 number_of_threads = %n
    %id13 = llvm.mlir.constant(13 : i32) : i32
    nvvm.barrier id = %id13 number_of_threads = %n
    // expected-error @+1 {{needs a hardware barrier for partition 2, but the kernel's named barriers and the other partitions take all of ids 1..15}}
    tpxgpu.warp_specialize num_warps = [1, 1, 1] warp_starts = [0, 1, 2] num_regs = [0, 0, 0] {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }, {
      tpxgpu.warp_yield
    }
    tt.return
  }
}
