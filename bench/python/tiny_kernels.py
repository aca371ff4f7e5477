"""Tiny kernels whose run time is all launch overhead (launch_overhead.py).

`measure(triton, device, launches)` warms each kernel up (compiles and
caches it), then launches it `launches` times from Python with one
synchronization at the end, and reports the best of a few repetitions in
microseconds per launch -- the cost of `kernel[grid](...)` itself: argument
binding and specialization lookup, the cache hit, packing the arguments and
the driver call. Each kernel adds 1 to a small buffer, so the buffer's
final value proves every launch ran.
"""

import time

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def bump_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    inside = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=inside) + 1,
             mask=inside)


@triton.jit
def bump_many_args_kernel(x_ptr, a_ptr, b_ptr, c_ptr, n, s0, s1, s2, f0, f1,
                          BLOCK: tl.constexpr, FLAG: tl.constexpr):
    """The same work with ten runtime arguments (pointers, ints, floats)
    and two constexprs, to show how the cost grows with the signature."""
    offs = tl.arange(0, BLOCK)
    inside = offs < n
    x = tl.load(x_ptr + offs, mask=inside)
    if FLAG:
        x = x + (s0 + s1 + s2 - 9) + (f0 + f1 - 2.0)
    tl.store(x_ptr + offs, x + 1, mask=inside)


@triton.jit
def bump_desc_kernel(x_desc, y_desc, BLOCK: tl.constexpr):
    """The same work through two tensor descriptors of one buffer (TMA on
    Hopper): the launch also passes two tensor maps."""
    y_desc.store([0], x_desc.load([0]) + 1)


def _sync(device):
    if str(device).startswith("cuda"):
        torch.cuda.synchronize()


def _time(launch, device, launches, repeats):
    launch()                       # compile and cache
    _sync(device)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(launches):
            launch()
        _sync(device)
        best = min(best, (time.perf_counter() - start) / launches)
    return best * 1e6


def measure(triton_module, device="cuda", launches=5000, repeats=3):
    n = 128
    results = []
    total = 1 + launches * repeats

    x = torch.zeros(n, device=device, dtype=torch.float32)
    us = _time(lambda: bump_kernel[(1,)](x, n, BLOCK=n), device, launches,
               repeats)
    results.append({"name": "bump_kernel (2 args)", "us_per_launch": us,
                    "ran_all": bool((x == total).all().item())})

    x = torch.zeros(n, device=device, dtype=torch.float32)
    a, b, c = (torch.zeros(n, device=device) for _ in range(3))
    us = _time(lambda: bump_many_args_kernel[(1,)](
        x, a, b, c, n, 2, 3, 4, 1.5, 0.5, BLOCK=n, FLAG=True), device,
        launches, repeats)
    results.append({"name": "bump_many_args_kernel (10 args)",
                    "us_per_launch": us,
                    "ran_all": bool((x == total).all().item())})

    x = torch.zeros(n, device=device, dtype=torch.float32)

    def grid(meta):
        return (triton_module.cdiv(n, meta["BLOCK"]),)     # one program

    us = _time(lambda: bump_kernel[grid](x, n, BLOCK=n), device, launches,
               repeats)
    results.append({"name": "bump_kernel, grid as a function",
                    "us_per_launch": us,
                    "ran_all": bool((x == total).all().item())})

    x = torch.zeros(n, device=device, dtype=torch.float32)
    x_desc, y_desc = (TensorDescriptor.from_tensor(x, [n]) for _ in range(2))
    us = _time(lambda: bump_desc_kernel[(1,)](x_desc, y_desc, BLOCK=n),
               device, launches, repeats)
    results.append({"name": "bump_desc_kernel (2 tensor descriptors)",
                    "us_per_launch": us,
                    "ran_all": bool((x == total).all().item())})

    x = torch.zeros(n, device=device, dtype=torch.float32)

    def with_new_descriptors():
        # As a wrapper like tlx_tutorials' matmul() does on every call.
        bump_desc_kernel[(1,)](TensorDescriptor.from_tensor(x, [n]),
                               TensorDescriptor.from_tensor(x, [n]), BLOCK=n)
    us = _time(with_new_descriptors, device, launches, repeats)
    results.append({"name": "bump_desc_kernel, descriptors made per call",
                    "us_per_launch": us,
                    "ran_all": bool((x == total).all().item())})

    x = torch.zeros(n, device=device, dtype=torch.float32)
    us = _time(lambda: x.add_(1), device, launches, repeats)
    results.append({"name": "torch x.add_(1) (for scale)",
                    "us_per_launch": us,
                    "ran_all": bool((x == total).all().item())})
    return {"cases": results}
