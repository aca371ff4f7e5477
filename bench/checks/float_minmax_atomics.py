"""tl.atomic_max / tl.atomic_min on f32 and f64 on the GPU's SIMT path (two
integer atomics split by the value's sign, MemoryPatterns.cpp) against
numpy: many programs and lanes hit few addresses, with values of both
signs, zeros of both signs and infinities.

    TPX_BUILD_DIR=.device PYTHONPATH=python python3 bench/checks/float_minmax_atomics.py
"""

import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))

import tpx  # noqa: E402
import tpx.language as tl  # noqa: E402


@tpx.jit
def minmax_kernel(x_ptr, max_ptr, min_ptr, n, SLOTS: tl.constexpr,
                  BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.atomic_max(max_ptr + offs % SLOTS, x, mask=mask)
    tl.atomic_min(min_ptr + offs % SLOTS, x, mask=mask)


def main():
    ok = True
    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64):
        n, slots = 100000, 13
        x = rng.standard_normal(n).astype(dtype) * 100
        x[::97] = -0.0
        x[::101] = 0.0
        x[5] = np.inf
        x[6] = -np.inf
        init_max = np.full(slots, -np.inf, dtype)
        init_max[0] = 1e30  # above every value: stays
        init_min = np.full(slots, np.inf, dtype)
        init_min[1] = -1e30
        xs = torch.tensor(x).cuda()
        mx, mn = torch.tensor(init_max).cuda(), torch.tensor(init_min).cuda()
        minmax_kernel[(tpx.cdiv(n, 1024),)](xs, mx, mn, n, SLOTS=slots,
                                               BLOCK=1024)
        want_max, want_min = init_max.copy(), init_min.copy()
        np.maximum.at(want_max, np.arange(n) % slots, x)
        np.minimum.at(want_min, np.arange(n) % slots, x)
        good = (np.array_equal(mx.cpu().numpy(), want_max) and
                np.array_equal(mn.cpu().numpy(), want_min))
        print(dtype.__name__, "max/min:", "PASS" if good else "FAIL")
        ok &= good
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
