"""Fused attention forward, softmax(Q K^T * sm_scale) V, causal or not.

One program per (BLOCK_M rows of queries, batch x head). It keeps its Q tile
in registers and streams K and V in BLOCK_N-row tiles, with the online
softmax: a running row maximum m_i and row sum l_i rescale the accumulator
whenever the maximum grows, so the N_CTX x N_CTX score matrix never exists
in memory. Scores are scaled by log2(e) up front so the kernel can use
exp2.

Causal attention visits the key tiles left of the diagonal block without a
mask and the diagonal block with one (BLOCK_M is a multiple of BLOCK_N);
tiles right of the diagonal are skipped.
"""

import math

import torch
import triton
import triton.language as tl

from tutorial_common import bench_ms, case, randn, seeded, small


@triton.jit
def _attend(acc, l_i, m_i, q, k_base, v_base, stride_kn, stride_vn,
            qk_scale, offs_m, offs_n, offs_d, lo, hi,
            MASKED: tl.constexpr, BLOCK_N: tl.constexpr):
    """Folds the key/value tiles [lo, hi) into (acc, l_i, m_i)."""
    for start_n in range(lo, hi, BLOCK_N):
        n0 = tl.multiple_of(start_n, BLOCK_N)
        keys = n0 + offs_n
        # K^T tile (HEAD_DIM, BLOCK_N), read straight from K's row layout.
        kt = tl.load(k_base + keys[None, :] * stride_kn + offs_d[:, None])
        qk = tl.dot(q, kt) * qk_scale
        if MASKED:
            qk = qk + tl.where(offs_m[:, None] >= keys[None, :], 0.0,
                               -1.0e6)
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp2(qk - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_base + keys[:, None] * stride_vn + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_new
    return acc, l_i, m_i


def _configs():
    if small():
        return [triton.Config({"BLOCK_M": 32, "BLOCK_N": 32}, num_warps=4,
                              num_stages=2)]
    return [
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 64}, num_warps=8,
                      num_stages=3),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64}, num_warps=4,
                      num_stages=3),
    ]


@triton.autotune(configs=_configs(), key=["N_CTX", "HEAD_DIM", "CAUSAL"])
@triton.jit
def attention_fwd_kernel(Q, K, V, Out, sm_scale,
                         stride_qz, stride_qh, stride_qm,
                         stride_kz, stride_kh, stride_kn,
                         stride_vz, stride_vh, stride_vn,
                         stride_oz, stride_oh, stride_om,
                         H, N_CTX,
                         HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    q_base = Q + off_z * stride_qz + off_h * stride_qh
    k_base = K + off_z * stride_kz + off_h * stride_kh
    v_base = V + off_z * stride_vz + off_h * stride_vh
    o_base = Out + off_z * stride_oz + off_h * stride_oh

    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_base + offs_m[:, None] * stride_qm + offs_d[None, :])

    m_i = tl.full([BLOCK_M], -float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.4426950408889634  # log2(e)
    if CAUSAL:
        diagonal = start_m * BLOCK_M
        acc, l_i, m_i = _attend(acc, l_i, m_i, q, k_base, v_base, stride_kn,
                                stride_vn, qk_scale, offs_m, offs_n, offs_d,
                                0, diagonal, False, BLOCK_N)
        acc, l_i, m_i = _attend(acc, l_i, m_i, q, k_base, v_base, stride_kn,
                                stride_vn, qk_scale, offs_m, offs_n, offs_d,
                                diagonal, diagonal + BLOCK_M, True, BLOCK_N)
    else:
        acc, l_i, m_i = _attend(acc, l_i, m_i, q, k_base, v_base, stride_kn,
                                stride_vn, qk_scale, offs_m, offs_n, offs_d,
                                0, N_CTX, False, BLOCK_N)
    out = acc / l_i[:, None]
    tl.store(o_base + offs_m[:, None] * stride_om + offs_d[None, :],
             out.to(Out.dtype.element_ty))


def attention(q, k, v, causal, sm_scale):
    """q, k, v: (Z, H, N_CTX, HEAD_DIM), contiguous in the last dimension;
    N_CTX a multiple of the block sizes."""
    Z, H, n_ctx, head_dim = q.shape
    out = torch.empty_like(q)

    def grid(meta):
        return (triton.cdiv(n_ctx, meta["BLOCK_M"]), Z * H, 1)

    attention_fwd_kernel[grid](
        q, k, v, out, sm_scale,
        q.stride(0), q.stride(1), q.stride(2),
        k.stride(0), k.stride(1), k.stride(2),
        v.stride(0), v.stride(1), v.stride(2),
        out.stride(0), out.stride(1), out.stride(2),
        H, n_ctx, HEAD_DIM=head_dim, CAUSAL=causal)
    return out


def reference(q, k, v, causal, sm_scale):
    scores = (q.float() @ k.float().transpose(-1, -2)) * sm_scale
    if causal:
        n = q.shape[2]
        future = torch.triu(torch.ones(n, n, dtype=torch.bool,
                                       device=q.device), diagonal=1)
        scores = scores.masked_fill(future, float("-inf"))
    return (torch.softmax(scores, dim=-1) @ v.float()).to(q.dtype)


def _torch_fast(q, k, v, causal, sm_scale):
    sdpa = getattr(torch.nn.functional, "scaled_dot_product_attention", None)
    if sdpa is None or q.device.type == "cpu":
        return lambda: reference(q, k, v, causal, sm_scale)
    return lambda: sdpa(q, k, v, is_causal=causal, scale=sm_scale)


def run(triton_module, device, size="full", bench=True):
    if size == "small" or small():
        shapes = [(1, 2, 128, 32), (1, 1, 64, 64)]
    else:
        shapes = [(4, 16, 2048, 64), (2, 16, 1024, 128)]
    results = []
    for i, (z, h, n_ctx, d) in enumerate(shapes):
        for causal in (False, True):
            seeded(600 + 2 * i + causal)
            q, k, v = (randn((z, h, n_ctx, d), device, torch.float16)
                       for _ in range(3))
            sm_scale = 1.0 / math.sqrt(d)
            out = attention(q, k, v, causal, sm_scale)
            results.append(case(
                "fp16 Z=%d H=%d N=%d D=%d%s" % (z, h, n_ctx, d,
                                                " causal" if causal else ""),
                {"out": out}, {"out": reference(q, k, v, causal, sm_scale)},
                rtol=1e-2, atol=1e-2,
                ms=bench_ms(triton_module,
                            lambda: attention(q, k, v, causal, sm_scale),
                            device, bench),
                torch_ms=bench_ms(triton_module,
                                  _torch_fast(q, k, v, causal, sm_scale),
                                  device, bench)))
    return results
