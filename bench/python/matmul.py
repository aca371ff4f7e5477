"""Blocked matmul C = A @ B in fp16 with an fp32 accumulator, autotuned.

Each program computes one BLOCK_M x BLOCK_N tile of C, walking K in
BLOCK_K steps with `tl.dot`. Programs are not ordered row-major over the
tiles: they are "super-grouped" -- GROUP_M rows of tiles are swept column
by column, so programs that run at the same time reuse the same rows of A
and columns of B from L2. `@triton.autotune` picks the tile shape per
(M, N, K); an optional activation is fused into the epilogue.
"""

import torch
import triton
import triton.language as tl

from tutorial_common import bench_ms, case, randn, seeded, small


def _configs():
    if small():
        return [
            triton.Config({"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32,
                           "GROUP_M": 4}, num_warps=4, num_stages=2),
            triton.Config({"BLOCK_M": 16, "BLOCK_N": 32, "BLOCK_K": 16,
                           "GROUP_M": 2}, num_warps=2, num_stages=2),
        ]
    return [
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64,
                       "GROUP_M": 8}, num_warps=8, num_stages=3),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64,
                       "GROUP_M": 8}, num_warps=4, num_stages=4),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32,
                       "GROUP_M": 8}, num_warps=4, num_stages=4),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 32,
                       "GROUP_M": 8}, num_warps=4, num_stages=4),
    ]


@triton.jit
def leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)


@triton.autotune(configs=_configs(), key=["M", "N", "K"])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                  ACTIVATION: tl.constexpr):
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    # Super-grouping: the programs of one group cover GROUP_M tile rows and
    # every tile column; within a group, consecutive pids go down a column.
    programs_per_group = GROUP_M * tiles_n
    group = pid // programs_per_group
    first_tile_m = group * GROUP_M
    rows_here = min(tiles_m - first_tile_m, GROUP_M)
    local = pid % programs_per_group
    tile_m = first_tile_m + local % rows_here
    tile_n = local // rows_here

    # Rows and columns past the edge wrap around (`% M`): every load is in
    # bounds without a mask, and the store's mask drops the extra values.
    rm = (tile_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    rn = (tile_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    rm = tl.max_contiguous(tl.multiple_of(rm, BLOCK_M), BLOCK_M)
    rn = tl.max_contiguous(tl.multiple_of(rn, BLOCK_N), BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_tile = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_tile = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for step in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - step * BLOCK_K
        a = tl.load(a_tile, mask=rk[None, :] < k_left, other=0.0)
        b = tl.load(b_tile, mask=rk[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_tile += BLOCK_K * stride_ak
        b_tile += BLOCK_K * stride_bk
    if ACTIVATION == "leaky_relu":
        acc = leaky_relu(acc)
    c = acc.to(tl.float16)

    cm = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cn = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + cm[:, None] * stride_cm + cn[None, :] * stride_cn, c,
             mask=(cm[:, None] < M) & (cn[None, :] < N))


def matmul(a, b, activation=""):
    assert a.shape[1] == b.shape[0], "incompatible dimensions"
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)

    def grid(meta):
        return (triton.cdiv(M, meta["BLOCK_M"]) *
                triton.cdiv(N, meta["BLOCK_N"]),)

    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1),
                        b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                        ACTIVATION=activation)
    return c


def reference(a, b, activation=""):
    c = a.float() @ b.float()
    if activation == "leaky_relu":
        c = torch.where(c >= 0, c, 0.01 * c)
    return c.to(torch.float16)


def run(triton_module, device, size="full", bench=True):
    if size == "small" or small():
        shapes = [(64, 64, 64, ""), (100, 136, 72, ""),
                  (48, 80, 40, "leaky_relu")]
    else:
        shapes = [(1024, 1024, 1024, ""), (4096, 4096, 4096, ""),
                  (2048, 2048, 2048, "leaky_relu"), (1000, 1500, 700, "")]
    results = []
    for i, (m, n, k, act) in enumerate(shapes):
        seeded(300 + i)
        a = randn((m, k), device, torch.float16)
        b = randn((k, n), device, torch.float16)
        c = matmul(a, b, act)
        torch_fn = (lambda: torch.matmul(a, b)) if str(device) != "cpu" \
            else (lambda: reference(a, b, act))
        results.append(case(
            "fp16 %dx%dx%d%s" % (m, n, k, " " + act if act else ""),
            {"c": c}, {"c": reference(a, b, act)}, rtol=1e-2, atol=1e-2,
            ms=bench_ms(triton_module, lambda: matmul(a, b, act), device,
                        bench),
            torch_ms=bench_ms(triton_module, torch_fn, device, bench)))
    return results
