"""A warp-specialized, software-pipelined flash attention in the form TLX
authors write for Hopper: a producer task loads Q once and K/V block by
block into two buffers each (full/empty mbarriers), one or two consumer
replicas overlap block j's QK^T with block j-1's PV (async dots with
`pendings`, P from registers) and store O through a tensor descriptor.

On the CPU it is checked against numpy; for sm_90a it must fit the H200's
shared memory at HEAD_DIM=128 (in session 13 kernels of this form needed
about 400 KB, the consumers' layout conversions staged through shared
memory, and failed at launch).
"""

import numpy as np
import pytest

import tpx
import tpx.language as tl
import tpx.language.extra.tlx as tlx
from tpx.tools.tensor_descriptor import TensorDescriptor

import frontend_harness as h

pytestmark = h.cpu_only("TLX kernels lower for the CPU target only so far")

# What one H200 block may use (cuFuncGetAttribute's optin maximum).
H200_SHARED_BYTES = 232448


@tpx.jit
def ws_pipelined_attention(sm_scale, lse_ptr, q_desc, k_desc, v_desc,
                           o_desc, N_CTX, D: tl.constexpr, BM: tl.constexpr,
                           BN: tl.constexpr, NB: tl.constexpr,
                           GROUPS: tl.constexpr, WARPS: tl.constexpr):
    ROWS: tl.constexpr = BM // GROUPS
    q_bufs = tlx.local_alloc((ROWS, D), tlx.dtype_of(q_desc), GROUPS)
    k_bufs = tlx.local_alloc((BN, D), tlx.dtype_of(k_desc), NB)
    v_bufs = tlx.local_alloc((BN, D), tlx.dtype_of(v_desc), NB)
    q_full = tlx.alloc_barriers(num_barriers=GROUPS, arrive_count=1)
    k_full = tlx.alloc_barriers(num_barriers=NB, arrive_count=1)
    v_full = tlx.alloc_barriers(num_barriers=NB, arrive_count=1)
    k_free = tlx.alloc_barriers(num_barriers=NB, arrive_count=GROUPS)
    v_free = tlx.alloc_barriers(num_barriers=NB, arrive_count=GROUPS)
    first_row = tl.program_id(1) * N_CTX + tl.program_id(0) * BM
    with tlx.async_tasks():
        with tlx.async_task("default"):
            for g in tl.range(0, GROUPS):
                tlx.barrier_expect_bytes(q_full[g], 2 * ROWS * D)
                tlx.async_descriptor_load(q_desc, q_bufs[g],
                                          [first_row + g * ROWS, 0], q_full[g])
            kv_row = tl.program_id(1) * N_CTX
            phase = 0
            blocks = 0
            for _ in tl.range(0, N_CTX, BN):
                s = blocks % NB
                phase = phase ^ (s == 0)
                tlx.barrier_wait(k_free[s], phase)
                tlx.barrier_expect_bytes(k_full[s], 2 * BN * D)
                tlx.async_descriptor_load(k_desc, k_bufs[s], [kv_row, 0],
                                          k_full[s])
                tlx.barrier_wait(v_free[s], phase)
                tlx.barrier_expect_bytes(v_full[s], 2 * BN * D)
                tlx.async_descriptor_load(v_desc, v_bufs[s], [kv_row, 0],
                                          v_full[s])
                kv_row += BN
                blocks += 1
        with tlx.async_task(num_warps=WARPS, registers=232,
                            replicate=GROUPS):
            g = tlx.async_task_replica_id()
            scale = sm_scale * 1.44269504
            m_i = tl.zeros([ROWS], dtype=tl.float32) - float("inf")
            l_i = tl.zeros([ROWS], dtype=tl.float32) + 1.0
            acc = tl.zeros([ROWS, D], dtype=tl.float32)
            tlx.barrier_wait(q_full[g], 0)
            k_phase = 0
            v_phase = 1
            # Block 0's scores, then each iteration issues block j's QK^T
            # before block j-1's PV and waits for the scores first.
            tlx.barrier_wait(k_full[0], k_phase)
            qk = tlx.async_dot(q_bufs[g], tlx.local_trans(k_bufs[0]))
            qk = tlx.async_dot_wait(0, qk)
            tlx.barrier_arrive(k_free[0], 1)
            m_new = tl.maximum(m_i, tl.max(qk, 1) * scale)
            p = tl.math.exp2(qk * scale - m_new[:, None])
            alpha = tl.math.exp2(m_i - m_new)
            acc = acc * alpha[:, None]
            l_i = l_i * alpha + tl.sum(p, 1)
            m_i = m_new
            blocks = 1
            for _ in tl.range(BN, N_CTX, BN):
                s = blocks % NB
                k_phase = k_phase ^ (s == 0)
                tlx.barrier_wait(k_full[s], k_phase)
                qk = tlx.async_dot(q_bufs[g], tlx.local_trans(k_bufs[s]))
                prev = (blocks - 1) % NB
                v_phase = v_phase ^ (prev == 0)
                tlx.barrier_wait(v_full[prev], v_phase)
                acc = tlx.async_dot(p.to(tlx.dtype_of(v_desc)), v_bufs[prev],
                                    acc)
                qk = tlx.async_dot_wait(1, qk)
                tlx.barrier_arrive(k_free[s], 1)
                m_new = tl.maximum(m_i, tl.max(qk, 1) * scale)
                p = tl.math.exp2(qk * scale - m_new[:, None])
                alpha = tl.math.exp2(m_i - m_new)
                l_i = l_i * alpha + tl.sum(p, 1)
                m_i = m_new
                acc = tlx.async_dot_wait(0, acc)
                tlx.barrier_arrive(v_free[prev], 1)
                acc = acc * alpha[:, None]
                blocks += 1
            prev = (blocks - 1) % NB
            v_phase = v_phase ^ (prev == 0)
            tlx.barrier_wait(v_full[prev], v_phase)
            acc = tlx.async_dot(p.to(tlx.dtype_of(v_desc)), v_bufs[prev], acc)
            acc = tlx.async_dot_wait(0, acc)
            tlx.barrier_arrive(v_free[prev], 1)
            rows = tl.program_id(0) * BM + g * ROWS + tl.arange(0, ROWS)
            tl.store(lse_ptr + tl.program_id(1) * N_CTX + rows,
                     m_i + tl.math.log2(l_i))
            o_desc.store([first_row + g * ROWS, 0],
                         (acc / l_i[:, None]).to(tlx.dtype_of(o_desc)))


