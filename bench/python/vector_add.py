"""Vector addition: one program per BLOCK_SIZE-wide slice, a masked tail.

The smallest complete Triton program: a @triton.jit kernel, a grid that is
a function of the launch's meta-parameters, and a torch reference.
"""

import torch
import triton
import triton.language as tl

from tutorial_common import bench_ms, case, randn, seeded, small


@triton.jit
def vadd_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    idx = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_bounds = idx < n
    a = tl.load(a_ptr + idx, mask=in_bounds)
    b = tl.load(b_ptr + idx, mask=in_bounds)
    tl.store(c_ptr + idx, a + b, mask=in_bounds)


def vadd(a, b, block_size=1024):
    """c = a + b for contiguous 1-d tensors of the same shape and device."""
    assert a.shape == b.shape and a.is_contiguous() and b.is_contiguous()
    c = torch.empty_like(a)
    n = c.numel()

    def grid(meta):
        return (triton.cdiv(n, meta["BLOCK_SIZE"]),)

    vadd_kernel[grid](a, b, c, n, BLOCK_SIZE=block_size)
    return c


def run(triton_module, device, size="full", bench=True):
    sizes = [1000, 4097] if size == "small" or small() else \
        [1 << 16, 1 << 22, (1 << 26) + 17]
    results = []
    for i, n in enumerate(sizes):
        seeded(100 + i)
        a = randn(n, device, torch.float32)
        b = randn(n, device, torch.float32)
        c = vadd(a, b)
        results.append(case(
            "fp32 n=%d" % n, {"c": c}, {"c": a + b}, rtol=0, atol=0,
            ms=bench_ms(triton_module, lambda: vadd(a, b), device, bench),
            torch_ms=bench_ms(triton_module, lambda: a + b, device, bench)))
    return results
