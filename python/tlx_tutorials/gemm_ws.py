"""A warp-specialized, persistent GEMM with TLX: C = A @ B.

A producer task (one warp) copies A and B tiles with TMA (tensor
descriptors) into NUM_STAGES buffers; the consumer (the default task)
multiplies them. Two barriers per buffer hand it over:

- `full[s]`: the producer expects the tile's bytes on it before the copies;
  the consumer waits for it before the dot;
- `empty[s]`: the consumer arrives on it once the dot reading it retired
  (one dot stays in flight, so that is after the next dot started); the producer
  waits for it before refilling the buffer (its first round passes: a fresh
  barrier's phase of parity 1 counts as complete).

Both tasks walk the same tiles (persistent over `NUM_PROGRAMS` programs)
and the same global K-step counter, from which each derives the buffer and
the phase parity it waits for. Tiles go in grouped order (`grouped_tile`):
the programs running at once then share GROUP_SIZE_M rows of A and a
few columns of B in the L2 cache, where row-major order would have them
read all of B every round once B outgrows the L2 (8192^3).

With CLUSTER_M = 2 the kernel is launched in thread-block clusters of two
CTAs (ctas_per_cga=(2, 1, 1)) that compute the two tiles of a 2*BLOCK_M x
BLOCK_N block, one above the other. They read the same B block: each
CTA's producer copies half of its columns and multicasts them to both CTAs
(`multicast_targets`), so the L2 delivers B once per cluster. A buffer is
refilled only when the consumers of both CTAs are done with it: each
consumer arrives on the `empty` barrier of every CTA of the cluster
(`remote_cta_rank`), which then expects CLUSTER_M arrivals. `full`
expects the whole tile's bytes, its A and both halves of B, whichever
CTA's copy brings them.
"""

import tpx as triton
import tpx.language as tl
import tpx.language.extra.tlx as tlx

from ._host import persistent_tma_matmul
from ._tiles import grouped_tile


