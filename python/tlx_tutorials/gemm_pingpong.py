"""A warp-specialized, persistent GEMM with ping-pong consumers: C = A @ B.

A producer task (one warp) copies the A and B tiles of every output tile
the program owns, K-step by K-step, with TMA into a ring of NUM_STAGES
buffers. Two consumer replicas (a warp group each) take the program's
tiles in turn: replica r computes its tiles 0, 2, 4, ... (r = 0) or
1, 3, 5, ... (r = 1), so while one runs its K loop on the tensor cores the
other stores its last tile. Two named barriers keep their K loops apart:
replica r waits at barrier 9 + r before its loop and lets the other one go
(arrives at 10 - r) after it (the ping-pong of CUTLASS's and TLX's Hopper
GEMMs).

The ring is shared: the producer fills stages in tile order, and each
consumer knows where its tiles' K-steps sit in that order (tile index x
k_tiles + k), which gives the stage and the phase parity it waits for.
Each stage has a `full` barrier (the producer expects the bytes) and an
`empty` one (the consumer that read it arrives once the dot retired).
Tiles go in grouped order (`grouped_tile`), for the L2 cache.
"""

import tpx as triton
import tpx.language as tl
import tpx.language.extra.tlx as tlx

from ._host import persistent_tma_matmul
from ._tiles import grouped_tile


@triton.jit
def matmul_kernel_pingpong(a_desc, b_desc, c_ptr, M, N, K, stride_cm,
                           stride_cn, BLOCK_SIZE_M: tl.constexpr,
                           BLOCK_SIZE_N: tl.constexpr,
                           BLOCK_SIZE_K: tl.constexpr,
                           NUM_STAGES: tl.constexpr,
                           NUM_PROGRAMS: tl.constexpr,
                           GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_tiles = tl.cdiv(M, BLOCK_SIZE_M) * num_pid_n
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    buffers_a = tlx.local_alloc((BLOCK_SIZE_M, BLOCK_SIZE_K),
                                tlx.dtype_of(a_desc), NUM_STAGES)
    buffers_b = tlx.local_alloc((BLOCK_SIZE_K, BLOCK_SIZE_N),
                                tlx.dtype_of(b_desc), NUM_STAGES)
    full = tlx.alloc_barriers(NUM_STAGES, arrive_count=1)
    empty_bars = tlx.alloc_barriers(NUM_STAGES, arrive_count=1)
    tile_bytes = (BLOCK_SIZE_M * BLOCK_SIZE_K + BLOCK_SIZE_K * BLOCK_SIZE_N) \
        * tlx.size_of(tlx.dtype_of(a_desc))
    with tlx.async_tasks():
        with tlx.async_task("default"):
            # The producer: every K-step of every tile, in tile order.
            step = 0
            for tile in range(pid, num_tiles, NUM_PROGRAMS):
                pid_m, pid_n = grouped_tile(tile, M, N, BLOCK_SIZE_M,
                                            BLOCK_SIZE_N, GROUP_SIZE_M)
                for k in range(0, k_tiles):
                    s = step % NUM_STAGES
                    tlx.barrier_wait(empty_bars[s],
                                     ((step // NUM_STAGES) & 1) ^ 1)
                    tlx.barrier_expect_bytes(full[s], tile_bytes)
                    tlx.async_descriptor_load(
                        a_desc, buffers_a[s],
                        [pid_m * BLOCK_SIZE_M, k * BLOCK_SIZE_K], full[s])
                    tlx.async_descriptor_load(
                        b_desc, buffers_b[s],
                        [k * BLOCK_SIZE_K, pid_n * BLOCK_SIZE_N], full[s])
                    step += 1
        with tlx.async_task(num_warps=4, num_regs=232, replicate=2):
            r = tlx.async_task_replica_id()
            if r == 1:
                # Replica 0 takes the first turn.
                tlx.named_barrier_arrive(9, 256)
            # This replica's tiles are the program's tiles r, r + 2, ...
            for tile in range(pid + r * NUM_PROGRAMS, num_tiles,
                              2 * NUM_PROGRAMS):
                index = (tile - pid) // NUM_PROGRAMS
                step = index * k_tiles
                pid_m, pid_n = grouped_tile(tile, M, N, BLOCK_SIZE_M,
                                            BLOCK_SIZE_N, GROUP_SIZE_M)
                acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
                tlx.named_barrier_wait(9 + r, 256)
                for k in range(0, k_tiles):
                    s = step % NUM_STAGES
                    tlx.barrier_wait(full[s], (step // NUM_STAGES) & 1)
                    acc = tlx.async_dot(buffers_a[s], buffers_b[s], acc)
                    acc = tlx.async_dot_wait(1, acc)
                    if k > 0:
                        tlx.barrier_arrive(
                            empty_bars[(step + NUM_STAGES - 1) % NUM_STAGES])
                    step += 1
                acc = tlx.async_dot_wait(0, acc)
                tlx.barrier_arrive(
                    empty_bars[(step + NUM_STAGES - 1) % NUM_STAGES])
                tlx.named_barrier_arrive(10 - r, 256)
                # The epilogue runs beside the other replica's K loop.
                offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
                offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
                c_ptrs = c_ptr + stride_cm * offs_m[:, None] + \
                    stride_cn * offs_n[None, :]
                mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
                tl.store(c_ptrs, acc.to(tlx.dtype_of(c_ptr)), mask=mask)


HOPPER_CONFIG = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64,
                     NUM_STAGES=4, NUM_PROGRAMS=132, GROUP_SIZE_M=8,
                     num_warps=4)
CPU_CONFIG = dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32,
                  NUM_STAGES=2, NUM_PROGRAMS=4, GROUP_SIZE_M=2,
                  num_warps=4)
# AMD CDNA4: two stages fit its 160 KiB of LDS; 256 compute units.
GFX950_CONFIG = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64,
                     NUM_STAGES=2, NUM_PROGRAMS=256, GROUP_SIZE_M=8,
                     num_warps=4)


def matmul(a, b, config=None):
    """a (M, K) @ b (K, N) -> c (M, N) in a's dtype (both row-major)."""
    return persistent_tma_matmul(matmul_kernel_pingpong, a, b, config,
                                 HOPPER_CONFIG, CPU_CONFIG,
                                 GFX950_CONFIG)
