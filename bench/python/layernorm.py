"""Layer normalization over the last dimension, forward and backward.

Forward: one program per row, the whole row in one block (N <= BLOCK_SIZE);
the mean and 1/std are written out for the backward pass.

Backward, in two kernels and without atomics:
  1. each program takes a contiguous slice of rows, writes their dx, and
     sums its rows' contributions to dw and db in registers; it stores one
     partial row of each into a (P, N) buffer;
  2. a second kernel sums the P partial rows per column block.
The sum over rows is then deterministic (fixed order) whatever the launch
order of the programs.

With xhat = (x - mean) * rstd and g = w * dy:
  dx = (g - (xhat * mean(xhat * g) + mean(g))) * rstd,
  dw = sum over rows of dy * xhat,   db = sum over rows of dy.
"""

import torch
import triton
import triton.language as tl

from tutorial_common import bench_ms, case, randn, seeded, sm_count, small


@triton.jit
def layernorm_fwd_kernel(X, Y, W, B, Mean, Rstd, row_stride, N, eps,
                         BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    valid = cols < N
    x = tl.load(X + row * row_stride + cols, mask=valid, other=0.0)
    x = x.to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    centered = tl.where(valid, x - mean, 0.0)
    var = tl.sum(centered * centered, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    w = tl.load(W + cols, mask=valid)
    b = tl.load(B + cols, mask=valid)
    y = centered * rstd * w + b
    tl.store(Y + row * row_stride + cols, y, mask=valid)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)


@triton.jit
def layernorm_bwd_dx_kernel(DX, DY, DW_partial, DB_partial, X, W, Mean, Rstd,
                            row_stride, M, N, rows_per_program,
                            BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    valid = cols < N
    w = tl.load(W + cols, mask=valid, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    db = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    first = pid * rows_per_program
    last = min(first + rows_per_program, M)
    for row in range(first, last):
        offs = row * row_stride + cols
        x = tl.load(X + offs, mask=valid, other=0.0).to(tl.float32)
        dy = tl.load(DY + offs, mask=valid, other=0.0).to(tl.float32)
        mean = tl.load(Mean + row)
        rstd = tl.load(Rstd + row)
        xhat = tl.where(valid, (x - mean) * rstd, 0.0)
        g = w * dy
        mean_xhat_g = tl.sum(xhat * g, axis=0) / N
        mean_g = tl.sum(g, axis=0) / N
        dx = (g - (xhat * mean_xhat_g + mean_g)) * rstd
        tl.store(DX + offs, dx, mask=valid)
        dw += dy * xhat
        db += dy
    tl.store(DW_partial + pid * N + cols, dw, mask=valid)
    tl.store(DB_partial + pid * N + cols, db, mask=valid)


@triton.jit
def layernorm_bwd_dwdb_kernel(DW_partial, DB_partial, DW, DB, P, N,
                              BLOCK_P: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    dw = tl.zeros([BLOCK_P, BLOCK_N], dtype=tl.float32)
    db = tl.zeros([BLOCK_P, BLOCK_N], dtype=tl.float32)
    for start in range(0, P, BLOCK_P):
        rows = start + tl.arange(0, BLOCK_P)
        inside = (rows[:, None] < P) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW_partial + offs, mask=inside, other=0.0)
        db += tl.load(DB_partial + offs, mask=inside, other=0.0)
    tl.store(DW + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(DB + cols, tl.sum(db, axis=0), mask=cols < N)


def _num_warps(block):
    return min(max(block // 256, 1), 8)


def layernorm_forward(x, w, b, eps=1e-5):
    M, N = x.shape
    block = triton.next_power_of_2(N)
    if block * x.element_size() > 65536:
        raise RuntimeError("rows of more than 64 KB are not supported")
    y = torch.empty_like(x)
    mean = torch.empty(M, device=x.device, dtype=torch.float32)
    rstd = torch.empty(M, device=x.device, dtype=torch.float32)
    layernorm_fwd_kernel[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, eps,
                               BLOCK_SIZE=block, num_warps=_num_warps(block))
    return y, mean, rstd


def layernorm_backward(dy, x, w, mean, rstd):
    M, N = x.shape
    block = triton.next_power_of_2(N)
    programs = max(1, min(M, 4 * sm_count(triton)))
    rows_per_program = triton.cdiv(M, programs)
    programs = triton.cdiv(M, rows_per_program)
    dx = torch.empty_like(x)
    dw_partial = torch.empty((programs, N), device=x.device,
                             dtype=torch.float32)
    db_partial = torch.empty_like(dw_partial)
    layernorm_bwd_dx_kernel[(programs,)](
        dx, dy, dw_partial, db_partial, x, w, mean, rstd, x.stride(0), M, N,
        rows_per_program, BLOCK_SIZE=block, num_warps=_num_warps(block))
    dw = torch.empty_like(w)
    db = torch.empty_like(w)
    block_n = 64

    def grid(meta):
        return (triton.cdiv(N, meta["BLOCK_N"]),)

    layernorm_bwd_dwdb_kernel[grid](dw_partial, db_partial, dw, db,
                                    programs, N, BLOCK_P=32,
                                    BLOCK_N=block_n)
    return dx, dw, db


def _torch_layernorm(x, w, b, dy, eps):
    """fp32 torch reference: y, mean, rstd and the gradients."""
    x32 = x.float().requires_grad_(True)
    w32 = w.float().requires_grad_(True)
    b32 = b.float().requires_grad_(True)
    y = torch.nn.functional.layer_norm(x32, (x.shape[1],), w32, b32, eps)
    y.backward(dy.float())
    mean = x32.detach().mean(dim=1)
    var = x32.detach().var(dim=1, unbiased=False)
    rstd = 1 / torch.sqrt(var + eps)
    return (y.detach(), mean, rstd, x32.grad, w32.grad, b32.grad)


def run(triton_module, device, size="full", bench=True):
    is_small = size == "small" or small()
    shapes = [(33, 100), (8, 513)] if is_small else \
        [(4096, 1024), (4096, 8192)]
    # torch's CPU layer_norm has no fp16 kernels in every version.
    dtype = torch.float32 if str(device) == "cpu" else torch.float16
    tight = dtype == torch.float32
    eps = 1e-5
    results = []
    for i, (m, n) in enumerate(shapes):
        seeded(500 + i)
        x = randn((m, n), device, dtype, scale=2.0) + 0.5
        w = randn(n, device, dtype)
        b = randn(n, device, dtype)
        dy = randn((m, n), device, dtype, scale=0.1)
        y_ref, mean_ref, rstd_ref, dx_ref, dw_ref, db_ref = \
            _torch_layernorm(x, w, b, dy, eps)
        y, mean, rstd = layernorm_forward(x, w, b, eps)
        label = "%s %dx%d" % (str(dtype).replace("torch.", ""), m, n)

        def torch_fwd():
            return torch.nn.functional.layer_norm(x, (n,), w, b, eps)

        results.append(case(
            "forward " + label, {"y": y, "mean": mean, "rstd": rstd},
            {"y": y_ref.to(dtype), "mean": mean_ref, "rstd": rstd_ref},
            rtol=1e-4 if tight else 1e-2, atol=1e-4 if tight else 1e-2,
            ms=bench_ms(triton_module, lambda: layernorm_forward(x, w, b,
                                                                 eps),
                        device, bench),
            torch_ms=bench_ms(triton_module, torch_fwd, device, bench)))
        dx, dw, db = layernorm_backward(dy, x, w, mean, rstd)
        # dw, db sum m rows: their error grows with m.
        sum_atol = (1e-4 if tight else 1e-2) * max(1.0, m ** 0.5)
        xg = x.detach().clone().requires_grad_(True)
        wg = w.detach().clone().requires_grad_(True)
        bg = b.detach().clone().requires_grad_(True)

        def torch_bwd():
            out = torch.nn.functional.layer_norm(xg, (n,), wg, bg, eps)
            out.backward(dy)

        results.append(case(
            "backward " + label, {"dx": dx, "dw": dw, "db": db},
            {"dx": dx_ref.to(dtype), "dw": dw_ref.to(dtype),
             "db": db_ref.to(dtype)},
            rtol=1e-4 if tight else 1e-2, atol=1e-4 if tight else 1e-2,
            tolerances={"dw": (1e-3 if tight else 2e-2, sum_atol),
                        "db": (1e-3 if tight else 2e-2, sum_atol)},
            ms=bench_ms(triton_module,
                        lambda: layernorm_backward(dy, x, w, mean, rstd),
                        device, bench),
            torch_ms=bench_ms(triton_module, torch_bwd, device, bench)))
    return results
