"""A software-pipelined flash-attention forward with TLX (no warp
specialization): one program per BLOCK_M query rows of one head.

Q is copied once; K and V blocks go through NUM_STAGES buffers filled by
async copies, NUM_STAGES - 1 blocks ahead. S = Q K^T reads K through
`local_trans` (K is stored N x D, D contiguous: wgmma reads it K-major),
the online softmax runs on the accumulator layout, and P (in registers)
times V accumulates into O.
"""

import math

import tpx as triton
import tpx.language as tl
import tpx.language.extra.tlx as tlx

from ._attention import online_softmax_step
from ._host import empty, pick_config


@triton.jit
def attention_fwd_pipelined(Q, K, V, O, sm_scale, N_CTX,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                            D: tl.constexpr, NUM_STAGES: tl.constexpr,
                            CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    head = tl.program_id(1)
    base = head * N_CTX * D
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q_buf = tlx.local_alloc((BLOCK_M, D), tlx.dtype_of(Q), 1)
    k_bufs = tlx.local_alloc((BLOCK_N, D), tlx.dtype_of(K), NUM_STAGES)
    v_bufs = tlx.local_alloc((BLOCK_N, D), tlx.dtype_of(V), NUM_STAGES)
    tlx.async_load(Q + base + offs_m[:, None] * D + offs_d[None, :], q_buf[0])
    tlx.async_load_commit_group()
    if CAUSAL:
        hi = (start_m + 1) * BLOCK_M
    else:
        hi = N_CTX
    num_blocks = tl.cdiv(hi, BLOCK_N)
    kv = base + offs_n[:, None] * D + offs_d[None, :]
    for i in tl.range(0, NUM_STAGES - 1, loop_unroll_factor=NUM_STAGES - 1):
        ok = i < num_blocks
        tlx.async_load(K + kv + i * BLOCK_N * D, k_bufs[i], mask=ok)
        tlx.async_load(V + kv + i * BLOCK_N * D, v_bufs[i], mask=ok)
        tlx.async_load_commit_group()
    m_i = tl.full((BLOCK_M,), -1.0e6, tl.float32)
    l_i = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, D), tl.float32)
    qk_scale = sm_scale * 1.44269504
    for j in tl.range(0, num_blocks, num_stages=0):
        s = j % NUM_STAGES
        tlx.async_load_wait_group(NUM_STAGES - 2)
        qk = tlx.async_dot(q_buf[0], tlx.local_trans(k_bufs[s]))
        qk = tlx.async_dot_wait(0, qk)
        if CAUSAL:
            qk = tl.where(offs_m[:, None] >= (j * BLOCK_N + offs_n)[None, :],
                          qk, -1.0e6)
        p, m_i, l_i, acc = online_softmax_step(qk, qk_scale, m_i,
                                               l_i, acc)
        acc = tlx.async_dot(p.to(tlx.dtype_of(V)), v_bufs[s], acc)
        acc = tlx.async_dot_wait(0, acc)
        # Block j + NUM_STAGES - 1 goes where block j - 1 was.
        nxt = j + NUM_STAGES - 1
        ok = nxt < num_blocks
        tlx.async_load(K + kv + nxt * BLOCK_N * D, k_bufs[nxt % NUM_STAGES],
                       mask=ok)
        tlx.async_load(V + kv + nxt * BLOCK_N * D, v_bufs[nxt % NUM_STAGES],
                       mask=ok)
        tlx.async_load_commit_group()
    tlx.async_load_wait_group(0)
    out = acc / l_i[:, None]
    tl.store(O + base + offs_m[:, None] * D + offs_d[None, :],
             out.to(O.dtype.element_ty))


HOPPER_CONFIG = dict(BLOCK_M=128, BLOCK_N=64, NUM_STAGES=3, num_warps=8)
CPU_CONFIG = dict(BLOCK_M=16, BLOCK_N=16, NUM_STAGES=3, num_warps=4)
# AMD CDNA4: the Hopper tiles fit its 160 KiB of LDS (146 KiB at D=128).
GFX950_CONFIG = dict(BLOCK_M=128, BLOCK_N=64, NUM_STAGES=3, num_warps=8)


def attention(q, k, v, causal=False, sm_scale=None, config=None):
    """q, k, v: (heads, seq, D) contiguous; seq a multiple of BLOCK_M and
    BLOCK_N."""
    heads, seq, d = q.shape
    if config is None:
        config = pick_config(q, HOPPER_CONFIG, CPU_CONFIG, GFX950_CONFIG)
    if seq % config["BLOCK_M"] or seq % config["BLOCK_N"]:
        raise ValueError("seq %d must be a multiple of BLOCK_M and BLOCK_N"
                         % seq)
    sm_scale = sm_scale if sm_scale is not None else 1.0 / math.sqrt(d)
    o = empty(q.shape, q)
    grid = (seq // config["BLOCK_M"], heads)
    attention_fwd_pipelined[grid](q, k, v, o, sm_scale, seq, D=d,
                                  CAUSAL=causal, **config)
    return o
