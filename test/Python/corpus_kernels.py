"""The TTIR corpus's kernels, written again as Python `@tpx.jit` kernels.

Each folder of `../shared/ttir-corpus` holds the TTIR that stock Triton 3.6
printed for one kernel; its semantics can be read off the TTIR (the
`loc("kernels.py":L:C)` locations and value names say which source line
each op came from). The kernels below compute the same thing, written the
way a Triton user writes them, so that test_corpus_python.py can run them
through tpx's front end on the corpus inputs and compare with what Triton
produced on an H200.

A kernel's name is its case's `"kernel"` (the TTIR function name), its
runtime parameters are the case's `args` in order (`python_name`) and its
constexpr parameters, last, are the case's `constexprs`.
"""

import tpx
import tpx.language as tl


# -- elementwise --------------------------------------------------------------

@tpx.jit
def vadd(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    """vadd_f32: z = x + y."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(z_ptr + offs, tl.load(x_ptr + offs, mask=m) +
             tl.load(y_ptr + offs, mask=m), mask=m)


@tpx.jit
def saxpy_i32(x_ptr, y_ptr, n, a, BLOCK: tl.constexpr):
    """saxpy_i32: y = a * x + y on int32, in place."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    y = tl.load(y_ptr + offs, mask=m, other=0)
    tl.store(y_ptr + offs, a * x + y, mask=m)


@tpx.jit
def _scale_add(x, y, s):
    return x * s + y


@tpx.jit
def call_helper(x_ptr, y_ptr, out_ptr, n, s, BLOCK: tl.constexpr):
    """call_helper: out = x * s + y, the arithmetic in a @jit helper."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs,
             _scale_add(tl.load(x_ptr + offs, mask=m),
                        tl.load(y_ptr + offs, mask=m), s),
             mask=m)


@tpx.jit
def elementwise_zoo(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """elementwise_zoo: transcendental, rounding, select, integer bit ops and
    casts in one expression chain; the result goes through fp16."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    y = tl.sin(x) + tl.cos(x) * tl.exp(-x * x) + tl.sqrt(tl.abs(x)) - \
        tl.log(tl.abs(x) + 1.0)
    y = tl.where(x > 0.5, y, tl.maximum(y, -0.25))
    y = y + tl.sigmoid(x) * tl.rsqrt(x * x + 1.0) + tl.floor(x * 3.0) / 7.0
    i = (x * 100.0).to(tl.int32)
    y = y + ((i >> 2) ^ (i & 7)).to(tl.float32) * 0.001
    tl.store(out_ptr + offs, y.to(tl.float16).to(tl.float32), mask=m)


# -- control flow -------------------------------------------------------------

@tpx.jit
def collatz_steps(x_ptr, out_ptr, n):
    """collatz_while: the number of Collatz steps from x to 1, one element
    per program: a scalar `while` around a scalar `if`."""
    i = tl.program_id(0)
    if i < n:
        v = tl.load(x_ptr + i)
        steps = 0
        while v != 1:
            if v % 2 == 0:
                v = v // 2
            else:
                v = v * 3 + 1
            steps += 1
        tl.store(out_ptr + i, steps)


# -- reductions and scans -----------------------------------------------------

@tpx.jit
def softmax_rows(out_ptr, in_ptr, in_stride, out_stride, n_cols,
                 BLOCK: tl.constexpr):
    """softmax_f32: one row per program, the row in one block."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols,
                other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(out_ptr + row * out_stride + cols, e / tl.sum(e, axis=0),
             mask=cols < n_cols)


@tpx.jit
def layernorm_fwd(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, N,
                  eps, BLOCK: tl.constexpr):
    """layernorm_f32: one row per program in BLOCK-wide chunks; three loops
    (mean, variance, normalize) over the row; mean and 1/std are stored."""
    row = tl.program_id(0)
    x_ptr += row * stride
    y_ptr += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + cols, mask=cols < N, other=0.0)
    mean = tl.sum(acc, axis=0) / N
    var_acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + cols, mask=cols < N, other=0.0)
        v = tl.where(cols < N, v - mean, 0.0)
        var_acc += v * v
    rstd = 1 / tl.sqrt(tl.sum(var_acc, axis=0) / N + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        m = cols < N
        w = tl.load(w_ptr + cols, mask=m)
        b = tl.load(b_ptr + cols, mask=m)
        v = tl.load(x_ptr + cols, mask=m, other=0.0)
        tl.store(y_ptr + cols, (v - mean) * rstd * w + b, mask=m)


@tpx.jit
def col_argmax_sum(x_ptr, idx_ptr, sum_ptr, M, N: tl.constexpr,
                   BM: tl.constexpr):
    """col_argmax_sum: per column of an (M, N) matrix (M <= BM), the row of
    the maximum (ties: the smallest row) and the sum."""
    cols = tl.arange(0, N)
    rows = tl.arange(0, BM)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :],
                mask=rows[:, None] < M, other=-float("inf"))
    tl.store(idx_ptr + cols, tl.argmax(x, axis=0))
    tl.store(sum_ptr + cols, tl.sum(tl.where(rows[:, None] < M, x, 0.0),
                                    axis=0))


@tpx.jit
def cumsum_rows(x_ptr, y_ptr, N: tl.constexpr):
    """cumsum_rows: the inclusive prefix sum of each row (tt.scan)."""
    row = tl.program_id(0)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + row * N + cols)
    tl.store(y_ptr + row * N + cols, tl.cumsum(x, axis=0))


# -- atomics ------------------------------------------------------------------

@tpx.jit
def histogram(x_ptr, h_ptr, n, NBINS: tl.constexpr, BLOCK: tl.constexpr):
    """histogram_atomic: h[x % NBINS] += 1 with atomic adds."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m, other=0)
    tl.atomic_add(h_ptr + v % NBINS, 1, mask=m)


# -- layout -------------------------------------------------------------------

@tpx.jit
def transpose_tile(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr):
    """transpose_tile: y (N, M) = x (M, N) transposed, one tile."""
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    x = tl.load(x_ptr + r[:, None] * N + c[None, :])
    tl.store(y_ptr + c[:, None] * M + r[None, :], tl.trans(x))


# -- dot ----------------------------------------------------------------------

@tpx.jit
def _leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)