@triton.jit
def matmul_kernel_tma_ws(a_desc, b_desc, c_ptr, M, N, K, stride_cm,
                         stride_cn, BLOCK_SIZE_M: tl.constexpr,
                         BLOCK_SIZE_N: tl.constexpr,
                         BLOCK_SIZE_K: tl.constexpr,
                         NUM_STAGES: tl.constexpr,
                         NUM_PROGRAMS: tl.constexpr,
                         GROUP_SIZE_M: tl.constexpr,
                         CLUSTER_M: tl.constexpr = 1):
    # A cluster computes CLUSTER_M tiles stacked along M ("cluster tiles" of
    # CLUSTER_M * BLOCK_SIZE_M rows); this CTA takes the rank-th of them.
    rank = tlx.cluster_cta_rank()
    cluster = tl.program_id(axis=0) // CLUSTER_M
    NUM_CLUSTERS: tl.constexpr = NUM_PROGRAMS // CLUSTER_M
    CLUSTER_BLOCK_M: tl.constexpr = BLOCK_SIZE_M * CLUSTER_M
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_tiles = tl.cdiv(M, CLUSTER_BLOCK_M) * num_pid_n
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    buffers_a = tlx.local_alloc((BLOCK_SIZE_M, BLOCK_SIZE_K),
                                tlx.dtype_of(a_desc), NUM_STAGES)
    buffers_b = tlx.local_alloc((BLOCK_SIZE_K, BLOCK_SIZE_N),
                                tlx.dtype_of(b_desc), NUM_STAGES)
    full = tlx.alloc_barriers(NUM_STAGES, arrive_count=1)
    empty_bars = tlx.alloc_barriers(NUM_STAGES, arrive_count=CLUSTER_M)
    tile_bytes = (BLOCK_SIZE_M * BLOCK_SIZE_K + BLOCK_SIZE_K * BLOCK_SIZE_N) \
        * tlx.size_of(tlx.dtype_of(a_desc))
    with tlx.async_tasks():
        with tlx.async_task("default"):
            step = 0
            for tile in range(cluster, num_tiles, NUM_CLUSTERS):
                pid_m, pid_n = grouped_tile(tile, M, N, CLUSTER_BLOCK_M,
                                            BLOCK_SIZE_N, GROUP_SIZE_M)
                pid_m = pid_m * CLUSTER_M + rank
                acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
                for k in range(0, k_tiles):
                    s = step % NUM_STAGES
                    tlx.barrier_wait(full[s], (step // NUM_STAGES) & 1)
                    acc = tlx.async_dot(buffers_a[s], buffers_b[s], acc)
                    # One dot stays in flight: once the one before it has
                    # retired, its buffer goes back to the producer.
                    acc = tlx.async_dot_wait(1, acc)
                    if k > 0:
                        release(empty_bars[(step + NUM_STAGES - 1) %
                                           NUM_STAGES], CLUSTER_M)
                    step += 1
                acc = tlx.async_dot_wait(0, acc)
                release(empty_bars[(step + NUM_STAGES - 1) % NUM_STAGES],
                        CLUSTER_M)
                offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
                offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
                c_ptrs = c_ptr + stride_cm * offs_m[:, None] + \
                    stride_cn * offs_n[None, :]
                mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
                tl.store(c_ptrs, acc.to(tlx.dtype_of(c_ptr)), mask=mask)
        with tlx.async_task(num_warps=1, num_regs=40):
            step = 0
            for tile in range(cluster, num_tiles, NUM_CLUSTERS):
                pid_m, pid_n = grouped_tile(tile, M, N, CLUSTER_BLOCK_M,
                                            BLOCK_SIZE_N, GROUP_SIZE_M)
                pid_m = pid_m * CLUSTER_M + rank
                for k in range(0, k_tiles):
                    s = step % NUM_STAGES
                    tlx.barrier_wait(empty_bars[s],
                                     ((step // NUM_STAGES) & 1) ^ 1)
                    tlx.barrier_expect_bytes(full[s], tile_bytes)
                    tlx.async_descriptor_load(
                        a_desc, buffers_a[s],
                        [pid_m * BLOCK_SIZE_M, k * BLOCK_SIZE_K], full[s])
                    if CLUSTER_M == 1:
                        tlx.async_descriptor_load(
                            b_desc, buffers_b[s],
                            [k * BLOCK_SIZE_K, pid_n * BLOCK_SIZE_N], full[s])
                    else:
                        # CTA h copies the h-th half of B's columns to both.
                        for h in tl.static_range(2):
                            tlx.async_descriptor_load(
                                b_desc,
                                tlx.local_slice(buffers_b[s],
                                                [0, h * (BLOCK_SIZE_N // 2)],
                                                [BLOCK_SIZE_K,
                                                 BLOCK_SIZE_N // 2]),
                                [k * BLOCK_SIZE_K, pid_n * BLOCK_SIZE_N +
                                 h * (BLOCK_SIZE_N // 2)],
                                full[s], pred=rank == h,
                                multicast_targets=[0, 1])
                    step += 1


@triton.jit
def release(empty_bar, CLUSTER_M: tl.constexpr):
    """The consumer is done with a buffer: in a cluster, for the producer of
    every CTA (each multicasts into this CTA's copy of the buffer)."""
    if CLUSTER_M == 1:
        tlx.barrier_arrive(empty_bar)
    else:
        for r in tl.static_range(CLUSTER_M):
            tlx.barrier_arrive(empty_bar, remote_cta_rank=r)


HOPPER_CONFIG = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64,
                     NUM_STAGES=3, NUM_PROGRAMS=132, GROUP_SIZE_M=8,
                     num_warps=8)
# Clusters of two CTAs sharing B through TMA multicast (see the module doc).
HOPPER_CLUSTER_CONFIG = dict(HOPPER_CONFIG, CLUSTER_M=2)
CPU_CONFIG = dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32,
                  NUM_STAGES=2, NUM_PROGRAMS=4, GROUP_SIZE_M=2,
                  num_warps=4)
# AMD CDNA4: 160 KiB of LDS and 256 compute units.
GFX950_CONFIG = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64,
                     NUM_STAGES=2, NUM_PROGRAMS=256, GROUP_SIZE_M=8,
                     num_warps=4)


def matmul(a, b, config=None):
    """a (M, K) @ b (K, N) -> c (M, N) in a's dtype (both row-major)."""
    return persistent_tma_matmul(matmul_kernel_tma_ws, a, b, config,
                                 HOPPER_CONFIG, CPU_CONFIG,
                                 GFX950_CONFIG)
