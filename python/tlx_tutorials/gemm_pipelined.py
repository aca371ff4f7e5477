"""A pipelined GEMM with TLX: C = A @ B.

NUM_STAGES buffers per operand in shared memory. Before the K loop, the
first NUM_STAGES - 1 tiles are copied asynchronously, one commit group per
tile. Iteration k waits until its group has landed (at most NUM_STAGES - 2
groups still in flight), starts the dot on buffer k % NUM_STAGES, retires
the previous dot (async_dot_wait(1)) so that the buffer it read may be
refilled, and starts copying tile k + NUM_STAGES - 1 into that buffer.
"""

import tpx as triton
import tpx.language as tl
import tpx.language.extra.tlx as tlx

from ._host import matmul_problem, strides
from ._tiles import grouped_tile


@triton.jit
def matmul_kernel_pipelined(a_ptr, b_ptr, c_ptr, M, N, K,
                            stride_am, stride_ak, stride_bk, stride_bn,
                            stride_cm, stride_cn,
                            BLOCK_SIZE_M: tl.constexpr,
                            BLOCK_SIZE_N: tl.constexpr,
                            BLOCK_SIZE_K: tl.constexpr,
                            GROUP_SIZE_M: tl.constexpr,
                            NUM_STAGES: tl.constexpr):
    pid = tl.program_id(axis=0)
    pid_m, pid_n = grouped_tile(pid, M, N, BLOCK_SIZE_M, BLOCK_SIZE_N,
                                GROUP_SIZE_M)

    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am +
                      offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk +
                      offs_bn[None, :] * stride_bn)

    buffers_a = tlx.local_alloc((BLOCK_SIZE_M, BLOCK_SIZE_K),
                                tlx.dtype_of(a_ptr), NUM_STAGES)
    buffers_b = tlx.local_alloc((BLOCK_SIZE_K, BLOCK_SIZE_N),
                                tlx.dtype_of(b_ptr), NUM_STAGES)

    # Prologue: tiles 0 .. NUM_STAGES - 2 in flight.
    for i in tl.range(0, NUM_STAGES - 1,
                      loop_unroll_factor=NUM_STAGES - 1):
        a = tlx.local_view(buffers_a, i)
        b = tlx.local_view(buffers_b, i)
        token_a = tlx.async_load(
            a_ptrs, a, mask=offs_k[None, :] < K - i * BLOCK_SIZE_K)
        token_b = tlx.async_load(
            b_ptrs, b, mask=offs_k[:, None] < K - i * BLOCK_SIZE_K)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
        tlx.async_load_commit_group([token_a, token_b])

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_SIZE_K), num_stages=0):
        buf = k % NUM_STAGES
        a_k = buffers_a[buf]
        b_k = buffers_b[buf]
        tlx.async_load_wait_group(NUM_STAGES - 2)
        acc = tlx.async_dot(a_k, b_k, acc)
        # The previous dot read the buffer tile k + NUM_STAGES - 1 goes to.
        i = k + NUM_STAGES - 1
        a_next = tlx.local_view(buffers_a, i % NUM_STAGES)
        b_next = tlx.local_view(buffers_b, i % NUM_STAGES)
        acc = tlx.async_dot_wait(1, acc)
        token_a = tlx.async_load(
            a_ptrs, a_next, mask=offs_k[None, :] < K - i * BLOCK_SIZE_K)
        token_b = tlx.async_load(
            b_ptrs, b_next, mask=offs_k[:, None] < K - i * BLOCK_SIZE_K)
        tlx.async_load_commit_group([token_a, token_b])
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    acc = tlx.async_dot_wait(0, acc)
    c = acc.to(tlx.dtype_of(c_ptr))
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


# Hopper: 128x256x64 tiles, 3 stages, two consumer warp groups.
HOPPER_CONFIG = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64,
                     GROUP_SIZE_M=8, NUM_STAGES=3, num_warps=8)
# The CPU: small tiles keep the interpreter-like path quick.
CPU_CONFIG = dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32,
                  GROUP_SIZE_M=4, NUM_STAGES=3, num_warps=4)
# AMD CDNA4: 128x256 tiles over 8 waves spill (2 waves a SIMD leave 256
# registers); 128x128 over 4 waves have the whole 512.
GFX950_CONFIG = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64,
                     GROUP_SIZE_M=8, NUM_STAGES=3, num_warps=4)


def matmul(a, b, config=None):
    """a (M, K) @ b (K, N) -> c (M, N) in a's dtype."""
    M, N, K, c, config = matmul_problem(a, b, config, HOPPER_CONFIG,
                                        CPU_CONFIG, GFX950_CONFIG)
    grid = (triton.cdiv(M, config["BLOCK_SIZE_M"]) *
            triton.cdiv(N, config["BLOCK_SIZE_N"]),)
    matmul_kernel_pipelined[grid](a, b, c, M, N, K, *strides(a), *strides(b),
                                  *strides(c), **config)
    return c
