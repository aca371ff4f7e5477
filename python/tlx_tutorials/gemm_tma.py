"""A pipelined GEMM with TLX, TMA and mbarriers: C = A @ B.

A, B and C are tensor descriptors. NUM_STAGES buffers per operand, and one
mbarrier per buffer pair: a stage's two TMA copies complete on its barrier,
armed with their bytes by `barrier_expect_bytes`. Before the K loop the
first NUM_STAGES - 1 tiles are requested. Iteration k waits for its stage's
barrier (phase (k // NUM_STAGES) % 2: each stage's barrier completes once
per round), starts the dot, retires the previous one (async_dot_wait(1)),
whose stage then takes tile k + NUM_STAGES - 1. The epilogue stores the
tile through C's descriptor.
"""

import tpx as triton
import tpx.language as tl
import tpx.language.extra.tlx as tlx
from tpx.tools.tensor_descriptor import TensorDescriptor

from ._host import matmul_problem
from ._tiles import grouped_tile


@triton.jit
def matmul_kernel_tma(a_desc, b_desc, c_desc, M, N, K,
                      BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                      BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                      NUM_STAGES: tl.constexpr):
    pid = tl.program_id(axis=0)
    pid_m, pid_n = grouped_tile(pid, M, N, BLOCK_SIZE_M, BLOCK_SIZE_N,
                                GROUP_SIZE_M)
    offs_m = pid_m * BLOCK_SIZE_M
    offs_n = pid_n * BLOCK_SIZE_N

    buffers_a = tlx.local_alloc((BLOCK_SIZE_M, BLOCK_SIZE_K),
                                tlx.dtype_of(a_desc), NUM_STAGES)
    buffers_b = tlx.local_alloc((BLOCK_SIZE_K, BLOCK_SIZE_N),
                                tlx.dtype_of(b_desc), NUM_STAGES)
    full = tlx.alloc_barriers(NUM_STAGES, arrive_count=1)
    STAGE_BYTES: tl.constexpr = (BLOCK_SIZE_M * BLOCK_SIZE_K +
                                 BLOCK_SIZE_K * BLOCK_SIZE_N) * \
        tlx.size_of(tlx.dtype_of(a_desc))
    num_k = tl.cdiv(K, BLOCK_SIZE_K)

    # Prologue: tiles 0 .. NUM_STAGES - 2 requested.
    for i in tl.range(0, NUM_STAGES - 1, loop_unroll_factor=NUM_STAGES - 1):
        bar = full[i]
        tlx.barrier_expect_bytes(bar, STAGE_BYTES)
        tlx.async_descriptor_load(a_desc, buffers_a[i],
                                  [offs_m, i * BLOCK_SIZE_K], bar)
        tlx.async_descriptor_load(b_desc, buffers_b[i],
                                  [i * BLOCK_SIZE_K, offs_n], bar)

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in tl.range(0, num_k, num_stages=0):
        buf = k % NUM_STAGES
        tlx.barrier_wait(full[buf], (k // NUM_STAGES) % 2)
        acc = tlx.async_dot(buffers_a[buf], buffers_b[buf], acc)
        # The previous dot read the stage tile k + NUM_STAGES - 1 goes to.
        acc = tlx.async_dot_wait(1, acc)
        i = k + NUM_STAGES - 1
        s = i % NUM_STAGES
        bar = full[s]
        more = i < num_k
        tlx.barrier_expect_bytes(bar, STAGE_BYTES, pred=more)
        if more:
            tlx.async_descriptor_load(a_desc, buffers_a[s],
                                      [offs_m, i * BLOCK_SIZE_K], bar)
            tlx.async_descriptor_load(b_desc, buffers_b[s],
                                      [i * BLOCK_SIZE_K, offs_n], bar)

    acc = tlx.async_dot_wait(0, acc)
    c_desc.store([offs_m, offs_n], acc.to(tlx.dtype_of(c_desc)))


# Hopper: 128x256x64 tiles, 3 stages, two consumer warp groups.
HOPPER_CONFIG = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64,
                     GROUP_SIZE_M=8, NUM_STAGES=3, num_warps=8)
CPU_CONFIG = dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32,
                  GROUP_SIZE_M=4, NUM_STAGES=3, num_warps=4)
# AMD CDNA4: the Hopper tiles fit its 160 KiB of LDS.
GFX950_CONFIG = dict(HOPPER_CONFIG)


def matmul(a, b, config=None):
    """a (M, K) @ b (K, N) -> c (M, N) in a's dtype (rows of a, b and c
    16-byte aligned, as TMA needs)."""
    M, N, K, c, config = matmul_problem(a, b, config, HOPPER_CONFIG,
                                        CPU_CONFIG, GFX950_CONFIG)
    bm, bn, bk = (config["BLOCK_SIZE_M"], config["BLOCK_SIZE_N"],
                  config["BLOCK_SIZE_K"])
    a_desc = TensorDescriptor.from_tensor(a, [bm, bk])
    b_desc = TensorDescriptor.from_tensor(b, [bk, bn])
    c_desc = TensorDescriptor.from_tensor(c, [bm, bn])
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
    matmul_kernel_tma[grid](a_desc, b_desc, c_desc, M, N, K, **config)
    return c
