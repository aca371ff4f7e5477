"""Dropout, twice: with a keep-mask tensor, and seeded (no mask in memory).

The plain kernel reads a precomputed 0/1 mask. The seeded kernel draws the
mask inside the kernel with `tl.rand(seed, offsets)` (Philox 4x32-10), so
dropout needs no extra memory and the same (seed, offsets) always give the
same mask. The reference of the seeded kernel is a NumPy Philox, so the
backends must agree bit for bit on which elements are kept.
"""

import numpy as np
import torch
import triton
import triton.language as tl

from tutorial_common import bench_ms, case, randn, seeded, small


@triton.jit
def masked_dropout_kernel(x_ptr, keep_ptr, y_ptr, n, p,
                          BLOCK_SIZE: tl.constexpr):
    idx = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    valid = idx < n
    x = tl.load(x_ptr + idx, mask=valid)
    keep = tl.load(keep_ptr + idx, mask=valid)
    tl.store(y_ptr + idx, tl.where(keep != 0, x / (1 - p), 0.0), mask=valid)


@triton.jit
def seeded_dropout_kernel(x_ptr, y_ptr, n, p, seed, BLOCK_SIZE: tl.constexpr):
    idx = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    valid = idx < n
    x = tl.load(x_ptr + idx, mask=valid)
    # One uniform number per element, a function of (seed, idx) only.
    u = tl.rand(seed, idx)
    tl.store(y_ptr + idx, tl.where(u > p, x / (1 - p), 0.0), mask=valid)


def masked_dropout(x, keep, p, block_size=1024):
    y = torch.empty_like(x)
    n = x.numel()
    masked_dropout_kernel[(triton.cdiv(n, block_size),)](
        x, keep, y, n, p, BLOCK_SIZE=block_size)
    return y


def seeded_dropout(x, p, seed, block_size=1024):
    y = torch.empty_like(x)
    n = x.numel()
    seeded_dropout_kernel[(triton.cdiv(n, block_size),)](
        x, y, n, p, seed, BLOCK_SIZE=block_size)
    return y


# -- a NumPy Philox 4x32-10, as tl.rand uses it --------------------------------

_ROUND_A, _ROUND_B = 0xD2511F53, 0xCD9E8D57
_KEY_A, _KEY_B = 0x9E3779B9, 0xBB67AE85
_MASK32 = 0xFFFFFFFF


def philox_uniform(seed, offsets, rounds=10):
    """tl.rand(seed, offsets) in NumPy: the counter is (offset, 0, 0, 0),
    the key the seed's low and high words; the first output word becomes a
    float in [0, 1) as tl.rand does (int32 view, negatives folded with
    -x - 1, times 4.6566127342e-10 in fp32)."""
    c0 = np.asarray(offsets).astype(np.uint32).astype(np.uint64)
    c1 = np.zeros_like(c0)
    c2 = np.zeros_like(c0)
    c3 = np.zeros_like(c0)
    k0, k1 = seed & _MASK32, (seed >> 32) & _MASK32
    for _ in range(rounds):
        hi_lo_a = c0 * np.uint64(_ROUND_A)
        hi_lo_b = c2 * np.uint64(_ROUND_B)
        c0, c1, c2, c3 = (
            (hi_lo_b >> np.uint64(32)) ^ c1 ^ np.uint64(k0),
            hi_lo_b & np.uint64(_MASK32),
            (hi_lo_a >> np.uint64(32)) ^ c3 ^ np.uint64(k1),
            hi_lo_a & np.uint64(_MASK32))
        k0 = (k0 + _KEY_A) & _MASK32
        k1 = (k1 + _KEY_B) & _MASK32
    as_int = c0.astype(np.uint32).view(np.int32).astype(np.int64)
    folded = np.where(as_int < 0, -as_int - 1, as_int)
    return folded.astype(np.float32) * np.float32(4.6566127342e-10)


def seeded_reference(x, p, seed):
    u = torch.from_numpy(philox_uniform(seed, np.arange(x.numel())))
    u = u.to(x.device).reshape(x.shape)
    p32 = torch.tensor(p, dtype=torch.float32, device=x.device)
    return torch.where(u > p32, x / _keep_scale(p, x.device),
                       torch.zeros_like(x))


def _keep_scale(p, device):
    """1 - p as the kernels compute it: in fp32, from p rounded to fp32."""
    return 1 - torch.tensor(p, dtype=torch.float32, device=device)


def run(triton_module, device, size="full", bench=True):
    sizes = [1000, 5000] if size == "small" or small() else \
        [1 << 20, (1 << 24) + 3]
    p = 0.3
    results = []
    for i, n in enumerate(sizes):
        seeded(400 + i)
        x = randn(n, device, torch.float32)
        keep = (torch.rand(n, device=device) > p).to(torch.int8)
        want = torch.where(keep != 0, x / _keep_scale(p, device),
                           torch.zeros_like(x))
        results.append(case(
            "masked fp32 n=%d" % n, {"y": masked_dropout(x, keep, p)},
            {"y": want}, rtol=1e-6, atol=0,
            ms=bench_ms(triton_module, lambda: masked_dropout(x, keep, p),
                        device, bench),
            torch_ms=bench_ms(triton_module,
                              lambda: torch.nn.functional.dropout(x, p),
                              device, bench)))
        seed = 1234 + i
        y = seeded_dropout(x, p, seed)
        results.append(case(
            "seeded fp32 n=%d" % n, {"y": y},
            {"y": seeded_reference(x, p, seed)}, rtol=1e-6, atol=0,
            ms=bench_ms(triton_module, lambda: seeded_dropout(x, p, seed),
                        device, bench),
            torch_ms=bench_ms(triton_module,
                              lambda: torch.nn.functional.dropout(x, p),
                              device, bench)))
    return results
