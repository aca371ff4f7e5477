"""Benchmark kernels written in Triton's Python DSL.

Stock Triton compiles them; the TTIR it prints is what tpx compiles, with the
same num_warps / num_stages. Written for this harness (tutorial-style
algorithms).
"""
import triton
import triton.language as tl


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def softmax(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(out_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def layernorm(x_ptr, y_ptr, w_ptr, b_ptr, stride, n_cols, eps,
              BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(mask, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / n_cols
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    tl.store(y_ptr + row * stride + cols, d * rstd * w + b, mask=mask)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
           GROUP: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    group_size = GROUP * num_n
    group = pid // group_size
    first_m = group * GROUP
    size_m = min(num_m - first_m, GROUP)
    pid_m = first_m + (pid % group_size) % size_m
    pid_n = (pid % group_size) // size_m
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc = tl.dot(tl.load(a), tl.load(b), acc)
        a += BK
        b += BK * stride_bk
    c = c_ptr + rm[:, None] * stride_cm + rn[None, :]
    tl.store(c, acc.to(c_ptr.dtype.element_ty))


@triton.jit
def matmul_strided(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk,
                   stride_bn, stride_cm, BM: tl.constexpr, BN: tl.constexpr,
                   BK: tl.constexpr, GROUP: tl.constexpr):
    """`matmul` with B read through both strides: a column-major B
    (stride_bk = 1, which Triton specializes to a constant) is K-major, the
    operand order fp8 wgmma wants, and the layout torch._scaled_mm takes."""
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    group_size = GROUP * num_n
    group = pid // group_size
    first_m = group * GROUP
    size_m = min(num_m - first_m, GROUP)
    pid_m = first_m + (pid % group_size) % size_m
    pid_n = (pid % group_size) // size_m
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc = tl.dot(tl.load(a), tl.load(b), acc)
        a += BK
        b += BK * stride_bk
    c = c_ptr + rm[:, None] * stride_cm + rn[None, :]
    tl.store(c, acc.to(c_ptr.dtype.element_ty))


@triton.jit
def _attention_blocks(acc, l_i, m_i, q, K, V, base, stride_s, qk_scale,
                      offs_m, offs_n, offs_d, lo, hi,
                      BLOCK_N: tl.constexpr, DIAGONAL: tl.constexpr):
    """Online softmax over the key blocks [lo, hi). Only blocks on the
    diagonal of a causal attention need the mask; the others are whole."""
    for start_n in range(lo, hi, BLOCK_N):
        kt = tl.load(K + base + (start_n + offs_n)[None, :] * stride_s
                     + offs_d[:, None])
        qk = tl.dot(q, kt) * qk_scale
        if DIAGONAL:
            # -1e6 rather than -inf: a row with every key of this block
            # masked keeps a finite maximum (no inf - inf).
            causal = offs_m[:, None] >= (start_n + offs_n)[None, :]
            qk = qk + tl.where(causal, 0.0, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + (start_n + offs_n)[:, None] * stride_s
                    + offs_d[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def attention(Q, K, V, O, sm_scale, stride_s, N_CTX,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr,
              CAUSAL: tl.constexpr):
    """Flash attention forward over (batch*heads, N_CTX, D) storage. Causal
    (Triton's tutorial): the blocks left of the diagonal without a mask,
    then the diagonal block [start_m * BLOCK_M, (start_m + 1) * BLOCK_M)
    with `offs_m >= offs_n`; nothing right of it."""
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh * N_CTX * D
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + base + offs_m[:, None] * stride_s + offs_d[None, :])
    m_i = tl.full((BLOCK_M,), -float("inf"), tl.float32)
    l_i = tl.full((BLOCK_M,), 1.0, tl.float32)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    if CAUSAL:
        diagonal = tl.multiple_of(start_m * BLOCK_M, BLOCK_M)
        acc, l_i, m_i = _attention_blocks(
            acc, l_i, m_i, q, K, V, base, stride_s, qk_scale, offs_m, offs_n,
            offs_d, 0, diagonal, BLOCK_N, False)
        acc, l_i, m_i = _attention_blocks(
            acc, l_i, m_i, q, K, V, base, stride_s, qk_scale, offs_m, offs_n,
            offs_d, diagonal, (start_m + 1) * BLOCK_M, BLOCK_N, True)
    else:
        acc, l_i, m_i = _attention_blocks(
            acc, l_i, m_i, q, K, V, base, stride_s, qk_scale, offs_m, offs_n,
            offs_d, 0, N_CTX, BLOCK_N, False)
    acc = acc / l_i[:, None]
    tl.store(O + base + offs_m[:, None] * stride_s + offs_d[None, :],
             acc.to(O.dtype.element_ty))


# --- One kernel per op family the SIMT path lowers beyond the basics
# (join/split, gather, histogram, fp8 casts, dot_scaled, 3-D dots). ---

@triton.jit
def complex_mul(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    """Interleaved complex f32 (re, im) pairs: split, multiply, join."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    pair = offs[:, None] * 2 + tl.arange(0, 2)[None, :]
    xr, xi = tl.split(tl.load(x_ptr + pair))
    yr, yi = tl.split(tl.load(y_ptr + pair))
    tl.store(out_ptr + pair, tl.join(xr * yr - xi * yi, xr * yi + xi * yr))


@triton.jit
def row_gather(x_ptr, idx_ptr, out_ptr, BLOCK: tl.constexpr):
    """Each row permuted by its own index row (tl.gather along axis 0)."""
    base = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + base)
    idx = tl.load(idx_ptr + base)
    tl.store(out_ptr + base, tl.gather(x, idx, 0))


@triton.jit
def histogram(x_ptr, bins_ptr, BLOCK: tl.constexpr, BINS: tl.constexpr):
    """A block's histogram (tl.histogram), added into the global bins."""
    x = tl.load(x_ptr + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK))
    tl.atomic_add(bins_ptr + tl.arange(0, BINS), tl.histogram(x, BINS))


@triton.jit
def cast_to_fp8(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x.to(tl.float8e4nv), mask=mask)


@triton.jit
def cast_from_fp8(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x.to(tl.float16), mask=mask)


@triton.jit
def matmul_mxfp8(a_ptr, as_ptr, b_ptr, bs_ptr, c_ptr, M, N, K,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """C = (A * 2^(sa-127)) (B * 2^(sb-127)): e4m3 A [M,K] and B [K,N]
    row-major, e8m0 scales [M, K/32] and [N, K/32] (tl.dot_scaled)."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    rs = tl.arange(0, BK // 32)
    a = a_ptr + rm[:, None] * K + rk[None, :]
    b = b_ptr + rk[:, None] * N + rn[None, :]
    sa = as_ptr + rm[:, None] * (K // 32) + rs[None, :]
    sb = bs_ptr + rn[:, None] * (K // 32) + rs[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, K // BK):
        acc = tl.dot_scaled(tl.load(a), tl.load(sa), "e4m3", tl.load(b),
                            tl.load(sb), "e4m3", acc)
        a += BK
        b += BK * N
        sa += BK // 32
        sb += BK // 32
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.bfloat16))


@triton.jit
def batched_dot(a_ptr, b_ptr, c_ptr, BB: tl.constexpr, M: tl.constexpr,
                N: tl.constexpr, K: tl.constexpr):
    """BB small f32 products per program, one 3-D tl.dot (IEEE f32)."""
    rb = tl.program_id(0) * BB + tl.arange(0, BB)
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rb[:, None, None] * (M * K) + rm[None, :, None] * K
                + rk[None, None, :])
    b = tl.load(b_ptr + rb[:, None, None] * (K * N) + rk[None, :, None] * N
                + rn[None, None, :])
    c = tl.dot(a, b, input_precision="ieee")
    tl.store(c_ptr + rb[:, None, None] * (M * N) + rm[None, :, None] * N
             + rn[None, None, :], c)