@tpx.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, scm, BM: tl.constexpr,
           BN: tl.constexpr, BK: tl.constexpr, GM: tl.constexpr,
           ACT: tl.constexpr):
    """matmul_f16_256, matmul_f16_odd: C (M, N) = A (M, K) @ B (K, N) in
    fp16 with an fp32 accumulator; programs are ordered in groups of GM
    row-blocks; A and B are contiguous along K and N (unit inner stride),
    rows wrap around (`% M`) so loads need no row mask."""
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    npg = GM * npn
    gid = pid // npg
    fm = gid * GM
    gsm = tl.minimum(npm - fm, GM)
    pm = fm + ((pid % npg) % gsm)
    pn = (pid % npg) // gsm
    om = (pm * BM + tl.arange(0, BM)) % M
    on = (pn * BN + tl.arange(0, BN)) % N
    ok = tl.arange(0, BK)
    a = a_ptr + om[:, None] * sam + ok[None, :]
    b = b_ptr + ok[:, None] * sbk + on[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(a, mask=ok[None, :] < K - k * BK, other=0.0)
        y = tl.load(b, mask=ok[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(x, y, acc)
        a += BK
        b += BK * sbk
    if ACT == "leaky_relu":
        acc = _leaky_relu(acc)
    c = acc.to(tl.float16)
    cm = pm * BM + tl.arange(0, BM)
    cn = pn * BN + tl.arange(0, BN)
    tl.store(c_ptr + cm[:, None] * scm + cn[None, :], c,
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@tpx.jit
def attn_fwd(Q, K, V, O, sm_scale, stride_qm, stride_kn, stride_vn,
             stride_om, N_CTX, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
             D: tl.constexpr):
    """attn_fwd_f16: non-causal attention forward for one (batch*head, row
    block) per program, online softmax in base 2; K is read transposed
    (D, BLOCK_N) straight from its (N_CTX, D) layout."""
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    off = bh * N_CTX * D
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + off + offs_m[:, None] * stride_qm + offs_d[None, :])
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, N_CTX, BLOCK_N):
        k = tl.load(K + off + (start_n + offs_n)[None, :] * stride_kn +
                    offs_d[:, None])
        qk = tl.dot(q, k) * qk_scale
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp2(qk - m_ij[:, None])
        l_ij = tl.sum(p, 1)
        alpha = tl.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(V + off + (start_n + offs_n)[:, None] * stride_vn +
                    offs_d[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(O + off + offs_m[:, None] * stride_om + offs_d[None, :],
             acc.to(tl.float16))
