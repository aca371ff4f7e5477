"""Warp-specialized, pipelined flash-attention forward with TLX, with
ping-pong consumers.

Each program takes 2 x BLOCK_M query rows of one head. A producer task (one
warp) copies the two Q tiles once and then every K and V block with TMA
into NUM_STAGES buffers, announcing each on a `kv_full` barrier; two
consumer replicas (one Q tile each) wait for a block, compute S = Q K^T,
update the online softmax, add P V to their accumulator and release the
block on `kv_empty` (two arrivals: both consumers read every block). The
consumers take turns at the tensor cores through two named barriers (the
ping-pong of TLX's Hopper tutorial): replica r waits at barrier 9 + r before
its S = Q K^T and lets the other one go after it.

Causal: every key block up to the program's last row is loaded; the
consumers mask scores above the diagonal (with -1e6, so that a fully masked
block leaves the running maximum finite).
"""

import math

import tpx as triton
import tpx.language as tl
import tpx.language.extra.tlx as tlx
from tpx.tools.tensor_descriptor import TensorDescriptor

from ._attention import online_softmax_step
from ._host import empty, pick_config


@triton.jit
def attention_fwd_ws(q_desc, k_desc, v_desc, o_ptr, sm_scale, N_CTX,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     D: tl.constexpr, NUM_STAGES: tl.constexpr,
                     CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    head = tl.program_id(1)
    row0 = head * N_CTX + start_m * 2 * BLOCK_M
    if CAUSAL:
        hi = (start_m + 1) * 2 * BLOCK_M
    else:
        hi = N_CTX
    num_blocks = tl.cdiv(hi, BLOCK_N)

    q_bufs = tlx.local_alloc((BLOCK_M, D), tlx.dtype_of(q_desc), 2)
    k_bufs = tlx.local_alloc((BLOCK_N, D), tlx.dtype_of(k_desc), NUM_STAGES)
    v_bufs = tlx.local_alloc((BLOCK_N, D), tlx.dtype_of(v_desc), NUM_STAGES)
    q_full = tlx.alloc_barriers(2, arrive_count=1)
    kv_full = tlx.alloc_barriers(NUM_STAGES, arrive_count=1)
    kv_empty = tlx.alloc_barriers(NUM_STAGES, arrive_count=2)
    elem = tlx.size_of(tlx.dtype_of(q_desc))

    with tlx.async_tasks():
        with tlx.async_task("default"):
            # The producer: Q once, then K and V block by block.
            for r in tl.static_range(2):
                tlx.barrier_expect_bytes(q_full[r], BLOCK_M * D * elem)
                tlx.async_descriptor_load(q_desc, q_bufs[r],
                                          [row0 + r * BLOCK_M, 0], q_full[r])
            for j in range(0, num_blocks):
                s = j % NUM_STAGES
                tlx.barrier_wait(kv_empty[s], ((j // NUM_STAGES) & 1) ^ 1)
                tlx.barrier_expect_bytes(kv_full[s], 2 * BLOCK_N * D * elem)
                kv_row = head * N_CTX + j * BLOCK_N
                tlx.async_descriptor_load(k_desc, k_bufs[s], [kv_row, 0],
                                          kv_full[s])
                tlx.async_descriptor_load(v_desc, v_bufs[s], [kv_row, 0],
                                          kv_full[s])
        with tlx.async_task(num_warps=4, num_regs=232, replicate=2):
            r = tlx.async_task_replica_id()
            offs_m = start_m * 2 * BLOCK_M + r * BLOCK_M + \
                tl.arange(0, BLOCK_M)
            m_i = tl.full((BLOCK_M,), -1.0e6, tl.float32)
            l_i = tl.zeros((BLOCK_M,), tl.float32)
            acc = tl.zeros((BLOCK_M, D), tl.float32)
            qk_scale = sm_scale * 1.44269504
            tlx.barrier_wait(q_full[r], 0)
            if r == 1:
                # Replica 0 takes the first turn.
                tlx.named_barrier_arrive(9, 256)
            for j in range(0, num_blocks):
                s = j % NUM_STAGES
                tlx.barrier_wait(kv_full[s], (j // NUM_STAGES) & 1)
                tlx.named_barrier_wait(9 + r, 256)
                qk = tlx.async_dot(q_bufs[r], tlx.local_trans(k_bufs[s]))
                qk = tlx.async_dot_wait(0, qk)
                tlx.named_barrier_arrive(10 - r, 256)
                # Only the blocks that reach past the tile's first row need
                # the mask (those below the diagonal are whole).
                if CAUSAL:
                    if (j + 1) * BLOCK_N > start_m * 2 * BLOCK_M + \
                            r * BLOCK_M:
                        offs_n = j * BLOCK_N + tl.arange(0, BLOCK_N)
                        qk = tl.where(offs_m[:, None] >= offs_n[None, :], qk,
                                      -1.0e6)
                p, m_i, l_i, acc = online_softmax_step(qk, qk_scale, m_i,
                                                       l_i, acc)
                acc = tlx.async_dot(p.to(tlx.dtype_of(v_desc)), v_bufs[s],
                                    acc)
                acc = tlx.async_dot_wait(0, acc)
                tlx.barrier_arrive(kv_empty[s])
            out = acc / l_i[:, None]
            rows = head * N_CTX + offs_m
            o_ptrs = o_ptr + rows[:, None] * D + tl.arange(0, D)[None, :]
            tl.store(o_ptrs, out.to(o_ptr.dtype.element_ty))


# 64 rows per consumer warp group: S, P and O of 128 rows would not fit in
# its registers (ptxas spills 1.8 KB a thread at BLOCK_M=128, D=128).
HOPPER_CONFIG = dict(BLOCK_M=64, BLOCK_N=128, NUM_STAGES=2, num_warps=4)
CPU_CONFIG = dict(BLOCK_M=16, BLOCK_N=16, NUM_STAGES=2, num_warps=4)
# AMD CDNA4 (160 KiB of LDS): smaller KV tiles.
GFX950_CONFIG = dict(BLOCK_M=64, BLOCK_N=64, NUM_STAGES=2, num_warps=4)


def attention(q, k, v, causal=False, sm_scale=None, config=None):
    """q, k, v: (heads, seq, D) contiguous; returns o of the same shape.
    seq must be a multiple of 2 x BLOCK_M and of BLOCK_N."""
    heads, seq, d = q.shape
    if config is None:
        config = pick_config(q, HOPPER_CONFIG, CPU_CONFIG, GFX950_CONFIG)
    bm, bn = config["BLOCK_M"], config["BLOCK_N"]
    if seq % (2 * bm) or seq % bn:
        raise ValueError("seq %d must be a multiple of %d and %d" %
                         (seq, 2 * bm, bn))
    sm_scale = sm_scale if sm_scale is not None else 1.0 / math.sqrt(d)
    o = empty(q.shape, q)
    flat = [t.reshape(heads * seq, d) for t in (q, k, v)]
    q_desc = TensorDescriptor.from_tensor(flat[0], [bm, d])
    k_desc = TensorDescriptor.from_tensor(flat[1], [bn, d])
    v_desc = TensorDescriptor.from_tensor(flat[2], [bn, d])
    grid = (seq // (2 * bm), heads)
    attention_fwd_ws[grid](q_desc, k_desc, v_desc, o, sm_scale, seq, D=d,
                           CAUSAL=causal, **config)
    return o