def _descriptors(q, k, v, o, bm, bn, groups):
    d = q.shape[1]
    return (TensorDescriptor.from_tensor(q, [bm // groups, d]),
            TensorDescriptor.from_tensor(k, [bn, d]),
            TensorDescriptor.from_tensor(v, [bn, d]),
            TensorDescriptor.from_tensor(o, [bm // groups, d]))


@pytest.mark.parametrize("groups", [1, 2])
def test_matches_numpy_on_the_cpu(groups):
    heads, n, d, bm, bn = 2, 64, 16, 32, 16
    rng = np.random.default_rng(groups)
    q, k, v = (rng.standard_normal((heads * n, d)).astype(np.float16)
               for _ in range(3))
    o = np.zeros_like(q)
    lse = np.zeros(heads * n, np.float32)
    ws_pipelined_attention[(n // bm, heads)](
        0.5, lse, *_descriptors(q, k, v, o, bm, bn, groups), n, D=d, BM=bm,
        BN=bn, NB=2, GROUPS=groups, WARPS=4, num_warps=4)
    for head in range(heads):
        rows = slice(head * n, (head + 1) * n)
        s = q[rows].astype(np.float32) @ k[rows].astype(np.float32).T * 0.5
        p = np.exp(s - s.max(1, keepdims=True))
        want = (p / p.sum(1, keepdims=True)) @ v[rows].astype(np.float32)
        np.testing.assert_allclose(o[rows].astype(np.float32), want,
                                   atol=2e-3)
        want_lse = (s.max(1) + np.log(p.sum(1))) / np.log(2)
        np.testing.assert_allclose(lse[rows], want_lse, atol=1e-3)


@pytest.mark.skipif(not h.have_ptxas(), reason="no CUDA toolkit (ptxas)")
@pytest.mark.parametrize("groups", [1, 2])
def test_head_dim_128_fits_the_h200_shared_memory(groups):
    from tpx.compiler.compiler import compile_ttir
    d, bm, bn = 128, 128, 128
    x = np.zeros((8 * 1024, d), np.float16)
    lse = np.zeros(8 * 1024, np.float32)
    text = h.ttir(ws_pipelined_attention, 0.5, lse,
                  *_descriptors(x, x, x, x, bm, bn, groups), 1024, D=d,
                  BM=bm, BN=bn, NB=2, GROUPS=groups, WARPS=4)
    kernel = compile_ttir(text, "sm_90a", num_warps=4, no_cache=True)
    # Q, two K and two V buffers take 32 + 128 KB; the rest is the
    # descriptor store's staging and the row statistics' exchanges.
    assert kernel.metadata.shared_memory <= H200_SHARED_BYTES
